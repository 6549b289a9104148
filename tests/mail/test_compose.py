"""Outgoing mail from outbox rows, on a real SQLite database: the headers,
the text part exactly as stored, and the HTML part with the board as an
inline PNG that really decodes; a board that cannot be drawn still mails."""

from __future__ import annotations

import email
import email.policy
import io
import logging
import struct
import sys
from collections.abc import Iterator
from datetime import UTC, timedelta
from email.generator import BytesGenerator
from email.headerregistry import HeaderRegistry
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from urllib.parse import unquote

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from pbem.mail import compose as compose_module
from pbem.mail.compose import BOARD_WIDTH, board_picture, board_png, compose, render
from pbem.server import Server
from pbem.server.mailing.footers import stop_token
from pbem.server.views import pictures
from pbem.settings import Settings
from pbem.store import Board, MoveRow, OutboxMessage, User, make_engine, session_factory
from tests.databases import upgraded_sqlite

SETTINGS = Settings(address="pbem@example.net", web_url="https://pbem.example.net/")
COMMENT = "Schön gespielt — 日本"
COMMAND_ID = "<command-1@example.org>"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(autouse=True)
def fresh_png_cache() -> Iterator[None]:
    board_png.cache_clear()
    board_picture.cache_clear()
    yield
    board_png.cache_clear()
    board_picture.cache_clear()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """alice and bob on a Vasco board: the challenge, then alice's first
    move with a comment, sent by mail (so its replies answer a Message-ID)."""
    engine = make_engine(upgraded_sqlite(tmp_path / "pbem.sqlite3"))
    server = Server(session_factory(engine))
    server.handle("alice@example.org", "signup alice secret1")
    server.handle("bob@example.org", "signup bob secret2")
    server.handle("alice@example.org", "vasco challenge alice bob")
    server.handle(
        "alice@example.org", "vasco move 1 alice secret1 a0,0#1", COMMENT, message_id=COMMAND_ID
    )
    yield server
    engine.dispose()


def outbox(session: Session) -> list[OutboxMessage]:
    """The queued mails, each given a Message-ID as the delivery loop does."""
    rows = list(session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))
    for row in rows:
        row.message_id = f"<out-{row.id}@example.net>"
    return rows


def the_row(rows: list[OutboxMessage], to: str, subject_start: str) -> OutboxMessage:
    [row] = [r for r in rows if r.recipients == [to] and r.subject.startswith(subject_start)]
    return row


def reparsed(message: EmailMessage) -> EmailMessage:
    """The message as a recipient's client sees it: through the bytes the
    transports send (`render`) and back."""
    return reparsed_bytes(render(message))


def reparsed_bytes(raw: bytes) -> EmailMessage:
    parsed = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(parsed, EmailMessage)
    return parsed


def parts_of(message: EmailMessage) -> tuple[EmailMessage, EmailMessage, EmailMessage]:
    """(text/plain, text/html, image/png) of a board mail, checking its tree:
    multipart/alternative [text/plain, multipart/related [text/html, image/png]]."""
    assert message.get_content_type() == "multipart/alternative"
    text, related = message.iter_parts()
    assert text.get_content_type() == "text/plain"
    assert related.get_content_type() == "multipart/related"
    assert "MIME-Version" not in related
    html_part, image = related.iter_parts()
    assert html_part.get_content_type() == "text/html"
    assert image.get_content_type() == "image/png"
    return text, html_part, image  # type: ignore[return-value]


def png_dimensions(png: bytes) -> tuple[int, int]:
    """The PNG's size, decoded by Pillow when it is installed (so the whole
    image must decode), else read from the IHDR chunk."""
    assert png.startswith(PNG_SIGNATURE)
    try:
        from PIL import Image
    except ImportError:
        assert png[12:16] == b"IHDR"
        width, height = struct.unpack(">II", png[16:24])
        return width, height
    with Image.open(io.BytesIO(png)) as image:
        image.load()
        assert image.format == "PNG"
        return image.size


