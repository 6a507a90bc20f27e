"""The house's shape: app/'s root holds only the wiring; no module in app/ or engine/ over 400
lines, no class over 150."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("app", "engine")
MAX_MODULE_LINES = 400
MAX_CLASS_LINES = 150
# What may stand at app/'s root: the app's wiring. Everything else lives in a package named for its role.
WIRING = {"__init__", "__main__", "main", "settings", "db", "models", "migrate", "deps", "i18n"}


def modules() -> list[Path]:
    found = [path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))]
    assert len(found) > 40, "too few modules found: is the layout test looking in the right place?"
    return found


def test_no_module_is_over_400_lines() -> None:
    long = {
        str(path.relative_to(ROOT)): lines
        for path in modules()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


def test_no_class_is_over_150_lines() -> None:
    long = {}
    for path in modules():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                lines = (node.end_lineno or node.lineno) - start + 1
                if lines > MAX_CLASS_LINES:
                    long[f"{path.relative_to(ROOT)}:{node.name}"] = lines
    assert long == {}


def test_app_s_root_holds_only_the_wiring() -> None:
    at_root = {path.stem for path in (ROOT / "app").glob("*.py")}
    assert at_root - WIRING == set()
