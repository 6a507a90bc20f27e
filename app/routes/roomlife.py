"""The room's life from the table page: resign, abort, the host's new seat link for the
other seat, and what the present player may do when the opponent is gone (the computer stands
in, or claim the game) and the absent player's taking over. Each is an htmx post answered in the panel (what happened, or why it was refused);
the boards of everyone in the room follow over the sockets.
"""

from __future__ import annotations

from collections.abc import Callable

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.deps import (
    BaseUrlDep,
    HubDep,
    LangDep,
    PageError,
    PageViewerDep,
    RoomReaderDep,
    SessionDep,
    SettingsDep,
    TranslatorDep,
)
from app.refusals.answers import sentence, status
from app.routes.panel import panel_message
from app.services import ending, seats, standin, takeback
from app.services.errors import ServiceError

router = APIRouter(include_in_schema=False)


def _answer(
    request: Request,
    read_view: RoomReaderDep,
    lang: str,
    *,
    title: str,
    act: Callable[[], object],
    lines: Callable[[object], list[str]],
) -> HTMLResponse:
    """Do `act`; answer with its `lines` and the fresh board, or with the refusal's reason."""
    error, said, code = None, [], 200
    try:
        done = act()
    except ServiceError as refused:
        error, code = sentence(refused.code, refused.params, lang), status(refused.code)
    else:
        said = lines(done)
    return panel_message(
        request,
        read_view(),
        lang,
        title=title,
        error=error,
        lines=said,
        board=True,
        status_code=code,
    )


@router.post("/rooms/{room_id}/resign", response_class=HTMLResponse)
def post_resign(
    request: Request,
    viewer: PageViewerDep,
    session: SessionDep,
    read_view: RoomReaderDep,
    hub: HubDep,
    lang: LangDep,
    t: TranslatorDep,
) -> HTMLResponse:
    """Resign the game (the page asked for a confirmation first)."""
    return _answer(
        request,
        read_view,
        lang,
        title=t.gettext("Resign"),
        act=lambda: ending.resign(session, viewer=viewer, publisher=hub),
        lines=lambda _: [t.gettext("You resigned.")],
    )


@router.post("/rooms/{room_id}/abort", response_class=HTMLResponse)
def post_abort(
    request: Request,
    viewer: PageViewerDep,
    session: SessionDep,
    read_view: RoomReaderDep,
    hub: HubDep,
    lang: LangDep,
    t: TranslatorDep,
) -> HTMLResponse:
    """Abort the game before anyone took an action: the room ends without a result."""
    return _answer(
        request,
        read_view,
        lang,
        title=t.gettext("Abort the game"),
        act=lambda: ending.abort(session, viewer=viewer, publisher=hub),
        lines=lambda _: [t.gettext("The game was aborted: it has no result.")],
    )


@router.post("/rooms/{room_id}/seat-link", response_class=HTMLResponse)
def post_seat_link(
    request: Request,
    viewer: PageViewerDep,
    session: SessionDep,
    read_view: RoomReaderDep,
    base: BaseUrlDep,
    hub: HubDep,
    lang: LangDep,
    t: TranslatorDep,
) -> HTMLResponse:
    """The host issues a new seat link for the other seat; the answer shows it (only here).
    The other player's open pages are closed (they reconnect, refused with the old link)."""

    def reissue() -> str:
        link = seats.reissue_seat_link(session, viewer=viewer, base_url=base, publisher=hub)
        hub.seat_tokens_changed(viewer.room_id)
        return link

    return _answer(
        request,
        read_view,
        lang,
        title=t.gettext("New seat link"),
        act=reissue,
        lines=lambda link: [
            t.gettext("Send this new seat link to your opponent: %(link)s", link=link)
        ],
    )


