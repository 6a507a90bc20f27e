"""bench/spy_buckets.py sums py-spy's samples by the first bucket on each stack."""

from __future__ import annotations

from bench.spy_buckets import buckets

LINES = [
    "run (uvicorn/main.py:1);run_asgi (h.py:2);post_move (app/routes/panel.py:3) 7",
    "_worker (thread.py:1);BoardPainter.__call__ (app/live/painters.py:4);_render (p.py:5) 5",
    "run (uvicorn/main.py:1);run_asgi (h.py:2);solve_dependencies (u.py:9) 2",
    "_worker (thread.py:1);something (x.py:1) 1",
    "WorkerThread.run (a.py:1);_submit (app/routes/panel.py:2);submit_move (m.py:3) 3",
    "",
    "a line that is not a sample",
]


def test_samples_go_to_the_first_bucket_on_their_stack() -> None:
    counts = buckets(LINES)
    # under run_asgi, but named first; the move's transaction in its worker thread too
    assert counts["the move (route, rules, transaction)"] == 10
    assert counts["drawing the boards"] == 5
    assert counts["HTTP: middleware, routing, dependencies"] == 2
    assert counts["other"] == 1
    assert counts["total"] == 18
