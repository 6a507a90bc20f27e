"""The catalog registry: built-in catalogs by id and content hash, extra files, validation."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from engine import Catalog, default_catalog, legal_moves, new_game
from engine.catalogs import (
    BUILT_IN_FILES,
    DEFAULT_ID,
    content_hash,
    load_registry,
    read_catalog_file,
)
from engine.record import GameRecord, RecordError, read_record, record_json

PROVISIONAL_1_SHA256 = "9493fd45a591aaf5841a28a13e12497628180d0e366b3f65dac96af97b801456"


def provisional_1_data() -> dict[str, object]:
    data: dict[str, object] = json.loads(BUILT_IN_FILES[0].read_text(encoding="utf-8"))
    return data


def test_the_built_in_catalogs_and_the_default_for_new_games() -> None:
    registry = load_registry()
    ids = ["provisional-1", "provisional-2", "provisional-3"]
    assert [entry.id for entry in registry.all()] == ids
    assert registry.default_id == DEFAULT_ID == "provisional-3"
    assert registry.default() is registry.get("provisional-3")
    assert registry.get("provisional-1") is default_catalog()
    assert new_game().catalog is registry.get("provisional-1")


def test_the_hash_is_the_sha256_of_the_canonical_json() -> None:
    data = provisional_1_data()
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    expected = hashlib.sha256(text.encode("utf-8")).hexdigest()
    assert content_hash(data) == expected
    assert load_registry().hash("provisional-1") == expected


def test_provisional_1_keeps_its_numbers() -> None:
    """Old games replay with these numbers: the file's content must never change."""
    assert load_registry().hash("provisional-1") == PROVISIONAL_1_SHA256


def test_the_hash_ignores_layout(tmp_path: Path) -> None:
    data = provisional_1_data()
    data["name"] = "spread-out"
    path = tmp_path / "spread-out.json"
    path.write_text(json.dumps(data, indent=4), encoding="utf-8")
    assert read_catalog_file(path).hash == content_hash(data)


def provisional_parts(status: str) -> set[str]:
    """Which of a building's numbers its status marks provisional: "cost", "value" (a rate too)."""
    if status == "provisional":
        return {"cost", "value"}
    parts = (part.partition(" ") for part in status.split(", "))
    return {"value" if what == "rate" else what for what, _, how in parts if how == "provisional"}


@pytest.mark.parametrize("later", [1, 2])
def test_a_tuned_catalog_changes_only_provisional_numbers(later: int) -> None:
    """provisional-2 and -3 differ from provisional-1 only where its status says "provisional",
    and each number changed since the catalog before says so ("provisional-N, balance")."""
    entries = load_registry().all()
    first, before, after = entries[0].data, entries[later - 1].data, entries[later].data
    for key in ("warehouse", "start_francs", "rounds", "rounds_status", "wheel"):
        assert first[key] == after[key]
    changed = 0
    for original, old, new in zip(
        first["buildings"], before["buildings"], after["buildings"], strict=True
    ):
        assert (original["id"], original["letter"], original["name"]) == (
            new["id"],
            new["letter"],
            new["name"],
        )
        moved = {part for part in ("cost", "value") if original[part] != new[part]}
        assert moved <= provisional_parts(original["status"]), new["id"]
        if any(old[part] != new[part] for part in ("cost", "value")):
            changed += 1
            assert f"{after['name']}, balance" in new["status"], new["id"]
        else:
            assert new["status"] == old["status"], new["id"]
    assert changed > 0


def test_extra_catalogs_from_a_directory(tmp_path: Path) -> None:
    data = provisional_1_data()
    data["name"] = "house-rules"
    (tmp_path / "house.json").write_text(json.dumps(data), encoding="utf-8")
    registry = load_registry(tmp_path)
    assert [entry.id for entry in registry.all()][-1] == "house-rules"
    assert registry.get("house-rules").building("farmland").cost_of("francs") == 1
    assert registry.get("house-rules") is not registry.get("provisional-1")
    assert registry.hash("house-rules") != registry.hash("provisional-1")
    assert load_registry().default_id == registry.default_id


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda d: d.pop("start_francs"), "missing or malformed entry 'start_francs'"),
        (lambda d: d["buildings"][0].update(value=-4), "value of wood_company must be a whole"),
        (lambda d: d.update(name=""), "the name (the catalog's id) must be a non-empty text"),
        (lambda d: d.update(name="</script>"), "the catalog's id) may hold only a-z, 0-9, _ and -"),
        (
            lambda d: d.update(name="House Rules"),
            "the catalog's id) may hold only a-z, 0-9, _ and -",
        ),
    ],
)
def test_a_bad_catalog_file_is_named_with_its_problem(
    tmp_path: Path, change: object, problem: str
) -> None:
    data = provisional_1_data()
    data["name"] = "broken"
    change(data)  # type: ignore[operator]
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError) as caught:
        load_registry(tmp_path)
    assert str(caught.value).startswith(f"{path}: ")
    assert problem in str(caught.value)


def test_unreadable_and_duplicate_files_are_named(tmp_path: Path) -> None:
    bad = tmp_path / "a.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match=rf"^{bad}: cannot read the catalog"):
        load_registry(tmp_path)
    bad.unlink()
    (tmp_path / "b.json").write_text(json.dumps(provisional_1_data()), encoding="utf-8")
    with pytest.raises(ValueError, match="catalog id 'provisional-1' is already taken"):
        load_registry(tmp_path)
    with pytest.raises(ValueError, match="not a directory"):
        load_registry(tmp_path / "missing")


def test_an_unknown_id_names_the_known_ones() -> None:
    known = re.escape("unknown catalog 'nope' (known: provisional-1, provisional-2, provisional-3)")
    with pytest.raises(KeyError, match=known):
        load_registry().get("nope")


def test_each_catalog_knows_its_own_hash_and_a_record_names_it() -> None:
    registry = load_registry()
    fair = registry.entry(DEFAULT_ID)
    assert fair.catalog.sha256 == fair.hash != registry.hash("provisional-1")
    assert default_catalog().sha256 == PROVISIONAL_1_SHA256
    state = new_game(fair.catalog)
    moves = [legal_moves(state)[0]]
    record = GameRecord.of(moves, catalog=fair.catalog)
    assert (record.catalog_name, record.catalog_sha256) == (DEFAULT_ID, fair.hash)


def test_a_record_is_read_with_the_catalog_a_finder_knows_by_name_and_digest() -> None:
    registry = load_registry()
    fair = registry.entry(DEFAULT_ID)
    first = legal_moves(new_game(fair.catalog))[0]
    text = record_json(GameRecord.of([first], catalog=fair.catalog), fair.catalog)

    def finder(name: str, digest: str) -> Catalog | None:
        known = {(e.id, e.hash): e.catalog for e in registry.all()}
        return known.get((name, digest))

    assert read_record(text, finder).moves == (first,)
    with pytest.raises(RecordError) as refused:
        read_record(text, lambda name, digest: None)
    assert refused.value.code == "catalog"
    with pytest.raises(RecordError) as refused:
        read_record(text)  # the bundled catalog is provisional-1
    assert refused.value.code == "catalog"
