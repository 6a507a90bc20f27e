"""The Jinja environments, one per language, and the drawings the templates memoise.

Each environment has its gettext catalogue installed (the ``i18n`` extension, new-style ``_()``
calls, answers remembered) and `Words` of that language as ``words``; a render never switches a
shared environment's language, so renders for viewers in different languages can run side by side
in worker threads. ``drawn(name, ...)`` and ``warehouse_cells(wh)`` draw a ``macros.html`` piece
once per distinct arguments and language.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import jinja2
import jinja2.runtime
from markupsafe import Markup
from starlette.templating import Jinja2Templates

from app.i18n import DEFAULT_LANGUAGE, LANGUAGES, html_lang, translations
from engine.catalog import Warehouse

from .catalogs import catalog_choices, catalog_label
from .tile_text import text_runs
from .words import words_for

TEMPLATE_DIR = Path(__file__).resolve().parents[2] / "templates"
_JS_DIR = TEMPLATE_DIR.parent / "static" / "js"
_IMPORT = re.compile(r"""^import\b[^"';]*["']\./([\w-]+\.js)["']""", re.MULTILINE)

GETTEXT_CACHE_SIZE = 8192


def _environment(code: str) -> jinja2.Environment:
    """The Jinja environment that renders pages in one language. The templates are read once:
    they do not change while the server runs, so no template asks the disk whether it changed
    (Jinja's ``auto_reload`` checks the file's time on every ``get_template``), and all of them
    stay loaded in a plain dictionary (Jinja's default, a 400-entry LRU, moves the template to
    the front at every ``include`` and ``import``, a linear search in its queue)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATE_DIR),
        auto_reload=False,
        cache_size=-1,
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
        extensions=["jinja2.ext.i18n"],
    )
    env.policies["ext.i18n.trimmed"] = True
    env.install_gettext_translations(translations(code), newstyle=True)  # type: ignore[attr-defined]
    for name in ("gettext", "ngettext", "pgettext", "npgettext"):
        installed: Callable[..., Any] = env.globals[name]  # type: ignore[assignment]
        env.globals[name] = _remembered(installed)
    # ``_()`` straight to the remembered gettext: the i18n extension's own ``_`` looks up
    # ``gettext`` in the template's context and calls it, a second call per message.
    env.globals["_"] = env.globals["gettext"]
    words = words_for(code)
    env.globals["words"] = words
    env.globals["lang"] = code
    env.globals["html_lang"] = html_lang(code)
    env.globals["languages"] = LANGUAGES
    env.globals["static"] = lambda path: f"/static/{path}"
    env.globals["module_script"] = module_script
    env.globals["client_move_id"] = lambda: secrets.token_hex(12)
    env.filters["num"] = words.number
    env.globals["warehouse_cells"] = lambda wh: warehouse_cells(code, wh)
    env.globals["drawn"] = lambda macro, *args: drawn(code, macro, args)
    env.globals["catalog_choices"] = lambda: catalog_choices(code)
    env.globals["catalog_label"] = lambda catalog_id: catalog_label(catalog_id, code)
    env.globals["text_runs"] = text_runs
    return env


@cache
def imported_modules(entry: str) -> tuple[str, ...]:
    """The static URLs of every module that the module ``entry`` (under static/js, "room.js")
    imports, directly or not. A page names them in ``<link rel="modulepreload">`` so that the
    browser asks for them all at once, instead of finding each import only when its importer
    has arrived (a round trip per level of the graph)."""
    found: list[str] = []
    waiting = [entry]
    while waiting:
        for name in _IMPORT.findall((_JS_DIR / waiting.pop()).read_text(encoding="utf-8")):
            if name not in found and name != entry:
                found.append(name)
                waiting.append(name)
    return tuple(f"/static/js/{name}" for name in sorted(found))


@cache
def module_script(entry: str) -> Markup:
    """The page's ``<script type="module">`` for static/js/``entry``, after a modulepreload link
    for each module it imports (bench/module_preload.py measures what that is worth)."""
    links = "".join(f'<link rel="modulepreload" href="{url}">\n' for url in imported_modules(entry))
    return Markup(f'{links}<script type="module" src="/static/js/{entry}"></script>')


def _remembered(gettext: Callable[..., Any]) -> Callable[..., Any]:
    """A template gettext call that remembers its answers (a board makes ~30 such calls, most of
    them with the same message and values every time). Autoescaping is always on in these
    environments, so an answer depends only on the message and the values."""
    answers: dict[tuple[Any, ...], Any] = {}

    @jinja2.pass_context
    def remembered(context: jinja2.runtime.Context, *args: Any, **values: Any) -> Any:
        # The value's type is part of the key: Markup("<b>") equals "<b>" but is not escaped.
        key = (args, tuple((name, type(v), v) for name, v in sorted(values.items())))
        try:
            return answers[key]
        except KeyError:
            pass
        except TypeError:  # a value that cannot be a key: just translate
            return context.call(gettext, *args, **values)
        answer = context.call(gettext, *args, **values)
        if len(answers) >= GETTEXT_CACHE_SIZE:
            answers.clear()
        answers[key] = answer
        return answer

    return remembered


_ENVIRONMENTS = {code: _environment(code) for code in LANGUAGES}
_TEMPLATES = {code: Jinja2Templates(env=env) for code, env in _ENVIRONMENTS.items()}


def environment_for(lang: str) -> jinja2.Environment:
    """The environment of one of our languages (English for an unknown code)."""
    return _ENVIRONMENTS.get(lang, _ENVIRONMENTS[DEFAULT_LANGUAGE])


def templates_for(lang: str) -> Jinja2Templates:
    """`TemplateResponse` in one of our languages (English for an unknown code)."""
    return _TEMPLATES.get(lang, _TEMPLATES[DEFAULT_LANGUAGE])


def script_json(text: str) -> Markup:
    """JSON text made safe inside a `<script>` element: `<`, `>` and `&` written as JSON escapes,
    so no value can close the element; it parses back to the same value."""
    escaped = text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
    return Markup(escaped)


@cache
def macros(lang: str) -> Any:
    """The macros of ``macros.html`` in one language, callable from Python."""
    return environment_for(lang).get_template("macros.html").module


@lru_cache(maxsize=64)
def warehouse_cells(lang: str, warehouse: Warehouse) -> Markup:
    """The printed cells of the warehouse with their values (they never move)."""
    return macros(lang).warehouse_cell_layer(warehouse)  # type: ignore[no-any-return]


DRAWN_MACROS = frozenset(
    {
        "wheel_disc",
        "wheel_face",
        "table_legend",
        "warehouse_grid",
        "warehouse_back",
        "warehouse_counters",
        "goods_counts",
        "coin",
        "round_track",
    }
)
"""The ``macros.html`` pieces the board draws through ``drawn(name, ...)``: pure functions of
their (hashable) arguments and the language, so each distinct drawing is made once."""


@lru_cache(maxsize=16384)
def drawn(lang: str, macro: str, args: tuple[Any, ...]) -> Markup:
    if macro not in DRAWN_MACROS:
        raise ValueError(f"{macro!r} is not one of the board's memoised drawings")
    return getattr(macros(lang), macro)(*args)  # type: ignore[no-any-return]


def compile_all() -> None:
    """Compile every template in every language ahead, with the macros the board calls from
    Python: without it, each language's first room page after a start compiles its templates,
    most of the ~140-210 ms such a page took against ~10 ms asked again (bench/first_pages.py).
    ~0.3 s of CPU per language."""
    for code, env in _ENVIRONMENTS.items():
        for name in env.list_templates(extensions=["html"]):
            env.get_template(name)
        macros(code)