def test_headers_of_a_reply_to_a_command_mail(server: Server) -> None:
    with server.sessions() as session:
        row = the_row(outbox(session), "alice@example.org", "Vasco Board 1 bob")
        alice = session.scalar(select(User).where(User.userid_key == "alice"))
        assert alice is not None
        message = reparsed(compose(session, row, SETTINGS))
    assert message["From"] == "pbem <pbem@example.net>"
    assert message["To"] == "alice@example.org"
    assert message["Subject"] == row.subject
    assert message["Message-ID"] == row.message_id
    assert message["In-Reply-To"] == COMMAND_ID
    assert message["References"] == f"<board-1@example.net> {COMMAND_ID}"  # the board's root
    assert message["Auto-Submitted"] == "auto-replied"
    assert message["X-Auto-Response-Suppress"] == "All"
    assert "Precedence" not in message
    assert message["MIME-Version"] == "1.0"
    assert message["Date"] == format_datetime(row.created_at.replace(tzinfo=UTC))
    assert message["Date"].datetime == row.created_at.replace(tzinfo=UTC).replace(microsecond=0)
    token = stop_token(alice)
    # The header is folded before the <...> (it is longer than 78 characters),
    # and Python's parser keeps the space of the fold: hence the strip.
    assert message["List-Unsubscribe"].strip() == (
        f"<mailto:pbem@example.net?subject=stop%20alice%20{token}>"
    )


def test_list_unsubscribe_really_stops_the_mail(server: Server) -> None:
    with server.sessions() as session:
        row = the_row(outbox(session), "alice@example.org", "Vasco Board 1 bob")
        header = str(reparsed(compose(session, row, SETTINGS))["List-Unsubscribe"]).strip()
    assert header.startswith("<mailto:pbem@example.net?subject=")
    command = unquote(header.removesuffix(">").partition("?subject=")[2])
    [reply] = server.handle("alice@example.org", command).mails
    assert reply.subject == "pbem stop alice"
    with server.sessions() as session:
        alice = session.scalar(select(User).where(User.userid_key == "alice"))
        assert alice is not None and alice.mail_preference == "none"


def test_headers_of_a_mail_that_answers_no_mail(server: Server) -> None:
    with server.sessions() as session:
        row = the_row(outbox(session), "bob@example.org", "New Vasco Board 1 alice")
        message = reparsed(compose(session, row, SETTINGS))
    assert row.in_reply_to is None
    assert message["Auto-Submitted"] == "auto-generated"
    assert "In-Reply-To" not in message
    assert message["References"] == "<board-1@example.net>"  # threads with the board's others
    assert "stop%20bob%20" in message["List-Unsubscribe"]


def test_every_mail_of_a_board_carries_its_root_and_no_other_does(server: Server) -> None:
    """Board mails, a chat and an error about the board (no picture: known
    by the Subject) share `<board-1@DOMAIN>`; a signup mail has none."""
    server.handle("bob@example.org", "vasco chat 1 bob secret2", "Hi!", message_id="<c@x.org>")
    server.handle("bob@example.org", "vasco move 1 bob secret2 zz9", message_id="<e@x.org>")
    with server.sessions() as session:
        rows = outbox(session)
        heads = {
            (tuple(row.recipients), row.subject): compose(session, row, SETTINGS)["References"]
            for row in rows
        }
    board = {key: refs for key, refs in heads.items() if " Board 1 " in f"{key[1]} "}
    subjects = {key[1] for key in board}
    for kind in ("New Vasco Board 1 alice", "Vasco Board 1 bob", "Vasco Board 1 chat from bob"):
        assert any(subject.startswith(kind) for subject in subjects), (kind, subjects)
    assert "Vasco Board 1 Error" in subjects
    assert all(str(refs).split()[0] == "<board-1@example.net>" for refs in board.values())
    assert heads[(("bob@example.org",), "pbem signup bob")] is None


def test_no_list_unsubscribe_for_a_stranger_or_several_recipients(server: Server) -> None:
    server.handle("stranger@example.com", "help")
    with server.sessions() as session:
        rows = outbox(session)
        stranger = the_row(rows, "stranger@example.com", "")
        assert "List-Unsubscribe" not in compose(session, stranger, SETTINGS)
        several = OutboxMessage(
            id=999,
            created_at=stranger.created_at,
            recipients=["alice@example.org", "bob@example.org"],
            subject="Both of you",
            body="Hello.\n",
            in_reply_to=None,
            message_id="<several@example.net>",
        )
        message = reparsed(compose(session, several, SETTINGS))
    assert "List-Unsubscribe" not in message
    assert [address.addr_spec for address in message["To"].addresses] == [
        "alice@example.org",
        "bob@example.org",
    ]


