"""Player-facing words: every English string the table shows outside the templates lives here.

The engine speaks in ids and numbers (building ids, goods, ages, event dicts); this module turns
them into short phrases — "2 wood, 1 clay", "needs 2 clay, you have 1", a readable move-log line.
Keeping the words in one module (and in the templates) is what lets them move to gettext later.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

GOODS: tuple[str, ...] = ("fish", "wood", "clay", "grain")
"""The four goods, in the order the table lists them."""

GOOD_LETTER = {"fish": "F", "wood": "W", "clay": "C", "grain": "G"}
"""One-letter marks drawn on the goods counters, so the goods never differ by colour alone."""

SECTOR_LABELS: tuple[str, ...] = ("0", "2", "3", "4", "4+", "!")
"""Wheel sector label by building age 0..5 (age 5, "!", is sold at the end of the round)."""

SECTOR_HINTS: tuple[str, ...] = (
    "just built or used: cannot be used",
    "effect ×2",
    "effect ×3",
    "effect ×4",
    "effect ×4 and 1 franc",
    "sold at the end of the round",
)

STEP_WORDS = {
    "R": "right",
    "U": "up",
    "UR": "up-right",
    "UL": "up-left",
    "L": "left",
    "D": "down",
    "DL": "down-left",
}

EFFECTS: dict[str, str] = {
    "wood_company": "Wood right ×N.",
    "farmland": "Grain right ×N, then wood and clay right once.",
    "clay_mound": "Clay right ×(N+1).",
    "grocery_store": "+N francs, then grain and fish right once.",
    "hardware_store": "Wood or clay right ×N.",
    "farm": "Grain up-right ×(N−1).",
    "kiln": "Clay up-left ×N.",
    "smokehouse": "Fish up-left ×N.",
    "bakehouse": "Grain up-left ×N.",
    "sawmill": "Wood up-left ×N.",
    "wood_trader": "Up to N times: pay 1 franc and 2 food, wood up once.",
    "restaurant": "Up to N times: pay 1 food for 2 francs.",
    "marketplace": "N steps right, spread over any goods.",
    "fish_market": "Up to N times: pay 1 franc, fish up-right once.",
    "building_firm": "Wood right ×N and clay right ×N.",
    "church_square": "Grain right ×N and fish right ×N.",
    "weekly_market": "Up to N times: grain or fish down once for 4 francs.",
    "masons_guild": "N different goods up-left once each.",
    "business_office": "Up to N different goods down-left, 5 francs each.",
    "shipping_line": "+3N francs.",
    "guild_hall": "N different goods up-right once each.",
    "pier": "N+2 steps right, spread over any goods.",
    "craftsmens_yard": "N+1 steps up-left, spread over any goods.",
}
"""What each usable building does; N is the multiplier of its sector (2, 3, 4; 4+ adds 1 franc)."""

LOCKED_EFFECT = "No action: worth points at the end."

USE_MOVES_VERB = {
    "business_office": "down-left",
    "guild_hall": "up-right",
    "masons_guild": "up-left",
}
"""Buildings whose "goods" choice moves each chosen counter one step in a fixed direction."""


def plural(n: int, one: str, many: str | None = None) -> str:
    """'1 franc', '3 francs'."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def francs(n: int) -> str:
    return plural(n, "franc")


def seat_name(seat: int) -> str:
    """The name a seat goes by on the table and in the log."""
    return f"Player {seat + 1}"


def seat_role(seat: int, viewer_seat: int | None) -> str:
    """Who this seat is for the person looking: 'you', 'opponent', or the board it plays."""
    if viewer_seat is None:
        return "first player" if seat == 0 else "second player"
    return "you" if seat == viewer_seat else "opponent"


def goods_amounts(amounts: Mapping[str, int]) -> str:
    """'2 wood, 1 clay' — goods in table order, zero amounts left out; francs last."""
    parts = [f"{amounts[g]} {g}" for g in GOODS if amounts.get(g)]
    if amounts.get("food"):
        parts.append(f"{amounts['food']} food")
    if amounts.get("francs"):
        parts.append(francs(amounts["francs"]))
    return ", ".join(parts) if parts else "nothing"


