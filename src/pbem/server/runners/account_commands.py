"""The commands about players and their mail: help, signup, add, change,
mail, vacation, signoff/signon, delete, broadcast, message, all show, list.

Each takes its command object (language/commands/), checks it, changes the
database and says which mails go out; every check fails with a
CommandError saying what was wrong and how to do it instead.
"""

from __future__ import annotations

import hmac
import os
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ...store import Address, Board, BoardPlayer, Rating, User
from ...store.boards import awaits, boards_of, rebuild, reschedule
from ..boards.lifecycle import end_by_resignation
from ..boards.tick import nag
from ..context import Context, login, seat_of
from ..errors import CONFLICT, FORBIDDEN, CommandError
from ..language import commands
from ..language.commands.accounts import CHANGE_FORM
from ..language.english import plural
from ..language.messages import Effect
from ..language.registry import runs
from ..language.words import game_named
from ..mailing.board_mail import board_body, subject, view_in
from ..mailing.footers import stop_token
from ..players.accounts import (
    authenticate,
    check_address,
    check_password,
    check_userid,
    find_address,
    find_user,
    main_address,
    user_named,
)
from ..players.passwords import new_password_hash, password_changed
from ..players.trust import end_trust

MAIL_PREFERENCES = ("every", "digest", "none")


def bots_on_offer(session: Session, userid: str) -> str:
    """A newcomer's first opponents: the bots, and how to challenge one."""
    bots = session.scalars(
        select(User.userid).where(User.bot_level.is_not(None)).order_by(User.id)
    ).all()
    if not bots:
        return ""
    return (
        f"\nNobody to play yet? The bots ({', '.join(bots)}) take every challenge at "
        f"once, in every game: for instance 'vasco challenge {userid} {bots[0]}'.\n"
    )


@runs(commands.Signup)
def signup(ctx: Context, command: commands.Signup) -> None:
    """A new account, with mail going to the given address or the sender's."""
    userid = check_userid(command.userid)
    password = check_password(command.password)
    address = check_address(command.address or ctx.sender)
    also = [check_address(extra) for extra in command.also]
    if find_user(ctx.session, userid) is not None:
        raise CommandError(
            f"The userid '{userid}' is taken (userids ignore case): pick another.", kind=CONFLICT
        )
    keys = [one.lower() for one in (address, *also)]
    if len(set(keys)) != len(keys):
        raise CommandError("An address is named twice: name each once.")
    for one in (address, *also):
        if find_address(ctx.session, one) is not None:
            raise CommandError(
                f"The address {one} already belongs to an account; one address, one account.",
                kind=CONFLICT,
            )
    user = User(
        userid=userid,
        userid_key=userid.lower(),
        password_hash=new_password_hash(password),
        mail_preference="every",
        vacation=False,
        created_at=ctx.now,
    )
    user.addresses = [Address(address=one, address_key=one.lower()) for one in (address, *also)]
    try:
        with ctx.session.begin_nested():  # a savepoint: a lost race leaves the rest usable
            ctx.session.add(user)
    except IntegrityError:  # another signup took the userid or address a moment ago
        raise CommandError(
            f"The userid '{userid}' or the address {address} was taken by another signup "
            "just now: pick another userid, or log in if it was yours.",
            kind=CONFLICT,
        ) from None
    ctx.reply.send(
        address,
        f"pbem signup {userid}",
        f"Welcome, {userid}: your account is ready, with mail going to {address}.\n"
        + (f"Commands may come from {', '.join(also)} too.\n" if also else "")
        + f"Send 'help' for the commands.\n{bots_on_offer(ctx.session, userid)}",
    )


@runs(commands.MailPreference)
def mail_preference(ctx: Context, command: commands.MailPreference) -> None:
    """Which mail the player wants: every board mail, a digest, or none."""
    user = login(ctx, command.userid, command.password)
    choice = command.preference.lower()
    if choice not in MAIL_PREFERENCES:
        raise CommandError(
            f"'{command.preference[:20]}' is no mail preference: write every, digest or none."
        )
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
    ctx.reply.did(Effect.PREFERENCE_SET)


