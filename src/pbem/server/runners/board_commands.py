"""The commands that start and play boards: challenge, move, submit and
confirm, pass, swap and chat.

Each takes its command object (language/commands/); every check fails with a
CommandError saying what was wrong and how to do it instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, func, select, update

from ...games import get_game
from ...games.base import Game, MoveError, MoveSyntaxError, OptionError, State
from ...store import Board, BoardPlayer, BoardStatus, ChatLine, PendingMove, User
from ...store.boards import StaleBoard, apply_move, create_board, players_of, rebuild
from ..boards import hints, turns
from ..boards.lifecycle import active_state, after_move, clear_votes
from ..boards.tick import out_of_time
from ..context import Context, board_of, login, seat_of, sending_user
from ..errors import CONFLICT, MALFORMED, CommandError
from ..language import commands
from ..language.english import plural
from ..language.messages import Effect
from ..language.registry import runs
from ..language.words import MAX_DAYS
from ..mailing.board_mail import quoted, send_board, subscribers
from ..mailing.subscriptions import new_board_news
from ..players.accounts import find_user, main_address, user_named
from ..players.ratings import rating_row
from .standings import active_boards

DEFAULT_NAG_DAYS = 7
CHAT_KEPT = 2000  # characters of a chat the board page shows (the mail carries it all)
DEFAULT_FORFEIT_DAYS = 21
# Limits no one can turn against everyone else (issue 50); each a setting
# (settings.py, given by `set_limits` when a process starts).
BOT_BOARDS = 5  # boards against the bots one person may have going at once
CHATS_PER_HOUR = 10  # chat lines one non-player may send on one board an hour


def set_limits(bot_boards: int, hints_per_hour: int, chats_per_hour: int) -> None:
    """Take the limits of the settings (bot_boards, hints_per_hour,
    chats_per_hour) in this process."""
    global BOT_BOARDS, CHATS_PER_HOUR
    BOT_BOARDS, CHATS_PER_HOUR = bot_boards, chats_per_hour
    hints.HINTS_PER_HOUR = hints_per_hour


def challenge_form(game: Game) -> str:
    return (
        f"{game.name} challenge USER1 USER2 [-OPTION ...] [--nagtime=DAYS] "
        "[--forfeittime=DAYS] [--totaltime=DAYS] [--hints] [--unrated]"
    )


@dataclass(frozen=True)
class TakenOffer:
    """An open challenge taken: its number, its poster's words, and the
    taker's own comment (`open_challenges.take`)."""

    number: int
    poster_comment: str
    taker_comment: str


class Problems:
    """Every problem a command has, gathered so that one refusal names them
    all (pbmserv's "Invalid challenge" listed every one in one mail)."""

    def __init__(self) -> None:
        self.found: list[CommandError] = []

    def add(self, message: str, kind: str = MALFORMED) -> None:
        self.found.append(CommandError(message, kind=kind))

    @contextmanager
    def kept(self) -> Iterator[None]:
        """A refusal raised inside is kept as one more problem."""
        try:
            yield
        except CommandError as error:
            self.found.append(error)

    def raise_any(self, heading: str) -> None:
        """Refuse with the one problem found, or with every one under
        `heading`: malformed if any is (the command must be rewritten
        first), else the first one's kind."""
        if len(self.found) == 1:
            raise self.found[0]
        if self.found:
            listed = "\n".join(f"- {error.message}" for error in self.found)
            kinds = {error.kind for error in self.found}
            kind = MALFORMED if MALFORMED in kinds else self.found[0].kind
            raise CommandError(f"{heading}: {len(self.found)} problems.\n{listed}", kind=kind)


@runs(commands.Challenge)
def challenge(ctx: Context, game: Game, command: commands.Challenge) -> None:
    """Start a board between the named players (the first moves first); a
    rematch already made is that board (a form sent twice makes one)."""
    if command.rematch_of is not None:
        made = rematch_made(ctx, game, command, command.rematch_of)
        if made is not None:
            ctx.reply.created = made
            ctx.reply.did(Effect.REMATCH_FOUND)
            return
    start_board(ctx, game, command)


