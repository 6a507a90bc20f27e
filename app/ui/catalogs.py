"""The catalogs as a host chooses among them (the home page) and a table names its own."""

from __future__ import annotations

from dataclasses import dataclass

from app.reads import catalogs
from app.refusals.table import N_
from app.ui.words import words_for

ABOUT: dict[str, str] = {
    "provisional-1": N_("provisional numbers of the first games"),
    "provisional-2": N_("provisional numbers of an earlier balance"),
    "provisional-3": N_("provisional numbers, balanced between the seats"),
}
"""What each built-in catalog is, in a few words; an installed catalog is named by its id."""


@dataclass(frozen=True)
class CatalogChoice:
    id: str
    label: str
    default: bool


def catalog_label(catalog_id: str, lang: str) -> str:
    """ "provisional-3 (provisional numbers, balanced between the seats)", or the id alone."""
    about = ABOUT.get(catalog_id)
    if about is None:
        return catalog_id
    return f"{catalog_id} ({words_for(lang).lang.gettext(about)})"


def catalog_choices(lang: str) -> list[CatalogChoice]:
    """Every catalog this server plays, the default for new rooms first."""
    registry = catalogs.registry()
    ids = [registry.default_id] + [e.id for e in registry.all() if e.id != registry.default_id]
    return [CatalogChoice(i, catalog_label(i, lang), i == registry.default_id) for i in ids]