@runs(commands.AddAddress)
def add_address(ctx: Context, command: commands.AddAddress) -> None:
    """Commands may come from other addresses too; mail stays where it goes."""
    user = login(ctx, command.userid, command.password)
    named = (command.address, *command.also)
    added = add_addresses(ctx, user, named)
    if len(added) != len(named):
        raise CommandError(
            f"{user.userid} has {', '.join(one for one in named if one not in added)} already: "
            "name only addresses to add.",
            kind=CONFLICT,
        )
    ctx.reply.send(
        [main_address(user), *added],
        f"pbem add {user.userid}",
        f"{user.userid} may now send commands from {', '.join(added)} too; mail still goes "
        f"to {main_address(user)}.\n",
    )


@runs(commands.Change)
def change(ctx: Context, command: commands.Change) -> None:
    """A new password, or a new main address; both ask for the current
    password (the web's session is not enough)."""
    what = command.what.lower()
    if what not in ("password", "address"):
        raise CommandError(f"Write this command as: {CHANGE_FORM}")
    user = authenticate(ctx.session, command.userid, command.password or "", ctx.sender)
    if what == "password":
        old_hash = user.password_hash
        user.password_hash = new_password_hash(check_password(command.new))
        # Every web session and API token made under the old one ends, but
        # the API token this command came with (players/trust.py).
        revoked, kept = end_trust(ctx.session, user, keep_token_in_use=True)
        password_changed(old_hash)
        ctx.reply.send(
            main_address(user),
            f"pbem change password {user.userid}",
            f"The password of {user.userid} is changed.\n" + trust_ended(revoked, kept),
        )
        return
    address = check_address(command.new)
    owner = find_address(ctx.session, address)
    if owner is not None and owner.user_id != user.id:
        raise CommandError(
            f"The address {address} already belongs to another account.", kind=CONFLICT
        )
    old = main_address(user)
    if owner is None or owner.id == user.addresses[0].id:  # (the main one: its case, at most)
        user.addresses[0].address = address
        user.addresses[0].address_key = address.lower()
    else:  # one of the user's other addresses becomes the main one
        user.addresses.remove(owner)
        ctx.session.flush()
        user.addresses[0].address = address
        user.addresses[0].address_key = address.lower()
    ctx.session.flush()
    added = add_addresses(ctx, user, command.also)
    same = old is not None and old.lower() == address.lower()
    ctx.reply.send(
        [address] if same else [old, address],
        f"pbem change address {user.userid}",
        (
            f"Mail for {user.userid} goes to {address}, as before.\n"
            if same
            else f"Mail for {user.userid} now goes to {address} instead of {old}.\n"
        )
        + (f"Commands may come from {', '.join(added)} too.\n" if added else ""),
    )


def trust_ended(revoked: int, kept: bool) -> str:
    """What a new password ended, said to its owner."""
    said = "Every web session logged in with the old password is logged out.\n"
    if revoked:
        said += f"{plural(revoked, 'API token')} revoked (the account page makes new ones).\n"
    if kept:
        said += "The API token this command came with still works.\n"
    return said


def add_addresses(ctx: Context, user: User, addresses: tuple[str, ...]) -> list[str]:
    """More addresses the user may send commands from (those they have
    already are left as they are); refused if another account has one."""
    added = []
    for extra in addresses:
        one = check_address(extra)
        owner = find_address(ctx.session, one)
        if owner is not None and owner.user_id != user.id:
            raise CommandError(
                f"The address {one} already belongs to an account; one address, one account.",
                kind=CONFLICT,
            )
        if owner is None:
            user.addresses.append(Address(address=one, address_key=one.lower()))
            ctx.session.flush()
            added.append(one)
    return added