def test_a_mail_without_a_board_is_plain_text(server: Server) -> None:
    with server.sessions() as session:
        row = the_row(outbox(session), "alice@example.org", "pbem signup alice")
        assert row.board_id is None
        message = reparsed(compose(session, row, SETTINGS))
    assert not message.is_multipart()
    assert message.get_content_type() == "text/plain"
    assert message.get_content_charset() == "utf-8"
    assert message.get_content() == row.body
    assert message["Message-ID"] == row.message_id


def test_a_board_mail_has_the_text_as_stored_and_an_html_part_with_the_picture(
    server: Server,
) -> None:
    with server.sessions() as session:
        row = the_row(outbox(session), "alice@example.org", "Vasco Board 1 bob")
        message = reparsed(compose(session, row, SETTINGS))
    text, html_part, image = parts_of(message)
    assert text.get_content() == row.body
    page = html_part.get_content()
    cid = str(image["Content-ID"])
    assert cid.startswith("<") and cid.endswith(">")
    assert f'src="cid:{cid[1:-1]}"' in page
    assert image.get_content_disposition() == "inline"
    assert image.get_filename() == "board-1.png"
    width, height = png_dimensions(image.get_content())
    assert width == BOARD_WIDTH and height > 0
    assert f'width="{width}" height="{height}"' in page
    assert "<h1" in page and "Vasco Board 1 bob **" in page
    # the move table, the link to the board page, and the whole text again
    assert "<table" in page and "<td" in page and "a0,0" in page and "alice" in page
    assert 'href="https://pbem.example.net/vasco/1"' in page
    assert "You get this mail as alice." in page
    assert "For fewer mails: &#39;mail alice PASSWORD digest&#39;" in page  # (escaped)
    assert "<script" not in page.lower() and "http://" not in page


def test_non_ascii_comment_survives_in_both_parts(server: Server) -> None:
    with server.sessions() as session:
        row = the_row(outbox(session), "bob@example.org", "Vasco Board 1 bob")
        assert COMMENT in row.body
        message = reparsed(compose(session, row, SETTINGS))
    text, html_part, _ = parts_of(message)
    assert text.get_content() == row.body
    assert f"&gt; {COMMENT}" in html_part.get_content()


@pytest.mark.parametrize("subject_start", ["Vasco Board 1 bob", "pbem signup alice"])
def test_non_ascii_is_encoded_and_comes_back(server: Server, subject_start: str) -> None:
    with server.sessions() as session:
        row = the_row(outbox(session), "alice@example.org", subject_start)
        row.subject = "Vasco Board 1 — Jürgen 日本"
        # short lines: without the 7-bit policy this body would go out as 8bit
        row.body = "Grüße.\n" if row.board_id is None else f"Grüße.\n{row.body}"
        raw = compose(session, row, SETTINGS).as_bytes()
    assert raw.isascii()  # RFC 2047 and transfer encodings: any relay takes it
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert message["Subject"] == "Vasco Board 1 — Jürgen 日本"
    text = next(part for part in message.walk() if part.get_content_type() == "text/plain")
    assert text.get_content() == row.body


def test_no_link_without_a_web_url(server: Server) -> None:
    with server.sessions() as session:
        row = the_row(outbox(session), "alice@example.org", "Vasco Board 1 bob")
        message = reparsed(compose(session, row, Settings(address="pbem@example.net")))
    _, html_part, _ = parts_of(message)
    assert "href=" not in html_part.get_content()


def test_auto_moves_are_marked_in_the_move_table(server: Server) -> None:
    with server.sessions.begin() as session:  # as if the move had been an auto move
        row = the_row(outbox(session), "alice@example.org", "Vasco Board 1 bob")
        move = session.scalar(select(MoveRow).where(MoveRow.board_id == row.board_id))
        assert move is not None
        move.auto = True
        session.get_one(Board, row.board_id).revision += 1  # (every change moves it on)
    with server.sessions() as session:
        row = the_row(outbox(session), "alice@example.org", "Vasco Board 1 bob")
        message = reparsed(compose(session, row, SETTINGS))
    _, html_part, _ = parts_of(message)
    assert "(auto)" in html_part.get_content()


