"""The capability links: `/s/{token}` a seat, `/i/{token}` an invite, `/w/{token}` watching.

Each link remembers its token in an HttpOnly, SameSite=Lax cookie for that room and redirects
to the table page `/rooms/{room_id}`. An invite is taken by a button (a POST), never by opening
it, so a chat app that fetches the address for a preview cannot take the seat. An invite already
used leaves the browser as a spectator of the game; the table page then says the seat is taken.
So does the invite of a game that ended before the guest came (the host aborted it).
A browser that already holds a seat in the room keeps it whatever link of the room it opens (a
spectator link, the invite, used or not); after a spectator link the table says so. A seat link
of the room's other seat reached from another site (`Sec-Fetch-Site: cross-site`) only shows a
page that asks first; its button (a POST) takes that seat in this browser: a link planted on
another page cannot swap a player into the opponent's seat unasked.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from sqlalchemy.orm import Session

from app.deps import BaseUrlDep, HubDep, SessionDep
from app.edge.cookies import COOKIE_MAX_AGE, cookie_name, set_cookie
from app.i18n import language_of
from app.services import seats
from app.services.errors import InviteClosed, SeatTaken
from app.ui.templates import templates_for
from app.ui.words import words_for

router = APIRouter(include_in_schema=False)


def remember(request: Request, room_id: str, token: str, page: str = "") -> Response:
    """Keep `token` in the room's cookie and go to the room's table (or its `page`, "/review")."""
    response = RedirectResponse(f"/rooms/{room_id}{page}", status_code=303)
    set_cookie(
        response, request, cookie_name(room_id), token, max_age=COOKIE_MAX_AGE, httponly=True
    )
    return response


def _invalid(request: Request) -> Response:
    """The invalid-link page, in the viewer's language and dressed like every other page."""
    lang = language_of(request)
    title = words_for(lang).lang.gettext("This link is not valid.")
    return templates_for(lang).TemplateResponse(
        request, "error.html", {"title": title, "message": ""}, status_code=404
    )


def _open(request: Request, session: Session, token: str, kind: str) -> Response:
    """Remember a link of this kind for its room and go to the table; 404 for any other token.

    A spectator link never takes a seat away: a browser that holds a seat in the room keeps it."""
    viewer = seats.resolve_token(session, token=token)
    if viewer is None or viewer.kind != kind:
        return _invalid(request)
    if kind != "seat" and seated(request, session, viewer.room_id):
        return RedirectResponse(f"/rooms/{viewer.room_id}?kept=seat", status_code=303)
    return remember(request, viewer.room_id, token)


@router.get("/s/{token}")
def open_seat_link(token: str, request: Request, session: SessionDep) -> Response:
    """A player's personal seat link: sit down again from any browser. From another site, a
    browser holding the room's other seat is asked first."""
    viewer = seats.resolve_token(session, token=token)
    if viewer is None or viewer.kind != "seat":
        return _invalid(request)
    cross_site = request.headers.get("sec-fetch-site") == "cross-site"
    held = _held_seat(request, session, viewer.room_id)
    if cross_site and held is not None and held != viewer.seat:
        return templates_for(language_of(request)).TemplateResponse(
            request, "switch_seat.html", {"token": token, "room_id": viewer.room_id}
        )
    return remember(request, viewer.room_id, token)


@router.post("/s/{token}")
def take_seat_link(token: str, request: Request, session: SessionDep) -> Response:
    """The button of the page that asked: this browser now holds the link's seat."""
    return _open(request, session, token, "seat")


@router.get("/w/{token}")
def open_spectator_link(token: str, request: Request, session: SessionDep) -> Response:
    """A spectator link: watch the game, read-only."""
    return _open(request, session, token, "spectator")


def seated(request: Request, session: SessionDep, room_id: str) -> bool:
    """Whether this browser already holds a seat in the room."""
    return _held_seat(request, session, room_id) is not None


def _held_seat(request: Request, session: Session, room_id: str) -> int | None:
    """The seat this browser holds in the room (None: none)."""
    held = request.cookies.get(cookie_name(room_id))
    if not held:
        return None
    current = seats.resolve_token(session, token=held)
    if current is None or current.room_id != room_id or current.kind != "seat":
        return None
    return current.seat


@router.get("/i/{token}")
def open_invite_link(token: str, request: Request, session: SessionDep) -> Response:
    """An invite: a page with the button that takes the free seat; once taken, later ones watch."""
    viewer = seats.resolve_token(session, token=token)
    if viewer is None or viewer.kind != "invite":
        return _invalid(request)
    if seated(request, session, viewer.room_id):
        return RedirectResponse(f"/rooms/{viewer.room_id}", status_code=303)
    seat = None if viewer.seat_taken else seats.invite_seat(session, invite_token=token)
    if seat is None:  # taken, or the game ended before the guest came: watch it
        return remember(request, viewer.room_id, token)
    return templates_for(language_of(request)).TemplateResponse(
        request, "join.html", {"token": token, "seat": seat}
    )


@router.post("/i/{token}")
def accept_invite(
    token: str, request: Request, session: SessionDep, base: BaseUrlDep, hub: HubDep
) -> Response:
    """Take the seat an invite offers; the first browser to do so plays, later ones watch."""
    viewer = seats.resolve_token(session, token=token)
    if viewer is None or viewer.kind != "invite":
        return _invalid(request)
    if seated(request, session, viewer.room_id):
        return RedirectResponse(f"/rooms/{viewer.room_id}", status_code=303)
    try:
        claimed = seats.claim_invite(session, invite_token=token, base_url=base, publisher=hub)
    except (SeatTaken, InviteClosed):
        return remember(request, viewer.room_id, token)
    return remember(request, claimed.room_id, claimed.token)
