"""What the last board mail of a game tells besides the board, as pbmserv's
did: who won and how, when the game started and ended, the time each player
took, and each player's rating change (or that the game was not rated); and
the short mail to those who asked to hear when a board ends (`notify`).

The board is rated here, in the transaction that ends it, so that its mail
can give the new ratings (`rate_finished_boards` rates each board once; the
command's own call after it finds nothing left to do)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session

from ...games import get_game
from ...store import Board, BoardStatus, Ending, Rating, RatingEvent, Subscription, SubscriptionKind
from ...store.boards import rebuild, time_used
from ..language.english import plural
from ..players.accounts import main_address
from ..players.ratings import ESTABLISHED, rate_finished_boards

if TYPE_CHECKING:
    from ..context import Context


def game_over_story(session: Session, board: Board, now: datetime) -> str:
    """The lines that open a finished board's mail ('' for a board still
    being played)."""
    if board.status is not BoardStatus.FINISHED:
        return ""
    rate_finished_boards(session, now)
    names = [player.user.userid for player in board.players]
    lines = [f"Game over: {_outcome(board, names)}."]
    ended = board.updated_at
    lines.append(
        f"Started {_when(board.created_at)}, ended {_when(ended)}, after "
        f"{plural(board.version, 'move')}."
    )
    used = _time_used(board, len(names), ended)
    lines.append(
        "Time taken: "
        + ", ".join(f"{n} {duration(t)}" for n, t in zip(names, used, strict=True))
        + "."
    )
    lines.extend(_rating_lines(session, board, names))
    return "\n".join(lines) + "\n\n"


def _outcome(board: Board, names: list[str]) -> str:
    """How the game ended, naming the winner by userid (the server's own
    endings say who won already: 'ann resigned; bob wins')."""
    reason = board.result or "the game ended"
    if board.winner is None:
        said_so = board.ending in (
            Ending.AGREED_DRAW,
            Ending.STANDING_DRAW,
            Ending.DECLINED,
            Ending.UNANSWERED,
        )  # (a challenge declined or never answered: no game, so no "no winner")
        return reason if said_so else f"no winner; {reason}"
    return f"{names[board.winner]} wins; {reason}" if board.ending is Ending.RULES else reason


def _time_used(board: Board, seats: int, ended: datetime) -> list[timedelta]:
    """Each seat's thinking time (`store.boards.time_used`, to the end); the
    wait of the player to move when the game ended (a resignation, a
    forfeit) counts as theirs."""
    moves = sorted(board.moves, key=lambda row: row.number)
    used = [time_used(board, moves, seat, ended) for seat in range(seats)]
    waiting = rebuild(board).to_move
    last = moves[-1].played_at if moves else board.created_at
    if waiting is not None:
        used[waiting] += ended - last
    return used


def _rating_lines(session: Session, board: Board, names: list[str]) -> list[str]:
    events = {
        event.user_id: event
        for event in session.scalars(select(RatingEvent).where(RatingEvent.board_id == board.id))
    }
    if not events:
        return ["This game was not rated."]
    lines = []
    for player, name in zip(board.players, names, strict=True):
        event = events.get(player.user_id)
        if event is None:
            continue
        games = session.scalar(
            select(Rating.games).where(Rating.user_id == player.user_id, Rating.game == board.game)
        )
        before, after = round(event.before), round(event.after)
        if after > before:
            change = f"went up from {before} to {after}"
        elif after < before:
            change = f"went down from {before} to {after}"
        else:
            change = f"stayed at {after}"
        provisional = " (provisional)" if games is not None and games < ESTABLISHED else ""
        lines.append(f"{name}'s rating {change}{provisional}.")
    return lines


def _when(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def duration(span: timedelta) -> str:
    """'2 days 3 hours', '5 hours 10 minutes', 'under a minute'."""
    minutes = int(span.total_seconds() // 60)
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    parts = [(days, "day"), (hours, "hour")] if days else [(hours, "hour"), (minutes, "minute")]
    said = " ".join(plural(n, noun) for n, noun in parts if n)
    return said or "under a minute"


def notices(ctx: Context, board: Board, story: str) -> None:
    """A board ended: a short mail to each who asked to be told (`notify`)
    and gets no board mail of it (neither a player nor a subscriber)."""
    wishes = ctx.session.scalars(
        select(Subscription).where(
            Subscription.game == board.game,
            ((Subscription.kind == SubscriptionKind.OVER) & (Subscription.board_id == board.id))
            | (
                (Subscription.kind == SubscriptionKind.EVERY_OVER) & Subscription.board_id.is_(None)
            ),
        )
    ).all()
    told = {p.user_id for p in board.players}
    told |= set(
        ctx.session.scalars(
            select(Subscription.user_id).where(
                Subscription.board_id == board.id, Subscription.kind == SubscriptionKind.BOARD
            )
        )
    )
    title = get_game(board.game).title
    names = " against ".join(player.user.userid for player in board.players)
    for wish in wishes:
        if wish.user_id in told:
            continue
        told.add(wish.user_id)
        stop = (
            f"'{board.game} notify {wish.user.userid} PASSWORD {board.id} off'"
            if wish.kind == SubscriptionKind.OVER
            else f"'{board.game} notify {wish.user.userid} PASSWORD off'"
        )
        ctx.reply.send(
            main_address(wish.user),
            f"{title} Board {board.id} is over",
            f"{title} board {board.id} ({names}) is over.\n"
            f"{story}'{board.game} show {board.id}' shows it; {stop} stops these mails.\n",
        )
