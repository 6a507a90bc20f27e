"""The static files hold together: the stylesheets take every colour and breakpoint from
static/css/tokens.css, the templates link only files that exist, every stylesheet and script is
used, the scripts' ES modules import only files that exist, and a page preloads every module its
script imports."""

from __future__ import annotations

import re
from pathlib import Path

from app.ui.templates import module_script

ROOT = Path(__file__).resolve().parents[1]
CSS = ROOT / "static" / "css"
JS = ROOT / "static" / "js"
TOKENS = CSS / "tokens.css"

COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}\b|\b(?:rgba?|hsla?)\(")
LINKED = re.compile(r"""static\('((?:css|js)/[^']+)'\)""")
MODULE_SCRIPT = re.compile(r"""module_script\("([^"]+)"\)""")
IMPORTED = re.compile(r"""^import .* from "\./([^"]+)";$""", re.MULTILINE)


def stylesheets() -> list[Path]:
    return sorted(path for path in CSS.glob("*.css") if path != TOKENS)


def defined(text: str) -> set[str]:
    return set(re.findall(r"(--[\w-]+):", text))


def linked() -> set[str]:
    found: set[str] = set()
    for template in (ROOT / "templates").rglob("*.html"):
        text = template.read_text()
        found |= set(LINKED.findall(text))
        found |= {f"js/{entry}" for entry in MODULE_SCRIPT.findall(text)}
    return found


def test_every_colour_is_a_token() -> None:
    for path in stylesheets():
        text = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.DOTALL)
        assert not COLOUR.findall(text), f"{path.name}: a colour that is not var(--...)"


def test_every_token_used_is_defined() -> None:
    tokens = defined(TOKENS.read_text())
    for path in stylesheets():
        text = path.read_text()
        unknown = set(re.findall(r"var\((--[\w-]+)", text)) - tokens - defined(text)
        assert not unknown, f"{path.name}: {sorted(unknown)}"


def test_media_queries_use_the_breakpoints_the_scripts_read() -> None:
    breakpoints = dict(re.findall(r"--bp-([\w-]+):\s*(\d+px);", TOKENS.read_text()))
    assert set(breakpoints) == {"phone", "narrow", "medium"}
    widths = set()
    for path in stylesheets():
        widths |= set(re.findall(r"@media \(max-width: (\d+px)\)", path.read_text()))
    assert widths == set(breakpoints.values())
    for path in JS.glob("*.js"):
        assert not re.search(r"\d+px", path.read_text()), f"{path.name} writes a width"
        for name in re.findall(r"""atMost\("([\w-]+)"\)""", path.read_text()):
            assert name in breakpoints, f"{path.name}: no breakpoint {name}"


def test_templates_link_what_exists_and_every_file_is_used() -> None:
    links = linked()
    for link in links:
        assert (ROOT / "static" / link).is_file(), link
    imports = {name for path in JS.glob("*.js") for name in IMPORTED.findall(path.read_text())}
    for name in imports:
        assert (JS / name).is_file(), name
    used = {f"css/{path.name}" for path in CSS.glob("*.css")}
    assert used <= links
    apidocs = (ROOT / "app" / "routes" / "apidocs.py").read_text()
    for path in JS.glob("*.js"):
        assert f"js/{path.name}" in links or path.name in imports or path.name in apidocs, path


def test_modules_are_loaded_as_modules() -> None:
    """A file with `import` or `export` runs only as `<script type="module">`."""
    for template in (ROOT / "templates").rglob("*.html"):
        for tag in re.findall(r"<script[^>]*static\('js/[^']+'\)[^>]*>", template.read_text()):
            name = LINKED.findall(tag)[0]
            text = (ROOT / "static" / name).read_text()
            if re.search(r"^(?:import|export) ", text, re.MULTILINE):
                assert 'type="module"' in tag, f"{template.name}: {tag}"


def test_a_page_preloads_every_module_its_script_imports() -> None:
    for entry in ("room.js", "review.js"):
        closure: set[str] = set()
        waiting = [entry]
        while waiting:
            for name in IMPORTED.findall((JS / waiting.pop()).read_text()):
                if name not in closure:
                    closure.add(name)
                    waiting.append(name)
        tags = str(module_script(entry))
        assert (
            set(re.findall(r'<link rel="modulepreload" href="/static/js/([^"]+)">', tags))
            == closure
        )
        assert tags.endswith(f'<script type="module" src="/static/js/{entry}"></script>')
