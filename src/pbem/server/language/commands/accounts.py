"""The commands about a player's account and mail: signup, add, change,
mail, vacation, signoff, signon, delete, broadcast, message, stop, and
`multiple` (a mail whose body holds the commands)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from ...errors import CommandError
from ..words import AccountVerb, declares, usage
from .base import Acting, Command

MOST_ADDRESSES = 5  # in one signup or change address


def read_signup(words: list[str], body: str) -> Signup:
    usage("signup USERID PASSWORD [ADDRESS ...]", words, 2, 2 + MOST_ADDRESSES)
    return Signup(
        userid=words[0],
        password=words[1],
        address=words[2] if len(words) > 2 else None,
        also=tuple(words[3:]),
        comment=body,
    )


@declares(
    AccountVerb(
        "signup",
        ("signup USERID PASSWORD [ADDRESS ...]",),
        "make an account (ADDRESS: the sender's)",
        read=read_signup,
    ),
)
@dataclass(frozen=True, kw_only=True)
class Signup(Command):
    """A new account; mail goes to `address` (None: the sender's), and
    commands may come from the `also` addresses too."""

    userid: str
    password: str
    address: str | None = None
    also: tuple[str, ...] = ()

    def text(self) -> str:
        addresses = [self.address, *self.also] if self.address else []
        return " ".join([f"signup {self.userid} PASSWORD", *addresses])


def read_add(words: list[str], body: str) -> AddAddress:
    usage("add USERID PASSWORD ADDRESS ...", words, 3, 2 + MOST_ADDRESSES)
    return AddAddress(
        userid=words[0], password=words[1], address=words[2], also=tuple(words[3:]), comment=body
    )


@declares(
    AccountVerb(
        "add",
        ("add USERID PASSWORD ADDRESS ...",),
        "send commands from another address too",
        read=read_add,
    ),
)
@dataclass(frozen=True, kw_only=True)
class AddAddress(Acting):
    """Commands may come from `address` (and the `also` addresses) too."""

    address: str
    also: tuple[str, ...] = ()

    def tail(self) -> str:
        return "".join(f" {one}" for one in (self.address, *self.also))


CHANGE_FORM = (
    "change password USERID PASSWORD NEWPASSWORD, or change address USERID PASSWORD NEWADDRESS ..."
)


def read_change(words: list[str], body: str) -> Change:
    usage(CHANGE_FORM, words, 4, 3 + MOST_ADDRESSES)
    what = words[0].lower()
    if what not in ("password", "address") or (what == "password" and len(words) > 4):
        raise CommandError(f"Write this command as: {CHANGE_FORM}")
    return Change(
        what=what,
        userid=words[1],
        password=words[2],
        new=words[3],
        also=tuple(words[4:]),
        comment=body,
    )


@declares(
    AccountVerb(
        "change",
        (
            "change password USERID PASSWORD NEWPASSWORD",
            "change address USERID PASSWORD NEWADDRESS ...",
        ),
        "a new password, or where your mail goes",
        read=read_change,
    ),
)
@dataclass(frozen=True, kw_only=True)
class Change(Acting):
    """A new password or main address (`what`: password or address). The
    current password is always needed, whoever vouches for the player."""

    what: str
    new: str
    also: tuple[str, ...] = ()  # (an address change) more addresses to send from

    def text(self) -> str:
        new = "NEWPASSWORD" if self.what.lower() == "password" else self.new
        return " ".join([f"change {self.what} {self.userid} PASSWORD {new}", *self.also])


def read_mail_preference(words: list[str], body: str) -> MailPreference:
    usage("mail USERID PASSWORD every|digest|none", words, 3)
    return MailPreference(userid=words[0], password=words[1], preference=words[2], comment=body)


@declares(
    AccountVerb(
        "mail",
        ("mail USERID PASSWORD every|digest|none",),
        "which mail you want: every board mail, one mail a day listing boards "
        "awaiting you, or none",
        read=read_mail_preference,
    ),
)
@dataclass(frozen=True, kw_only=True)
class MailPreference(Acting):
    """Which mail a player wants: every board mail, a daily digest, none."""

    preference: str

    def tail(self) -> str:
        return f" {self.preference}"


def read_vacation(words: list[str], body: str) -> Vacation:
    usage("vacation USERID PASSWORD on|off", words, 3)
    return Vacation(userid=words[0], password=words[1], state=words[2], comment=body)


@declares(
    AccountVerb(
        "vacation",
        ("vacation USERID PASSWORD on|off",),
        "no reminders or forfeits while away",
        read=read_vacation,
    ),
)
@dataclass(frozen=True, kw_only=True)
class Vacation(Acting):
    """No reminders or forfeits while away (`on`), or back (`off`)."""

    state: str

    def tail(self) -> str:
        return f" {self.state}"


def read_credentials(
    kind: type[Acting], words: list[str], body: str, *, form: str | None = None
) -> Command:
    """`VERB USERID PASSWORD` (signoff, signon, delete, broadcast), written
    as `form` (else `VERB USERID PASSWORD`) when it is not."""
    usage(form or f"{kind.verb} USERID PASSWORD", words, 2)
    return kind(userid=words[0], password=words[1], comment=body)


@declares(
    AccountVerb(
        "signoff",
        ("signoff USERID PASSWORD",),
        "leave: resign every board, no more mail",
        of_kind=read_credentials,
    ),
)
@dataclass(frozen=True, kw_only=True)
class SignOff(Acting):
    """Leave: resign every active board, no more mail or challenges."""


@declares(
    AccountVerb(
        "signon",
        ("signon USERID PASSWORD",),
        "come back after a signoff",
        of_kind=read_credentials,
    ),
)
@dataclass(frozen=True, kw_only=True)
class SignOn(Acting):
    """Come back after a signoff."""


@declares(
    AccountVerb(
        "delete",
        ("delete USERID PASSWORD",),
        "remove an account that never played",
        of_kind=read_credentials,
    ),
)
@dataclass(frozen=True, kw_only=True)
class DeleteAccount(Acting):
    """Remove an account that never played."""


@declares(
    AccountVerb(
        "broadcast",
        ("broadcast USERID PASSWORD",),
        "(administrators) the body to everyone",
        of_kind=partial(
            read_credentials, form="broadcast USERID PASSWORD (the message in the body)"
        ),
    ),
)
@dataclass(frozen=True, kw_only=True)
class Broadcast(Acting):
    """`comment` to every player (administrators only)."""


MOST_RECIPIENTS = 20  # players in one message


def read_message(words: list[str], body: str) -> Message:
    usage(
        "message USERID PASSWORD TOUSERID ... (the message in the body)",
        words,
        3,
        2 + MOST_RECIPIENTS,
    )
    return Message(
        userid=words[0], password=words[1], to=words[2], also=tuple(words[3:]), comment=body
    )


@declares(
    AccountVerb(
        "message",
        ("message USERID PASSWORD TOUSERID ...",),
        "the body goes to those players",
        read=read_message,
    ),
)
@dataclass(frozen=True, kw_only=True)
class Message(Acting):
    """`comment` to the player `to` (and the `also` players)."""

    to: str
    also: tuple[str, ...] = ()

    def tail(self) -> str:
        return "".join(f" {name}" for name in (self.to, *self.also))


def read_stop(words: list[str], body: str) -> Stop:
    usage("stop USERID TOKEN (the token comes in each mail's List-Unsubscribe header)", words, 2)
    return Stop(userid=words[0], token=words[1], comment=body)


@declares(
    AccountVerb(
        "stop",
        ("stop USERID TOKEN",),
        "no more mail, by the token in a mail's List-Unsubscribe header",
        read=read_stop,
    ),
)
@dataclass(frozen=True, kw_only=True)
class Stop(Command):
    """No more mail, proved by the token of a mail's List-Unsubscribe
    header instead of the password."""

    userid: str
    token: str

    def text(self) -> str:
        return f"stop {self.userid} TOKEN"


@declares(AccountVerb("multiple", ("multiple",), "each line of the body is a command"))
@dataclass(frozen=True, kw_only=True)
class Multiple(Command):
    """A mail whose body holds commands, one a line: the service reads the
    lines and runs each (`Server.handle`); this class names the word."""

    def text(self) -> str:
        return "multiple"
