"""The command layer's front: run one command in one transaction and queue
its mails; a failed command changes nothing and its sender gets the reason.

The doors (mail, web, command line) call `Server.handle` and nothing else.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime

from sqlalchemy import Engine, inspect, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from ..store import ProcessedMessage, User, reading
from ..store.boards import StaleBoard, finished_here
from ..store.database import GroupCommit, statements
from .boards import hints
from .boards.quick_move import Mailed, TokenCheck, quick_move
from .boards.tick import tick
from .context import Context
from .dispatch import error_subject, execute, read_command, run_command
from .errors import CONFLICT, CommandError, UnfinishedMove
from .language.commands import Command, Move
from .language.messages import NOTHING, MailedBoard, Outcome, Outgoing, Reply, queue_messages
from .mailing.board_mail import board_body, subject
from .mailing.footers import with_footers
from .mailing.reply_cap import cap_replies
from .players.accounts import authenticate, find_user
from .players.passwords import PasswordWork, do_or_hand_out, handed_out
from .players.ratings import rate_finished_boards
from .players.trust import end_trust
from .read_side import ReadSide
from .views.board_view import BoardViews, read_view

MAX_LINE = 1000  # characters of a command line
MAX_BODY = 100_000  # characters of a comment
MAX_MULTIPLE = 50  # commands in one 'multiple' mail
PASSWORD_ROUNDS = 4  # a command checks or makes at most three passwords (passwords.py)


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def clean(text: str, *, one_line: bool) -> str:
    """Text safe to store and mail: control characters (NUL among them, which
    PostgreSQL refuses) become U+FFFD; a command line loses its line breaks."""
    if one_line:
        text = text.replace("\r", " ").replace("\n", " ").replace("\t", " ")
    return _CONTROL.sub("\ufffd", text)


def cleaned(sender: str, line: str, body: str) -> tuple[str, str, str]:
    """A command as every path reads it: sender and line on one line each,
    the body with plain line ends."""
    return (
        clean(sender, one_line=True).strip(),
        clean(line, one_line=True),
        clean(body.replace("\r\n", "\n"), one_line=False),
    )


def raced(problem: StaleBoard) -> CommandError:
    """A board another command changed first (a race the version guard
    caught), as the refusal its sender reads."""
    return CommandError(str(problem), problem.board_id, kind=CONFLICT)


def handled_before(session: Session, key: str | None) -> bool:
    """Whether an incoming mail's key was recorded as handled."""
    return key is not None and session.get(ProcessedMessage, key[:400]) is not None


def record_handled(session: Session, key: str | None, now: datetime) -> None:
    """Record an incoming mail's key as handled, in the transaction that
    handles it: a second process handling the same mail at once fails on
    the key (IntegrityError), or finds it recorded and does nothing."""
    if key is not None:
        session.add(ProcessedMessage(key=key[:400], processed_at=now))


def first_time(session: Session, key: str | None, now: datetime) -> bool:
    """Record an incoming mail's key; False when it was handled before."""
    if handled_before(session, key):
        return False
    record_handled(session, key, now)
    return True


def actor_addresses(ctx: Context) -> frozenset[str]:
    """The addresses of the player the door vouched for, after the command."""
    user = ctx.trusted_user
    if user is None or inspect(user).deleted or inspect(user).detached:
        return frozenset()
    return frozenset(address.address_key for address in user.addresses)


