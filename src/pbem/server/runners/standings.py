"""Standings, rating history, and the limit and seek settings they show."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Select, and_, func, or_, select
from sqlalchemy.orm import InstrumentedAttribute, Session, aliased

from ...games.base import Game
from ...store import Board, BoardPlayer, BoardStatus, Rating, RatingEvent, User
from ..context import Context, login
from ..errors import CommandError
from ..language import commands
from ..language.english import plural
from ..language.registry import runs
from ..players.accounts import main_address, user_named
from ..players.ratings import ESTABLISHED, INACTIVE_AFTER, rating_row


def active_boards(ctx: Context, user_id: int, game: str) -> int:
    return active_counts(ctx.session, game, [user_id]).get(user_id, 0)


@dataclass(frozen=True)
class StandingsLine:
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
    bot: bool = False  # a built-in AI opponent
    rejects: bool = False  # takes no new challenge (pbmserv's "/reject")

    @property
    def name(self) -> str:
        """The userid as lists show it: a bot's says so."""
        return f"{self.userid} (bot)" if self.bot else self.userid


SECTION_SIZE = 100  # players a section lists at once (the page links to the next ones)
SECTIONS = ("Established", "Provisional", "Inactive")


def active_counts(session: Session, game: str, user_ids: list[int]) -> dict[int, int]:
    """How many active boards of the game each of these players has (a
    board they play both seats of counts once): one query, a count for
    each player over their active seats, by the active seats' index. Its
    cost grows with the players asked about and the boards they are
    playing, not with the boards they ever played. (Written as a count per
    player so that the planner starts from the players: one join over all
    of them, SQLite answered by walking every active board.)"""
    boards = func.count(func.distinct(BoardPlayer.board_id))
    count = _playing(select(boards), game, User.id).scalar_subquery()
    query = select(User.id, count).where(User.id.in_(user_ids))
    return {user_id: found for user_id, found in session.execute(query).all() if found}


def _playing(query: Select[Any], game: str, user_id: InstrumentedAttribute[int]) -> Select[Any]:
    """`query` over the player's (`user_id`) seats at active boards of the
    game, by the active seats' index (it holds those seats alone)."""
    return (
        query.select_from(BoardPlayer)
        .join(Board, Board.id == BoardPlayer.board_id)
        .where(
            BoardPlayer.active,
            BoardPlayer.user_id == user_id,
            Board.game == game,
            Board.status == BoardStatus.ACTIVE,
        )
    )


def section_filter(game: str, section: str, now: datetime) -> ColumnElement[bool]:
    """Who is in a section: players who played or seek games; inactive, those
    with games, no active board and none played for INACTIVE_AFTER; the rest
    established from ESTABLISHED games on, provisional before."""
    playing = _playing(select(BoardPlayer.user_id), game, Rating.user_id).exists()
    # A player with games has a last play (ratings.py sets both; migration
    # 0026 filled in any missing), so the stale are found by its index.
    stale = Rating.last_played < now - INACTIVE_AFTER
    inactive = and_(stale, Rating.games > 0, ~playing)
    if section == "Inactive":
        return inactive
    listed = or_(Rating.games > 0, Rating.seeking > 0, Rating.limit.is_not(None), Rating.rejects)
    games = Rating.games >= ESTABLISHED if section == "Established" else Rating.games < ESTABLISHED
    return and_(listed, ~inactive, games)


def section_query(
    game: str, section: str, now: datetime, start: int, count: int
) -> Select[Rating, str, str | None]:
    """The players of a section, best first, with their userids and bot
    levels: `count` of them from the `start`-th (0 first). A player who
    signed off is in none (their history stays)."""
    return (
        select(Rating, User.userid, User.bot_level)
        .join(User, User.id == Rating.user_id)
        .where(Rating.game == game, ~User.signed_off, section_filter(game, section, now))
        .order_by(Rating.rating.desc(), Rating.id)
        .offset(start)
        .limit(count)
    )


