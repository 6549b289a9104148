"""Hints: a player asks the engine what it thinks of a board.

`GAME hint BOARD USERID PASSWORD` records the question (`HintRequest`); a
bot worker claims it, searches the position in a process of its own (never
inside the command) and `answer`s it: the best few moves of the player to
move with the engine's estimate of each, mailed to the asker alone and kept
for the board page. Hints are off unless the board was challenged with
`--hints`, which both players see on every board mail and agree to by
playing: otherwise one player could consult the engine in secret.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING

from sqlalchemy import or_, select, update

from ..games import get_game
from ..games.base import Game
from ..store import Board, HintRequest, User
from ..store.boards import rebuild
from ..store.database import rows_changed
from . import commands
from .accounts import main_address
from .context import Context, board_of, login, seat_of
from .errors import CONFLICT, CommandError
from .footers import with_footers
from .lifecycle import active_state
from .messages import Effect, Reply, queue_messages

if TYPE_CHECKING:
    from .service import Server

SHOWN = 3  # moves a hint lists


def ask(ctx: Context, game: Game, command: commands.Hint) -> None:
    """Record the question; the answer comes from the bot worker."""
    board = board_of(ctx, game, command.board)
    user = login(ctx, command.userid, command.password)
    seat_of(board, user)  # only a player of the board may ask
    active_state(board)
    if not board.hints:
        raise CommandError(
            f"Hints are off on board {board.id}: only a board challenged with --hints "
            f"allows them, so that nobody consults the engine in secret. For one, "
            f"challenge with '{game.name} challenge YOU OPPONENT --hints'.",
            board.id,
            kind=CONFLICT,
        )
    asked = ctx.session.scalar(
        select(HintRequest.id).where(
            HintRequest.board_id == board.id,
            HintRequest.user_id == user.id,
            HintRequest.version == board.version,
            HintRequest.answered_at.is_(None),
        )
    )
    if asked is None:
        ctx.session.add(
            HintRequest(
                board_id=board.id, user_id=user.id, version=board.version, created_at=ctx.now
            )
        )
    ctx.reply.did(Effect.HINT_ASKED)


@dataclass(frozen=True)
class HintTurn:
    """A question waiting for the engine: the board's record up to it."""

    id: int
    board: int
    game: str
    options: dict[str, object]
    moves: tuple[str, ...]


def open_hints(server: Server, limit: int = 10) -> list[HintTurn]:
    """Questions not answered and not being worked on, oldest first."""
    now = server.clock()
    with server.reads() as session:
        rows = session.execute(
            select(HintRequest, Board)
            .join(Board, Board.id == HintRequest.board_id)
            .where(
                HintRequest.answered_at.is_(None),
                or_(HintRequest.claimed_until.is_(None), HintRequest.claimed_until <= now),
            )
            .order_by(HintRequest.id)
            .limit(limit)
        ).all()
        return [
            HintTurn(
                request.id,
                board.id,
                board.game,
                dict(board.options),
                tuple(board.snapshot["moves"][: request.version]),
            )
            for request, board in rows
        ]


def claim_hint(server: Server, turn: HintTurn, seconds: float) -> bool:
    """Take the question for `seconds`; False when another worker has it."""
    now = server.clock()
    with server.sessions.begin() as session:
        taken = session.execute(
            update(HintRequest)
            .where(
                HintRequest.id == turn.id,
                HintRequest.answered_at.is_(None),
                or_(HintRequest.claimed_until.is_(None), HintRequest.claimed_until <= now),
            )
            .values(claimed_until=now + timedelta(seconds=seconds))
        )
        return rows_changed(taken) == 1


@dataclass(frozen=True)
class Suggestion:
    """One move of a hint: its text, the mover's estimated share of the game
    after it (0 to 1), and how many playouts went through it."""

    move: str
    win_rate: float
    playouts: int
    proven: bool = False


def answer(
    server: Server, turn: HintTurn, suggestions: Sequence[Suggestion], playouts: int
) -> None:
    """Keep the answer and mail it to the asker (unless their mail is off)."""
    now = server.clock()
    with server.sessions.begin() as session:
        request = session.get_one(HintRequest, turn.id)
        if request.answered_at is not None:
            return  # another worker answered first
        board = session.get_one(Board, turn.board)
        user = session.get_one(User, request.user_id)
        state = rebuild(board, request.version)
        text = hint_text(board.id, request.version, state.status_line(), suggestions, playouts)
        request.answer = text
        request.answered_at = now
        address = main_address(user)
        if address is not None and user.mail_preference != "none":
            reply = Reply()
            reply.send(address, f"{get_game(board.game).title} Board {board.id} hint", text)
            queue_messages(session, with_footers(session, reply.messages), now, None)


def hint_text(
    board: int, version: int, status: str, suggestions: Sequence[Suggestion], playouts: int
) -> str:
    """The answer as people read it, in a mail and on the board page."""
    lines = [
        f"The engine's view of board {board} after move {version} ({status}), "
        f"from {playouts:,} playouts:"
    ]
    for rank, suggestion in enumerate(suggestions[:SHOWN], start=1):
        chance = f"{100 * suggestion.win_rate:.0f}% to win"
        if suggestion.proven:
            chance = "a proven win" if suggestion.win_rate == 1.0 else "a proven loss"
        lines.append(f"  {rank}. {suggestion.move}: {chance} ({suggestion.playouts:,} playouts)")
    lines.append("The estimates come from random games: a guide, not a proof.")
    return "\n".join(lines) + "\n"


def latest_hint(server: Server, board: int, userid: str, version: int) -> str | None:
    """The newest answered hint `userid` asked on `board` at `version`; ""
    while one is still being worked out; None when they asked none."""
    with server.reads() as session:
        row = session.execute(
            select(HintRequest.answer, HintRequest.answered_at)
            .join(User, User.id == HintRequest.user_id)
            .where(
                HintRequest.board_id == board,
                HintRequest.version == version,
                User.userid_key == userid.lower(),
            )
            .order_by(HintRequest.id.desc())
            .limit(1)
        ).first()
    if row is None:
        return None
    return row.answer if row.answered_at is not None else ""