@router.post("/rooms/{room_id}/standin", response_class=HTMLResponse)
def post_standin(
    request: Request,
    viewer: PageViewerDep,
    session: SessionDep,
    read_view: RoomReaderDep,
    settings: SettingsDep,
    hub: HubDep,
    lang: LangDep,
    t: TranslatorDep,
) -> HTMLResponse:
    """The opponent to move is gone: the computer plays for them until they take over."""
    return _answer(
        request,
        read_view,
        lang,
        title=t.gettext("The computer stands in"),
        act=lambda: standin.start_standin(
            session,
            viewer=viewer,
            absent_after=settings.absent_after,
            presence_timeout=settings.presence_timeout,
            publisher=hub,
        ),
        lines=lambda _: [t.gettext("The computer plays for your opponent until they come back.")],
    )


@router.post("/rooms/{room_id}/take-over", response_class=HTMLResponse)
def post_take_over(
    request: Request,
    viewer: PageViewerDep,
    session: SessionDep,
    read_view: RoomReaderDep,
    hub: HubDep,
    lang: LangDep,
    t: TranslatorDep,
) -> HTMLResponse:
    """The player is back: the computer stops playing for them."""
    return _answer(
        request,
        read_view,
        lang,
        title=t.gettext("Take over"),
        act=lambda: standin.take_over(session, viewer=viewer, publisher=hub),
        lines=lambda _: [t.gettext("You play again.")],
    )


@router.post("/rooms/{room_id}/claim", response_class=HTMLResponse)
def post_claim(
    request: Request,
    viewer: PageViewerDep,
    session: SessionDep,
    read_view: RoomReaderDep,
    settings: SettingsDep,
    hub: HubDep,
    lang: LangDep,
    t: TranslatorDep,
) -> HTMLResponse:
    """The opponent to move is gone: claim the game (won because the opponent left)."""
    return _answer(
        request,
        read_view,
        lang,
        title=t.gettext("Claim the game"),
        act=lambda: ending.claim(
            session,
            viewer=viewer,
            absent_after=settings.absent_after,
            presence_timeout=settings.presence_timeout,
            publisher=hub,
        ),
        lines=lambda _: [t.gettext("The game was claimed: the opponent left.")],
    )


@router.post("/rooms/{room_id}/takeback", response_class=HTMLResponse)
def post_takeback(
    request: Request,
    viewer: PageViewerDep,
    session: SessionDep,
    read_view: RoomReaderDep,
    hub: HubDep,
    lang: LangDep,
    t: TranslatorDep,
) -> HTMLResponse:
    """Ask to take back one's own actions since the opponent last acted."""

    def said(accepted: object) -> list[str]:
        if accepted is True:
            return [t.gettext("The computer agreed: your actions were taken back.")]
        if accepted is False:
            return [t.gettext("The computer declined the takeback.")]
        return [
            t.gettext(
                "You asked to take back your last actions. Waiting for your opponent's answer…"
            )
        ]

    return _answer(
        request,
        read_view,
        lang,
        title=t.gettext("Takeback"),
        act=lambda: takeback.ask_takeback(session, viewer=viewer, publisher=hub),
        lines=said,
    )


@router.post("/rooms/{room_id}/takeback/{answer}", response_class=HTMLResponse)
def post_takeback_answer(
    request: Request,
    answer: str,
    viewer: PageViewerDep,
    session: SessionDep,
    read_view: RoomReaderDep,
    hub: HubDep,
    lang: LangDep,
    t: TranslatorDep,
) -> HTMLResponse:
    """Accept or decline the opponent's takeback request (`answer`: "accept" or "decline")."""
    if answer not in ("accept", "decline"):
        raise PageError(404, t.gettext("There is no such page."))
    accept = answer == "accept"
    return _answer(
        request,
        read_view,
        lang,
        title=t.gettext("Takeback"),
        act=lambda: takeback.answer_takeback(session, viewer=viewer, accept=accept, publisher=hub),
        lines=lambda _: [
            t.gettext("You accepted the takeback.")
            if accept
            else t.gettext("You declined the takeback.")
        ],
    )
