"""The commands: each reads its words, checks them, changes the database and
says which mails go out. Every check fails with a CommandError saying what
was wrong and how to write it instead.

A command line is `VERB ARGS...` (`signup alice secret`) or, for the games,
`GAME VERB ARGS...` (`vasco move 101 alice secret a0,0#1`).
"""

from __future__ import annotations

import os
import re

from sqlalchemy import delete, select

from ..games.base import Game, MoveError, OptionError, State
from ..store import Address, Board, BoardPlayer, PendingMove, User
from ..store.boards import StaleBoard, apply_move, awaits, boards_of, create_board, rebuild
from .accounts import (
    authenticate,
    check_address,
    check_password,
    check_userid,
    find_address,
    find_user,
    hash_password,
    main_address,
    user_named,
)
from .board_mail import board_body, players_of, subject
from .context import (
    Context,
    board_numbered,
    game_named,
    seat_of,
    send_board,
    sender_account,
    split_move_number,
    stop_line,
    usage,
)
from .errors import CommandError
from .help import command_list, rules_text
from .ratings import rating_row
from .standings import active_boards
from .subscriptions import new_board_news
from .turns import active_state, after_move, clear_votes, end_by_resignation

MAIL_PREFERENCES = ("every", "digest", "none")
DEFAULT_NAG_DAYS = 7
DEFAULT_FORFEIT_DAYS = 21
MAX_DAYS = 365


# -- commands for everyone -------------------------------------------------------


def help_command(ctx: Context, words: list[str]) -> None:
    usage("help [GAME]", words, 0, 1)
    if words:
        game = game_named(words[0])
        ctx.reply.send(ctx.sender, f"{game.title} help", rules_text(game))
    else:
        ctx.reply.send(ctx.sender, "pbem help", command_list())


def signup(ctx: Context, words: list[str]) -> None:
    usage("signup USERID PASSWORD [ADDRESS]", words, 2, 3)
    userid = check_userid(words[0])
    password = check_password(words[1])
    address = check_address(words[2] if len(words) == 3 else ctx.sender)
    if find_user(ctx.session, userid) is not None:
        raise CommandError(f"The userid '{userid}' is taken (userids ignore case): pick another.")
    if find_address(ctx.session, address) is not None:
        raise CommandError(
            f"The address {address} already belongs to an account; one address, one account."
        )
    user = User(
        userid=userid,
        userid_key=userid.lower(),
        password_hash=hash_password(password),
        mail_preference="every",
        vacation=False,
        created_at=ctx.now,
    )
    user.addresses = [Address(address=address, address_key=address.lower())]
    ctx.session.add(user)
    ctx.session.flush()
    ctx.reply.send(
        address,
        f"pbem signup {userid}",
        f"Welcome, {userid}: your account is ready, with mail going to {address}.\n"
        f"Send 'help' for the commands.\n\n{stop_line(user)}\n",
    )


def mail_preference(ctx: Context, words: list[str]) -> None:
    usage("mail USERID PASSWORD every|digest|none", words, 3)
    user = authenticate(ctx.session, words[0], words[1])
    choice = words[2].lower()
    if choice not in MAIL_PREFERENCES:
        raise CommandError(f"'{words[2][:20]}' is no mail preference: write every, digest or none.")
    user.mail_preference = choice
    meaning = {
        "every": "every board mail, as it happens",
        "digest": "one mail a day listing the boards awaiting your move",
        "none": "no board mail (replies to your own commands still come)",
    }[choice]
    ctx.reply.send(
        main_address(user),
        f"pbem mail {user.userid} {choice}",
        f"From now on {user.userid} gets {meaning}.\n",
    )


def add_address(ctx: Context, words: list[str]) -> None:
    usage("add USERID PASSWORD ADDRESS", words, 3)
    user = authenticate(ctx.session, words[0], words[1])
    address = check_address(words[2])
    if find_address(ctx.session, address) is not None:
        raise CommandError(f"The address {address} already belongs to an account.")
    user.addresses.append(Address(address=address, address_key=address.lower()))
    ctx.session.flush()
    ctx.reply.send(
        [main_address(user), address],
        f"pbem add {user.userid}",
        f"{user.userid} may now send commands from {address} too; mail still goes to "
        f"{main_address(user)}.\n",
    )


