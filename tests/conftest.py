"""Settings for every test: the servers the tests start (in process and as child processes, which
inherit the environment) do not warm the computer's bot processes at start. Most of them play no
computer game, and each warm-up starts bot processes. The tests of the warm-up turn it on."""

from __future__ import annotations

import os

os.environ.setdefault("COMPUTER_WARM_UP", "false")
