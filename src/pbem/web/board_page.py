"""A board's page: the SVG board, whose turn, the moves with comments,
stepping through the history, the players' ratings, subscribers and chat;
for the player to move, move entry (clicking, or a text box without
JavaScript), a preview before sending, and the special moves."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ..games.base import State
from ..server.board_mail import players_of
from ..server.errors import CommandError
from ..server.messages import Outgoing
from ..server.view_commands import play_moves
from ..store import Board
from ..store.boards import rebuild
from ..store.positions import svg_board
from . import move_entry, reading
from .actions import act, flash, play, server_of
from .found import game_or_404, load_board
from .session import PostedForm, check_csrf, current_userid
from .templating import render, svg_markup

router = APIRouter(include_in_schema=False)

# The special moves of the menu: the command, and whether it cannot be undone
# (those ask for a confirmation first).
SPECIAL = {
    "resign": ("resign", True),
    "draw": ("propose", False),
    "undo": ("undo", False),
    "accept": ("accept", False),
    "reject": ("reject", False),
}


@dataclass(frozen=True)
class Seat:
    """A player on the page: name, side, rating."""

    userid: str
    side: str
    rating: str


def my_seat(board: Board, userid: str | None) -> int | None:
    if userid is None:
        return None
    for player in board.players:
        if player.user.userid_key == userid.lower():
            return player.seat
    return None


@router.get("/{game_name}/{board_id}", response_class=HTMLResponse)
def board_view(request: Request, game_name: str, board_id: int, at: int | None = None) -> Response:
    server = server_of(request)
    userid = current_userid(request)
    with server.reads() as session:
        board = load_board(session, game_name, board_id)
        game = game_or_404(game_name)
        latest = board.version
        shown = latest if at is None else max(0, min(at, latest))
        state = rebuild(board, shown)
        seat = my_seat(board, userid)
        rows = reading.game_ratings(session, board.game, [p.user_id for p in board.players])
        ratings = {}
        for player in board.players:
            row = rows.get(player.user_id)
            ratings[player.seat] = "-" if row is None else f"{row.rating:.0f} ({row.games} games)"
        seats = [
            Seat(player.user.userid, state.side_text(player.seat), ratings[player.seat])
            for player in board.players
        ]
        names = players_of(board)
        moves = [
            (row.number, names[row.seat], row.text, row.comment, row.auto) for row in board.moves
        ]
        watchers = reading.subscribers_of(session, board)
        proposals = reading.proposals_of(session, board)
        active = board.status == "active"  # a move that ends the game stores its result
        my_turn = active and seat is not None and shown == latest and state.to_move == seat
        line = reading.board_line(board)
    return render(
        request,
        "board.html",
        title=f"{game.title} board {board_id}",
        game=game,
        board_id=board_id,
        line=line,
        svg=svg_markup(svg_board(state)),
        status=state.status_line(),
        shown=shown,
        latest=latest,
        seats=seats,
        seat=seat,
        moves=moves,
        watchers=watchers,
        proposals=proposals,
        active=active,
        my_turn=my_turn,
        example=example_move(state),
        buttons=move_entry.move_buttons(state) if my_turn else [],
    )


def example_move(state: State) -> str:
    """A legal move to show in the move box's placeholder."""
    try:
        moves = state.legal_moves()
    except Exception:  # a finished game may have none to list
        return ""
    return state.move_text(moves[0]) if moves else ""


@router.get("/{game_name}/{board_id}/poll")
def poll(
    request: Request, game_name: str, board_id: int, version: int, active: bool = True
) -> Response:
    """For an open page: 204 while the board is as the page shows it, else
    tell htmx to reload the page (the opponent moved, or the game ended)."""
    server = server_of(request)
    with server.reads() as session:
        board = load_board(session, game_name, board_id)
        changed = board.version != version or active != (board.status == "active")
    if changed:
        return Response(status_code=200, headers={"HX-Refresh": "true"})
    return Response(status_code=204)