def change(ctx: Context, words: list[str]) -> None:
    form = (
        "change password USERID PASSWORD NEWPASSWORD, or change address USERID PASSWORD NEWADDRESS"
    )
    if not words or words[0].lower() not in ("password", "address"):
        raise CommandError(f"Write this command as: {form}")
    usage(form, words, 4)
    user = authenticate(ctx.session, words[1], words[2])
    if words[0].lower() == "password":
        user.password_hash = hash_password(check_password(words[3]))
        ctx.reply.send(
            main_address(user),
            f"pbem change password {user.userid}",
            f"The password of {user.userid} is changed.\n",
        )
        return
    address = check_address(words[3])
    owner = find_address(ctx.session, address)
    if owner is not None and owner.user_id != user.id:
        raise CommandError(f"The address {address} already belongs to another account.")
    old = main_address(user)
    if owner is None:
        user.addresses[0].address = address
        user.addresses[0].address_key = address.lower()
    else:  # one of the user's other addresses becomes the main one
        user.addresses.remove(owner)
        ctx.session.flush()
        user.addresses[0].address = address
        user.addresses[0].address_key = address.lower()
    ctx.session.flush()
    ctx.reply.send(
        [old, address],
        f"pbem change address {user.userid}",
        f"Mail for {user.userid} now goes to {address} instead of {old}.\n",
    )


def vacation(ctx: Context, words: list[str]) -> None:
    """`vacation USERID PASSWORD on|off`: no nags or forfeits while on."""
    usage("vacation USERID PASSWORD on|off", words, 3)
    user = authenticate(ctx.session, words[0], words[1])
    choice = words[2].lower()
    if choice not in ("on", "off"):
        raise CommandError("Write on or off: vacation USERID PASSWORD on|off")
    user.vacation = choice == "on"
    said = (
        "on vacation: no reminders and no forfeits until 'vacation ... off'"
        if user.vacation
        else "back from vacation: the usual reminders and forfeit times apply again"
    )
    for player in board_players_of(ctx, user):
        if player.user_id != user.id:
            ctx.reply.send(
                main_address(player.user),
                f"pbem vacation {user.userid} {choice}",
                f"Your opponent {user.userid} is {said}.\n\n{stop_line(player.user)}\n",
            )
    ctx.reply.send(
        main_address(user), f"pbem vacation {user.userid} {choice}", f"You are {said}.\n"
    )


def signoff(ctx: Context, words: list[str]) -> None:
    """Leave the server: resign every active board, no more board mail, no
    more challenges. `signon` comes back."""
    usage("signoff USERID PASSWORD", words, 2)
    user = authenticate(ctx.session, words[0], words[1])
    boards = boards_of(ctx.session, user.id, active=True)
    for board in boards:
        end_by_resignation(ctx, board, rebuild(board), seat_of(board, user))
    user.signed_off = True
    user.mail_preference = "none"
    ctx.reply.send(
        main_address(user),
        f"pbem signoff {user.userid}",
        f"Goodbye, {user.userid}: {len(boards)} active boards were resigned, and no one "
        f"can challenge you now. 'signon {user.userid} PASSWORD' brings you back.\n",
    )


def signon(ctx: Context, words: list[str]) -> None:
    usage("signon USERID PASSWORD", words, 2)
    user = authenticate(ctx.session, words[0], words[1])
    if not user.signed_off:
        raise CommandError(f"{user.userid} has not signed off.")
    user.signed_off = False
    user.mail_preference = "every"
    ctx.reply.send(
        main_address(user), f"pbem signon {user.userid}", f"Welcome back, {user.userid}.\n"
    )


def delete_account(ctx: Context, words: list[str]) -> None:
    """`delete USERID PASSWORD`: remove an account that has never played."""
    usage("delete USERID PASSWORD", words, 2)
    user = authenticate(ctx.session, words[0], words[1])
    played = ctx.session.scalar(select(BoardPlayer).where(BoardPlayer.user_id == user.id).limit(1))
    if played is not None:
        raise CommandError(
            f"{user.userid} has boards, which keep their players' names: 'signoff "
            f"{user.userid} PASSWORD' leaves the server instead."
        )
    address = main_address(user)
    ctx.session.delete(user)
    ctx.session.flush()
    ctx.reply.send(address, f"pbem delete {words[0]}", f"The account {words[0]} is deleted.\n")