def standing_sections(
    session: Session,
    game: str,
    now: datetime,
    *,
    start: dict[str, int] | None = None,
    size: int = SECTION_SIZE,
) -> dict[str, list[StandingsLine]]:
    """Established, provisional and inactive players, best first (players
    who never played and seek nothing are left out): `size` of each, from
    the `start`-th (0 first) of a section; a list one longer than `size`
    means more follow. Cost does not grow with the number of players."""
    found: dict[str, list[tuple[Rating, str, str | None]]] = {}
    for section in SECTIONS:
        query = section_query(game, section, now, (start or {}).get(section, 0), size + 1)
        found[section] = [(row, name, level) for row, name, level in session.execute(query)]
    ids = [row.user_id for rows in found.values() for row, _, _ in rows]
    counts_of = active_counts(session, game, ids) if ids else {}
    return {
        section: [
            StandingsLine(
                name,
                row.rating,
                row.games,
                row.wins,
                row.losses,
                row.draws,
                counts_of.get(row.user_id, 0),
                row.limit,
                row.seeking,
                level is not None,
                row.rejects,
            )
            for row, name, level in rows
        ]
        for section, rows in found.items()
    }


@runs(commands.Standings)
def standings(ctx: Context, game: Game, command: commands.Standings) -> None:
    """Established, provisional and inactive players, best first: a table
    whose headers stand over their columns, however long the userids."""
    lines = [f"{game.title} standings"]
    sections = standing_sections(ctx.session, game.name, ctx.now)
    shown = [s for entries in sections.values() for s in entries[:SECTION_SIZE]]
    width = max([16, *(len(s.name) for s in shown)])
    header = (
        f"{'':4} {'Player':<{width}} {'Rating':>6} {'Games':>5}  {'W-L-D':<9} "
        f"{'Active/Limit':>12} {'Seeking':>7}"
    )
    for title, entries in sections.items():
        if not entries:
            continue
        lines += ["", f"{title}:", header]
        for rank, s in enumerate(entries[:SECTION_SIZE], start=1):
            limit = "reject" if s.rejects else "-" if s.limit is None else str(s.limit)
            lines.append(
                f"{rank:>3}. {s.name:<{width}} {s.rating:>6.0f} {s.games:>5}  "
                f"{f'{s.wins}-{s.losses}-{s.draws}':<9} {f'{s.active}/{limit}':>12} "
                f"{s.seeking:>7}"
            )
        if len(entries) > SECTION_SIZE:
            lines.append(f"  ... and more: the standings page on the web lists every {title}")
    if len(lines) == 1:
        lines.append("No rated games yet.")
    else:
        lines += ["", "All together (E established, P provisional, I inactive):"]
        together = sorted(
            ((s, title[0]) for title, entries in sections.items() for s in entries[:SECTION_SIZE]),
            key=lambda pair: -pair[0].rating,
        )
        for rank, (s, letter) in enumerate(together, start=1):
            lines.append(f"{rank:>3}. {s.name:<{width}} {s.rating:>6.0f} {letter}")
    ctx.reply.send(ctx.sender, f"{game.title} standings", "\n".join(lines) + "\n")


MOST_HISTORY = 300  # rated boards in one `history` with no player


@runs(commands.History)
def history(ctx: Context, game: Game, command: commands.History) -> None:
    """One line per finished board of the player: result and rating change;
    with no player, the game's rated boards, the newest last."""
    if command.player is None:
        game_history(ctx, game)
        return
    user = user_named(ctx.session, command.player)
    events = ctx.session.execute(
        select(RatingEvent, User.userid)
        .join(User, User.id == RatingEvent.opponent_id)
        .where(RatingEvent.user_id == user.id, RatingEvent.game == game.name)
        .order_by(RatingEvent.id)
    ).all()
    lines = [f"{game.title} history of {user.userid}:"]
    for event, opponent in events:
        result = {1.0: "won against", 0.5: "drew with", 0.0: "lost to"}[event.outcome]
        lines.append(
            f"  board {event.board_id:>5} {event.created_at:%Y-%m-%d}: {result} {opponent}, "
            f"{event.before:.0f} -> {event.after:.0f}"
        )
    if not events:
        lines.append("  no finished games yet")
    ctx.reply.send(ctx.sender, f"{game.title} history {user.userid}", "\n".join(lines) + "\n")