def rematch_made(ctx: Context, game: Game, command: commands.Challenge, number: int) -> int | None:
    """The board already made as board `number`'s rematch: of the same game,
    started since `number` last changed (it ended), the same players in the
    seats the command names, with the same options, timing, hints and
    ratedness. Board `number` is locked first (FOR UPDATE on PostgreSQL;
    SQLite's write lock serialises writers), so of two requests at once the
    second waits and then finds the first one's board."""
    ended = ctx.session.scalar(
        select(Board).where(Board.id == number, Board.game == game.name).with_for_update()
    )
    if ended is None or not command.players:
        return None
    users: list[int] = []
    for name in command.players:
        user = find_user(ctx.session, name)
        if user is None:
            return None
        users.append(user.id)
    later = ctx.session.scalars(
        select(Board)
        .join(BoardPlayer, BoardPlayer.board_id == Board.id)
        .where(
            Board.game == game.name,
            Board.id > ended.id,
            Board.created_at >= ended.updated_at,
            BoardPlayer.seat == 0,
            BoardPlayer.user_id == users[0],
        )
        .order_by(Board.id)
        .limit(50)
    )
    for board in later:
        if (
            [player.user_id for player in board.players] == users
            and board.options == ended.options
            and (board.nag_days, board.forfeit_days, board.total_days)
            == (ended.nag_days, ended.forfeit_days, ended.total_days)
            and (board.hints, board.unrated) == (ended.hints, ended.unrated)
        ):
            return board.id
    return None


def bot_checks(
    ctx: Context, game: Game, users: list[User], sent_by: User | None, problems: Problems
) -> None:
    """A board with a bot costs the server's searches: only a sender with an
    account may start one, and each person may have BOT_BOARDS of them going
    at once (so nobody fills the bots' time; they serve people in turn)."""
    if sent_by is None:
        problems.add(
            f"Only a player with an account may challenge a bot: the bots' time is shared, "
            f"and {ctx.sender or 'this sender'} has none. Sign up first with "
            f"'signup USERID PASSWORD', then challenge from the same address.",
            CONFLICT,
        )
    for user in {user.id: user for user in users if not user.is_bot}.values():
        going = ctx.session.scalar(
            select(func.count(func.distinct(Board.id)))
            .join(BoardPlayer, BoardPlayer.board_id == Board.id)
            .where(
                BoardPlayer.user_id == user.id,
                Board.with_bot,
                Board.status == BoardStatus.ACTIVE,
            )
        )
        if (going or 0) >= BOT_BOARDS:
            boards = plural(BOT_BOARDS, "board")
            problems.add(
                f"{user.userid} has {plural(going or 0, 'board')} against the bots going, and "
                f"a player may have at most {boards} against them at once (the server's "
                "limit bot_boards), "
                "so that the bots' time is shared: start another when one of them ends.",
                CONFLICT,
            )