@runs(commands.Vacation)
def vacation(ctx: Context, command: commands.Vacation) -> None:
    """No nags or forfeits while on vacation."""
    user = login(ctx, command.userid, command.password)
    choice = command.state.lower()
    if choice not in ("on", "off"):
        raise CommandError("Write on or off: vacation USERID PASSWORD on|off")
    was_away = user.vacation
    user.vacation = choice == "on"
    if not user.vacation:  # the boards it left alone are due again
        for board in boards_of(ctx.session, user.id, active=True):
            if was_away and awaits(board, user.id):
                back_from_vacation(ctx, board, user)
            reschedule(ctx.session, board)
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
                f"Your opponent {user.userid} is {said}.\n",
            )
    ctx.reply.send(
        main_address(user), f"pbem vacation {user.userid} {choice}", f"You are {said}.\n"
    )
    ctx.reply.did(Effect.PREFERENCE_SET)


def back_from_vacation(ctx: Context, board: Board, user: User) -> None:
    """A board that waited for the player while away: a reminder now, and a
    whole nag period before it can be forfeited."""
    if board.forfeit_days:
        board.forfeit_not_before = ctx.now + timedelta(days=board.nag_days or 1)
    if board.nag_days:
        board.nagged_at = ctx.now
        nag(ctx, board, user, ctx.now - board.updated_at)


@runs(commands.Stop)
def stop(ctx: Context, command: commands.Stop) -> None:
    """No more mail, with the token from a mail's List-Unsubscribe header
    instead of the password."""
    user = user_named(ctx.session, command.userid)
    if not hmac.compare_digest(command.token.lower(), stop_token(user)):
        raise CommandError(
            f"That is not {user.userid}'s stop token (it changes with the password): "
            f"'mail {user.userid} PASSWORD none' does the same with the password.",
            kind=FORBIDDEN,
        )
    user.mail_preference = "none"
    ctx.reply.send(
        ctx.sender,
        f"pbem stop {user.userid}",
        f"{user.userid} gets no more board mail. 'mail {user.userid} PASSWORD every' brings "
        "it back.\n",
    )


@runs(commands.SignOff)
def signoff(ctx: Context, command: commands.SignOff) -> None:
    """Leave the server: resign every active board, no more board mail, no
    more challenges. `signon` comes back. The password is always needed."""
    user = authenticate(ctx.session, command.userid, command.password or "", ctx.sender)
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


@runs(commands.SignOn)
def signon(ctx: Context, command: commands.SignOn) -> None:
    user = login(ctx, command.userid, command.password)
    if not user.signed_off:
        raise CommandError(
            f"{user.userid} has not signed off: there is nothing to come back from.", kind=CONFLICT
        )
    user.signed_off = False
    user.mail_preference = "every"
    ctx.reply.send(
        main_address(user), f"pbem signon {user.userid}", f"Welcome back, {user.userid}.\n"
    )


@runs(commands.DeleteAccount)
def delete_account(ctx: Context, command: commands.DeleteAccount) -> None:
    """Remove an account that has never played (the password is always needed)."""
    user = authenticate(ctx.session, command.userid, command.password or "", ctx.sender)
    played = ctx.session.scalar(select(BoardPlayer).where(BoardPlayer.user_id == user.id).limit(1))
    if played is not None:
        raise CommandError(
            f"{user.userid} has boards, which keep their players' names: 'signoff "
            f"{user.userid} PASSWORD' leaves the server instead.",
            kind=CONFLICT,
        )
    address = main_address(user)
    ctx.session.delete(user)
    ctx.session.flush()
    ctx.reply.send(
        address, f"pbem delete {user.userid}", f"The account {user.userid} is deleted.\n"
    )


