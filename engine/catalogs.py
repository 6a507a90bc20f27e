"""The catalogs the engine knows, each by its id and the SHA-256 of its content.

A catalog's id is its ``"name"``; its hash is the SHA-256 of its canonical JSON (sorted keys, no
spaces, UTF-8), so two files with the same numbers and words have the same hash however they are laid
out. The built-in catalogs ship inside ``engine/``:

- ``provisional-1`` — ``engine/catalog.json``, the numbers of every game played so far
  (:func:`~engine.catalog.default_catalog` still returns it, so old games replay identically);
- ``provisional-2`` — ``engine/catalog_files/provisional-2.json``, the same rules with four
  provisional numbers tuned for balance between bots of a shallow search (``docs/balance.md``);
- ``provisional-3`` — ``engine/catalog_files/provisional-3.json``, provisional-2 with more
  provisional costs tuned for balance at the strong bot's default budget: the default for new games.

A caller may add catalog files from a directory of its own (every ``*.json`` in it, sorted by name);
each is validated, and a bad one raises ``ValueError`` naming the file and the problem.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from .catalog import Catalog, catalog_from_data, content_hash, default_catalog
from .loader import check_buildings_known

_ENGINE_DIR = Path(__file__).parent

BUILT_IN_FILES: tuple[Path, ...] = (
    _ENGINE_DIR / "catalog.json",
    _ENGINE_DIR / "catalog_files" / "provisional-2.json",
    _ENGINE_DIR / "catalog_files" / "provisional-3.json",
)
"""The catalogs shipped with the engine, oldest first."""

_ID = re.compile(r"[a-z0-9_-]{1,64}")
"""A catalog's id (its name): what URLs, forms and pages may carry as it is."""

DEFAULT_ID = "provisional-3"
"""The catalog of new games."""


@dataclass(frozen=True, eq=False)
class CatalogEntry:
    """One known catalog: its id, content hash, validated numbers and the file it came from."""

    id: str
    hash: str
    catalog: Catalog
    path: Path
    data: Mapping[str, Any]
    """The parsed JSON, as hashed (for handing the same catalog to another process)."""


def read_catalog_file(path: str | Path) -> CatalogEntry:
    """Read and validate one catalog file; ``ValueError`` names the file and the problem."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ValueError(f"{path}: cannot read the catalog: {err}") from err
    return entry_from_data(data, path)


def entry_from_data(data: Any, path: Path) -> CatalogEntry:
    """Validate parsed catalog JSON; ``path`` is where it came from (named in errors)."""
    try:
        catalog = check_buildings_known(catalog_from_data(data))
    except ValueError as err:
        raise ValueError(f"{path}: {err}") from err
    name = data.get("name")
    if not isinstance(name, str) or not name.strip() or name != name.strip():
        raise ValueError(f"{path}: catalog: the name (the catalog's id) must be a non-empty text")
    if not _ID.fullmatch(name):
        # The id travels in URLs, forms and pages: plain characters only.
        raise ValueError(
            f"{path}: catalog: the name (the catalog's id) may hold only a-z, 0-9, _ and -"
        )
    return CatalogEntry(id=name, hash=content_hash(data), catalog=catalog, path=path, data=data)


class CatalogRegistry:
    """Several catalogs at once, by id; one of them the default for new games."""

    def __init__(self, entries: tuple[CatalogEntry, ...], default_id: str = DEFAULT_ID) -> None:
        by_id: dict[str, CatalogEntry] = {}
        for entry in entries:
            if entry.id in by_id:
                raise ValueError(
                    f"{entry.path}: catalog id {entry.id!r} is already taken by "
                    f"{by_id[entry.id].path}"
                )
            by_id[entry.id] = entry
        if default_id not in by_id:
            raise ValueError(f"the default catalog {default_id!r} is not among the catalogs")
        self._by_id = by_id
        self.default_id = default_id

    def all(self) -> tuple[CatalogEntry, ...]:
        """Every catalog: the built-in ones first, then the added files in name order."""
        return tuple(self._by_id.values())

    def entry(self, catalog_id: str) -> CatalogEntry:
        try:
            return self._by_id[catalog_id]
        except KeyError:
            known = ", ".join(self._by_id)
            raise KeyError(f"unknown catalog {catalog_id!r} (known: {known})") from None

    def get(self, catalog_id: str) -> Catalog:
        """The catalog with this id; ``KeyError`` for an unknown id."""
        return self.entry(catalog_id).catalog

    def hash(self, catalog_id: str) -> str:
        """The SHA-256 of the catalog's canonical JSON."""
        return self.entry(catalog_id).hash

    def default(self) -> Catalog:
        """The catalog of new games."""
        return self.get(self.default_id)


@cache
def _built_in() -> tuple[CatalogEntry, ...]:
    entries = [read_catalog_file(path) for path in BUILT_IN_FILES]
    # Catalogs compare by identity: provisional-1 is the very object games have always used.
    first = entries[0]
    entries[0] = CatalogEntry(first.id, first.hash, default_catalog(), first.path, first.data)
    return tuple(entries)


def load_registry(directory: str | Path | None = None) -> CatalogRegistry:
    """The built-in catalogs plus every ``*.json`` in ``directory`` (when given), validated."""
    entries = list(_built_in())
    if directory is not None:
        folder = Path(directory)
        if not folder.is_dir():
            raise ValueError(f"{folder}: not a directory of catalog files")
        entries.extend(read_catalog_file(path) for path in sorted(folder.glob("*.json")))
    return CatalogRegistry(tuple(entries))


def built_in_registry() -> CatalogRegistry:
    """The built-in catalogs only."""
    return load_registry()
