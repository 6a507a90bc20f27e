"""Languages: complete catalogues, Czech plurals and numbers, the viewer's choice, per-viewer boards."""

from __future__ import annotations

import json
import random
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient
from support.boards import view_of

import engine
from app.i18n import COOKIE, LANGUAGES, LOCALE_DIR, negotiate, po_path
from app.main import create_app
from app.reads.roomview import LogEntry
from app.settings import Settings
from app.ui.board import actions_left_text, render_board
from app.ui.log import describe_event
from app.ui.supply import shortfall
from app.ui.templates import TEMPLATE_DIR
from app.ui.words import words_for
from engine.catalog import catalog_from_data

ROOT = Path(__file__).resolve().parents[2]
COMPLETE = ("en", "cs", "pt_BR")
"""Languages whose catalogue must translate every text (English and Czech are required)."""
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def extracted() -> dict[tuple[str | None, str | tuple[str, str]], str]:
    """Every text of the code and templates, as `pybabel extract` finds it (id -> where)."""
    with (LOCALE_DIR / "babel.cfg").open() as mapping:
        method_map, options_map = parse_mapping_cfg(mapping)
    found: dict[tuple[str | None, str | tuple[str, str]], str] = {}
    for filename, lineno, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, options_map
    ):
        key = (context, message if isinstance(message, str) else (message[0], message[1]))
        found.setdefault(key, f"{filename}:{lineno}")
    return found


def build_hardware_store(state: engine.GameState) -> engine.Move:
    return next(m for m in engine.legal_moves(state) if m.building == "hardware_store")


@pytest.fixture(scope="module")
def texts() -> dict[tuple[str | None, str | tuple[str, str]], str]:
    found = extracted()
    assert len(found) > 200, "the extraction found too few texts: is babel.cfg right?"
    return found


@pytest.mark.parametrize("code", COMPLETE)
def test_every_text_is_translated(
    code: str, texts: dict[tuple[str | None, str | tuple[str, str]], str]
) -> None:
    with po_path(code).open("rb") as po_file:
        catalog = read_po(po_file, locale=code)
    problems = []
    for (context, message_id), where in sorted(texts.items(), key=lambda kv: kv[1]):
        entry = catalog.get(message_id, context=context)
        if entry is None:
            problems.append(f"{where}: not in {code}: {message_id!r}")
            continue
        forms = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if (
            entry.fuzzy
            or not all(forms)
            or len(forms) != (catalog.num_plurals if isinstance(message_id, tuple) else 1)
        ):
            problems.append(f"{where}: untranslated in {code}: {message_id!r}")
            continue
        wanted = set(PLACEHOLDER.findall(" ".join(entry.id if entry.pluralizable else [entry.id])))
        for form in forms:
            got = set(PLACEHOLDER.findall(form))
            if got - wanted or (wanted - {"num"}) - got:
                problems.append(f"{where}: {code} {form!r} does not fit the placeholders {wanted}")
    stale = [
        m.id
        for m in catalog
        if m.id and (m.context, m.id if isinstance(m.id, str) else tuple(m.id)) not in texts
    ]
    problems += [f"{code} still has a text nothing uses: {s!r}" for s in stale]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("code", LANGUAGES)
def test_each_catalogue_defines_each_text_once(code: str) -> None:
    """A text defined twice (say, by two merged changes) is an error for msgfmt and hides one."""
    ids = re.findall(r'^(?:msgctxt "(.*)"\n)?msgid "(.+)"$', po_path(code).read_text("utf-8"), re.M)
    twice = sorted({key for key in ids if ids.count(key) > 1})
    assert not twice, f"{po_path(code)} defines these texts more than once: {twice}"


def test_every_language_has_a_rules_page() -> None:
    for code in LANGUAGES:
        assert (TEMPLATE_DIR / "rules" / f"{code}.html").is_file(), code


def test_czech_plurals_and_numbers() -> None:
    cs = words_for("cs")
    assert [cs.francs(n) for n in (0, 1, 2, 4, 5, 21, 22)] == [
        "0 franků",
        "1 frank",
        "2 franky",
        "4 franky",
        "5 franků",
        "21 franků",
        "22 franků",
    ]
    assert cs.francs(1234) == "1\xa0234 franků"
    assert words_for("en").francs(1234) == "1,234 francs"
    assert words_for("pt_BR").francs(1234) == "1.234 francos"
    assert cs.goods_amounts({"fish": 1, "wood": 2, "clay": 5, "grain": 3}) == (
        "1 rybu, 2 dřeva, 5 jílů, 3 obilí"
    )
    assert actions_left_text(cs, 1) == "V tomto kole zbývá 1 akce"
    assert actions_left_text(cs, 3) == "V tomto kole zbývají 3 akce"
    assert actions_left_text(cs, 7) == "V tomto kole zbývá 7 akcí"
    assert shortfall(cs, {"wood": 2, "clay": 2}, {"wood": 1, "clay": 1}) == (
        "potřebujete 2 dřeva a\xa02 jíly, máte 1 dřevo a\xa01 jíl"
    )


def test_the_same_event_reads_in_each_language() -> None:
    state = engine.new_game()
    _, events = engine.apply_with_events(state, build_hardware_store(state))
    event = events[0].to_json()
    lines = {
        code: describe_event(words_for(code), event, words_for(code).building_names(state.catalog))
        for code in LANGUAGES
    }
    assert lines == {
        "en": "Player 1 built Hardware Store, paying 1 wood, 2 clay",
        "cs": "Hráč 1 postavil budovu Stavebniny a zaplatil 1 dřevo, 2 jíly",
        "pt_BR": "Jogador 1 construiu Loja de Materiais, pagando 1 madeira, 2 argilas",
    }


