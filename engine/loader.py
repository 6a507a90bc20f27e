"""Loading a catalog the rules can play: its data validated, and every building one the rules know.

:mod:`engine.catalog` reads and validates the numbers on their own; the buildings' functions live in
:mod:`engine.effects`, which sits above the catalog. This module, above both, ties them together.
"""

from __future__ import annotations

from pathlib import Path

from .catalog import Catalog, read_catalog
from .effects import EFFECTS, LOCKED


def load_catalog(path: str | Path) -> Catalog:
    """Read and validate a catalog file. Raises ``ValueError`` naming what is wrong."""
    return check_buildings_known(read_catalog(path))


def check_buildings_known(catalog: Catalog) -> Catalog:
    """``catalog`` itself when the rules know each of its buildings; ``ValueError`` otherwise."""
    unknown = [b.id for b in catalog.buildings if b.id not in EFFECTS and b.id not in LOCKED]
    if unknown:
        raise ValueError(f"catalog: the rules know no building {unknown[0]!r}")
    return catalog