@runs(commands.Broadcast)
def broadcast(ctx: Context, command: commands.Broadcast) -> None:
    """The comment to every player (administrators only)."""
    user = login(ctx, command.userid, command.password)
    if user.userid_key not in administrators():
        raise CommandError(
            "Only the server's administrators may broadcast (PBEM_ADMINS names them).",
            kind=FORBIDDEN,
        )
    if not command.comment.strip():
        raise CommandError("A broadcast needs words: write them in the body of the mail.")
    everyone = ctx.session.scalars(
        select(User).where(User.mail_preference != "none").order_by(User.userid_key)
    ).all()
    for member in everyone:
        ctx.reply.send(
            main_address(member),
            f"pbem news from {user.userid}",
            command.comment.strip() + "\n",
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


@runs(commands.Message)
def message(ctx: Context, command: commands.Message) -> None:
    """A private message: the comment goes to another player."""
    user = login(ctx, command.userid, command.password)
    named = [user_named(ctx.session, name) for name in (command.to, *command.also)]
    targets = list({target.id: target for target in named}.values())
    gone = [target.userid for target in targets if target.signed_off]
    if gone:
        raise CommandError(
            f"{', '.join(gone)} signed off (left the server) and "
            f"{'gets' if len(gone) == 1 else 'get'} no mail from it: nothing was sent. "
            "A player who signs on again can be written to.",
            kind=CONFLICT,
        )
    if not command.comment.strip():
        raise CommandError("A message needs words: write them in the body of the mail.")
    text = "\n".join(f"> {line}" for line in command.comment.strip().splitlines())
    names = ", ".join(target.userid for target in targets)
    for target in targets:
        also = [t.userid for t in targets if t.id != target.id]
        ctx.reply.send(
            main_address(target),
            f"pbem message from {user.userid}",
            f"{user.userid} writes"
            + (f" (to you and {', '.join(also)})" if also else "")
            + f":\n{text}\n\nReply with 'message {target.userid} PASSWORD {user.userid}'.\n",
        )
    ctx.reply.send(ctx.sender, f"pbem message to {names}", f"Your message was sent to {names}.\n")


@runs(commands.AllShow)
def all_show(ctx: Context, command: commands.AllShow) -> None:
    """Every active board of a player, in every game (`next`: those
    awaiting their move, the longest waiting first)."""
    user = user_named(ctx.session, command.player)
    boards = boards_of(ctx.session, user.id, active=True)
    which = "active boards"
    if command.selector == "next":
        boards = sorted((b for b in boards if awaits(b, user.id)), key=lambda b: b.updated_at)
        which = "boards awaiting their move"
    if not boards:
        ctx.reply.send(
            ctx.sender, f"pbem all show {user.userid}", f"{user.userid} has no {which}.\n"
        )
        return
    parts = []
    for board in boards:
        state = rebuild(board)
        seat = next(p.seat for p in board.players if p.user_id == user.id)
        view = view_in(ctx.session, board)
        parts.append(
            f"== {subject(view, state)} ==\n\n" + board_body(view, state, seat, now=ctx.now)
        )
    ctx.reply.send(ctx.sender, f"pbem all show {user.userid}", "\n".join(parts))


@runs(commands.ListPlayers)
def list_users(ctx: Context, command: commands.ListPlayers) -> None:
    """Every player, or (`list GAME ...`) every player of those games with
    their rating; the bots marked, with their level. Players who signed off
    are not listed (their boards and history keep their names)."""
    if not command.games:
        users = ctx.session.scalars(
            select(User).where(~User.signed_off).order_by(User.userid_key)
        ).all()
        every = [f"{plural(len(users), 'player')}:"]
        every += [f"  {user.userid}{bot_note(user)}" for user in users]
        ctx.reply.send(ctx.sender, "pbem list", "\n".join(every) + "\n")
        return
    lines: list[str] = []
    for name in command.games:
        game = game_named(name)
        rows = ctx.session.execute(
            select(Rating, User)
            .join(User, User.id == Rating.user_id)
            .where(Rating.game == game.name, ~User.signed_off)
            .order_by(User.userid_key)
        ).all()
        lines += [""] if lines else []
        lines.append(f"{plural(len(rows), 'player')} of {game.title}:")
        lines += [
            f"  {user.userid}  rating {row.rating:.0f}, {plural(row.games, 'game')}"
            + bot_note(user)
            for row, user in rows
        ]
    ctx.reply.send(ctx.sender, f"pbem list {' '.join(command.games)}", "\n".join(lines) + "\n")


def bot_note(user: User) -> str:
    return f" (bot, {user.bot_level} level)" if user.is_bot else ""