def cost_text(cost: Mapping[str, int]) -> str:
    """A building's cost: '2 wood, 1 clay', '3 food (fish or grain)', '4 francs', 'free'."""
    if not cost or not any(cost.values()):
        return "free"
    text = goods_amounts(cost)
    if "food" in cost and len(cost) == 1:
        text += " (fish or grain)"
    return text


def shortfall(cost: Mapping[str, int], have: Mapping[str, int]) -> str | None:
    """Why a cost cannot be paid, e.g. 'needs 2 clay, you have 1'; None when it can be covered.

    Food is fish and grain together; francs come from the player's francs. Several missing
    goods read 'needs 2 wood and 2 clay, you have 1 wood and 1 clay'.
    """
    needs: list[str] = []
    owns: list[str] = []
    for good in (*GOODS, "food", "francs"):
        need = cost.get(good, 0)
        food = have.get("fish", 0) + have.get("grain", 0)
        owned = food if good == "food" else have.get(good, 0)
        if need <= owned:
            continue
        if good == "francs":
            needs.append(francs(need))
            owns.append(str(owned))
        else:
            needs.append(f"{need} {good}")
            owns.append(f"{owned} {good}")
    if not needs:
        return None
    if len(needs) == 1:
        return f"needs {needs[0]}, you have {owns[0].split()[0]}"
    return f"needs {' and '.join(needs)}, you have {' and '.join(owns)}"


def payment_steps(payment: Mapping[str, Mapping[str, int]]) -> str:
    """A payment displacement: 'clay left 2', 'fish down 1, grain left 1', 'nothing'."""
    parts = []
    for good in GOODS:
        move = payment.get(good)
        if not move:
            continue
        steps = []
        if move.get("down"):
            steps.append(f"down {move['down']}")
        if move.get("left"):
            steps.append(f"left {move['left']}")
        parts.append(f"{good} {' and '.join(steps)}")
    return ", ".join(parts) if parts else "nothing"


def value_text(value: Any) -> str:
    """A building's value: '12' or '1 per grain' / '4 per dock building'."""
    if isinstance(value, Mapping):
        per = value.get("per")
        rate = value.get("rate", 1)
        if per == "dock_symbol":
            return f"{rate} per dock building"
        return f"{rate} per {per}"
    return str(value)


def owned_by(seat: int) -> str:
    return f"built by {seat_name(seat)}"


def coming_in(letter: str) -> str:
    return f"arrives in round {letter}"


def turn_text(to_move: int | None, viewer_seat: int | None) -> str:
    """The turn banner: 'Your turn', 'Player 2 to move', 'Game over'."""
    if to_move is None:
        return "Game over"
    if viewer_seat is not None and to_move == viewer_seat:
        return "Your turn"
    if viewer_seat is not None:
        return f"Waiting for {seat_name(to_move)}"
    return f"{seat_name(to_move)} to move"


def actions_left_text(n: int) -> str:
    return plural(n, "action") + " left in this round"


def result_text(winner: int | None, viewer_seat: int | None) -> str:
    """The game-over headline."""
    if winner is None:
        return "It's a draw!"
    if viewer_seat is None:
        return f"{seat_name(winner)} wins!"
    return "You win!" if winner == viewer_seat else f"{seat_name(winner)} wins."


def _signed_francs(n: int) -> str:
    return f"+{francs(n)}" if n >= 0 else f"−{francs(-n)}"