def start_board(
    ctx: Context, game: Game, command: commands.Challenge, taken: TakenOffer | None = None
) -> Board:
    """Start a board between the named players (the first moves first): a
    challenge, or an open challenge `taken` (its poster first, both having
    chosen the board). Who chose the board cannot decline it: the bots, the
    challenger, and both players of a taken open challenge."""
    form = challenge_form(game)
    problems = Problems()
    names = list(command.players)
    if len(names) != game.players:
        problems.add(f"{game.title} needs {game.players} players; write this command as: {form}")
    timing = {
        "nagtime": command.nag_days,
        "forfeittime": command.forfeit_days,
        "totaltime": command.total_days,
    }
    days = {name: value for name, value in timing.items() if value is not None}
    for name, value in days.items():
        if not 1 <= value <= MAX_DAYS:
            problems.add(
                f"Cannot read '--{name}={value}': timing is --nagtime=DAYS, --forfeittime=DAYS "
                f"or --totaltime=DAYS, with 1 to {MAX_DAYS} days."
            )
    options = list(command.options)
    try:
        game.parse_options(options)
    except OptionError as error:
        problems.add(f"{error} Write this command as: {form}")
    users = []
    for name in names:
        with problems.kept():
            users.append(user_named(ctx.session, name))
    for user in users:
        if user.signed_off:
            problems.add(
                f"{user.userid} has signed off and cannot be challenged until they sign on.",
                CONFLICT,
            )
    found = len(users) == len(names)  # (an unknown name is a problem of its own)
    if found and all(user.is_bot for user in users):
        problems.add(
            "Bots play only against people: name at least one player who is not a bot "
            f"('{game.name} challenge YOU {users[0].userid}')."
        )
    sent_by = sending_user(ctx)
    if found and any(user.is_bot for user in users):
        bot_checks(ctx, game, users, sent_by, problems)
    alone = len({user.id for user in users}) != len(users)
    if found and alone and (sent_by is None or {user.id for user in users} != {sent_by.id}):
        problems.add(
            "A player may play against themselves (to try a game; never rated) only on a "
            "board they start themselves: name two players, or challenge yourself twice."
        )
    for user in sorted(set(users), key=lambda user: user.id):  # rows locked in user-id order
        standing = rating_row(ctx.session, user.id, game.name)
        if standing.rejects and (sent_by is None or sent_by.id != user.id):
            problems.add(
                f"{user.userid} takes no new {game.title} challenges now ('reject' in the "
                f"standings): they can take them again with '{game.name} accept "
                f"{user.userid} PASSWORD'.",
                CONFLICT,
            )
        if standing.limit is not None and active_boards(ctx, user.id, game.name) >= standing.limit:
            boards = plural(standing.limit, f"{game.title} board")
            problems.add(
                f"{user.userid} plays at most {boards} at once (their limit), and has that "
                f"many now: challenge them when one ends, or they can raise it with "
                f"'{game.name} limit {user.userid} PASSWORD N'.",
                CONFLICT,
            )
    nag = days.get("nagtime", DEFAULT_NAG_DAYS)
    forfeit = days.get("forfeittime", DEFAULT_FORFEIT_DAYS)
    if forfeit <= nag:
        problems.add(
            f"The forfeit time ({forfeit} days) must be longer than the nag time ({nag} days)."
        )
    problems.raise_any("Invalid challenge")
    try:
        board = create_board(
            ctx.session,
            game.name,
            options,
            users,
            ctx.now,
            nag_days=nag,
            forfeit_days=forfeit,
            total_days=days.get("totaltime"),
            hints=command.hints,
            unrated=command.unrated,
        )
    except OptionError as error:
        raise CommandError(f"{error} Write this command as: {form}") from None
    for user in {user.id: user for user in users}.values():
        standing = rating_row(ctx.session, user.id, game.name)
        standing.seeking = max(0, standing.seeking - 1)
    for player in board.players:
        bot = player.user.is_bot  # a bot takes every challenge, at once
        chose = sent_by is not None and player.user_id == sent_by.id  # the challenger
        if bot or chose or taken is not None:
            player.accepted = True
    ctx.reply.created = board.id
    new_board_news(ctx, board)
    state = rebuild(board)
    if taken is None:
        opening = challenge_opening(ctx, game, board)
        comment, said = command.comment, "Challenger writes:"
    else:
        opening = taken_opening(game, board, taken)
        comment, said = taken.taker_comment, f"{players_of(board)[1]} writes:"
    send_board(ctx, board, state, opening=opening, new=True, comment=comment, said=said)
    return board


def challenge_opening(ctx: Context, game: Game, board: Board) -> Callable[[User | None], str]:
    """What opens a new board's mail, for each reader: who sent the
    challenge; and to a player who may still decline it (neither the
    challenger nor a bot), how to decline or accept, with their userid."""
    first = f"A new {game.title} board, from a challenge sent by {challenger(ctx)}.\n"

    def opening(reader: User | None) -> str:
        seats = [p for p in board.players if reader is not None and p.user_id == reader.id]
        who = reader.userid if reader is not None and seats else "USERID"
        text = first + board_terms(game, board, who)
        if seats and not any(p.accepted for p in seats):
            text += (
                f"To decline, resign before your first move ('{game.name} resign {board.id} "
                f"{who} PASSWORD'); a declined board is not rated. '{game.name} accept {who} "
                "PASSWORD' accepts.\n"
            )
        elif seats and not board.unrated and len({p.user_id for p in board.players}) > 1:
            text += "You sent this challenge, so you cannot decline it: resigning is a loss.\n"
        return text + "\n"

    return opening