def broadcast(ctx: Context, words: list[str]) -> None:
    """`broadcast USERID PASSWORD`: the body to every player (administrators only)."""
    usage("broadcast USERID PASSWORD (the message in the body)", words, 2)
    user = authenticate(ctx.session, words[0], words[1])
    if user.userid_key not in administrators():
        raise CommandError(
            "Only the server's administrators may broadcast (PBEM_ADMINS names them)."
        )
    if not ctx.body.strip():
        raise CommandError("A broadcast needs words: write them in the body of the mail.")
    everyone = ctx.session.scalars(
        select(User).where(User.mail_preference != "none").order_by(User.userid_key)
    ).all()
    for member in everyone:
        ctx.reply.send(
            main_address(member),
            f"pbem news from {user.userid}",
            ctx.body.strip() + f"\n\n{stop_line(member)}\n",
        )


def administrators() -> set[str]:
    """Userids allowed to broadcast: PBEM_ADMINS, separated by commas."""
    return {
        name.strip().lower()
        for name in os.environ.get("PBEM_ADMINS", "").split(",")
        if name.strip()
    }


def board_players_of(ctx: Context, user: User) -> list[BoardPlayer]:
    """The players (user included) of the user's active boards, once each."""
    seen: dict[int, BoardPlayer] = {}
    for board in boards_of(ctx.session, user.id, active=True):
        for player in board.players:
            seen.setdefault(player.user_id, player)
    return list(seen.values())


def message(ctx: Context, words: list[str]) -> None:
    """A private message: the body goes to another player."""
    usage("message USERID PASSWORD TOUSERID (the message in the body)", words, 3)
    user = authenticate(ctx.session, words[0], words[1])
    target = user_named(ctx.session, words[2])
    if not ctx.body.strip():
        raise CommandError("A message needs words: write them in the body of the mail.")
    text = "\n".join(f"> {line}" for line in ctx.body.strip().splitlines())
    ctx.reply.send(
        main_address(target),
        f"pbem message from {user.userid}",
        f"{user.userid} writes:\n{text}\n\nReply with 'message {target.userid} PASSWORD "
        f"{user.userid}'.\n\n{stop_line(target)}\n",
    )
    ctx.reply.send(ctx.sender, f"pbem message to {target.userid}", "Your message was sent.\n")


def all_show(ctx: Context, words: list[str]) -> None:
    """`all show USERID`: every active board of a player, in every game."""
    usage("all show USERID", words, 2)
    if words[0].lower() != "show":
        raise CommandError("Write this command as: all show USERID")
    user = user_named(ctx.session, words[1])
    boards = boards_of(ctx.session, user.id, active=True)
    if not boards:
        ctx.reply.send(
            ctx.sender, f"pbem all show {user.userid}", f"{user.userid} has no active boards.\n"
        )
        return
    parts = []
    for board in boards:
        state = rebuild(board)
        seat = next(p.seat for p in board.players if p.user_id == user.id)
        parts.append(f"== {subject(board, state)} ==\n\n" + board_body(board, state, seat))
    ctx.reply.send(ctx.sender, f"pbem all show {user.userid}", "\n".join(parts))


def list_users(ctx: Context, words: list[str]) -> None:
    usage("list", words, 0)
    users = ctx.session.scalars(select(User).order_by(User.userid_key)).all()
    lines = [f"{len(users)} players:"] + [f"  {user.userid}" for user in users]
    ctx.reply.send(ctx.sender, "pbem list", "\n".join(lines) + "\n")


# -- game commands -----------------------------------------------------------------


def game_help(ctx: Context, game: Game, words: list[str]) -> None:
    usage(f"{game.name} help", words, 0)
    ctx.reply.send(ctx.sender, f"{game.title} help", rules_text(game))


_DAYS = re.compile(r"--(nagtime|forfeittime|totaltime)=(\d{1,4})", re.IGNORECASE)


