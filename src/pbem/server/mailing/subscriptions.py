"""Mail about boards one does not play on: subscribe, unsubscribe, notify.

`GAME subscribe USERID PASSWORD BOARD ...` sends copies of those boards'
mails; `... all` does it for every board of the game started from now on.
`GAME newboards USERID PASSWORD on|off` sends one mail per new board instead.
`GAME notify USERID PASSWORD [BOARD ...]` is pbmserv's: a mail when a board
ends (every board of the game, or those named); `game_over.notices`
sends them.
"""

from __future__ import annotations

from sqlalchemy import select

from ...games import get_game
from ...games.base import Game
from ...store import Board, BoardStatus, Subscription, User
from ...store import SubscriptionKind as Kind
from ...store.boards import players_of
from ..context import Context, board_of, login
from ..errors import CONFLICT, CommandError
from ..language import commands
from ..language.registry import runs
from ..language.words import MAX_TARGETS
from ..players.accounts import main_address


@runs(commands.Subscribe)
def subscribe(ctx: Context, game: Game, command: commands.Subscribe) -> None:
    """Copies of boards' mails, or (`add` false) no more copies."""
    add = command.add
    verb = "subscribe" if add else "unsubscribe"
    if not command.boards and not command.new_boards and not command.active:
        raise CommandError(
            f"Name the boards, or all, or active: {game.name} {verb} {command.userid} "
            "PASSWORD BOARD ..."
        )
    if len(command.boards) > MAX_TARGETS:
        raise CommandError(
            f"At most {MAX_TARGETS} boards at a time: send the others in another command."
        )
    user = login(ctx, command.userid, command.password)
    done = []
    if command.new_boards:
        set_subscription(ctx, user, game.name, Kind.ALL, None, add)
        done.append(f"every new {game.title} board")
    over = []
    for number in command.boards:
        board = board_of(ctx, game, number)
        if add and board.status is not BoardStatus.ACTIVE:
            over.append(board.id)  # no mail will come: nothing to follow
            continue
        set_subscription(ctx, user, game.name, Kind.BOARD, board.id, add)
        done.append(f"board {board.id}")
    if over:
        numbers = ", ".join(str(number) for number in over)
        ended = (
            f"Board {numbers} is over" if len(over) == 1 else f"Boards {numbers} are over"
        ) + f", so no mail will come of {'it' if len(over) == 1 else 'them'}"
        if not done and not command.active:
            raise CommandError(
                f"{ended}: nothing to subscribe to. '{game.name} show {over[0]}' shows the "
                "game as it ended.",
                over[0],
                kind=CONFLICT,
            )
    if command.active:
        playing = ctx.session.scalars(
            select(Board.id)
            .where(Board.game == game.name, Board.status == BoardStatus.ACTIVE)
            .order_by(Board.id)
            .limit(MOST_ACTIVE + 1)
        ).all()
        if len(playing) > MOST_ACTIVE:
            raise CommandError(
                f"More than {MOST_ACTIVE} {game.title} boards are being played: name the "
                f"boards to follow ('{game.name} games active' lists them), or all for every "
                "new one."
            )
        for number in playing:
            set_subscription(ctx, user, game.name, Kind.BOARD, number, add)
        count = len(playing)
        done.append(
            f"the {game.title} board being played" if count == 1
            else f"the {count} {game.title} boards being played"
        )  # fmt: skip
    what = ", ".join(done)
    said = f"copies of the mails of {what}" if add else f"no more copies of {what}"
    if over:
        said += f". {ended}: not subscribed"
    ctx.reply.send(
        main_address(user), f"{game.title} {verb} {user.userid}", f"{user.userid} gets {said}.\n"
    )


@runs(commands.Notify)
def notify(ctx: Context, game: Game, command: commands.Notify) -> None:
    """pbmserv's notify: a mail when a board of the game ends, for every
    board (on, off, or the other way round from now) or for those named."""
    user = login(ctx, command.userid, command.password)
    if command.boards:
        on = command.on is not False
        numbers = [board_of(ctx, game, number).id for number in command.boards]
        for number in numbers:
            set_subscription(ctx, user, game.name, Kind.OVER, number, on)
        listed = ", ".join(str(number) for number in numbers)
        said = f"a mail when board {listed} ends" if on else f"no mail when board {listed} ends"
    else:
        now = subscribed(ctx, user, game.name, Kind.EVERY_OVER)
        on = (not now) if command.on is None else command.on
        set_subscription(ctx, user, game.name, Kind.EVERY_OVER, None, on)
        said = (
            f"a mail when any {game.title} board ends"
            if on
            else f"no mail when {game.title} boards end"
        )
    ctx.reply.send(
        main_address(user), f"{game.title} notify {user.userid}", f"{user.userid} gets {said}.\n"
    )


@runs(commands.NewBoards)
def new_boards(ctx: Context, game: Game, command: commands.NewBoards) -> None:
    """A mail for each new board of the game, or none."""
    user = login(ctx, command.userid, command.password)
    on = command.on
    set_subscription(ctx, user, game.name, Kind.NEW_BOARDS, None, on)
    said = "a mail for each new board" if on else "no mail about new boards"
    ctx.reply.send(
        main_address(user),
        f"{game.title} newboards {user.userid}",
        f"{user.userid} gets {said}.\n",
    )


def subscribed(ctx: Context, user: User, game: str, kind: str) -> bool:
    """Whether the user has the game-wide subscription of this kind."""
    return found_subscription(ctx, user, game, kind, None) is not None


def found_subscription(
    ctx: Context, user: User, game: str, kind: str, board_id: int | None
) -> Subscription | None:
    return ctx.session.scalar(
        select(Subscription).where(
            Subscription.user_id == user.id,
            Subscription.game == game,
            Subscription.kind == kind,
            Subscription.board_id.is_(None)
            if board_id is None
            else Subscription.board_id == board_id,
        )
    )


MOST_ACTIVE = 200  # boards `subscribe ... active` follows at once


def set_subscription(
    ctx: Context, user: User, game: str, kind: str, board_id: int | None, on: bool
) -> None:
    found = found_subscription(ctx, user, game, kind, board_id)
    if on and found is None:
        ctx.session.add(
            Subscription(
                user_id=user.id, game=game, kind=kind, board_id=board_id, created_at=ctx.now
            )
        )
    elif not on and found is not None:
        ctx.session.delete(found)
    ctx.session.flush()


def new_board_news(ctx: Context, board: Board) -> None:
    """For a new board: 'all' subscribers follow it; 'notify' ones hear of it."""
    wishes = ctx.session.scalars(
        select(Subscription).where(
            Subscription.game == board.game, Subscription.kind.in_((Kind.ALL, Kind.NEW_BOARDS))
        )
    ).all()
    players = {p.user_id for p in board.players}
    title = get_game(board.game).title
    for wish in wishes:
        if wish.user_id in players:
            continue
        if wish.kind == Kind.ALL:
            ctx.session.add(
                Subscription(
                    user_id=wish.user_id,
                    game=board.game,
                    kind=Kind.BOARD,
                    board_id=board.id,
                    created_at=ctx.now,
                )
            )
        else:
            ctx.reply.send(
                main_address(wish.user),
                f"{title} Board {board.id} started",
                f"A new {title} board {board.id}: {' against '.join(players_of(board))}. "
                f"'{board.game} show {board.id}' shows it; '{board.game} subscribe "
                f"{wish.user.userid} PASSWORD {board.id}' follows it.\n\n"
                f"'{board.game} newboards {wish.user.userid} PASSWORD off' stops these mails.\n",
            )
    ctx.session.flush()