def test_every_event_of_a_game_reads_in_every_language() -> None:
    rng = random.Random(11)
    state = engine.new_game()
    events: list[dict[str, object]] = []
    while not engine.is_finished(state):
        moves = engine.legal_moves(state)
        sells = [m for m in moves if m.type == "sell"]
        pick = sells if sells and rng.random() < 0.15 else [m for m in moves if m.type != "sell"]
        state, happened = engine.apply_with_events(state, rng.choice(pick))
        events += [e.to_json() for e in happened]
    for code in LANGUAGES:
        words = words_for(code)
        names = words.building_names(state.catalog)
        for event in events:
            line = describe_event(words, event, names)
            assert "%(" not in line and "_" not in line and "None" not in line, (code, line)


def test_building_names_per_language_come_from_the_catalog() -> None:
    catalog = engine.default_catalog()
    for building in catalog.buildings:
        assert building.name_in("en") == building.name
        assert building.name_in("cs") == building.name_cs
        assert building.name_in("pt_BR") != building.name or building.id == "zoo"
    assert catalog.building("kiln").name_in("cs") == "Vypalovací pec"
    assert catalog.building("kiln").name_in("pt_BR") == "Forno"
    data = json.loads((ROOT / "engine" / "catalog.json").read_text("utf-8"))
    data["names_pt"] = {**data["names_pt"], "lighthouse": "Farol"}
    with pytest.raises(ValueError, match="names_pt names no building 'lighthouse'"):
        catalog_from_data(data)


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (None, "en"),
        ("", "en"),
        ("cs-CZ,cs;q=0.9,en;q=0.8", "cs"),
        ("de-DE,de;q=0.9,cs;q=0.5,en;q=0.4", "cs"),
        ("pt-BR", "pt_BR"),
        ("pt-PT,pt;q=0.9", "pt_BR"),
        ("en;q=0.2, cs;q=0.8", "cs"),
        ("cs;q=0, en", "en"),
        ("fr, de", "en"),
        ("cs;q=abc, pt", "pt_BR"),
    ],
)
def test_the_browser_language_is_negotiated(header: str | None, expected: str) -> None:
    assert negotiate(header) == expected


def test_the_board_fragment_speaks_the_viewers_language() -> None:
    state = engine.new_game()
    move = build_hardware_store(state)
    after, events = engine.apply_with_events(state, move)
    log = (LogEntry(0, 0, move.to_json(), [e.to_json() for e in events]),)
    czech = render_board(view_of(after, 1, log), lang="cs")
    english = render_board(view_of(after, 1, log), lang="en")
    assert "Hráč 1 postavil budovu Stavebniny" in czech
    assert "Player 1 built Hardware Store" in english
    assert "Stavebniny" not in english and "Hardware Store" not in czech
    assert "Jste na tahu" in czech and "V tomto kole zbývají 2 akce" in czech


@pytest.fixture
def app_client(sqlite_template: Path, tmp_path: Path) -> Iterator[TestClient]:
    path = tmp_path / "i18n.sqlite3"
    shutil.copy(sqlite_template, path)
    settings = Settings(database_url=f"sqlite:///{path}", data_dir=tmp_path)
    with TestClient(create_app(settings)) as client:
        yield client


def test_pages_follow_accept_language_then_the_cookie(app_client: TestClient) -> None:
    home = app_client.get("/", headers={"Accept-Language": "cs-CZ,cs;q=0.9"})
    assert '<html lang="cs">' in home.text and "Založit místnost" in home.text
    assert 'data-lang="cs" aria-pressed="true"' in home.text
    rules = app_client.get("/rules", headers={"Accept-Language": "pt-BR"})
    assert '<html lang="pt-BR">' in rules.text and "As regras em resumo" in rules.text
    assert 'class="wheel-disc"' in rules.text and 'class="warehouse' in rules.text

    switched = app_client.post(
        "/language", data={"lang": "pt_BR", "next": "/rules"}, follow_redirects=False
    )
    assert switched.status_code == 303 and switched.headers["location"] == "/rules"
    assert app_client.cookies.get(COOKIE) == "pt_BR"
    again = app_client.get("/", headers={"Accept-Language": "cs"})
    assert '<html lang="pt-BR">' in again.text, "the cookie wins over the browser's language"


def test_the_switcher_refuses_bad_input(app_client: TestClient) -> None:
    refused = app_client.post("/language", data={"lang": "xx", "next": "/"})
    assert refused.status_code == 422 and "Unknown language" in refused.text
    assert app_client.cookies.get(COOKIE) is None
    for target in ("//evil.example/", "https://evil.example/", "/\\evil.example", "rules"):
        moved = app_client.post(
            "/language", data={"lang": "cs", "next": target}, follow_redirects=False
        )
        assert moved.headers["location"] == "/", target


def test_each_socket_renders_its_viewers_language(app_client: TestClient) -> None:
    created = app_client.post("/rooms", data={"host_seat": "0"}, follow_redirects=True)
    room_id = str(created.url).rstrip("/").rsplit("/", 1)[1]
    app_client.cookies.set(COOKIE, "cs")
    with app_client.websocket_connect(f"/ws/rooms/{room_id}") as socket:
        board = socket.receive_text()
    assert 'id="board"' in board and "Čeká se na soupeře" in board
    app_client.cookies.set(COOKIE, "en")
    with app_client.websocket_connect(f"/ws/rooms/{room_id}") as socket:
        board = socket.receive_text()
    assert "Waiting for your opponent" in board