def taken_opening(game: Game, board: Board, taken: TakenOffer) -> Callable[[User | None], str]:
    """What opens the mail of a board an open challenge became: whose
    challenge, taken by whom, what resigning now means, the poster's words."""
    poster, taker = players_of(board)
    first = f"{poster}'s open {game.title} challenge {taken.number}, taken by {taker}.\n"
    chose = "Both players chose this board"
    if board.unrated:
        chose += ".\n"
    else:
        chose += (
            ": it is rated from the start, and resigning before a first move is a loss "
            "like any other.\n"
        )
    words = quoted(taken.poster_comment, f"{poster}, posting the challenge,")

    def opening(reader: User | None) -> str:
        playing = reader is not None and any(p.user_id == reader.id for p in board.players)
        who = reader.userid if reader is not None and playing else "USERID"
        return first + board_terms(game, board, who) + chose + words + "\n"

    return opening


def board_terms(game: Game, board: Board, who: str) -> str:
    """The lines of a new board's mail about its bots, --unrated and --hints
    (`who`: the reader's userid in the commands it shows)."""
    lines = ""
    for player in board.players:
        if player.user.is_bot:
            lines += (
                f"{player.user.userid} (a bot) accepts at once. Its first move may take a "
                f"minute if {player.user.userid} is warming up (a new or upgraded server "
                "compiles each game's search once); after that its moves come in seconds.\n"
            )
    if board.unrated:
        lines += "A friendly game (--unrated): its result does not change the ratings.\n"
    if board.hints:
        lines += (
            f"Hints are on (--hints): either player may ask the engine with "
            f"'{game.name} hint {board.id} {who} PASSWORD'; playing on agrees to that.\n"
        )
    return lines


def challenger(ctx: Context) -> str:
    """Who sent a challenge, as the players may see it: a userid, never an
    address (the board mail goes to both players and every subscriber)."""
    user = sending_user(ctx)
    return user.userid if user is not None else "someone without an account here"


def your_turn(
    ctx: Context, game: Game, board_id: int, userid: str, password: str | None, number: int | None
) -> tuple[Board, User]:
    """The checks a move or a submitted move passes: the board, the player,
    the `#N` guard, and whose turn it is."""
    board = board_of(ctx, game, board_id)
    user = login(ctx, userid, password)
    seat = seat_of(board, user)
    if number is not None and number != board.version + 1:
        raise stale(board, number, written=True)
    state = active_state(board)
    if state.to_move != seat:
        assert state.to_move is not None
        waiting = players_of(board)[state.to_move]
        raise CommandError(
            f"It is not your move on board {board.id}: {waiting} is to move.",
            board.id,
            kind=CONFLICT,
        )
    return board, user


def stale(board: Board, number: int | None, written: bool = False) -> CommandError:
    """A move for another move number than the board's next: an old one (a
    mail sent before the board moved on, or sent twice), or (`written` by
    the player as `#N`) one the board has not reached, a slip of the keys."""
    next_number = board.version + 1
    if written and number is not None and number > next_number:
        return CommandError(
            f"Board {board.id} is at move {next_number}, but this mail was for move {number}, "
            f"which the board has not reached, so nothing was played: write #{next_number} "
            "after the move, or leave the number out.",
            board.id,
            kind=CONFLICT,
        )
    return CommandError(
        f"Board {board.id} is at move {next_number}, but this mail was for move "
        f"{number}: it is stale or came twice, so nothing was played.",
        board.id,
        kind=CONFLICT,
    )


@runs(commands.Move)
def play(ctx: Context, game: Game, command: commands.Move, swapped: bool = False) -> None:
    """Play a move (`swapped`: by the swap command)."""
    board, user = your_turn(
        ctx, game, command.board, command.userid, command.password, command.number
    )
    expected = board.version if command.number is None else command.number - 1
    play_turn(ctx, board, user, command.move, expected, command.comment, swapped)


