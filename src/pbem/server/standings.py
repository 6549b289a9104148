"""Standings, rating history, and the limit and seek settings they show."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from ..games.base import Game
from ..store import Board, BoardPlayer, Rating, RatingEvent, User
from ..store.boards import boards_of
from .accounts import main_address, user_named
from .context import Context, login, usage
from .errors import CommandError
from .ratings import ESTABLISHED, rating_row

INACTIVE_AFTER = timedelta(days=180)


def active_boards(ctx: Context, user_id: int, game: str) -> int:
    return len(boards_of(ctx.session, user_id, game=game, active=True))


@dataclass(frozen=True)
class Standing:
    """One line of the standings."""

    userid: str
    rating: float
    games: int
    wins: int
    losses: int
    draws: int
    active: int
    limit: int | None
    seeking: int


def active_counts(session: Session, game: str) -> dict[int, int]:
    """How many active boards of the game each player has, in one query."""
    query = (
        select(BoardPlayer.user_id, func.count())
        .join(Board, Board.id == BoardPlayer.board_id)
        .where(Board.game == game, Board.status == "active")
        .group_by(BoardPlayer.user_id)
    )
    return dict(session.execute(query).all())  # rows of (user_id, count)


def standing_sections(session: Session, game: str, now: datetime) -> dict[str, list[Standing]]:
    """Established, provisional and inactive players, best first (players
    who never played and seek nothing are left out)."""
    rows = session.scalars(
        select(Rating)
        .where(Rating.game == game)
        .order_by(Rating.rating.desc())
        .options(selectinload(Rating.user))
    ).all()
    counts_of = active_counts(session, game)
    sections: dict[str, list[Standing]] = {"Established": [], "Provisional": [], "Inactive": []}
    for row in rows:
        active = counts_of.get(row.user_id, 0)
        if row.games == 0 and not row.seeking and row.limit is None:
            continue
        recent = row.last_played is not None and now - row.last_played <= INACTIVE_AFTER
        if not active and not recent and row.games:
            section = "Inactive"
        else:
            section = "Established" if row.games >= ESTABLISHED else "Provisional"
        counts = (row.games, row.wins, row.losses, row.draws)
        standing = Standing(row.user.userid, row.rating, *counts, active, row.limit, row.seeking)
        sections[section].append(standing)
    return sections


def standings(ctx: Context, game: Game, words: list[str]) -> None:
    """Established, provisional and inactive players, best first."""
    usage(f"{game.name} standings", words, 0)
    lines = [f"{game.title} standings"]
    header = "Player           Rating Games  W-L-D     Active/Limit Seeking"
    for title, entries in standing_sections(ctx.session, game.name, ctx.now).items():
        if not entries:
            continue
        lines += ["", f"{title}:", header]
        for rank, s in enumerate(entries, start=1):
            limit = "-" if s.limit is None else str(s.limit)
            lines.append(
                f"{rank:>3}. {s.userid:<16} {s.rating:>6.0f} {s.games:>5}  "
                f"{s.wins:>3}-{s.losses}-{s.draws:<6} {s.active:>3}/{limit:<5} {s.seeking:>3}"
            )
    if len(lines) == 1:
        lines.append("No rated games yet.")
    ctx.reply.send(ctx.sender, f"{game.title} standings", "\n".join(lines) + "\n")


def history(ctx: Context, game: Game, words: list[str]) -> None:
    """One line per finished board of the player: result and rating change."""
    usage(f"{game.name} history USERID", words, 1)
    user = user_named(ctx.session, words[0])
    events = ctx.session.scalars(
        select(RatingEvent)
        .where(RatingEvent.user_id == user.id, RatingEvent.game == game.name)
        .order_by(RatingEvent.id)
    ).all()
    lines = [f"{game.title} history of {user.userid}:"]
    for event in events:
        opponent = ctx.session.get_one(User, event.opponent_id).userid
        result = {1.0: "won against", 0.5: "drew with", 0.0: "lost to"}[event.outcome]
        lines.append(
            f"  board {event.board_id:>5} {event.created_at:%Y-%m-%d}: {result} {opponent}, "
            f"{event.before:.0f} -> {event.after:.0f}"
        )
    if not events:
        lines.append("  no finished games yet")
    ctx.reply.send(ctx.sender, f"{game.title} history {user.userid}", "\n".join(lines) + "\n")


def limit(ctx: Context, game: Game, words: list[str]) -> None:
    """`limit USERID PASSWORD N|none`: the most boards of this game at once."""
    usage(f"{game.name} limit USERID PASSWORD N|none", words, 3)
    user = login(ctx, words[0], words[1])
    row = rating_row(ctx.session, user.id, game.name)
    if words[2].lower() == "none":
        row.limit = None
        said = "no limit"
    elif words[2].isdigit() and int(words[2]) <= 1000:
        row.limit = int(words[2])
        said = f"at most {row.limit} boards at once"
    else:
        raise CommandError(f"Write a number of boards (0 to 1000) or none: {game.name} limit ...")
    ctx.reply.send(
        main_address(user), f"{game.title} limit {user.userid}", f"{game.title}: {said}.\n"
    )


def seek(ctx: Context, game: Game, words: list[str]) -> None:
    """`seek USERID PASSWORD N`: how many new boards the player would like."""
    usage(f"{game.name} seek USERID PASSWORD N", words, 3)
    user = login(ctx, words[0], words[1])
    if not words[2].isdigit() or int(words[2]) > 100:
        raise CommandError(f"Write how many games you seek, 0 to 100: {game.name} seek ...")
    rating_row(ctx.session, user.id, game.name).seeking = int(words[2])
    ctx.reply.send(
        main_address(user),
        f"{game.title} seek {user.userid}",
        f"{user.userid} now seeks {words[2]} {game.title} games; the standings show it.\n",
    )