def test_a_broken_render_still_sends_the_text(
    server: Server, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*args: object, **kwargs: object) -> bytes:
        raise RuntimeError("no cairo today")

    monkeypatch.setattr(pictures, "svg_png", broken)
    with server.sessions() as session:
        row = the_row(outbox(session), "alice@example.org", "Vasco Board 1 bob")
        with caplog.at_level(logging.WARNING, logger="pbem.mail.compose"):
            message = reparsed(compose(session, row, SETTINGS))
    assert message.get_content_type() == "text/plain"
    assert message.get_content() == row.body
    assert message["Message-ID"] == row.message_id
    [record] = [r for r in caplog.records if r.name == "pbem.mail.compose"]
    assert record.levelno == logging.WARNING and "no cairo today" in record.getMessage()


def test_without_libvips_the_text_goes_out(
    server: Server, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    pictures.vips.cache_clear()  # not loaded yet in this process
    monkeypatch.setitem(sys.modules, "pyvips", None)  # and the import now fails
    with server.sessions() as session:
        row = the_row(outbox(session), "alice@example.org", "Vasco Board 1 bob")
        with caplog.at_level(logging.WARNING, logger="pbem.mail.compose"):
            message = compose(session, row, SETTINGS)
    assert message.get_content_type() == "text/plain"
    assert any(r.name == "pbem.mail.compose" for r in caplog.records)


@pytest.mark.parametrize("change", ["taken back", "played again", "gone"])
def test_a_board_that_moved_back_or_is_gone_gets_the_text_only(server: Server, change: str) -> None:
    """After an undo the record no longer has the move the mail shows, or
    another move in its place: no picture of another position. A deleted
    board: no picture at all."""
    if change == "played again":  # (as an undo and the move again, a second later)
        with server.sessions.begin() as session:
            row = the_row(outbox(session), "alice@example.org", "Vasco Board 1 bob")
            move = session.scalar(select(MoveRow).where(MoveRow.board_id == row.board_id))
            assert move is not None
            move.played_at = row.created_at + timedelta(seconds=1)
            session.get_one(Board, row.board_id).revision += 2
    with server.sessions() as session:
        row = the_row(outbox(session), "alice@example.org", "Vasco Board 1 bob")
        if change == "taken back":
            row.board_version = 2
        elif change == "gone":
            row.board_id = 999
        message = compose(session, row, SETTINGS)
    assert message.get_content_type() == "text/plain"
    assert message.get_content() == row.body


def test_a_header_value_with_line_breaks_cannot_add_headers(server: Server) -> None:
    with server.sessions() as session:
        row = the_row(outbox(session), "alice@example.org", "pbem signup alice")
        row.in_reply_to = "<x@example.org>\r\nBcc: victim@example.com"
        row.subject = "one\r\nBcc: victim@example.com"
        message = reparsed(compose(session, row, SETTINGS))
    assert "Bcc" not in message
    assert "\n" not in message["Subject"]


def test_the_same_position_is_drawn_once(server: Server) -> None:
    with server.sessions() as session:
        rows = [r for r in outbox(session) if r.subject.startswith("Vasco Board 1 bob")]
        assert len(rows) == 2  # alice's and bob's copies of the same position
        pictures = [parts_of(reparsed(compose(session, r, SETTINGS)))[2] for r in rows]
    assert pictures[0].get_content() == pictures[1].get_content()
    assert board_png.cache_info().misses == 1
    assert board_picture.cache_info().misses == 1 and board_picture.cache_info().hits == 1


@pytest.mark.parametrize("game", ["vasco", "trugo", "vacu", "convacu"])
def test_every_game_mails_a_picture(server: Server, game: str) -> None:
    [*_, mail] = server.handle("alice@example.org", f"{game} challenge alice bob").mails
    with server.sessions() as session:
        row = [r for r in outbox(session) if r.subject == mail.subject][-1]
        assert row.board_id is not None
        message = reparsed(compose(session, row, SETTINGS))
    text, html_part, image = parts_of(message)
    assert text.get_content() == row.body
    assert png_dimensions(image.get_content())[0] == BOARD_WIDTH
    assert f'href="https://pbem.example.net/{game}/{row.board_id}"' in html_part.get_content()


def every_mail(session: Session) -> list[bytes]:
    """Every queued mail composed, their MIME boundaries numbered in order
    (the package draws them at random), one with non-ASCII headers among them."""
    rows = outbox(session)
    rows[0].subject = "Vasco Board 1 — Jürgen 日本"
    drawn = iter(range(1000))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(compose_module, "new_boundary", lambda: f"=_boundary{next(drawn)}")
        return [compose(session, row, SETTINGS).as_bytes() for row in rows]


@pytest.mark.parametrize("linesep", ["\n", "\r\n"])
def test_render_writes_the_bytes_the_email_package_writes(server: Server, linesep: str) -> None:
    """`render` writes the picture's base64 at once, not line by line; the
    package's own BytesGenerator is the slow, plain reference."""
    with server.sessions() as session:
        messages = [compose(session, row, SETTINGS) for row in outbox(session)]
    assert sum(1 for m in messages if m.is_multipart()) >= 2
    # and mails parsed back from CRLF bytes, whose base64 lines end in CRLF
    parsed = [
        email.message_from_bytes(m.as_bytes(policy=m.policy.clone(linesep="\r\n")), policy=m.policy)
        for m in messages
    ]
    for message in [*messages, *parsed]:
        assert isinstance(message, EmailMessage)
        theirs = io.BytesIO()
        BytesGenerator(theirs, policy=message.policy).flatten(message, linesep=linesep)
        assert render(message, linesep) == theirs.getvalue()


def test_the_picture_part_is_the_png_in_base64_lines(server: Server) -> None:
    with server.sessions() as session:
        row = next(r for r in outbox(session) if r.subject.startswith("Vasco Board 1 bob"))
        raw = render(compose(session, row, SETTINGS))
    [image] = [p for p in reparsed_bytes(raw).walk() if p.get_content_type() == "image/png"]
    assert image["Content-Transfer-Encoding"] == "base64"
    assert image.get_content_disposition() == "inline"
    assert image.get_filename() == f"board-{row.board_id}.png"
    data = image.get_content()
    assert data.startswith(PNG_SIGNATURE) and png_dimensions(data)[0] == BOARD_WIDTH
    lines = raw.split(b"\n")
    assert max(len(line) for line in lines) <= 78  # RFC 5322 (and base64's 76)


def test_a_boundary_found_in_the_text_is_drawn_again(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn = iter(["=_taken", "=_taken", "=_free1", "=_free2"])
    monkeypatch.setattr(compose_module, "new_boundary", lambda: next(drawn))
    with server.sessions() as session:
        row = next(r for r in outbox(session) if r.subject.startswith("Vasco Board 1 bob"))
        row.body += "\n--=_taken\n"
        message = compose(session, row, SETTINGS)
    assert [p.get_boundary() for p in message.walk() if p.is_multipart()] == ["=_free1", "=_free2"]
    assert "=_taken" in reparsed_bytes(render(message)).get_body(("plain",)).get_content()


def test_mails_are_composed_as_with_the_email_packages_policy(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pbem's policy parses each header value once (mail/headers.py); the
    mails it makes are byte for byte those of the package's own 7-bit
    policy."""
    with server.sessions() as session:
        ours = every_mail(session)
        monkeypatch.setattr(
            compose_module, "MAIL_POLICY", email.policy.default.clone(cte_type="7bit")
        )
        theirs = every_mail(session)
    assert ours == theirs
    assert len(ours) > 3 and all(raw.isascii() for raw in ours)


def test_a_header_value_is_parsed_once(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """Building a board mail stores Content-Type and the like again and
    again as its parts are added; the package parsed each one anew."""
    parsed: list[str] = []
    registry = HeaderRegistry.__call__

    def counting(self: HeaderRegistry, name: str, value: str) -> object:
        parsed.append(name.lower())
        return registry(self, name, value)

    with server.sessions() as session:
        first = every_mail(session)
        monkeypatch.setattr(HeaderRegistry, "__call__", counting)
        assert every_mail(session) == first
    assert parsed == []
