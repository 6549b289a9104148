"""A board's page: the SVG board, whose turn, the moves with comments,
stepping through the history, the players' ratings, subscribers and chat;
for the player to move, move entry (clicking, or a text box without
JavaScript), a preview before sending, and the special moves."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ..games import get_game
from ..server import (
    BoardView,
    ChatSaid,
    CommandError,
    Effect,
    Ending,
    commands,
    duration,
    play_moves,
    view_line,
)
from . import move_entry
from .actions import act_on, flash, play, server_of
from .found import BoardId, game_or_404, page_view, page_view_around
from .session import PostedForm, check_csrf, current_userid
from .templating import TEMPLATES, render, svg_markup

router = APIRouter(include_in_schema=False)

# The special moves of the menu: the command, and whether it cannot be undone
# (those ask for a confirmation first).
SPECIAL: dict[str, tuple[type[commands.OnBoard], bool]] = {
    "resign": (commands.Resign, True),
    "decline": (commands.Resign, True),  # resigning before one's first move declines
    "draw": (commands.Propose, False),
    "undo": (commands.Undo, False),
    "accept": (commands.Accept, False),
    "reject": (commands.Reject, False),
    "hint": (commands.Hint, False),
}


@dataclass(frozen=True)
class Seat:
    """A player on the page: name, side, rating; on a finished rated board,
    what the game did to the rating ("1600 → 1616 (+16)")."""

    userid: str
    side: str
    rating: str
    change: str = ""


@dataclass(frozen=True)
class Said:
    """A line of the record as the page lists it: a move (with its comment)
    or a chat line said after the move before it."""

    number: int | None  # a move's number; None for chat
    player: str
    text: str
    comment: str = ""
    auto: bool = False


def record_of(view: BoardView) -> list[Said]:
    """The moves and the chat in the order they came: chat said after the
    first n moves comes after move n."""
    return [
        Said(None, line.player, line.text)
        if isinstance(line, ChatSaid)
        else Said(line.number, line.player, line.text, line.comment, line.auto)
        for line in view.record_with_chat()
    ]


@dataclass(frozen=True)
class Clock:
    """A player's clock on a `--totaltime` board, as the page says it:
    the time used and left ("9 days 19 hours"), and whether it is running
    (the player to move of a board being played)."""

    userid: str
    used: str
    left: str
    running: bool


def clocks_of(view: BoardView, now: datetime) -> list[Clock]:
    """Each player's clock at `now` (the request's time: the wait of the
    player to move counts as theirs), or at the end of a finished board;
    [] on a board without a total time."""
    return [
        Clock(
            view.players[seat], duration(used), duration(left), view.active and seat == view.to_move
        )
        for seat, (used, left) in enumerate(view.clocks(now))
    ]


def games(count: int) -> str:
    return "1 game" if count == 1 else f"{count} games"


def rating_change(change: tuple[float, float] | None) -> str:
    if change is None:
        return ""
    before, after = change
    return f"{before:.0f} → {after:.0f} ({after - before:+.0f})"


@router.get("/{game_name}/{board_id}", response_class=HTMLResponse)
def board_view(
    request: Request, game_name: str, board_id: BoardId, at: int | None = None
) -> Response:
    server = server_of(request)
    userid = current_userid(request)
    view, around = page_view_around(server, game_name, board_id)
    game = get_game(view.game)
    latest = view.version
    shown = view.shown(at)
    state = view.state(shown)
    seat = view.seat_of(userid)
    seats = []
    for number, (player, user_id) in enumerate(zip(view.players, view.user_ids, strict=True)):
        rating = around.ratings.get(user_id)
        shown_rating = "-" if rating is None else f"{rating[0]:.0f} ({games(rating[1])})"
        change = rating_change(around.changes.get(user_id))
        seats.append(Seat(player, state.side_text(number), shown_rating, change))
    my_turn = view.active and seat is not None and shown == latest and state.to_move == seat
    hint = None
    if view.hints and seat is not None and userid is not None:
        hint = server.latest_hint(board_id, userid, latest)
    waiting = None
    if userid is not None:
        waiting = server.read.next_awaiting(userid, board_id)
    bot_to_move = None  # a bot to move: the page says its first move may be slow
    levels = dict(enumerate(around.bot_levels))
    if view.active and view.to_move is not None and levels.get(view.to_move) is not None:
        bot_to_move = view.players[view.to_move]
    now = server.clock()
    return render(
        request,
        "board.html",
        title=f"{game.title} board {board_id}",
        game=game,
        board_id=board_id,
        line=view_line(view),
        svg=svg_markup(view.svg(shown)),
        status=state.status_line(),
        shown=shown,
        latest=latest,
        seats=seats,
        seat=seat,
        clocks=clocks_of(view, now),
        total_days=view.total_days,
        clocks_at=now,
        record=record_of(view),
        revision=view.revision,
        ending=ending_of(view),
        decline=around.may_decline(view, seat),
        bot_to_move=bot_to_move,
        next_board=waiting,
        watchers=around.watchers,
        proposals=view.proposal_sentences(),
        active=view.active,
        my_turn=my_turn,
        example=view.example_move(shown),
        buttons=move_entry.move_buttons(state) if my_turn else [],
        hints=view.hints,
        hint=hint,
    )


HOW = {
    Ending.RULES: "by the rules",
    Ending.RESIGNATION: "by resignation",
    Ending.DECLINED: "the challenge was declined: the game was never played",
    Ending.AGREED_DRAW: "by agreement",
    Ending.STANDING_DRAW: "a draw proposal stood unanswered",
    Ending.FORFEIT: "by forfeit: no move in time",
    Ending.OUT_OF_TIME: "on time: the game's clock ran out",
    Ending.UNANSWERED: "the challenge was never answered in time",
}
# Endings of a board that never started: no winner, no draw, no rematch.
NOT_STARTED = {Ending.DECLINED: "Declined", Ending.UNANSWERED: "Not started"}


@dataclass(frozen=True)
class GameOver:
    """How a finished board ended, for its page: who won (by userid) or that
    it was drawn, and how (the status line above gives the rules' words)."""

    headline: str  # "ann won", "Drawn", or "Declined" (a board never started)
    how: str
    started: bool = True  # False: declined or never answered (no rematch)


def ending_of(view: BoardView) -> GameOver | None:
    if view.active:
        return None
    how = HOW.get(view.ending, "") if view.ending is not None else ""
    if view.ending in NOT_STARTED:
        return GameOver(NOT_STARTED[view.ending], how, started=False)
    headline = "Drawn" if view.winner is None else f"{view.players[view.winner]} won"
    return GameOver(headline, how)


@router.get("/{game_name}/{board_id}/poll")
def poll(
    request: Request,
    game_name: str,
    board_id: BoardId,
    version: int,
    active: bool = True,
    hint: str = "",
    revision: int | None = None,
) -> Response:
    """For an open page: 204 while the board is as the page shows it; tell
    htmx to reload the page when the opponent moved, the game ended, or the
    hint the page waits for (`hint=pending`) came; when only chat was said,
    the record and this poller anew (swapped in out of band: a reload would
    lose what the player is typing)."""
    server = server_of(request)
    view = page_view(server, game_name, board_id)
    if view.version != version or active != view.active:
        return Response(status_code=200, headers={"HX-Refresh": "true"})
    userid = current_userid(request)
    waited = hint == "pending" and userid is not None
    if waited and server.latest_hint(board_id, str(userid), version):
        return Response(status_code=200, headers={"HX-Refresh": "true"})
    if revision is not None and revision != view.revision:
        fragment = TEMPLATES.get_template("_record_update.html").render(
            game=get_game(view.game),
            board_id=board_id,
            record=record_of(view),
            shown=view.version,
            latest=view.version,
            revision=view.revision,
            hint_pending=waited,
        )
        return HTMLResponse(fragment)
    return Response(status_code=204)


@router.post(
    "/{game_name}/{board_id}/preview",
    response_class=HTMLResponse,
    dependencies=[Depends(check_csrf)],
)
def preview(request: Request, game_name: str, board_id: BoardId, form: PostedForm) -> HTMLResponse:
    """The board after the move, played on a copy (the server's `preview`):
    nothing is stored or mailed."""
    text = str(form.get("move", "")).strip()
    state = page_view(server_of(request), game_name, board_id).state()
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
def move(request: Request, game_name: str, board_id: BoardId, form: PostedForm) -> RedirectResponse:
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


@router.post("/{game_name}/{board_id}/rematch", dependencies=[Depends(check_csrf)])
def rematch(request: Request, game_name: str, board_id: BoardId) -> RedirectResponse:
    """A new board for a finished board's players: the same game, options,
    timing, hints and ratedness, the seats swapped (who moved second moves
    first)."""
    game = game_or_404(game_name)
    userid = require_login(request)
    view = page_view(server_of(request), game.name, board_id)
    if view.active:
        flash(request, f"Board {board_id} is still being played: finish it first.", "error")
        return back(game.name, board_id)
    if view.seat_of(userid) is None:
        flash(request, f"Only the players of board {board_id} may ask for its rematch.", "error")
        return back(game.name, board_id)
    command = commands.Challenge(
        game=game.name,
        players=tuple(reversed(view.players)),
        options=tuple(view.parsed_options().args()),
        nag_days=view.nag_days,
        forfeit_days=view.forfeit_days,
        total_days=view.total_days,
        hints=view.hints,
        unrated=view.unrated,
        rematch_of=board_id,
    )
    outcome = act_on(request, userid, command)
    if not outcome.ok:
        flash(request, outcome.error or "", "error")
        return back(game.name, board_id)
    board = outcome.board
    if Effect.REMATCH_FOUND in outcome.effects:  # (a second click, or the other player's)
        flash(request, f"Board {board} is the rematch of board {board_id}, made already.")
    else:
        flash(request, f"Board {board} started: the rematch of board {board_id}, seats swapped.")
    return RedirectResponse(f"/{game.name}/{board}", status_code=303)


@router.post("/{game_name}/{board_id}/special", dependencies=[Depends(check_csrf)])
def special(
    request: Request, game_name: str, board_id: BoardId, form: PostedForm
) -> RedirectResponse:
    """Resign, propose a draw, undo, accept or reject; a queued move; chat."""
    game = game_or_404(game_name)
    userid = require_login(request)
    what = str(form.get("what", ""))
    comment = str(form.get("comment", ""))
    if what in SPECIAL:
        kind, final = SPECIAL[what]
        if final and form.get("confirm") != "yes":
            doing = "declining" if what == "decline" else "resigning"
            flash(request, f"Tick the box to confirm: {doing} cannot be taken back.", "error")
            return back(game.name, board_id)
        command: commands.OnBoard = kind(
            game=game.name, board=board_id, userid=userid, comment=comment
        )
    elif what == "queue":
        command = commands.Queue(
            game=game.name,
            board=board_id,
            userid=userid,
            move="".join(str(form.get("move", "")).split()),
            condition="".join(str(form.get("answer", "")).split()),
            comment=comment,
        )
    elif what == "chat":
        command = commands.Chat(game=game.name, board=board_id, userid=userid, comment=comment)
    else:
        raise HTTPException(422, f"There is no special move called {what[:20]!r}.")
    outcome = act_on(request, userid, command)
    if (
        outcome.ok
        and isinstance(command, commands.Resign)
        and declined(request, game.name, board_id)
    ):
        flash(request, "You declined the challenge: the board is over, and not rated.")
    elif outcome.ok:
        flash(request, done_message(outcome.effects))
    else:
        flash(request, outcome.error or "", "error")
    return back(game.name, board_id)


DONE = {
    Effect.RESIGNED: "You resigned.",
    Effect.RESIGN_QUEUED: "It is not your move: you resign when your turn comes.",
    Effect.PROPOSAL_REJECTED: "The proposal is rejected; play goes on.",
    Effect.VOTED: "Your vote is in; the others have been asked.",
    Effect.DRAWN: "Everyone agreed: the game is drawn.",
    Effect.TAKEN_BACK: "Everyone agreed: the last move is taken back.",
    Effect.CHATTED: "Your message was sent.",
    Effect.QUEUED: "The move is queued.",
    Effect.HINT_ASKED: "The engine is thinking: its hint appears on this page in a few seconds.",
}


def declined(request: Request, game: str, board_id: int) -> bool:
    """Whether the board ended as a declined challenge (a resignation
    before the first move, unaccepted, is one)."""
    return page_view(server_of(request), game, board_id).ending is Ending.DECLINED


def done_message(effects: tuple[Effect, ...]) -> str:
    """What a special move did, in a sentence for the next page (the last
    thing it did says the most: a vote that completes a draw draws)."""
    said = [DONE[effect] for effect in effects if effect in DONE]
    return said[-1] if said else "Done."


def require_login(request: Request) -> str:
    userid = current_userid(request)
    if userid is None:
        raise HTTPException(403, "Log in first: only a board's players may act on it.")
    return userid


def back(game: str, board_id: int) -> RedirectResponse:
    return RedirectResponse(f"/{game}/{board_id}", status_code=303)