@router.post(
    "/{game_name}/{board_id}/preview",
    response_class=HTMLResponse,
    dependencies=[Depends(check_csrf)],
)
def preview(request: Request, game_name: str, board_id: int, form: PostedForm) -> HTMLResponse:
    """The board after the move, played on a copy (the server's `preview`):
    nothing is stored or mailed."""
    text = str(form.get("move", "")).strip()
    server = server_of(request)
    with server.reads() as session:
        board = load_board(session, game_name, board_id)
        state = rebuild(board)
    error, after = None, None
    if not text:
        error = "Write or click a move first."
    else:
        try:
            after = play_moves(state, [text])
        except CommandError as problem:
            error = problem.message
    return render(
        request,
        # htmx puts the fragment under the move box; without JavaScript the
        # form itself came here, so it gets a whole page to send from
        "preview.html" if request.headers.get("HX-Request") else "preview_page.html",
        title=f"Preview on board {board_id}",
        game=game_or_404(game_name),
        board_id=board_id,
        move=text,
        number=str(form.get("number", "")),
        comment=str(form.get("comment", "")),
        error=error,
        svg=None if after is None else svg_markup(after.svg_board()),
        status=None if after is None else after.status_line(),
    )


@router.post("/{game_name}/{board_id}/move", dependencies=[Depends(check_csrf)])
def move(request: Request, game_name: str, board_id: int, form: PostedForm) -> RedirectResponse:
    """Play the move (with the `#N` guard: the page's move number)."""
    game = game_or_404(game_name)
    text = "".join(str(form.get("move", "")).split())
    number = str(form.get("number", "")).strip()
    userid = require_login(request)
    if not text:
        flash(request, "Write or click a move first.", "error")
        return back(game.name, board_id)
    play(request, game.name, board_id, userid, text, number, str(form.get("comment", "")))
    return back(game.name, board_id)


@router.post("/{game_name}/{board_id}/special", dependencies=[Depends(check_csrf)])
def special(request: Request, game_name: str, board_id: int, form: PostedForm) -> RedirectResponse:
    """Resign, propose a draw, undo, accept or reject; a queued move; chat."""
    game = game_or_404(game_name)
    userid = require_login(request)
    what = str(form.get("what", ""))
    comment = str(form.get("comment", ""))
    if what in SPECIAL:
        verb, final = SPECIAL[what]
        if final and form.get("confirm") != "yes":
            flash(request, "Tick the box to confirm: resigning cannot be taken back.", "error")
            return back(game.name, board_id)
        line = f"{game.name} {verb} {board_id} {userid} -"
    elif what == "queue":
        queued = "".join(str(form.get("move", "")).split())
        answer = "".join(str(form.get("answer", "")).split())
        line = f"{game.name} queue {board_id} {userid} - {queued}" + (
            f" if {answer}" if answer else ""
        )
    elif what == "chat":
        line = f"{game.name} chat {board_id} {userid} -"
    else:
        raise HTTPException(422, f"There is no special move called {what[:20]!r}.")
    outcome = act(request, line, comment)
    if outcome.ok:
        flash(request, done_message(what, outcome.messages))
    else:
        flash(request, outcome.error or "", "error")
    return back(game.name, board_id)


def done_message(what: str, messages: list[Outgoing]) -> str:
    """What a special move did, in a sentence for the next page."""
    subjects = " ".join(message.subject for message in messages)
    if what == "resign":
        if "will resign" in subjects:
            return "It is not your move: you resign when your turn comes."
        return "You resigned."
    if "proposal rejected" in subjects:
        return "The proposal is rejected; play goes on."
    if what in ("draw", "undo", "accept") and "proposed" in subjects:
        return "Your vote is in; the others have been asked."
    if what == "accept":
        what = "draw" if "game over" in subjects else "undo"
    return {
        "chat": "Your message was sent.",
        "queue": "The move is queued.",
        "draw": "Everyone agreed: the game is drawn.",
        "undo": "Everyone agreed: the last move is taken back.",
    }.get(what, "Done.")


def require_login(request: Request) -> str:
    userid = current_userid(request)
    if userid is None:
        raise HTTPException(403, "Log in first: only a board's players may act on it.")
    return userid


def back(game: str, board_id: int) -> RedirectResponse:
    return RedirectResponse(f"/{game}/{board_id}", status_code=303)
