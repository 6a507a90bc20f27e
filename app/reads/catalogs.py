"""The catalogs this server plays, and the one each room is pinned to.

A catalog is one set of the game's numbers (`engine.catalogs`): the engine's built-in ones
(``provisional-1``, ``provisional-2``, ``provisional-3``) and every ``*.json`` file in the directory `CATALOG_DIR`
names, read and validated once when the server starts (`configure`). A room stores the id and
SHA-256 of the catalog it was created with (`rooms.catalog_id`, `rooms.catalog_sha256`) and is
always replayed with exactly those numbers, whatever the default for new rooms becomes. A room
whose numbers this server does not have is refused (`CatalogMissing`), never replayed with others.
"""

from __future__ import annotations

from pathlib import Path

from app.models import Room
from app.services.errors import CatalogMissing, UnknownCatalog
from engine import Catalog, games, sector_labels
from engine.catalogs import DEFAULT_ID, CatalogEntry, CatalogRegistry, load_registry
from engine.record import GameRecord

_registry: CatalogRegistry = load_registry()


def configure(directory: Path | None, default_id: str = DEFAULT_ID) -> CatalogRegistry:
    """Read the built-in catalogs and those of `directory`; a bad file raises ``ValueError``
    naming the file and the problem (the server does not start). New rooms get `default_id`.

    Besides the engine's checks, the table draws one wheel for every room: a catalog whose wheel
    has other sectors ("0", "2", "3", "4", "4+", "!") cannot be shown, so it is refused too.
    """
    global _registry
    found = load_registry(directory)
    drawn = sector_labels(found.get("provisional-1"))
    for entry in found.all():
        sectors = sector_labels(entry.catalog)
        if sectors != drawn:
            raise ValueError(
                f"{entry.path}: catalog: the table draws a wheel with the sectors "
                f"{', '.join(drawn)}; this catalog's wheel has {', '.join(sectors)}"
            )
    _registry = CatalogRegistry(found.all(), default_id)
    return _registry


def registry() -> CatalogRegistry:
    """The catalogs this server plays."""
    return _registry


def chosen(catalog_id: str | None) -> Catalog:
    """The catalog a host chose for a new room (None: the default); `UnknownCatalog` otherwise."""
    if catalog_id is None:
        return _registry.default()
    try:
        return _registry.get(catalog_id)
    except KeyError:
        raise UnknownCatalog(catalog_id) from None


def find(catalog_id: str, sha256: str) -> Catalog | None:
    """The catalog with this id and these very numbers, or None."""
    try:
        entry: CatalogEntry = _registry.entry(catalog_id)
    except KeyError:
        return None
    return entry.catalog if entry.hash == sha256 else None


def of_record(record: GameRecord) -> Catalog:
    """The catalog a game record names (it was read with `find`); `UnknownCatalog` otherwise."""
    catalog = find(record.catalog_name, record.catalog_sha256)
    if catalog is None:
        raise UnknownCatalog(record.catalog_name)
    return catalog


def of_room(room: Room) -> Catalog:
    """The catalog the room was created with; `CatalogMissing` when this server lacks it."""
    catalog = find(room.catalog_id, room.catalog_sha256)
    if catalog is None:
        raise CatalogMissing(room.id, room.catalog_id)
    return catalog


def of_game_room(room: Room) -> Catalog | None:
    """The Inland Port catalog of the room (`of_room`); None in another game's room, which is
    played with its engine's own numbers."""
    return of_room(room) if room.game == "inland_port" else None


def of_game_record(record: object) -> Catalog | None:
    """The Inland Port catalog a record names (`of_record`); None for another game's record."""
    return of_record(record) if isinstance(record, GameRecord) else None


def numbers_here(room: Room) -> bool:
    """Whether this server has the numbers `room` is pinned to: an Inland Port catalog it knows,
    or the very numbers of another game's engine."""
    if room.game != "inland_port":
        return (room.catalog_id, room.catalog_sha256) == games.game(room.game).numbers()
    return find(room.catalog_id, room.catalog_sha256) is not None


def pin(room: Room, catalog: Catalog) -> None:
    """Record on the new `room` the catalog it is played with."""
    room.catalog_id, room.catalog_sha256 = catalog.name, catalog.sha256