def challenge(ctx: Context, game: Game, words: list[str]) -> None:
    form = (
        f"{game.name} challenge USER1 USER2 [-OPTION ...] [--nagtime=DAYS] "
        "[--forfeittime=DAYS] [--totaltime=DAYS]"
    )
    names = [word for word in words if not word.startswith("-")]
    if len(names) != game.players:
        raise CommandError(
            f"{game.title} needs {game.players} players; write this command as: {form}"
        )
    days: dict[str, int] = {}
    options = []
    for word in words:
        if word.startswith("--"):
            match = _DAYS.fullmatch(word)
            if not match or not 1 <= int(match.group(2)) <= MAX_DAYS:
                raise CommandError(
                    f"Cannot read '{word[:40]}': timing is --nagtime=DAYS, --forfeittime=DAYS "
                    f"or --totaltime=DAYS, with 1 to {MAX_DAYS} days."
                )
            days[match.group(1).lower()] = int(match.group(2))
        elif word.startswith("-"):
            options.append(word)
    users = [user_named(ctx.session, name) for name in names]
    for user in users:
        if user.signed_off:
            raise CommandError(f"{user.userid} has signed off and cannot be challenged.")
    if len({user.id for user in users}) != len(users):
        raise CommandError("A player cannot be challenged to play against themselves.")
    for user in users:
        standing = rating_row(ctx.session, user.id, game.name)
        if standing.limit is not None and active_boards(ctx, user.id, game.name) >= standing.limit:
            raise CommandError(
                f"{user.userid} plays at most {standing.limit} {game.title} boards at once "
                f"(their limit), and has that many now."
            )
    nag = days.get("nagtime", DEFAULT_NAG_DAYS)
    forfeit = days.get("forfeittime", DEFAULT_FORFEIT_DAYS)
    if forfeit <= nag:
        raise CommandError(
            f"The forfeit time ({forfeit} days) must be longer than the nag time ({nag} days)."
        )
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
        )
    except OptionError as error:
        raise CommandError(f"{error} Write this command as: {form}") from None
    for user in users:
        standing = rating_row(ctx.session, user.id, game.name)
        standing.seeking = max(0, standing.seeking - 1)
    new_board_news(ctx, board)
    state = rebuild(board)
    opening = (
        f"A new {game.title} board, from a challenge sent by {ctx.sender}.\n"
        "To decline, resign before your first move.\n\n"
    )
    send_board(ctx, board, state, opening=opening)


def your_turn(
    ctx: Context, game: Game, words: list[str], form: str
) -> tuple[Board, User, str, int | None]:
    """The checks a move or a submitted move passes: the board, the player,
    the `#N` guard, and whose turn it is. Returns (board, user, move, N)."""
    usage(form, words, 4)
    board = board_numbered(ctx, game, words[0])
    user = authenticate(ctx.session, words[1], words[2])
    seat = seat_of(board, user)
    text, number = split_move_number(words[3], form)
    if number is not None and number != board.version + 1:
        raise stale(board, number)
    state = active_state(board)
    if state.to_move != seat:
        assert state.to_move is not None
        waiting = players_of(board)[state.to_move]
        raise CommandError(
            f"It is not your move on board {board.id}: {waiting} is to move.", board.id
        )
    return board, user, text, number


def stale(board: Board, number: int | None) -> CommandError:
    return CommandError(
        f"Board {board.id} is at move {board.version + 1}, but this mail was for move "
        f"{number}: it is stale or came twice, so nothing was played.",
        board.id,
    )


def move(ctx: Context, game: Game, words: list[str]) -> None:
    board, user, text, number = your_turn(
        ctx, game, words, f"{game.name} move BOARD USERID PASSWORD MOVE[#N]"
    )
    play_turn(ctx, board, user, text, board.version if number is None else number - 1, ctx.body)


def play_turn(
    ctx: Context, board: Board, user: User, text: str, expected: int, comment: str
) -> None:
    """Play the move, mail the board, then any queued answers."""
    try:
        after = apply_move(ctx.session, board, expected, text, ctx.now, comment=comment)
    except StaleBoard:
        raise stale(board, expected + 1) from None
    except MoveError as error:
        raise CommandError(
            f"Move {text} cannot be played on board {board.id}: {error.reason}.", board.id
        ) from None
    ctx.session.execute(delete(PendingMove).where(PendingMove.board_id == board.id))
    clear_votes(ctx, board)
    send_board(ctx, board, after, comment=comment, commenter=user.userid)
    after_move(ctx, board, after)


