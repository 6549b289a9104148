"""What a command produces: mails to send, each for one or more addresses."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, insert
from sqlalchemy.orm import Session

from ...store import OutboxMessage

if TYPE_CHECKING:
    from ..views import board_view


class Effect(enum.Enum):
    """What a command changed, for a door to say so in its own words."""

    MOVED = "moved"
    RESIGNED = "resigned"
    RESIGN_QUEUED = "resign queued"
    VOTED = "voted"
    DRAWN = "drawn by agreement"
    TAKEN_BACK = "taken back"
    PROPOSAL_REJECTED = "proposal rejected"
    CHATTED = "chatted"
    QUEUED = "queued"
    PREFERENCE_SET = "preference set"
    HINT_ASKED = "hint asked"
    OPEN_POSTED = "open challenge posted"
    OPEN_TAKEN = "open challenge taken"
    OPEN_WITHDRAWN = "open challenge withdrawn"
    REMATCH_FOUND = "rematch made already"


@dataclass(frozen=True)
class MailedBoard:
    """The board a mail shows: which, after which move, and for which seat
    (None: an onlooker). The mail door draws it for the HTML part."""

    board_id: int
    version: int
    seat: int | None = None


@dataclass(frozen=True)
class Outgoing:
    """A mail the server sends: to whom, its subject and its body."""

    to: tuple[str, ...]
    subject: str
    body: str
    in_reply_to: str | None = None
    footer: str | None = None  # None: the recipient's usual stop line, added on sending
    board: MailedBoard | None = None
    error: str | None = None  # for an error reply: what was wrong (the doors show it)
    error_kind: str | None = None  # and what kind of refusal (errors.MALFORMED, ...)
    answers: str | None = None  # the mailed command's address it goes back to (reply_cap)

    def to_json(self) -> dict[str, object]:
        return {"to": list(self.to), "subject": self.subject, "body": self.body}


@dataclass(frozen=True)
class Outcome:
    """What one command did, as every door gets it: the mails it queued (a
    refusal is one error mail, whose reason the door shows), what it changed
    (`effects`), the board it created (a challenge), the addresses (lower
    case) of the player the door vouched for as they were when it ended (so
    a door can pick out that player's own mails), and the board as it left
    it when that is known for sure (a quick move: no need to read it again)."""

    mails: tuple[Outgoing, ...] = ()
    effects: tuple[Effect, ...] = ()
    board: int | None = None
    actor: frozenset[str] = frozenset()
    view: board_view.BoardView | None = None

    @property
    def refusal(self) -> Outgoing | None:
        """The error mail, if the command (or a line of it) was refused."""
        return next((mail for mail in self.mails if mail.error is not None), None)

    @property
    def error(self) -> str | None:
        """Why the command was refused (None: it ran)."""
        refusal = self.refusal
        return None if refusal is None else refusal.error

    @property
    def kind(self) -> str | None:
        """What kind of refusal it was (server.errors), if one."""
        refusal = self.refusal
        return None if refusal is None else refusal.error_kind

    @property
    def ok(self) -> bool:
        return self.refusal is None


NOTHING = Outcome()  # a mail handled before: nothing run, nothing sent


@dataclass
class Reply:
    """Everything one command sends, in order, and the board it created."""

    messages: list[Outgoing] = field(default_factory=list)
    created: int | None = None
    effects: list[Effect] = field(default_factory=list)

    def did(self, effect: Effect) -> None:
        """Note what the command changed (for the door to tell its user)."""
        self.effects.append(effect)

    def send(
        self,
        to: str | list[str | None] | tuple[str | None, ...] | None,
        subject: str,
        body: str,
        *,
        footer: str | None = None,
        board: MailedBoard | None = None,
    ) -> None:
        """Queue a mail; `footer` replaces the recipient's usual stop line
        (every mail ends with how to stop it, see `with_footers`); `board`
        is the board it shows. A missing address (None: a bot's) is no one."""
        listed = (to,) if to is None or isinstance(to, str) else tuple(to)
        addresses = tuple(address for address in listed if address is not None)
        if addresses:
            self.messages.append(Outgoing(addresses, subject, body, footer=footer, board=board))


_QUEUE = insert(OutboxMessage)


def queue_messages(
    session: Session | Connection,
    messages: list[Outgoing],
    now: datetime,
    in_reply_to: str | None,
) -> None:
    """Write the messages to the outbox, in the caller's transaction (one
    statement for all of them)."""
    if not messages:
        return
    session.execute(_QUEUE, outbox_rows(messages, now, in_reply_to))


def outbox_rows(
    messages: list[Outgoing], now: datetime, in_reply_to: str | None
) -> list[dict[str, Any]]:
    """The outbox's rows for the messages, column by column."""
    answered = None if in_reply_to is None else in_reply_to[:300]
    return [
        {
            "created_at": now,
            "recipients": list(message.to),
            "subject": message.subject,
            "body": message.body,
            "in_reply_to": answered,
            "board_id": None if message.board is None else message.board.board_id,
            "board_version": None if message.board is None else message.board.version,
            "board_seat": None if message.board is None else message.board.seat,
            "answers": message.answers,
            "attempts": 0,
        }
        for message in messages
    ]
