"""Languages: the message catalogues, each viewer's language, and numbers written the local way.

The texts live in gettext catalogues, ``app/locales/<code>/LC_MESSAGES/messages.po``. They are
compiled in memory when the server starts (`app.ui.templates` builds one template environment per
language at import): there are no ``.mo`` files and no extra command, and a changed ``.po`` file
takes effect on the next start.

A viewer's language is, in this order: the ``lang`` cookie (set by the language switcher on every
page), else the best match of the browser's ``Accept-Language`` among ours, else English. The
choice belongs to the viewer, not to the room: two players at one table may read different
languages, and each WebSocket renders its own viewer's board in that viewer's language.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import Translations
from starlette.requests import HTTPConnection

LOCALE_DIR = Path(__file__).resolve().parent / "locales"
DOMAIN = "messages"

LANGUAGES: dict[str, str] = {"en": "English", "cs": "Čeština", "pt_BR": "Português (Brasil)"}
"""Our languages: locale code -> the language's own name (as the switcher shows it)."""

DEFAULT_LANGUAGE = "en"
COOKIE = "lang"
COOKIE_MAX_AGE = 365 * 24 * 3600


def po_path(code: str) -> Path:
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(code: str) -> Translations:
    """The compiled catalogue of one of our languages (``KeyError`` for any other code)."""
    if code not in LANGUAGES:
        raise KeyError(f"no such language: {code!r}")
    with po_path(code).open("rb") as po_file:
        catalog = read_po(po_file, locale=code, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(compiled, domain=DOMAIN)


def html_lang(code: str) -> str:
    """The ``lang`` attribute for a locale code: ``pt_BR`` -> ``pt-BR``."""
    return code.replace("_", "-")


def _accepted(header: str) -> list[str]:
    """The language tags of an ``Accept-Language`` header, most wanted first (q=0 left out)."""
    ranked: list[tuple[float, int, str]] = []
    for position, item in enumerate(header.split(",")):
        tag, _, params = item.strip().partition(";")
        tag = tag.strip()
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if tag and quality > 0:
            ranked.append((-quality, position, tag))
    return [tag for _, _, tag in sorted(ranked)]


def negotiate(header: str | None) -> str:
    """Our language that best fits an ``Accept-Language`` header; English when none does.

    An exact tag wins (``pt-BR``); otherwise the primary language does (``cs-CZ`` -> ``cs``,
    ``pt-PT`` -> ``pt_BR``).
    """
    for tag in _accepted(header or ""):
        wanted = tag.replace("-", "_").lower()
        for code in LANGUAGES:
            if code.lower() == wanted:
                return code
        primary = wanted.split("_")[0]
        for code in LANGUAGES:
            if code.lower().split("_")[0] == primary:
                return code
    return DEFAULT_LANGUAGE


def language_of(connection: HTTPConnection) -> str:
    """The language of the person behind a request or a WebSocket: cookie, then browser."""
    chosen = connection.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return negotiate(connection.headers.get("accept-language"))


@dataclass(frozen=True, eq=False)
class Language:
    """One language's gettext calls, with ``%(name)s`` values filled in and numbers localised."""

    code: str
    translations: Translations

    def number(self, n: int | float) -> str:
        """A number the local way: 1,234 in English, 1 234 in Czech, 1.234 in Portuguese."""
        return _format_number(n, self.code)

    def join(self, items: list[str]) -> str:
        """'a, b and c' in this language ('a, b a c' in Czech)."""
        return format_list(items, locale=self.code) if items else ""

    def gettext(self, message: str, **values: Any) -> str:
        text = self.translations.gettext(message)
        return text % values if values else text

    def pgettext(self, context: str, message: str, **values: Any) -> str:
        text = str(self.translations.pgettext(context, message))
        return text % values if values else text

    def ngettext(self, singular: str, plural: str, n: int, **values: Any) -> str:
        """The plural form for ``n``; ``%(num)s`` in the message is ``n``, localised."""
        text = self.translations.ngettext(singular, plural, n)
        return text % {"num": self.number(n), **values}


@lru_cache(maxsize=4096)
def _format_number(n: int | float, code: str) -> str:
    """Babel's formatting is slow and a board shows hundreds of small numbers: remember them."""
    return format_decimal(n, locale=code)


@cache
def language(code: str) -> Language:
    return Language(code, translations(code))


def load_locale_data() -> None:
    """Read every language's locale data ahead: Babel reads a locale's file the first time a
    number or a list is written in it (~5-11 ms each)."""
    for code in LANGUAGES:
        language(code).number(1.5)
        language(code).join(["a", "b"])