def submit(ctx: Context, game: Game, words: list[str]) -> None:
    """A move shown to its player first; `confirm` plays it."""
    board, user, text, _ = your_turn(
        ctx, game, words, f"{game.name} submit BOARD USERID PASSWORD MOVE[#N]"
    )
    state = rebuild(board)
    try:
        after = state.play_text(text)
    except MoveError as error:
        raise CommandError(
            f"Move {text} cannot be played on board {board.id}: {error.reason}.", board.id
        ) from None
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
            comment=ctx.body,
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


def confirm(ctx: Context, game: Game, words: list[str]) -> None:
    usage(f"{game.name} confirm BOARD USERID PASSWORD", words, 3)
    board = board_numbered(ctx, game, words[0])
    user = authenticate(ctx.session, words[1], words[2])
    seat = seat_of(board, user)
    pending = ctx.session.scalar(
        select(PendingMove).where(PendingMove.board_id == board.id, PendingMove.seat == seat)
    )
    if pending is None:
        raise CommandError(
            f"Nothing is submitted on board {board.id}: send '{game.name} submit ...' first.",
            board.id,
        )
    if pending.version != board.version:
        raise stale(board, pending.version + 1)
    active_state(board)
    play_turn(ctx, board, user, pending.text, pending.version, pending.comment)


def pass_command(ctx: Context, game: Game, words: list[str]) -> None:
    """`pass` is the move `pass`, in the games that have one."""
    form = f"{game.name} pass BOARD USERID PASSWORD[#N]"
    usage(form, words, 3)
    if not game.can_pass:
        raise CommandError(f"{game.title} has no passing: every turn is a move.")
    password, mark, number = words[2].partition("#")
    move(ctx, game, [words[0], words[1], password, "pass" + mark + number])


def chat(ctx: Context, game: Game, words: list[str]) -> None:
    """The body goes to the board's other players, the board stays as it is."""
    usage(f"{game.name} chat BOARD USERID PASSWORD (the message in the body)", words, 3)
    board = board_numbered(ctx, game, words[0])
    user = authenticate(ctx.session, words[1], words[2])
    seat_of(board, user)
    if not ctx.body.strip():
        raise CommandError("A chat needs a message: write it in the body of the mail.")
    others = [p.user for p in board.players if p.user_id != user.id]
    text = "\n".join(f"> {line}" for line in ctx.body.strip().splitlines())
    for other in others:
        ctx.reply.send(
            main_address(other),
            f"{game.title} Board {board.id} chat from {user.userid}",
            f"{user.userid} says, about board {board.id}:\n{text}\n\n{stop_line(other)}\n",
        )
    ctx.reply.send(
        ctx.sender,
        f"{game.title} Board {board.id} chat sent",
        f"Your message went to {', '.join(o.userid for o in others)}.\n",
    )


def board_at(ctx: Context, game: Game, word: str, form: str) -> tuple[Board, State]:
    """The board named by `BOARD[#N]`, as it was after move N (default: now)."""
    number_text, _, at = word.partition("#")
    board = board_numbered(ctx, game, number_text)
    upto = None
    if at:
        if not at.isdigit() or not 0 <= int(at) <= board.version:
            raise CommandError(
                f"Board {board.id} has moves 0 to {board.version}: write {form}.", board.id
            )
        upto = int(at)
    return board, rebuild(board, upto)


SHOW_FILTERS = ("all", "active", "inactive", "next")


def show(ctx: Context, game: Game, words: list[str]) -> None:
    form = f"{game.name} show BOARD[#N], or {game.name} show USERID ... [all|active|inactive|next]"
    if not words:
        raise CommandError(f"Write this command as: {form}")
    if not words[0].partition("#")[0].isdigit():
        show_players(ctx, game, words)
        return
    usage(form, words, 1)
    board, state = board_at(ctx, game, words[0], form)
    sender_user = sender_account(ctx)
    seat = None
    if sender_user is not None:
        seats = [p.seat for p in board.players if p.user_id == sender_user.id]
        seat = seats[0] if seats else None
    ctx.reply.send(ctx.sender, subject(board, state), board_body(board, state, seat))


