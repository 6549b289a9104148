"""A board ended off the board (a resignation, a declined challenge, an
agreed draw) reads as finished in every mail that shows it: the board
mails of its end, `show`, `show PLAYERS all`, `games` and an error mail
about it. None says whose move it is or suggests one."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from pbem.server import Server
from tests.server.test_commands import challenge


def resigned(server: Server) -> str:
    server.handle("alice@example.org", "vasco move 1 alice pw-alice a0,0")
    server.handle("bob@example.org", "vasco move 1 bob pw-bob b1,0")
    return "alice resigned; bob wins"


def declined(server: Server) -> str:
    server.handle("alice@example.org", "vasco move 1 alice pw-alice a0,0")
    return "bob declined the challenge; not rated"


def drawn(server: Server) -> str:
    server.handle("alice@example.org", "vasco move 1 alice pw-alice a0,0")
    server.handle("alice@example.org", "vasco propose 1 alice pw-alice")
    return "drawn"


ENDINGS: dict[str, tuple[Callable[[Server], str], str]] = {
    "resignation": (resigned, "vasco resign 1 alice pw-alice"),
    "decline": (declined, "vasco resign 1 bob pw-bob"),
    "agreed draw": (drawn, "vasco accept 1 bob pw-bob"),
}


# How a games list line begins for each ending.
LISTED = {
    "resignation": "bob won: alice resigned (2 moves).",
    "decline": "Declined: bob declined the challenge; not rated (1 move).",
    "agreed draw": "Drawn by agreement (1 move).",
}


def reads_as_over(body: str, said: str) -> None:
    text = " ".join(body.split())
    assert said in text
    assert "to move" not in text and "For example" not in text, body


@pytest.mark.parametrize("ending", ENDINGS)
def test_every_mail_showing_a_finished_board_says_it_is_over(server: Server, ending: str) -> None:
    challenge(server)
    play, last = ENDINGS[ending]
    said = play(server)
    end_mails = [m for m in server.handle("x@example.org", last).mails if "Board 1" in m.subject]
    assert end_mails
    shown = [
        *end_mails,
        *server.handle("x@example.org", "vasco show 1").mails,
        *server.handle("x@example.org", "vasco show alice bob all").mails,
        *server.handle("alice@example.org", "vasco move 1 alice pw-alice c2,0").mails,  # refused
    ]
    for mail in shown:
        reads_as_over(mail.body, said)
    (listing,) = server.handle("x@example.org", "vasco games bob").mails
    line = next(line for line in listing.body.splitlines() if "alice against bob" in line)
    # the list line says how it ended, who won first: no colours to know
    assert line.split("  ")[-1].startswith(LISTED[ending]), line
    assert "to move" not in line
    # an older position of the board is shown as it was then
    (then,) = server.handle("x@example.org", "vasco show 1#0").mails
    assert "Move 1: Red (O) to move." in then.body
