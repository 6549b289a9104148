"""Board mails in pbmserv's form: the subject names the board and the player
to move; the body has the heading, the status, the recent moves in columns,
the text board drawn for the reader, the comment, and how to stop the mail.
`send_board` sends one to each player who wants it and each subscriber.

Bodies are drawn from the board's view (`board_view.py`), the read model
the pages and the API show, read in the command's own transaction
(`view_in`) so that they include what the command just did."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ...games import get_game
from ...games.base import State
from ...store import Board, Subscription, SubscriptionKind, User
from ...store.positions import text_board
from ..context import seat_of, sending_user
from ..language.english import plural
from ..language.messages import MailedBoard
from ..players.accounts import main_address
from ..views.board_view import BoardView, as_shown, read_view
from .game_over import duration, game_over_story, notices

if TYPE_CHECKING:
    from ..context import Context

RECENT_MOVES = 20  # the move list shows the last ones; `show` on the web has them all

# What opens a board mail: the same for every reader, or written for each
# (the user it goes to; None for a copy to someone who is no account here).
Opening = str | Callable[[User | None], str]


def opening_for(opening: Opening, reader: User | None) -> str:
    return opening if isinstance(opening, str) else opening(reader)


def view_in(session: Session, board: Board) -> BoardView:
    """The board's view as this transaction sees it, the command's own
    changes included."""
    session.flush()
    view = read_view(session.connection(), board.id)
    assert view is not None  # the board is in this transaction
    return view


def subject(board: BoardView, state: State[Any], commented: bool = False) -> str:
    """'Vasco Board 101 alice': the player to move, or 'game over'."""
    title = get_game(board.game).title
    seat = state.to_move
    who = "game over" if seat is None or board.status.over else board.players[seat]
    return f"{title} Board {board.id} {who}" + (" **" if commented else "")


def starred(topic: str, comment: str) -> str:
    """A subject with pbmserv's ' **' when a comment came with the command."""
    return topic + " **" if comment.strip() else topic


def quoted(comment: str, who: str) -> str:
    """A comment passed on in a mail that is no board mail: 'ann writes:'
    and the comment quoted; '' for none."""
    if not comment.strip():
        return ""
    return f"\n{who} writes:\n" + "".join(f"> {line}\n" for line in comment.strip().splitlines())


def heading(board: BoardView, state: State[Any]) -> list[str]:
    game = get_game(board.game)
    seats = " against ".join(
        f"{name} as {state.side_text(seat)}" for seat, name in enumerate(board.players)
    )
    lines = [f"{game.title} board {board.id}: {seats}."]
    options = board.parsed_options().args()
    timing = []
    if board.nag_days:
        timing.append(f"nags after {days(board.nag_days)}")
    if board.forfeit_days:
        timing.append(f"forfeits after {days(board.forfeit_days)}")
    if board.total_days:
        timing.append(f"each player has {days(board.total_days)} in all")
    extras = []
    if options:
        extras.append("Options: " + " ".join(options) + ".")
    if timing:
        extras.append("Timing: " + ", ".join(timing) + ".")
    if extras:
        lines.append(" ".join(extras))
    return lines


def days(count: int) -> str:
    return plural(count, "day")


def move_columns(board: BoardView, state: State[Any]) -> list[str]:
    """The recent moves, two to a line: number, player, move (note); every
    move of a finished game, as pbmserv's last mail had them."""
    records = list(state.history)
    first = 0 if board.status.over else max(0, len(records) - RECENT_MOVES)
    cells = []
    for number, record in enumerate(records[first:], start=first + 1):
        played = board.moves[number - 1] if number <= len(board.moves) else None
        comment = "*" if played is not None and played.comment else ""
        auto = " (Auto)" if played is not None and played.auto else ""  # a queued move, played
        cells.append(
            f"{number:>3}. {board.players[record.player]:<10} {record.text}{comment}{auto}"
        )
    if not cells:
        return ["No moves yet."]
    width = max(len(cell) for cell in cells) + 3
    lines = ["Moves (* came with a comment):" if "*" in "".join(cells) else "Moves:"]
    if first:
        lines.append(f"  ... {first} earlier moves")
    for i in range(0, len(cells), 2):
        lines.append("  " + "".join(cell.ljust(width) for cell in cells[i : i + 2]).rstrip())
    return lines


def setup_step(board: BoardView, state: State[Any]) -> str:
    """Vacu's komi step, said with the players' names and the command to
    send ('' past it, and in the other games): the drawing says only 'the
    first player', as it knows no names."""
    phase = getattr(state, "phase", None)  # (Vacu's states have one)
    seat = state.to_move
    if board.status.over or seat is None or phase not in ("komi", "colour"):
        return ""
    name, number = board.players[seat], board.version + 1
    send = f"'{board.game} move {board.id} {name} PASSWORD"
    if phase == "komi":
        return (
            f"{name} names the komi, then {board.players[1 - seat]} chooses a colour. "
            f"{name} sends {send} komi6#{number}' (any whole number in place of 6)."
        )
    return f"{name} chooses a colour: {send} black#{number}' or {send} white#{number}'."


