"""The room's life from the table page: resign, abort, the host's new seat link for the
other seat, and what the present player may do when the opponent is gone (the computer stands
in, or claim the game) and the absent player's taking over. Each is an htmx post answered in the
panel (what happened, or why it was refused: `app.routes.panel.act_in_panel`); the boards of
everyone in the room follow over the sockets.
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import HTMLResponse
from sqlalchemy import select

from app.deps import PageAct, PageActDep, PageError
from app.edge.cookies import COOKIE_MAX_AGE, cookie_name, set_cookie
from app.models import Room
from app.routes.panel import act_in_panel
from app.services import ending, seats, standin, takeback

router = APIRouter(include_in_schema=False)


@router.post("/rooms/{room_id}/resign", response_class=HTMLResponse)
def post_resign(page: PageActDep) -> HTMLResponse:
    """Resign the game (the page asked for a confirmation first)."""
    return act_in_panel(
        page,
        title=page.t.gettext("Resign"),
        act=lambda: ending.resign(page.session, viewer=page.viewer, publisher=page.hub),
        lines=lambda _: [page.t.gettext("You resigned.")],
    )


@router.post("/rooms/{room_id}/abort", response_class=HTMLResponse)
def post_abort(page: PageActDep) -> HTMLResponse:
    """Abort the game before anyone took an action: the room ends without a result."""
    return act_in_panel(
        page,
        title=page.t.gettext("Abort the game"),
        act=lambda: ending.abort(page.session, viewer=page.viewer, publisher=page.hub),
        lines=lambda _: [page.t.gettext("The game was aborted: it has no result.")],
    )


@router.post("/rooms/{room_id}/seat-link", response_class=HTMLResponse)
def post_seat_link(page: PageActDep) -> HTMLResponse:
    """A new seat link, shown in the answer (only here): in Inland Port's room the host's for
    the other seat, in another game's room a player's for their own seat. The pages open with
    the old link are closed (they reconnect, refused); a player's own browser keeps the seat,
    its cookie now holding the new token."""
    issued: list[seats.ClaimedSeat] = []

    def act() -> seats.ClaimedSeat:
        issued.append(
            seats.reissue_link(
                page.session, viewer=page.viewer, base_url=page.base_url, publisher=page.hub
            )
        )
        return issued[0]

    def said(claimed: seats.ClaimedSeat) -> list[str]:
        if claimed.seat == page.viewer.seat:
            return [
                page.t.gettext(
                    "Your new seat link: %(link)s. The old one no longer opens your seat.",
                    link=claimed.seat_link,
                )
            ]
        return [
            page.t.gettext(
                "Send this new seat link to your opponent: %(link)s", link=claimed.seat_link
            )
        ]

    response = act_in_panel(page, title=page.t.gettext("New seat link"), act=act, lines=said)
    if issued and issued[0].seat == page.viewer.seat:
        name = cookie_name(page.viewer.room_id)
        set_cookie(
            response, page.request, name, issued[0].token, max_age=COOKIE_MAX_AGE, httponly=True
        )
    return response


@router.post("/rooms/{room_id}/standin", response_class=HTMLResponse)
def post_standin(page: PageActDep) -> HTMLResponse:
    """The player to move is gone: the computer plays for them until they take over."""

    def said(seat: int) -> list[str]:
        if _players(page) > 2:
            player = page.t.gettext("Player %(number)s", number=seat + 1)
            return [
                page.t.gettext(
                    "The computer plays for %(player)s until they come back.", player=player
                )
            ]
        return [page.t.gettext("The computer plays for your opponent until they come back.")]

    return act_in_panel(
        page,
        title=page.t.gettext("The computer stands in"),
        act=lambda: standin.start_standin(
            page.session,
            viewer=page.viewer,
            absent_after=page.settings.absent_after,
            presence_timeout=page.settings.presence_timeout,
            publisher=page.hub,
        ),
        lines=said,
    )


@router.post("/rooms/{room_id}/take-over", response_class=HTMLResponse)
def post_take_over(page: PageActDep) -> HTMLResponse:
    """The player is back: the computer stops playing for them."""
    return act_in_panel(
        page,
        title=page.t.gettext("Take over"),
        act=lambda: standin.take_over(page.session, viewer=page.viewer, publisher=page.hub),
        lines=lambda _: [page.t.gettext("You play again.")],
    )


@router.post("/rooms/{room_id}/claim", response_class=HTMLResponse)
def post_claim(page: PageActDep) -> HTMLResponse:
    """The opponent to move is gone: claim the game (won because the opponent left)."""
    return act_in_panel(
        page,
        title=page.t.gettext("Claim the game"),
        act=lambda: ending.claim(
            page.session,
            viewer=page.viewer,
            absent_after=page.settings.absent_after,
            presence_timeout=page.settings.presence_timeout,
            publisher=page.hub,
        ),
        lines=lambda _: [page.t.gettext("The game was claimed: the opponent left.")],
    )


@router.post("/rooms/{room_id}/takeback", response_class=HTMLResponse)
def post_takeback(page: PageActDep) -> HTMLResponse:
    """Ask to take back one's own actions since another player last acted."""

    def said(accepted: object) -> list[str]:
        if accepted is True:
            return [page.t.gettext("The computer agreed: your actions were taken back.")]
        if accepted is False:
            return [page.t.gettext("The computer declined the takeback.")]
        if _players(page) > 2:
            return [
                page.t.gettext(
                    "You asked to take back your last actions. Waiting for the other players' "
                    "answers…"
                )
            ]
        return [
            page.t.gettext(
                "You asked to take back your last actions. Waiting for your opponent's answer…"
            )
        ]

    return act_in_panel(
        page,
        title=page.t.gettext("Takeback"),
        act=lambda: takeback.ask_takeback(page.session, viewer=page.viewer, publisher=page.hub),
        lines=said,
    )


@router.post("/rooms/{room_id}/takeback/{answer}", response_class=HTMLResponse)
def post_takeback_answer(answer: str, page: PageActDep) -> HTMLResponse:
    """Accept or decline another player's takeback request (`answer`: "accept" or "decline")."""
    if answer not in ("accept", "decline"):
        raise PageError(404, page.t.gettext("There is no such page."))
    accept = answer == "accept"
    return act_in_panel(
        page,
        title=page.t.gettext("Takeback"),
        act=lambda: takeback.answer_takeback(
            page.session, viewer=page.viewer, accept=accept, publisher=page.hub
        ),
        lines=lambda waiting: [
            page.t.gettext("You declined the takeback.")
            if not accept
            else page.t.gettext("You accepted the takeback. It waits for the other players.")
            if waiting
            else page.t.gettext("You accepted the takeback.")
        ],
    )


def _players(page: PageAct) -> int:
    """How many seats the page's room has (read after its act, which committed)."""
    players = page.session.scalar(select(Room.players).where(Room.id == page.viewer.room_id))
    page.session.rollback()
    return int(players or 2)