def _choice_text(building: str, choice: Mapping[str, Any]) -> str | None:
    """The player's choice inside a use, as the log tells it."""
    if not choice:
        return None
    goods = choice.get("goods")
    if goods is not None:
        if not goods:
            return "moved no goods"
        verb = USE_MOVES_VERB.get(building, "")
        ordered = sorted(goods, key=lambda g: GOODS.index(g) if g in GOODS else len(GOODS))
        return f"moved {', '.join(ordered)} {verb}".rstrip()
    steps = choice.get("steps")
    if steps:
        return "steps: " + ", ".join(f"{g} ×{steps[g]}" for g in GOODS if steps.get(g))
    times = choice.get("times")
    if times is not None:
        if not times:
            return "did it 0 times"
        good = choice.get("good")
        what = f" with {good}" if good else ""
        return f"{plural(times, 'time')}{what}"
    payments = choice.get("payments")
    if payments is not None:
        return plural(len(payments), "time") if payments else "did it 0 times"
    good = choice.get("good")
    if good:
        return f"chose {good}"
    return None


def describe_event(event: Mapping[str, Any], building_name: Mapping[str, str] | Any) -> str:
    """One readable log line for an engine event (see docs/engine-api.md for the kinds).

    Example: "Player 1 used Player 2's Business Office (4+): paid 1 franc to Player 2,
    moved fish, wood, clay, grain down-left, paid 4 fish, 4 wood, 4 clay, 4 grain, +21 francs".
    ``building_name`` maps a building id to its printed name.
    """
    kind = event.get("kind")
    if kind == "sell":
        name = building_name[event["building"]]
        return f"{seat_name(event['seat'])} sold {name} for {francs(event['francs'])}"
    if kind == "forced_sale":
        name = building_name[event["building"]]
        return (
            f"{seat_name(event['seat'])}'s {name} reached sector ! and was sold for "
            f"{francs(event['francs'])}"
        )
    if kind == "build":
        name = building_name[event["building"]]
        paid = event.get("paid") or {}
        return f"{seat_name(event['seat'])} built {name}, paying {goods_amounts(paid)}"
    if kind == "use":
        return _describe_use(event, building_name)
    if kind == "pass":
        return f"{seat_name(event['seat'])} passed"
    if kind == "round_end":
        nxt = event.get("next_round")
        tail = f"; round {nxt} begins" if nxt else "; that was the last round"
        return f"End of round {event['round']}: every building moves one sector{tail}"
    if kind == "game_over":
        s0, s1 = event["scores"]
        winner = event.get("winner")
        outcome = "a draw" if winner is None else f"{seat_name(winner)} wins"
        return f"Game over: {s0} to {s1}, {outcome}"
    return str(kind)


def _describe_use(event: Mapping[str, Any], building_name: Mapping[str, str] | Any) -> str:
    seat = event["seat"]
    owner = event["owner"]
    building = event["building"]
    name = building_name[building]
    whose = name if owner == seat else f"{seat_name(owner)}'s {name}"
    head = f"{seat_name(seat)} used {whose} ({event['sector']})"
    parts: list[str] = []
    if event.get("fee"):
        parts.append(f"paid {francs(event['fee'])} to {seat_name(owner)}")
    choice = _choice_text(building, event.get("choice") or {})
    if choice:
        parts.append(choice)
    paid = event.get("paid") or {}
    if any(paid.values()) and building not in USE_MOVES_VERB:
        parts.append(f"paid {goods_amounts(paid)}")
    gained = event.get("gained") or {}
    if any(gained.values()):
        parts.append("+" + goods_amounts(gained).replace(", ", ", +"))
    net = int(event.get("bonus") or 0) + int(event.get("francs") or 0)
    if net:
        parts.append(_signed_francs(net))
    lost = event.get("lost_steps") or {}
    if any(lost.values()):
        lost_text = ", ".join(f"{plural(lost[g], 'step')} of {g}" for g in GOODS if lost.get(g))
        parts.append(f"{lost_text} lost at the edge")
    if not parts:
        parts.append("nothing changed")
    return f"{head}: {', '.join(parts)}"


def describe_events(
    events: Sequence[Mapping[str, Any]], building_name: Mapping[str, str] | Any
) -> list[str]:
    return [describe_event(e, building_name) for e in events]