MAX_LIMIT = 1000
MAX_SEEK = 100


@runs(commands.Limit)
def limit(ctx: Context, game: Game, command: commands.Limit) -> None:
    """The most boards of this game the player plays at once (None: no
    limit); or whether they take new challenges; or only what is set."""
    if command.limit is not None and not 0 <= command.limit <= MAX_LIMIT:
        raise CommandError(
            f"Write a number of boards (0 to {MAX_LIMIT}) or none: {game.name} limit ..."
        )
    user = login(ctx, command.userid, command.password)
    row = rating_row(ctx.session, user.id, game.name)
    if command.choice == "accept":  # as pbmserv: challenges taken again, the cap lifted
        row.rejects, row.limit = False, None
    elif command.choice == "reject":
        row.rejects = True
    elif command.choice is None:
        row.limit = command.limit
    playing = active_boards(ctx, user.id, game.name)
    again = f"'{game.name} limit {user.userid} PASSWORD accept'"
    if row.rejects:
        lifted = "" if row.limit is None else " and lifts the limit"
        said = (
            "no limit" if row.limit is None else f"at most {plural(row.limit, 'board')} at once"
        ) + f", and you refuse new challenges ({again} takes them again{lifted})"
    elif row.limit == 0:
        said = (
            "a limit of 0 boards: every new challenge to you is refused until you raise it "
            f"('{game.name} limit {user.userid} PASSWORD N') or lift it ({again} or 'none')"
        )
    elif row.limit is not None:
        said = f"at most {plural(row.limit, 'board')} at once, and you take new challenges"
    else:
        said = "no limit, and you take new challenges"
    ctx.reply.send(
        main_address(user),
        f"{game.title} limit {user.userid}",
        f"{game.title}: {said}. You play {plural(playing, f'{game.title} board')} now.\n",
    )


@runs(commands.Seek)
def seek(ctx: Context, game: Game, command: commands.Seek) -> None:
    """How many new boards of this game the player would like (None: only
    say how many now)."""
    if command.count is not None and not 0 <= command.count <= MAX_SEEK:
        raise CommandError(f"Write how many games you seek, 0 to {MAX_SEEK}: {game.name} seek ...")
    user = login(ctx, command.userid, command.password)
    row = rating_row(ctx.session, user.id, game.name)
    if command.count is not None:
        row.seeking = command.count
    ctx.reply.send(
        main_address(user),
        f"{game.title} seek {user.userid}",
        f"{user.userid} now seeks {plural(row.seeking, f'{game.title} game')}; the standings "
        "show it.\n",
    )


def game_history(ctx: Context, game: Game) -> None:
    """Every rated board of the game (the newest MOST_HISTORY): who beat
    whom, or drew, and both rating changes."""
    opponent = aliased(User)
    rows = ctx.session.execute(
        select(RatingEvent, User.userid, opponent.userid)
        .join(User, User.id == RatingEvent.user_id)
        .join(opponent, opponent.id == RatingEvent.opponent_id)
        .where(RatingEvent.game == game.name, RatingEvent.outcome >= 0.5)
        .order_by(RatingEvent.id.desc())
        .limit(2 * MOST_HISTORY)
    ).all()
    seen: set[int] = set()
    lines = []
    for event, name, other in rows:
        if event.board_id in seen or len(seen) == MOST_HISTORY:
            continue  # (a draw: the first of its two rows)
        seen.add(event.board_id)
        how = "beat" if event.outcome == 1.0 else "drew with"
        lines.append(
            f"  board {event.board_id:>5} {event.created_at:%Y-%m-%d}: {name} {how} {other} "
            f"({name} {event.before:.0f} -> {event.after:.0f})"
        )
    lines.reverse()
    head = f"{game.title} history: the rated boards, the newest last"
    if not lines:
        lines = ["  no rated games yet"]
    ctx.reply.send(ctx.sender, f"{game.title} history", "\n".join([head + ":", *lines]) + "\n")