def clock_line(board: BoardView, now: datetime | None) -> str:
    """'Time (10 days each): ann used 2 hours, 9 days 22 hours left; bob ...'
    ('' without --totaltime); without `now`, as of the board's last change."""
    at = board.updated_at if now is None else now
    times = board.clocks(at)
    if not times:
        return ""
    each = "; ".join(
        f"{name} used {duration(spent)}, {duration(left)} left"
        for name, (spent, left) in zip(board.players, times, strict=True)
    )
    when = "" if now is not None else f", as of {board.updated_at:%Y-%m-%d %H:%M} UTC"
    return f"Time ({days(board.total_days or 0)} each{when}): {each}."


def board_body(
    board: BoardView,
    state: State[Any],
    reader: int | None,
    *,
    comment: str = "",
    commenter: str = "",
    watchers: list[str] | None = None,
    said: str = "",
    now: datetime | None = None,
) -> str:
    """The whole body of a board mail for one reader (a seat, or None);
    `said` heads the comment (default 'Comment from COMMENTER:'); on a
    `--totaltime` board, each player's time used and left at `now`."""
    lines = heading(board, state)  # (a board over says so below the drawing)
    clock = clock_line(board, now) if board.active else ""
    if clock:
        lines.append(clock)
    lines.append("")
    lines.extend(move_columns(board, state))
    lines.append("")
    shown = as_shown(state, board.status, board.version, board.result, board.winner)
    lines.append(text_board(shown, reader).rstrip("\n"))
    step = setup_step(board, state)
    if step:
        lines.append(step)
    if watchers:
        lines.append("")
        lines.append("Subscribers: " + ", ".join(watchers) + ".")
    if comment.strip():
        lines.append("")
        lines.append(said or f"Comment from {commenter}:")
        lines.extend(f"> {line}" for line in comment.strip().splitlines())
    return "\n".join(lines) + "\n"


def subscribers(session: Session, board: Board) -> list[User]:
    """Who follows the board without playing on it."""
    return list(
        session.scalars(
            select(User)
            .join(Subscription, Subscription.user_id == User.id)
            .where(Subscription.board_id == board.id, Subscription.kind == SubscriptionKind.BOARD)
            .order_by(User.userid_key)
        ).all()
    )


def send_board(
    ctx: Context,
    board: Board,
    state: State[Any],
    *,
    comment: str = "",
    commenter: str = "",
    said: str = "",
    opening: Opening = "",
    new: bool = False,
) -> None:
    """The board mail to each player who wants every mail, to the board's
    subscribers, and to the sender when they are neither. A `new` board's
    subject is pbmserv's 'New Vasco Board 101 alice'; a comment, headed
    `said` (default 'Comment from COMMENTER:'), adds ' **' to it. The
    `opening` goes before the board: one text, or one written for each
    reader."""
    story = game_over_story(ctx.session, board, ctx.now)
    if story:
        notices(ctx, board, story)
    view = view_in(ctx.session, board)
    topic = ("New " if new else "") + subject(view, state, commented=bool(comment.strip()))
    watchers = [u for u in subscribers(ctx.session, board) if u.mail_preference != "none"]
    names = [u.userid for u in watchers]
    sent: set[str] = set()
    for player in board.players:
        user = player.user
        if user.mail_preference != "every" or player.seat != seat_of(board, user):
            continue  # (a player on several seats gets one mail, drawn for their turn)
        body = board_body(
            view, state, player.seat, comment=comment, commenter=commenter, watchers=names,
            said=said, now=ctx.now,
        )  # fmt: skip
        picture = MailedBoard(board.id, board.version, player.seat)
        address = main_address(user)
        if address is not None:
            ctx.reply.send(address, topic, story + opening_for(opening, user) + body, board=picture)
            sent.add(address.lower())
    onlooker = MailedBoard(board.id, board.version)
    copy = board_body(
        view,
        state,
        None,
        comment=comment,
        commenter=commenter,
        watchers=names,
        said=said,
        now=ctx.now,
    )  # the same for every subscriber; fmt: skip
    for user in watchers:
        footer = (
            f"You follow board {board.id}: '{board.game} unsubscribe {user.userid} PASSWORD "
            f"{board.id}' stops these copies."
        )
        address = main_address(user)
        if address is not None:
            text = story + opening_for(opening, user) + copy
            ctx.reply.send(address, topic, text, footer=footer, board=onlooker)
            sent.add(address.lower())
    involved = {a.address_key for p in board.players for a in p.user.addresses}
    if ctx.sender and ctx.sender.lower() not in sent | involved:
        body = board_body(
            view, state, None, comment=comment, commenter=commenter, watchers=names, said=said,
            now=ctx.now,
        )  # fmt: skip
        text = story + opening_for(opening, sending_user(ctx)) + body
        ctx.reply.send(ctx.sender, topic, text, board=onlooker)