def play_turn(
    ctx: Context,
    board: Board,
    user: User,
    text: str,
    expected: int,
    comment: str,
    swapped: bool = False,
) -> None:
    """Play the move, mail the board, then any queued answers (unless the
    player's time for the game ran out: then they forfeit)."""
    if out_of_time(ctx, board):
        return
    before = rebuild(board)
    try:
        after = apply_move(ctx.session, board, expected, text, ctx.now, comment=comment)
    except StaleBoard:
        raise stale(board, expected + 1) from None
    except MoveError as error:
        raise move_refused(text, board, error) from None
    ctx.session.execute(delete(PendingMove).where(PendingMove.board_id == board.id))
    clear_votes(ctx, board)
    opening = sides_chosen(before, after, players_of(board), user.userid, swapped)
    send_board(ctx, board, after, comment=comment, commenter=user.userid, opening=opening)
    ctx.reply.did(Effect.MOVED)
    after_move(ctx, board, after)


def sides_chosen(
    before: State[Any], after: State[Any], names: list[str], mover: str, swapped: bool
) -> str:
    """What a colour choice or a swap did, said first in its board mail
    ('' for a move that leaves every player's side as it was)."""
    seats = range(len(names))
    if all(before.side_text(seat) == after.side_text(seat) for seat in seats):
        return ""
    sides = ", ".join(f"{names[seat]} plays {after.side_text(seat)}" for seat in seats)
    did = "has swapped sides" if swapped else "has chosen the colours"
    return f"{mover} {did}: {sides}.\n\n"


def move_refused(text: str, board: Board, error: MoveError) -> CommandError:
    """A move the rules refuse (a conflict), or that cannot be read
    (malformed); `pass` in a game without passing says so."""
    kind = MALFORMED if isinstance(error, MoveSyntaxError) else CONFLICT
    game = get_game(board.game)
    if text.strip().lower() == "pass" and not game.can_pass:
        return no_passing(game, board.id)
    return CommandError(
        f"Move {text} cannot be played on board {board.id}: {error.reason}.", board.id, kind=kind
    )


@runs(commands.Submit)
def submit(ctx: Context, game: Game, command: commands.Submit) -> None:
    """A move shown to its player first; `confirm` plays it."""
    board, user = your_turn(
        ctx, game, command.board, command.userid, command.password, command.number
    )
    text = command.move
    state = rebuild(board)
    try:
        after = state.play_text(text)
    except MoveError as error:
        raise move_refused(text, board, error) from None
    seat = seat_of(board, user)
    ctx.session.execute(
        delete(PendingMove).where(PendingMove.board_id == board.id, PendingMove.seat == seat)
    )
    ctx.session.add(
        PendingMove(
            board_id=board.id,
            seat=seat,
            text=after.moves[-1],
            version=board.version,
            comment=command.comment,
            created_at=ctx.now,
        )
    )
    ctx.reply.send(
        main_address(user),
        f"{game.title} Board {board.id} submitted",
        f"Board {board.id} after {after.moves[-1]}, not played yet. To play it, send\n"
        f"  {game.name} confirm {board.id} {user.userid} PASSWORD\n"
        "or submit another move.\n\n" + after.text_board(seat),
    )


@runs(commands.Confirm)
def confirm(ctx: Context, game: Game, command: commands.Confirm) -> None:
    """Play the move the player submitted, if the board has not moved since."""
    board = board_of(ctx, game, command.board)
    user = login(ctx, command.userid, command.password)
    seat = seat_of(board, user)
    pending = ctx.session.scalar(
        select(PendingMove).where(PendingMove.board_id == board.id, PendingMove.seat == seat)
    )
    if pending is None:
        raise CommandError(
            f"Nothing is submitted on board {board.id}: send '{game.name} submit ...' first.",
            board.id,
            kind=CONFLICT,
        )
    if pending.version != board.version:
        raise stale(board, pending.version + 1)
    active_state(board)
    play_turn(ctx, board, user, pending.text, pending.version, pending.comment)


@runs(commands.Pass)
def pass_turn(ctx: Context, game: Game, command: commands.Pass) -> None:
    """`pass` is the move `pass`, in the games that have one."""
    if not game.can_pass:
        raise no_passing(game, command.board)
    play(ctx, game, as_move(command, "pass"))


def no_passing(game: Game, board_id: int) -> CommandError:
    return CommandError(
        f"{game.title} has no passing: every turn is a move (the board mail shows an example).",
        board_id,
    )  # (malformed: no such move in the game)


def as_move(command: commands.Guarded, text: str) -> commands.Move:
    return commands.Move(
        game=command.game,
        board=command.board,
        userid=command.userid,
        password=command.password,
        comment=command.comment,
        move=text,
        number=command.number,
    )