def utc_now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Server:
    """Runs commands against a database; `clock` is injectable for tests."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        clock: Callable[[], datetime] = utc_now,
        *,
        quick_moves: bool = True,
    ) -> None:
        self.sessions = sessions
        # Plain moves from the web and the API through quick_move.py (tests
        # turn it off to compare with the full command, the reference).
        self.quick_moves = quick_moves
        self.reads = reading(sessions)  # for looking only: no write lock
        self.writer: Engine = sessions.kw["bind"]  # the same, for plain SQL statements
        self.turns = GroupCommit(self.writer)  # quick moves' write turns
        self.reader: Engine = statements(sessions.kw["bind"])  # single reads, see there
        self.views = BoardViews(sessions.kw["bind"])  # boards as the doors show them
        self.clock = clock
        self.read = ReadSide(self.reads, clock)  # what the doors show: they open no session

    def handle(
        self,
        sender: str,
        line: str,
        body: str = "",
        message_id: str | None = None,
        *,
        as_user: str | None = None,
        mail_errors: bool = True,
        by_mail: bool = False,
    ) -> Outcome:
        """Run one command from `sender` (or, for `multiple`, each line of
        the body, one after the other); returns the mails queued.

        With a `message_id`, a mail handled before (the same Message-ID) is
        not run again and returns no mails: it is recorded in the same
        transaction as the command's change.

        `as_user` is a userid the door has authenticated itself (the web's
        logged-in player): commands acting for it need no password. A door
        that shows a refusal itself (a web page, the API) passes
        `mail_errors=False`: the error reply is returned, not mailed.

        Commands that came by mail (`by_mail`) get at most
        reply_cap.REPLIES_PER_HOUR mails back to their address an hour."""
        trusted = None if as_user is None else as_user.lower()
        if line.split()[:1] and line.split()[0].lower() == "multiple":
            return self._multiple(sender, line, body, message_id, trusted, by_mail)
        if as_user is None:
            played = self._quick_text(sender, line, body, message_id, by_mail)
            if played is not None:
                return played
        return self._one(
            sender,
            line,
            body,
            message_id,
            message_id,
            trusted=trusted,
            mail_errors=mail_errors,
            by_mail=by_mail,
        )

    def execute(self, command: Command, *, as_user: str | None) -> Outcome:
        """Run a command object for `as_user`, the player the door vouches
        for (the web's logged-in player, an API token's owner; None: the
        command's own password must prove it). A refusal is returned (its
        `error` and `error_kind`), not mailed; the mails it queued say what
        it did, and `effects` what changed."""
        trusted = None if as_user is None else as_user.lower()
        if isinstance(command, Move) and trusted is not None and command.userid.lower() == trusted:
            played = self.quick_vouched(command)
            if played is not None:
                return played
        return self._one(
            "",
            command.text(),
            command.comment,
            None,
            None,
            trusted=trusted,
            mail_errors=False,
            command=command,
        )

    def quick_vouched(self, command: Move, token: TokenCheck | None = None) -> Outcome | None:
        """`command` played as a plain move (quick_move.py) for the player
        the door vouches for: `command.userid`, or with `token` the token's
        owner, looked up with the board. None when it is not one: nothing
        was done, and `execute` runs it (and says why when it refuses)."""
        if not self.quick_moves:
            return None
        _, _, comment = cleaned("", "", command.comment)
        if len(comment) > MAX_BODY:
            return None
        plain = replace(command, comment=comment)
        now = self.clock()
        return quick_move(
            self.turns, self.reader, self.views, plain, now, vouched=True, token=token
        )

    def _quick_text(
        self, sender: str, line: str, body: str, message_id: str | None, by_mail: bool
    ) -> Outcome | None:
        """A command line that is a plain move with a password checked
        before, played by quick_move.py; None for anything else."""
        if not self.quick_moves:
            return None
        sender, line, body = cleaned(sender, line, body)
        if len(line) > MAX_LINE or len(body) > MAX_BODY or not sender:
            return None
        try:
            command = read_command(line, body)
        except CommandError:
            return None
        if not isinstance(command, Move) or command.password is None:
            return None
        mailed = Mailed(sender, message_id, capped=by_mail)
        return quick_move(
            self.turns,
            self.reader,
            self.views,
            command,
            self.clock(),
            vouched=False,
            mailed=mailed,
        )

    def refuse(
        self,
        sender: str,
        line: str,
        reason: str,
        message_id: str | None = None,
        *,
        by_mail: bool = False,
    ) -> Outcome:
        """Answer a mail the doors could not take (too large, say) with an
        error mail giving `reason`; runs nothing."""
        return self._one(
            sender, line, "", message_id, message_id, CommandError(reason), by_mail=by_mail
        )

    def _multiple(
        self,
        sender: str,
        line: str,
        body: str,
        message_id: str | None,
        trusted: str | None,
        by_mail: bool,
    ) -> Outcome:
        lines = [text.strip() for text in body.splitlines() if text.strip()]
        if len(line.split()) > 1 or not lines or len(lines) > MAX_MULTIPLE:
            return self._one(
                sender,
                line,
                body,
                message_id,
                message_id,
                CommandError(
                    f"'multiple' stands alone in the Subject, with 1 to {MAX_MULTIPLE} commands "
                    "in the body, one per line."
                ),
                by_mail=by_mail,
            )
        messages: list[Outgoing] = []
        refused: list[str] = []
        for number, text in enumerate(lines, 1):
            key = None if message_id is None else f"{message_id} line {number}"
            with handed_out(False):  # (the lines before are done: argon2 is done here)
                answers = self._one(
                    sender, text, "", message_id, key, trusted=trusted, mail_errors=False,
                    by_mail=by_mail,
                )  # fmt: skip
            for message in answers.mails:
                if message.error is None:
                    messages.append(message)
                else:
                    refused.append(f"Line {number}: {text[:200]}\n  {message.error}")
        if refused:
            # One answer for all the refused lines: a mail with a forged From
            # makes one mail to that address, not one per line.
            done = len(lines) - len(refused)
            summary = (
                f"{len(refused)} of the {len(lines)} commands of your 'multiple' mail were "
                f"refused ({done} ran):\n\n" + "\n\n".join(refused)
            )
            key = None if message_id is None else f"{message_id} refusals"
            summarised = self._one(
                sender, line, "", message_id, key, CommandError(summary), by_mail=by_mail
            )
            messages.extend(summarised.mails)
        return Outcome(tuple(messages))

    def _one(
        self,
        sender: str,
        line: str,
        body: str,
        message_id: str | None,
        key: str | None,
        failure: CommandError | None = None,
        *,
        trusted: str | None = None,
        mail_errors: bool = True,
        by_mail: bool = False,
        command: Command | None = None,
    ) -> Outcome:
        now = self.clock()
        sender, line, body = cleaned(sender, line, body)
        if command is not None:
            command = replace(command, comment=body)  # what the runners read, as ctx.body
        try:
            if failure is not None:
                raise failure
            if len(line) > MAX_LINE:
                raise CommandError(
                    f"The command line is {len(line)} characters long; the most is {MAX_LINE}."
                )
            if len(body) > MAX_BODY:
                raise CommandError(
                    f"The message body is {len(body)} characters long; the most is {MAX_BODY}."
                )
            for _ in range(PASSWORD_ROUNDS):
                try:
                    with self.sessions.begin() as session:
                        if handled_before(session, key):
                            return NOTHING
                        reply = Reply()
                        ctx = Context(session, sender, body, now, reply, trusted)
                        if command is None:
                            run_command(ctx, line)
                        else:
                            execute(ctx, command)
                        actor = actor_addresses(ctx)
                        if finished_here(session):
                            rate_finished_boards(session, now)
                        messages = reply.messages
                        if by_mail:
                            messages = cap_replies(session, sender, messages, now)
                        messages = with_footers(session, messages)
                        queue_messages(session, messages, now, message_id)
                        # Last, after the command has locked its board's row, as
                        # quick_move.py claims the board before it notes the key:
                        # on PostgreSQL the other order deadlocked two servers
                        # handling one mail, one each way.
                        record_handled(session, key, now)
                    return Outcome(tuple(messages), tuple(reply.effects), reply.created, actor)
                except PasswordWork as work:
                    do_or_hand_out(work)  # argon2, with the transaction rolled back; then again
            raise RuntimeError(f"a command needed more than {PASSWORD_ROUNDS} password checks")
        except (CommandError, StaleBoard) as problem:
            error = problem if isinstance(problem, CommandError) else raced(problem)
            if not mail_errors:
                if key is not None:  # (a line of a mail: it counts as handled)
                    with self.sessions.begin() as session:
                        if not first_time(session, key, now):
                            return NOTHING
                        return Outcome((self._error_mail(session, sender, line, body, error, now),))
                with self.reads() as session:
                    return Outcome((self._error_mail(session, sender, line, body, error, now),))
            # One transaction records the mail and queues its answer; the answer
            # is written in it too (a second connection would wait on this
            # one's write lock under SQLite).
            with self.sessions.begin() as session:
                if not first_time(session, key, now):
                    return NOTHING
                answers = [self._error_mail(session, sender, line, body, error, now)]
                if by_mail:
                    answers = cap_replies(session, sender, answers, now)
                messages = with_footers(session, answers)
                queue_messages(session, messages, now, message_id)
            return Outcome(tuple(messages))
        except IntegrityError:
            if key is not None and self._seen(key):
                return NOTHING  # the same mail, run by another process at the same moment
            raise

    def check_login(self, userid: str, password: str, source: str = "") -> str:
        """The userid as its owner spelled it, if the password is theirs (a
        door's log-in form, `source` the client's address); the command
        layer's refusal otherwise."""
        for _ in range(PASSWORD_ROUNDS):
            try:
                with self.reads() as session:
                    return authenticate(session, userid, password, source).userid
            except PasswordWork as work:
                do_or_hand_out(work)  # argon2, with no session open; then again
        raise RuntimeError("a log-in needed more than one password check")

    def session_generation(self, userid: str) -> int | None:
        """The count a web session of this player must carry to be valid
        (None: no such player, so no session is)."""
        with self.reads() as session:
            user = find_user(session, userid)
            return None if user is None else user.session_generation

    def latest_hint(self, board: int, userid: str, version: int) -> str | None:
        """The newest answered hint `userid` asked on `board` at `version`;
        "" while one is being worked out; None when they asked none."""
        with self.reads() as session:
            return hints.latest_hint(session, board, userid, version)

    def end_sessions(self, userid: str, tokens: bool = False) -> int:
        """Void every web session of this player (logging out); with
        `tokens` ("log out everywhere"), revoke every API token of theirs as
        well (players/trust.py): how many tokens were revoked."""
        with self.sessions.begin() as session:
            if tokens:
                user = find_user(session, userid)
                return 0 if user is None else end_trust(session, user, False)[0]
            session.execute(
                update(User)
                .where(User.userid_key == userid.lower())
                .values(session_generation=User.session_generation + 1)
            )
        return 0

    def _seen(self, key: str) -> bool:
        with self.reads() as session:
            return session.get(ProcessedMessage, key[:400]) is not None

    def tick(self) -> list[Outgoing]:
        """Run the periodic job once (nags, forfeits, digests, archiving):
        what is due, each item in a transaction of its own."""
        return tick(self.sessions, self.clock())

    def _error_mail(
        self,
        session: Session,
        sender: str,
        line: str,
        body: str,
        error: CommandError,
        now: datetime,
    ) -> Outgoing:
        """The answer to a refused command: the reason, the board it was
        about as it stands at `now` (the command's time), and the command
        as it came."""
        parts = [error.message, ""]
        view = None
        if error.board is not None:
            shown = read_view(session.connection(), error.board)
            if shown is not None:
                state = shown.state()
                if isinstance(error, UnfinishedMove) and shown.active:
                    moves = state.legal_moves()
                    example = state.move_text(moves[0]) if moves else None
                    parts[0] = error.filled(shown.version + 1, example)
                parts += [f"The board ({subject(shown, state)}):", ""]
                parts.append(board_body(shown, state, None, now=now).rstrip("\n"))
                parts.append("")
                view = MailedBoard(shown.id, shown.version)
        parts.append("Your message was:")
        parts.append(f"> Subject: {line[:MAX_LINE]}")
        parts.extend(f"> {text}" for text in body[:2000].splitlines())
        body = "\n".join(parts) + "\n"
        subject_line = error_subject(line, error.board)
        return Outgoing(
            (sender,), subject_line, body, board=view, error=error.message, error_kind=error.kind
        )
