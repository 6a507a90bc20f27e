"""Le Havre's refusal vocabulary: every code the engine can raise is in its tables."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine.lehavre.errors import ILLEGAL_CODES, MALFORMED_CODES, illegal, malformed

PACKAGE = Path(__file__).resolve().parents[3] / "engine" / "lehavre"


def test_every_literal_code_is_in_its_table() -> None:
    tables = {"illegal": ILLEGAL_CODES, "malformed": MALFORMED_CODES}
    seen = set()
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in tables
            ):
                code = node.args[0]
                if isinstance(code, ast.Constant):
                    assert code.value in tables[node.func.id], f"{path.name}:{node.lineno}"
                    seen.add(code.value)
    assert not MALFORMED_CODES & ILLEGAL_CODES
    assert len(seen) > 40


def test_an_unknown_code_is_a_bug_not_a_refusal() -> None:
    with pytest.raises(AssertionError):
        illegal("no_such_code")
    with pytest.raises(AssertionError):
        malformed("no_such_code")
