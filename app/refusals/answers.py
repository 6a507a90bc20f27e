"""Refusals at the edge: every error code -> its HTTP status and its sentence in the viewer's language.

The engine refuses a move with a code and JSON params (``IllegalMove`` / ``MalformedMove``, listed
in docs/engine-api.md); the services refuse a request with a code of their own (``SERVICE`` in `app.refusals.table`,
raised as a `ServiceError`); a game record is refused with one of ``engine.record.CODES``.
``REFUSALS`` there holds them all, one entry per code, and its status is the same for the JSON API
and the pages (whose htmx config swaps 403, 409 and 422 into the panel). :func:`sentence` puts a
refusal into words in one of our languages, with building names from the catalog and amounts the
local way ("2 jíly"); :func:`problem` is the JSON API's answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi.responses import JSONResponse

from app.reads import catalogs
from app.refusals import lehavre
from app.refusals.table import REFUSALS
from app.services.errors import ServiceError
from app.ui.words import AMOUNT_ORDER, GOODS, words_for
from engine import Catalog
from engine.record import RecordError


def status(code: str) -> int:
    """The HTTP status of a refusal (``KeyError`` for an unknown code)."""
    return REFUSALS[code].status


def refusal_status(error: ServiceError) -> int:
    """The HTTP status of a service's refusal, in the table of the game that refused it."""
    return lehavre.status(error.code) if error.game == "lehavre" else status(error.code)


def refusal_sentence(error: ServiceError, lang: str, catalog: Catalog | None = None) -> str:
    """A service's refusal in the language `lang`, in the words of the game that refused it."""
    if error.game == "lehavre":
        return lehavre.sentence(error.code, error.params, lang)
    return sentence(error.code, error.params, lang, catalog)


def sentence(
    code: str, params: Mapping[str, Any], lang: str, catalog: Catalog | None = None
) -> str:
    """A refusal in the language ``lang`` ("en", "cs", "pt_BR"): "Stavebniny stojí 1 dřevo a 2 jíly; …"."""
    t = words_for(lang).lang
    text = REFUSALS[code].text
    shown = _values(lang, params, catalog or catalogs.registry().default())
    return t.gettext(text, **shown) if isinstance(text, str) else text(t, shown, params)


def detail(error: ServiceError) -> str:
    """The English sentence of a refusal in a JSON answer: for a move the engine refused, the
    engine's own (docs/engine-api.md); else the table's."""
    return error.reason or refusal_sentence(error, "en")


def problem(error: ServiceError, **extra: Any) -> JSONResponse:
    """The JSON API's answer to a refusal, with its status:
    ``{"detail": English sentence, "code": ..., "params": {...}, **extra}``."""
    body = {"detail": detail(error), "code": error.code, "params": error.params, **extra}
    code = refusal_status(error)
    # A missing credential is 401, which names the scheme that would do (RFC 9110 §11.6.1).
    headers = {"WWW-Authenticate": "Bearer"} if code == 401 else None
    return JSONResponse(body, status_code=code, headers=headers)


def record_sentence(code: str, line: int, lang: str) -> str:
    """Why a game record was refused, with the line it was refused on ("Line 3: …"; 0: none)."""
    reason = sentence(code, {}, lang)
    if line:
        return words_for(lang).lang.gettext("Line %(line)s: %(reason)s", line=line, reason=reason)
    return reason


def record_refusal(error: RecordError, lang: str) -> str:
    """Why a game record was refused (`record_sentence`), with the game's own words for the setup
    or move it refused when it names one (Le Havre's, `engine.lehavre.record`)."""
    said = record_sentence(error.code, error.line, lang)
    refusal: tuple[str, dict[str, Any]] | None = getattr(error, "refusal", None)
    if refusal is None:
        return said
    return f"{said} {lehavre.sentence(refusal[0], refusal[1], lang)}"


def _values(lang: str, params: Mapping[str, Any], catalog: Catalog) -> dict[str, str]:
    """The params put into words: names, goods and amounts in the language, numbers the local way."""
    words = words_for(lang)
    t = words.lang
    shown: dict[str, str] = {}
    good = params.get("good")
    food_or_good = good if good in GOODS else "food"
    for key, value in params.items():
        if key == "building":
            known = isinstance(value, str) and value in catalog.by_id
            shown[key] = catalog.building(value).name_in(lang) if known else repr(value)
        elif key in ("cost", "have"):
            amounts = [words.amount(g, value[g]) for g in AMOUNT_ORDER if g in value]
            shown[key] = t.join(amounts)
            if key == "cost" and "food" in value:
                shown[key] = t.gettext("%(amount)s (fish or grain)", amount=shown[key])
        elif key in ("fee", "francs"):
            shown[key] = words.francs(value)
        elif key in ("paid", "needed", "cover"):
            shown[key] = words.amount(food_or_good if key != "cover" else "food", value)
        elif key == "n":  # named apart from ``Language.ngettext``'s own ``n``
            shown["multiplier"] = t.number(value)
        elif key == "good":
            shown[key] = words.good_name(value) if value in GOODS else str(value)
        elif isinstance(value, bool) or (key == "given" and not isinstance(value, int)):
            shown[key] = repr(value)
        elif isinstance(value, int):
            shown[key] = t.number(value)
        else:
            shown[key] = str(value)
    return shown