def show_players(ctx: Context, game: Game, words: list[str]) -> None:
    """The boards the named players share: active ones (the default), all,
    inactive (finished) ones, or `next`: the first board awaiting the first
    player's move."""
    choice = "active"
    if words[-1].lower() in SHOW_FILTERS:
        choice = words[-1].lower()
        words = words[:-1]
    if not words or len(words) > 4:
        raise CommandError(
            f"Name one to four players: {game.name} show USERID ... [{'|'.join(SHOW_FILTERS)}]"
        )
    users = [user_named(ctx.session, name) for name in words]
    query = select(Board).where(Board.game == game.name).order_by(Board.id)
    for user in users:
        query = query.where(Board.players.any(BoardPlayer.user_id == user.id))
    boards = list(ctx.session.scalars(query).all())
    if choice == "active":
        boards = [b for b in boards if b.status == "active"]
    elif choice == "inactive":
        boards = [b for b in boards if b.status != "active"]
    elif choice == "next":
        waiting = [board for board in boards if awaits(board, users[0].id)]
        boards = sorted(waiting, key=lambda board: board.updated_at)[:1]
    names = " ".join(user.userid for user in users)
    if not boards:
        ctx.reply.send(
            ctx.sender,
            f"{game.title} show {names}",
            f"No {choice} {game.title} boards of {names}.\n",
        )
        return
    parts = []
    for board in boards:
        state = rebuild(board)
        seat = next((p.seat for p in board.players if p.user_id == users[0].id), None)
        parts.append(f"== {subject(board, state)} ==\n\n" + board_body(board, state, seat))
    ctx.reply.send(ctx.sender, f"{game.title} show {names} {choice}", "\n".join(parts))


def showas(ctx: Context, game: Game, words: list[str]) -> None:
    """The board drawn as one of its players sees it."""
    form = f"{game.name} showas BOARD[#N] USERID"
    usage(form, words, 2)
    board, state = board_at(ctx, game, words[0], form)
    seat = seat_of(board, user_named(ctx.session, words[1]))
    ctx.reply.send(ctx.sender, subject(board, state), board_body(board, state, seat))


def preview(ctx: Context, game: Game, words: list[str]) -> None:
    """What moves would do, on a board (as it is, or after move N) or on a
    new one; nothing is stored."""
    form = f"{game.name} preview BOARD[#N] MOVE ... or {game.name} preview new PLAYERS MOVE ..."
    if len(words) < 2:
        raise CommandError(f"Write this command as: {form}")
    if words[0].lower() == "new":
        if words[1] != str(game.players):
            raise CommandError(
                f"{game.title} is played by {game.players}: write {game.name} preview new "
                f"{game.players} [-OPTION ...] MOVE ..."
            )
        options = [w for w in words[2:] if re.match(r"--?[A-Za-z_]", w)]
        moves = [w for w in words[2:] if not re.match(r"--?[A-Za-z_]", w)]
        try:
            start = game.new_state(game.parse_options(options))
        except OptionError as error:
            raise CommandError(str(error)) from None
        title = f"{game.title} preview"
        heading = ""
    else:
        board, start = board_at(ctx, game, words[0], form)
        moves = words[1:]
        title = f"{game.title} Board {board.id} preview"
        heading = f"Board {board.id} after {' '.join(moves)} (a preview: nothing was played).\n\n"
    state = start
    for number, text in enumerate(moves, start=len(start.history) + 1):
        try:
            state = state.play_text(text)
        except MoveError as error:
            raise CommandError(
                f"Move {number} ({text}) cannot be played: {error.reason}."
            ) from None
    ctx.reply.send(ctx.sender, title, heading + state.text_board())


def games(ctx: Context, game: Game, words: list[str]) -> None:
    usage(f"{game.name} games [USERID]", words, 0, 1)
    if words:
        user = user_named(ctx.session, words[0])
    else:
        found = sender_account(ctx)
        if found is None:
            raise CommandError(
                f"Name the player: {game.name} games USERID (this address has no account)."
            )
        user = found
    boards = boards_of(ctx.session, user.id, game=game.name)
    lines = [f"{game.title} boards of {user.userid}:"]
    for board in boards:
        state = rebuild(board)
        names = " against ".join(players_of(board))
        lines.append(f"  {board.id:>5}  {names}  move {board.version + 1}: {state.status_line()}")
    if not boards:
        lines.append("  none yet")
    ctx.reply.send(ctx.sender, f"{game.title} games {user.userid}", "\n".join(lines) + "\n")
