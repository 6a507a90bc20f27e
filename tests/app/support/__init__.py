"""What the server tests share: rooms driven through the JSON API (`rooms`), boards read off
the sockets (`boards`), server processes (`processes`), coroutines run from a test
(`coroutines`), the fuzzers' inputs (`fuzz`) and a DOM to apply board patches to (`dom_patch`)."""