@runs(commands.Swap)
def swap(ctx: Context, game: Game, command: commands.Swap) -> None:
    """`swap` is the game's swap step (Vacu's chooser taking Black, which
    would otherwise be the komi setter's), where the game has one."""
    if game.swap_move is None:
        raise CommandError(
            f"{game.title} has no swap step: the seats stay as the challenge made them."
        )
    board = board_of(ctx, game, command.board)
    state = active_state(board)
    try:
        state.play(state.parse_move(game.swap_move))
    except MoveError:
        raise CommandError(
            f"Swapping is only for the second player's first turn (the colour choice after "
            f"the komi); board {board.id} is past it.",
            board.id,
            kind=CONFLICT,
        ) from None
    play(ctx, game, as_move(command, game.swap_move), swapped=True)


@runs(commands.Chat)
def chat(ctx: Context, game: Game, command: commands.Chat) -> None:
    """The comment goes to the board's players and subscribers (any player
    of the server may chat on any board); the board stays as it is."""
    board = board_of(ctx, game, command.board)
    user = login(ctx, command.userid, command.password)
    if not command.comment.strip():
        raise CommandError("A chat needs a message: write it in the body of the mail.")
    if all(player.user_id != user.id for player in board.players):
        said_lately = ctx.session.scalar(
            select(func.count(ChatLine.id)).where(
                ChatLine.board_id == board.id,
                ChatLine.user_id == user.id,
                ChatLine.said_at > ctx.now - timedelta(hours=1),
            )
        )
        if (said_lately or 0) >= CHATS_PER_HOUR:
            raise CommandError(
                f"{user.userid} has sent {said_lately} chat lines on board {board.id} in the "
                f"last hour, the most one who does not play on it may send an hour (the "
                f"server's limit chats_per_hour), so that its players' mail stays theirs: "
                f"write again in an hour.",
                board.id,
                kind=CONFLICT,
            )
    readers = [p.user for p in board.players] + subscribers(ctx.session, board)
    others = list({u.id: u for u in readers if u.id != user.id}.values())
    said = command.comment.strip()
    kept = said if len(said) <= CHAT_KEPT else said[: CHAT_KEPT - 1] + "…"
    ctx.session.add(
        ChatLine(
            board_id=board.id, user_id=user.id, after=board.version, text=kept, said_at=ctx.now
        )
    )
    # the board pages show chat: their kept views of the board are old now
    ctx.session.execute(
        update(Board)
        .where(Board.id == board.id)
        .values(revision=Board.revision + 1)
        .execution_options(synchronize_session=False)
    )
    ctx.session.expire(board, ["revision"])
    text = "\n".join(f"> {line}" for line in said.splitlines())
    for other in others:
        answer = f"{game.name} chat {board.id} {other.userid} PASSWORD"
        ctx.reply.send(
            main_address(other),
            f"{game.title} Board {board.id} chat from {user.userid}",
            f"{user.userid} says, about board {board.id}:\n{text}\n\n"
            f"To answer, send a mail whose Subject is '{answer}' with your text in "
            "the body (chat needs your password, as on pbmserv).\n",
        )
    ctx.reply.send(
        ctx.sender,
        f"{game.title} Board {board.id} chat sent",
        f"Your message went to {', '.join(o.userid for o in others) or 'nobody'}.\n",
    )
    ctx.reply.did(Effect.CHATTED)


@runs(commands.Queue)
def queue(ctx: Context, game: Game, command: commands.Queue) -> None:
    """Queue a move for the player's next turn; on their turn, play it
    (pbmserv's `queue` is `move` then)."""
    board = board_of(ctx, game, command.board)
    user = login(ctx, command.userid, command.password)
    seat = seat_of(board, user)
    state = active_state(board)
    if state.to_move != seat:
        turns.queue(ctx, game, board, user, state, command)
        return
    if command.condition:
        raise CommandError(
            f"It is your move on board {board.id}, so there is no reply to answer: play it "
            f"with '{game.name} move'.",
            board.id,
            kind=CONFLICT,
        )
    play_turn(ctx, board, user, command.move, board.version, command.comment)
