"""Hints: a player asks the engine what it thinks of a board.

`GAME hint BOARD USERID PASSWORD` records the question (`HintRequest`); a
bot worker claims it (`bot_turns.claim_hint`), searches the position in a
process of its own (never inside the command) and answers it
(`bot_turns.answer_hint`): the best few moves of the player to
move with the engine's estimate of each, mailed to the asker alone and kept
for the board page. Hints are off unless the board was challenged with
`--hints`, which both players see on every board mail and agree to by
playing: otherwise one player could consult the engine in secret.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ...games.base import Game
from ...store import HintRequest, User
from ..context import Context, board_of, login, seat_of
from ..errors import CONFLICT, CommandError
from ..language import commands
from ..language.messages import Effect
from ..language.registry import runs
from .lifecycle import active_state

SHOWN = 3  # moves a hint lists
# Questions one player may ask an hour (issue 50: each is a search of the
# bots' time); the setting hints_per_hour, given by `runners.board_commands.set_limits`.
HINTS_PER_HOUR = 20


@runs(commands.Hint)
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
        lately = ctx.session.scalar(
            select(func.count(HintRequest.id)).where(
                HintRequest.user_id == user.id,
                HintRequest.created_at > ctx.now - timedelta(hours=1),
            )
        )
        if (lately or 0) >= HINTS_PER_HOUR:
            raise CommandError(
                f"{user.userid} has asked for {lately} hints in the last hour, the most a "
                f"player may ask an hour (the server's limit hints_per_hour), so that the "
                f"engine's time is shared: ask again later.",
                board.id,
                kind=CONFLICT,
            )
        ctx.session.add(
            HintRequest(
                board_id=board.id, user_id=user.id, version=board.version, created_at=ctx.now
            )
        )
    ctx.reply.did(Effect.HINT_ASKED)


@dataclass(frozen=True)
class Suggestion:
    """One move of a hint: its text, the mover's estimated share of the game
    after it (0 to 1), and how many playouts went through it."""

    move: str
    win_rate: float
    playouts: int
    proven: bool = False


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


def latest_hint(session: Session, board: int, userid: str, version: int) -> str | None:
    """The newest answered hint `userid` asked on `board` at `version`; ""
    while one is still being worked out; None when they asked none."""
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
