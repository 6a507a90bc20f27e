"""Player-facing words: every phrase the table shows outside the templates, in the viewer's language.

The engine speaks in ids and numbers (building ids, goods, ages, event dicts); `Words` turns them
into short phrases — "2 wood, 1 clay", "needs 2 clay, you have 1", a readable move-log line — through
the gettext catalogues of one language (`app.i18n`). The move log is stored as the engine's events
and put into words only when a page is drawn, so the same move reads in each viewer's language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from engine import Catalog

from .i18n import DEFAULT_LANGUAGE, Language, language

GOODS: tuple[str, ...] = ("fish", "wood", "clay", "grain")
"""The four goods, in the order the table lists them."""

SECTOR_LABELS: tuple[str, ...] = ("0", "2", "3", "4", "4+", "!")
"""Wheel sector label by building age 0..5 (age 5, "!", is sold at the end of the round)."""

USE_MOVES_DIRECTION = {
    "business_office": "down-left",
    "guild_hall": "up-right",
    "masons_guild": "up-left",
}
"""Buildings whose "goods" choice moves each chosen counter one step in a fixed direction."""

ROLES = ("you", "opponent", "first player", "second player")
"""The role keys of `Words.seat_role` (the templates compare them; they are never shown)."""


class Words:
    """The table's phrases in one language (``Words("cs")``); `words_for` shares one per language."""

    def __init__(self, code: str = DEFAULT_LANGUAGE) -> None:
        self.code = code
        self.lang: Language = language(code)

    # --- single words -------------------------------------------------------------------------

    def number(self, n: int) -> str:
        return self.lang.number(n)

    def good_name(self, good: str) -> str:
        """A good as a label or in a list: 'fish', 'wood' ('ryby', 'dřevo')."""
        t = self.lang
        names = {
            "fish": t.pgettext("good", "fish"),
            "wood": t.pgettext("good", "wood"),
            "clay": t.pgettext("good", "clay"),
            "grain": t.pgettext("good", "grain"),
            "food": t.pgettext("good", "food"),
            "francs": t.pgettext("good", "francs"),
        }
        return names[good]

    def good_letter(self, good: str) -> str:
        """The one-letter mark on a goods counter, so goods never differ by colour alone."""
        t = self.lang
        letters = {
            "fish": t.pgettext("letter on the fish counter", "F"),
            "wood": t.pgettext("letter on the wood counter", "W"),
            "clay": t.pgettext("letter on the clay counter", "C"),
            "grain": t.pgettext("letter on the grain counter", "G"),
        }
        return letters[good]

    def amount(self, good: str, n: int) -> str:
        """'1 franc', '2 francs' — '1 frank', '2 franky', '5 franků' in Czech."""
        t = self.lang
        if good == "fish":
            # Translators: amounts are mostly what a player pays or has (Czech: "1 rybu").
            return t.ngettext("%(num)s fish", "%(num)s fish", n)
        if good == "wood":
            return t.ngettext("%(num)s wood", "%(num)s wood", n)
        if good == "clay":
            return t.ngettext("%(num)s clay", "%(num)s clay", n)
        if good == "grain":
            return t.ngettext("%(num)s grain", "%(num)s grain", n)
        if good == "food":
            return t.ngettext("%(num)s food", "%(num)s food", n)
        return t.ngettext("%(num)s franc", "%(num)s francs", n)

    def francs(self, n: int) -> str:
        return self.amount("francs", n)

    def times(self, n: int) -> str:
        return self.lang.ngettext("%(num)s time", "%(num)s times", n)

    def steps(self, n: int) -> str:
        return self.lang.ngettext("%(num)s step", "%(num)s steps", n)

    def spectators_watching(self, n: int) -> str:
        return self.lang.ngettext("%(num)s spectator watching", "%(num)s spectators watching", n)

    def sector_hint(self, index: int) -> str:
        """What a wheel sector means, by building age 0..5."""
        t = self.lang
        hints = (
            t.gettext("just built or used: cannot be used"),
            t.gettext("effect ×2"),
            t.gettext("effect ×3"),
            t.gettext("effect ×4"),
            t.gettext("effect ×4 and 1 franc"),
            t.gettext("sold at the end of the round"),
        )
        return hints[index]

    def effect(self, building_id: str) -> str:
        """What a building does; N is the multiplier of its sector (2, 3, 4; 4+ adds 1 franc)."""
        t = self.lang
        effects = {
            "wood_company": t.gettext("Wood right ×N."),
            "farmland": t.gettext("Grain right ×N, then wood and clay right once."),
            "clay_mound": t.gettext("Clay right ×(N+1)."),
            "grocery_store": t.gettext("+N francs, then grain and fish right once."),
            "hardware_store": t.gettext("Wood or clay right ×N."),
            "farm": t.gettext("Grain up-right ×(N−1)."),
            "kiln": t.gettext("Clay up-left ×N."),
            "smokehouse": t.gettext("Fish up-left ×N."),
            "bakehouse": t.gettext("Grain up-left ×N."),
            "sawmill": t.gettext("Wood up-left ×N."),
            "wood_trader": t.gettext("Up to N times: pay 1 franc and 2 food, wood up once."),
            "restaurant": t.gettext("Up to N times: pay 1 food for 2 francs."),
            "marketplace": t.gettext("N steps right, spread over any goods."),
            "fish_market": t.gettext("Up to N times: pay 1 franc, fish up-right once."),
            "building_firm": t.gettext("Wood right ×N and clay right ×N."),
            "church_square": t.gettext("Grain right ×N and fish right ×N."),
            "weekly_market": t.gettext("Up to N times: grain or fish down once for 4 francs."),
            "masons_guild": t.gettext("N different goods up-left once each."),
            "business_office": t.gettext("Up to N different goods down-left, 5 francs each."),
            "shipping_line": t.gettext("+3N francs."),
            "guild_hall": t.gettext("N different goods up-right once each."),
            "pier": t.gettext("N+2 steps right, spread over any goods."),
            "craftsmens_yard": t.gettext("N+1 steps up-left, spread over any goods."),
        }
        return effects.get(building_id) or t.gettext("No action: worth points at the end.")

    def building_names(self, catalog: Catalog) -> dict[str, str]:
        """Building id -> its printed name in this language (from the catalog's data)."""
        return {b.id: b.name_in(self.code) for b in catalog.buildings}

    # --- players ------------------------------------------------------------------------------

    def seat_name(self, seat: int) -> str:
        """The name a seat goes by on the table and in the log."""
        return self.lang.gettext("Player %(number)s", number=seat + 1)

    def seat_role(self, seat: int, viewer_seat: int | None) -> str:
        """Who this seat is for the person looking: one of `ROLES` (a key, not a text)."""
        if viewer_seat is None:
            return "first player" if seat == 0 else "second player"
        return "you" if seat == viewer_seat else "opponent"

    def owned_by(self, seat: int) -> str:
        return self.lang.gettext("built by Player %(number)s", number=seat + 1)

    def coming_in(self, letter: str) -> str:
        return self.lang.gettext("arrives in round %(letter)s", letter=letter)

    def turn_text(self, to_move: int | None, viewer_seat: int | None) -> str:
        """The turn banner: 'Your turn', 'Player 2 to move', 'Game over'."""
        t = self.lang
        if to_move is None:
            return t.gettext("Game over")
        if viewer_seat is not None and to_move == viewer_seat:
            return t.gettext("Your turn")
        if viewer_seat is not None:
            return t.gettext("Waiting for Player %(number)s", number=to_move + 1)
        return t.gettext("%(player)s to move", player=self.seat_name(to_move))

    def actions_left_text(self, n: int) -> str:
        return self.lang.ngettext(
            "%(num)s action left in this round", "%(num)s actions left in this round", n
        )

    def result_text(self, winner: int | None, viewer_seat: int | None) -> str:
        """The game-over headline."""
        t = self.lang
        if winner is None:
            return t.gettext("It's a draw!")
        if viewer_seat is None:
            return t.gettext("%(player)s wins!", player=self.seat_name(winner))
        if winner == viewer_seat:
            return t.gettext("You win!")
        return t.gettext("%(player)s wins.", player=self.seat_name(winner))

    # --- goods and costs ----------------------------------------------------------------------

    def goods_amounts(self, amounts: Mapping[str, int]) -> str:
        """'2 wood, 1 clay' — goods in table order, zero amounts left out; food, then francs last."""
        parts = [self.amount(g, amounts[g]) for g in (*GOODS, "food", "francs") if amounts.get(g)]
        return ", ".join(parts) if parts else self.lang.gettext("nothing")

    def cost_text(self, cost: Mapping[str, int]) -> str:
        """A building's cost: '2 wood, 1 clay', '3 food (fish or grain)', '4 francs', 'free'."""
        if not cost or not any(cost.values()):
            return self.lang.gettext("free")
        text = self.goods_amounts(cost)
        if "food" in cost and len(cost) == 1:
            return self.lang.gettext("%(amount)s (fish or grain)", amount=text)
        return text

    def shortfall(self, cost: Mapping[str, int], have: Mapping[str, int]) -> str | None:
        """Why a cost cannot be paid, e.g. 'needs 2 clay, you have 1'; None when it can be covered.

        Food is fish and grain together; francs come from the player's francs. Several missing
        goods read 'needs 2 wood and 2 clay, you have 1 wood and 1 clay'.
        """
        needs: list[str] = []
        owns: list[str] = []
        counts: list[int] = []
        food = have.get("fish", 0) + have.get("grain", 0)
        for good in (*GOODS, "food", "francs"):
            need = cost.get(good, 0)
            owned = food if good == "food" else have.get(good, 0)
            if need <= owned:
                continue
            needs.append(self.amount(good, need))
            owns.append(self.amount(good, owned) if good != "francs" else self.number(owned))
            counts.append(owned)
        if not needs:
            return None
        if len(needs) == 1:
            return self.lang.gettext(
                "needs %(need)s, you have %(have)s", need=needs[0], have=self.number(counts[0])
            )
        return self.lang.gettext(
            "needs %(need)s, you have %(have)s",
            need=self.lang.join(needs),
            have=self.lang.join(owns),
        )

    def payment_steps(self, payment: Mapping[str, Mapping[str, int]]) -> str:
        """A payment displacement: 'clay left 2', 'fish down 1, grain left 1', 'nothing'."""
        t = self.lang
        parts = []
        for good in GOODS:
            move = payment.get(good)
            if not move:
                continue
            steps = []
            if move.get("down"):
                steps.append(t.gettext("down %(num)s", num=self.number(move["down"])))
            if move.get("left"):
                steps.append(t.gettext("left %(num)s", num=self.number(move["left"])))
            parts.append(
                t.gettext("%(good)s %(steps)s", good=self.good_name(good), steps=t.join(steps))
            )
        return ", ".join(parts) if parts else t.gettext("nothing")

    def value_text(self, value: Any) -> str:
        """A building's value: '12' or '1 per grain' / '4 per dock building'."""
        t = self.lang
        if not isinstance(value, Mapping):
            return self.number(int(value))
        rate = self.number(int(value.get("rate", 1)))
        per = value.get("per")
        if per == "fish":
            return t.gettext("%(rate)s per fish", rate=rate)
        if per == "wood":
            return t.gettext("%(rate)s per wood", rate=rate)
        if per == "clay":
            return t.gettext("%(rate)s per clay", rate=rate)
        if per == "grain":
            return t.gettext("%(rate)s per grain", rate=rate)
        return t.gettext("%(rate)s per dock building", rate=rate)

    def sector_text(self, sector: str) -> str:
        return self.lang.gettext("sector %(sector)s", sector=sector)

    # --- the move log -------------------------------------------------------------------------

    def _signed_francs(self, n: int) -> str:
        return f"+{self.francs(n)}" if n >= 0 else f"−{self.francs(-n)}"

    def _moved_goods(self, building: str, goods: Sequence[str]) -> str:
        t = self.lang
        if not goods:
            return t.gettext("moved no goods")
        ordered = sorted(goods, key=lambda g: GOODS.index(g) if g in GOODS else len(GOODS))
        listed = t.join([self.good_name(g) for g in ordered if g in GOODS])
        direction = USE_MOVES_DIRECTION.get(building)
        if direction == "down-left":
            return t.gettext("moved %(goods)s down-left", goods=listed)
        if direction == "up-right":
            return t.gettext("moved %(goods)s up-right", goods=listed)
        if direction == "up-left":
            return t.gettext("moved %(goods)s up-left", goods=listed)
        return t.gettext("moved %(goods)s", goods=listed)

    def _choice_text(self, building: str, choice: Mapping[str, Any]) -> str | None:
        """The player's choice inside a use, as the log tells it."""
        t = self.lang
        if not choice:
            return None
        goods = choice.get("goods")
        if goods is not None:
            return self._moved_goods(building, goods)
        steps = choice.get("steps")
        if steps:
            listed = ", ".join(
                f"{self.good_name(g)} ×{self.number(steps[g])}" for g in GOODS if steps.get(g)
            )
            return t.gettext("steps: %(steps)s", steps=listed)
        times = choice.get("times")
        if times is not None:
            if not times:
                return t.gettext("did it 0 times")
            good = choice.get("good")
            if good == "fish":
                return t.ngettext("%(num)s time with fish", "%(num)s times with fish", times)
            if good == "grain":
                return t.ngettext("%(num)s time with grain", "%(num)s times with grain", times)
            return self.times(times)
        payments = choice.get("payments")
        if payments is not None:
            return self.times(len(payments)) if payments else t.gettext("did it 0 times")
        good = choice.get("good")
        if good in GOODS:
            return t.gettext("chose %(good)s", good=self.good_name(good))
        return None

    def describe_event(self, event: Mapping[str, Any], building_name: Mapping[str, str]) -> str:
        """One readable log line for an engine event (see docs/engine-api.md for the kinds).

        Example: "Player 1 used Player 2's Business Office (4+): paid 1 franc to Player 2,
        moved fish, wood, clay, and grain down-left, +21 francs".
        ``building_name`` maps a building id to its name in this language.
        """
        t = self.lang
        kind = event.get("kind")
        if kind == "sell":
            return t.gettext(
                "%(player)s sold %(building)s for %(francs)s",
                player=self.seat_name(event["seat"]),
                building=building_name[event["building"]],
                francs=self.francs(event["francs"]),
            )
        if kind == "forced_sale":
            return t.gettext(
                "Player %(number)s's %(building)s reached sector ! and was sold for %(francs)s",
                number=event["seat"] + 1,
                building=building_name[event["building"]],
                francs=self.francs(event["francs"]),
            )
        if kind == "build":
            return t.gettext(
                "%(player)s built %(building)s, paying %(cost)s",
                player=self.seat_name(event["seat"]),
                building=building_name[event["building"]],
                cost=self.goods_amounts(event.get("paid") or {}),
            )
        if kind == "use":
            return self._describe_use(event, building_name)
        if kind == "pass":
            return t.gettext("%(player)s passed", player=self.seat_name(event["seat"]))
        if kind == "round_end":
            if event.get("next_round"):
                return t.gettext(
                    "End of round %(round)s: every building moves one sector; "
                    "round %(next)s begins",
                    round=event["round"],
                    next=event["next_round"],
                )
            return t.gettext(
                "End of round %(round)s: every building moves one sector; that was the last round",
                round=event["round"],
            )
        if kind == "game_over":
            s0, s1 = (self.number(s) for s in event["scores"])
            winner = event.get("winner")
            if winner is None:
                return t.gettext("Game over: %(first)s to %(second)s, a draw", first=s0, second=s1)
            return t.gettext(
                "Game over: %(first)s to %(second)s, Player %(number)s wins",
                first=s0,
                second=s1,
                number=winner + 1,
            )
        return str(kind)

    def _describe_use(self, event: Mapping[str, Any], building_name: Mapping[str, str]) -> str:
        t = self.lang
        seat = event["seat"]
        owner = event["owner"]
        building = event["building"]
        if owner == seat:
            head = t.gettext(
                "%(player)s used %(building)s (%(sector)s)",
                player=self.seat_name(seat),
                building=building_name[building],
                sector=event["sector"],
            )
        else:
            head = t.gettext(
                "%(player)s used Player %(owner)s's %(building)s (%(sector)s)",
                player=self.seat_name(seat),
                owner=owner + 1,
                building=building_name[building],
                sector=event["sector"],
            )
        parts: list[str] = []
        if event.get("fee"):
            parts.append(
                t.gettext(
                    "paid %(francs)s to Player %(owner)s",
                    francs=self.francs(event["fee"]),
                    owner=owner + 1,
                )
            )
        choice = self._choice_text(building, event.get("choice") or {})
        if choice:
            parts.append(choice)
        paid = event.get("paid") or {}
        if any(paid.values()) and building not in USE_MOVES_DIRECTION:
            parts.append(t.gettext("paid %(goods)s", goods=self.goods_amounts(paid)))
        gained = event.get("gained") or {}
        if any(gained.values()):
            parts.append(", ".join(f"+{self.amount(g, gained[g])}" for g in GOODS if gained.get(g)))
        net = int(event.get("bonus") or 0) + int(event.get("francs") or 0)
        if net:
            parts.append(self._signed_francs(net))
        lost = event.get("lost_steps") or {}
        if any(lost.values()):
            listed = ", ".join(
                t.gettext("%(good)s %(steps)s", good=self.good_name(g), steps=self.steps(lost[g]))
                for g in GOODS
                if lost.get(g)
            )
            parts.append(t.gettext("lost at the edge: %(steps)s", steps=listed))
        if not parts:
            parts.append(t.gettext("nothing changed"))
        return t.gettext("%(head)s: %(details)s", head=head, details=", ".join(parts))

    def describe_events(
        self, events: Sequence[Mapping[str, Any]], building_name: Mapping[str, str]
    ) -> list[str]:
        return [self.describe_event(e, building_name) for e in events]


@cache
def words_for(code: str = DEFAULT_LANGUAGE) -> Words:
    """The shared `Words` of one language."""
    return Words(code)
