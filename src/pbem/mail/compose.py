"""The mail as sent: an outbox row made into a MIME message.

The text body is the mail pbmserv players know and is always sent as is. A
mail that shows a board also gets an HTML alternative with the board drawn
as an inline PNG, the move list as a table, a link to the board's web page,
and the whole text again, so a reader who sees only the HTML misses nothing.
Drawing the board is a nicety: when it fails the text-only mail goes out.
"""

from __future__ import annotations

import base64
import hashlib
import logging
import re
import secrets
from dataclasses import dataclass
from datetime import UTC
from email.generator import BytesGenerator
from email.headerregistry import Address
from email.message import EmailMessage, Message
from email.utils import format_datetime
from functools import lru_cache
from io import BytesIO
from urllib.parse import quote

import jinja2
from sqlalchemy import Engine, bindparam, select
from sqlalchemy.orm import Session

from ..games import GAMES, get_game
from ..games.base import Options
from ..server import BoardViews, pictures, stop_token_of
from ..settings import Settings
from ..store import Address as Mailbox
from ..store import OutboxMessage, User
from ..store.positions import POSITIONS, svg_board
from .headers import SENDING

logger = logging.getLogger("pbem.mail.compose")

BOARD_WIDTH = 560  # pixels: wide enough to read, narrow enough for a phone or a mail pane
# 7-bit clean: non-ASCII text goes quoted-printable (or base64), so a relay
# without 8BITMIME takes it too (smtplib never asks for BODY=8BITMIME).
MAIL_POLICY = SENDING
# The HTML part's template (templates/board_mail.html), escaped as HTML.
_TEMPLATES = jinja2.Environment(
    loader=jinja2.PackageLoader("pbem.mail", "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
)
_BLANKS = re.compile(r"\s+")
# A board's mails by their Subject, pbmserv's 'Vasco Board 12 ...' (a 'New'
# before it on the first): errors and chat carry no board picture, so the
# Subject is how they are known as the board's.
_BOARD_SUBJECT = re.compile(
    r"\s*(?:new\s+)?(?:" + "|".join(GAMES) + r")\s+board\s+(\d+)\b", re.IGNORECASE
)


def compose(session: Session, row: OutboxMessage, settings: Settings) -> EmailMessage:
    """The message to send for an outbox row (its `message_id` already set).

    Built the same way on every attempt, so a retried delivery sends the
    same mail; only the MIME boundaries differ."""
    message = EmailMessage(policy=MAIL_POLICY)
    message["From"] = str(Address("pbem", addr_spec=settings.address))  # (a string: parsed once)
    message["To"] = ", ".join(row.recipients)
    message["Subject"] = _one_line(row.subject)
    created = row.created_at
    created = created.replace(tzinfo=UTC) if created.tzinfo is None else created.astimezone(UTC)
    message["Date"] = format_datetime(created)
    if row.message_id:
        message["Message-ID"] = _angled(row.message_id)
    answered = _angled(row.in_reply_to) if row.in_reply_to else ""
    if answered:
        message["In-Reply-To"] = answered
    references = " ".join(one for one in (thread_root(row, settings), answered) if one)
    if references:
        message["References"] = references
    # RFC 3834: machine-made mail; vacation responders and Exchange stay quiet.
    message["Auto-Submitted"] = "auto-replied" if answered else "auto-generated"
    message["X-Auto-Response-Suppress"] = "All"
    reply_to = _broadcaster(session, row)
    if reply_to:
        message["Reply-To"] = reply_to
    unsubscribe = _list_unsubscribe(session, row, settings)
    if unsubscribe:
        message["List-Unsubscribe"] = unsubscribe

    message.set_content(row.body, subtype="plain", charset="utf-8")
    if row.board_id is not None:
        try:
            html_text, picture, cid = _board_html(session, row, settings)
        except Exception as error:  # the picture is a nicety; the mail must go out
            logger.warning(
                "Outbox mail %s goes without its HTML part: board %s could not be drawn (%s: %s)",
                row.id,
                row.board_id,
                type(error).__name__,
                error,
                exc_info=True,
            )
        else:
            message.add_alternative(html_text, subtype="html", charset="utf-8")
            html_part = message.get_payload()[1]  # type: ignore[index]
            assert isinstance(html_part, EmailMessage)
            del html_part["MIME-Version"]  # the library adds it to the nested part too
            html_part.make_related()
            html_part.attach(_picture_part(picture, cid, f"board-{row.board_id}.png"))
            _set_boundaries(message, (row.body, html_text))
    return message


def thread_root(row: OutboxMessage, settings: Settings) -> str:
    """`<board-9@DOMAIN>` for every mail of board 9 (by its picture's board,
    else by its Subject), "" for any other: a stable root in `References`,
    so a board's mails thread together for every reader, the opponent's
    (which answer no mail of theirs) and a subscriber's too."""
    board = row.board_id
    if board is None:
        found = _BOARD_SUBJECT.match(row.subject)
        board = int(found.group(1)) if found else None
    return "" if board is None else f"<board-{board}@{settings.domain}>"


def _picture_part(picture: Picture, cid: str, filename: str) -> EmailMessage:
    """The board's PNG as an inline MIME part, its base64 made once per
    picture (the package's `add_related` encodes it again for every mail)."""
    part = EmailMessage(policy=MAIL_POLICY)
    part["Content-Type"] = "image/png"
    part["Content-Transfer-Encoding"] = "base64"
    part["Content-Disposition"] = f'inline; filename="{filename}"'
    part["Content-ID"] = f"<{cid}>"
    part.set_payload(picture.base64)
    return part


def new_boundary() -> str:
    """A MIME boundary: `=_` cannot occur in base64 or quoted-printable text."""
    return f"=_pbem_{secrets.token_hex(12)}"


def _set_boundaries(message: EmailMessage, texts: tuple[str, ...]) -> None:
    """Each multipart's boundary, chosen here so that the generator does not
    search the whole mail (its picture most of it) for one it may use: only
    the texts can hold any string, and a boundary found in them is drawn
    again."""
    for part in message.walk():
        if part.is_multipart():
            boundary = new_boundary()
            while any(boundary in text for text in texts):
                boundary = new_boundary()
            part.set_boundary(boundary)


class _Writer(BytesGenerator):
    """The package's BytesGenerator, but a part whose payload is base64
    already (the board's picture, `_picture_part`) is written at once:
    the package writes such a payload line by line, two writes for each of
    its thousand or more lines (with the base64 made once, about a tenth of
    the CPU of sending a board mail). The bytes are the same
    (tests/mail/test_compose.py)."""

    def _handle_image(self, msg: Message) -> None:
        payload = msg.get_payload()
        if (
            isinstance(payload, str)
            and msg.get("Content-Transfer-Encoding") == "base64"
            and payload.isascii()
            and "\r" not in payload  # (a parsed mail's lines may end in CRLF: the package's way)
        ):
            self._fp.write(payload.replace("\n", self._NL).encode("ascii"))  # type: ignore[attr-defined]
        else:
            self._handle_text(msg)  # type: ignore[attr-defined]


def render(message: EmailMessage, linesep: str = "\n") -> bytes:
    """The mail as bytes, as `message.as_bytes()` makes them, only faster."""
    out = BytesIO()
    _Writer(out, policy=message.policy).flatten(message, linesep=linesep)
    return out.getvalue()


def _one_line(text: str) -> str:
    """A header value: line breaks would be refused (or smuggle headers)."""
    return text.replace("\r", " ").replace("\n", " ")


def _angled(message_id: str) -> str:
    """A Message-ID in its <...> form, whitespace removed, whichever form came."""
    bare = _BLANKS.sub("", message_id).strip("<>")
    return f"<{bare}>" if bare else ""


# The three columns a stop token needs, by the address a mail goes to: a
# Core row, not the address and its user as objects (a quarter of the time).
_STOPPING = (
    select(User.userid, User.userid_key, User.password_hash)
    .join(Mailbox, Mailbox.user_id == User.id)
    .where(Mailbox.address_key == bindparam("key"))
)


# A broadcast's Subject ('pbem news from USERID', made by the server) and
# the main address of the administrator who sent it.
_BROADCAST = re.compile(r"pbem news from (\S+)$")
_SENDER_ADDRESS = (
    select(Mailbox.address)
    .join(User, User.id == Mailbox.user_id)
    .where(User.userid_key == bindparam("key"))
    .order_by(Mailbox.id)
    .limit(1)
)


def _broadcaster(session: Session, row: OutboxMessage) -> str | None:
    """The administrator's address for a broadcast's Reply-To, as pbmserv
    set the sender's: a reply reaches them, not the server (which would
    answer it as a command)."""
    found = _BROADCAST.match(row.subject)
    if found is None:
        return None
    return session.scalar(_SENDER_ADDRESS, {"key": found.group(1).lower()})


def _list_unsubscribe(session: Session, row: OutboxMessage, settings: Settings) -> str | None:
    """`<mailto:SERVER?subject=stop USERID TOKEN>` when the mail goes to one
    player's address: one click turns their mail off without a password."""
    if len(row.recipients) != 1:
        return None
    user = session.execute(_STOPPING, {"key": row.recipients[0].lower()}).one_or_none()
    if user is None:
        return None
    token = stop_token_of(user.userid_key, user.password_hash)
    command = quote(f"stop {user.userid} {token}", safe="")
    return f"<mailto:{quote(settings.address, safe='@')}?subject={command}>"


_VIEWS: list[BoardViews] = []  # the board views delivery reads (one database)


def views_of(session: Session) -> BoardViews:
    """The board views of the session's database: the same read model as
    the pages and the API (kept for the last database asked about; a
    process delivers for one)."""
    engine = session.get_bind()
    assert isinstance(engine, Engine)
    if not _VIEWS or _VIEWS[0].engine is not engine:
        _VIEWS[:] = [BoardViews(engine, size=64)]
    return _VIEWS[0]


def _board_html(
    session: Session, row: OutboxMessage, settings: Settings
) -> tuple[str, Picture, str]:
    """The HTML part of a board mail, its picture and the picture's Content-ID (bare).

    Raises when the board is gone or cannot be drawn; the caller then sends
    the text alone."""
    assert row.board_id is not None
    board = views_of(session).get(row.board_id)
    if board is None:
        raise LookupError("the board is not in the database")
    version = board.version if row.board_version is None else row.board_version
    moves = list(board.moves[:version])
    # An undo since the mail was queued: the record no longer has that move,
    # or has another one played in its place. Either way no picture of a
    # position the text does not show.
    if len(moves) != version:
        raise LookupError(f"the board has {len(board.moves)} moves, the mail shows {version}")
    if moves and moves[-1].played_at > row.created_at:
        raise LookupError(f"move {version} was taken back and played again since")
    picture = board_picture(board.game, board.parsed_options(), tuple(move.text for move in moves))
    width, height = picture.width, picture.height
    digest = hashlib.sha256((row.message_id or str(row.id)).encode()).hexdigest()[:16]
    cid = f"board{board.id}.{version}.{digest}@{settings.domain}"

    title = get_game(board.game).title
    alt = (
        f"{title} board {board.id} after move {version}" if version else f"{title} board {board.id}"
    )
    link = f"{settings.web_url.rstrip('/')}/{board.game}/{board.id}" if settings.web_url else ""
    page = _TEMPLATES.get_template("board_mail.html").render(
        subject=row.subject,
        cid=cid,
        width=width,
        height=height,
        alt=alt,
        moves=moves,
        names=dict(enumerate(board.players)),
        link=link,
        body=row.body,
    )
    return page + "\n", picture, cid


@lru_cache(maxsize=32)
def board_png(
    game: str, options: Options, moves: tuple[str, ...], width: int = BOARD_WIDTH
) -> bytes:
    """The board after `moves`, drawn as a PNG `width` pixels wide.

    Cached: one delivery pass mails the same position to every player and
    subscriber. The key is the record itself, so it cannot go stale. A
    machine without libvips raises here (pictures.py), which costs the
    picture, never the mail."""
    return pictures.svg_png(svg_board(POSITIONS.state(game, options.to_json(), moves)), width)


@dataclass(frozen=True)
class Picture:
    """A board's PNG as a mail carries it: its size and its base64 lines."""

    width: int
    height: int
    base64: str


@lru_cache(maxsize=32)
def board_picture(game: str, options: Options, moves: tuple[str, ...]) -> Picture:
    """`board_png`, with its size and its base64 (76 characters a line, as
    the email package writes it), made once for every mail that shows it."""
    png = board_png(game, options, moves)
    width, height = png_size(png)
    return Picture(width, height, base64.encodebytes(png).decode("ascii"))


def png_size(png: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR chunk."""
    if png[:8] != b"\x89PNG\r\n\x1a\n" or png[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
