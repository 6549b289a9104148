"""What the account, list, limit and standings mails say, through the
command layer by mail (a Message-ID, by_mail), on SQLite and PostgreSQL:
issue 49's items 6, 8, 15 and 19 (change address)."""

from __future__ import annotations

import re
from itertools import count

import pytest
from sqlalchemy import Engine

from pbem.server import Server
from pbem.server.language.messages import Outgoing
from pbem.store import session_factory
from tests.server.test_commands import Clock, signup

KEYS = count()


@pytest.fixture
def server(engine: Engine, clock: Clock) -> Server:
    server = Server(session_factory(engine), clock)
    signup(server, "ann", "bob", "carol")
    return server


def mailed(server: Server, sender: str, line: str, body: str = "") -> list[Outgoing]:
    key = f"<t{next(KEYS)}@example.org>"
    return list(server.handle(sender, line, body, key, by_mail=True).mails)


def one(server: Server, sender: str, line: str, body: str = "") -> Outgoing:
    [reply] = mailed(server, sender, line, body)
    return reply


ANN, BOB, CAROL = "ann@example.org", "bob@example.org", "carol@example.org"


def test_limit_0_says_challenges_are_refused_and_accept_lifts_it(server: Server) -> None:
    said = one(server, BOB, "vasco limit bob pw-bob 0").body
    assert "take new challenges" not in said
    assert said.startswith("Vasco: a limit of 0 boards: every new challenge to you is refused")
    assert "You play 0 Vasco boards now." in said
    refused = one(server, ANN, "vasco challenge ann bob")
    assert refused.error is not None and "at most 0" in refused.error
    lifted = one(server, BOB, "vasco limit bob pw-bob accept").body
    assert lifted.startswith("Vasco: no limit, and you take new challenges.")
    assert any(
        m.subject.startswith("New Vasco Board")
        for m in mailed(server, ANN, "vasco challenge ann bob")
    )
    # after reject, accept lifts a numeric limit too, as on pbmserv
    one(server, BOB, "vasco limit bob pw-bob 3")
    rejecting = one(server, BOB, "vasco limit bob pw-bob reject").body
    assert rejecting.startswith("Vasco: at most 3 boards at once, and you refuse new challenges")
    assert "takes them again and lifts the limit" in rejecting
    assert one(server, BOB, "vasco limit bob pw-bob accept").body.startswith("Vasco: no limit")


def test_limit_counts_a_board_against_oneself_once_and_says_board_not_boards(
    server: Server,
) -> None:
    mailed(server, ANN, "vasco challenge ann ann")
    said = one(server, ANN, "vasco limit ann pw-ann 1").body
    assert said == (
        "Vasco: at most 1 board at once, and you take new challenges. You play 1 Vasco board now.\n"
    ) or said.startswith(
        "Vasco: at most 1 board at once, and you take new challenges. You play 1 Vasco board now."
    )
    refused = one(server, BOB, "vasco challenge bob ann")
    assert refused.error is not None and "ann plays at most 1" in refused.error
    assert "seeks 1 Vasco game;" in one(server, ANN, "vasco seek ann pw-ann 1").body


def columns(header: str, row: str, names: list[str], values: list[str]) -> None:
    """Each header's last letter stands over its value's last digit."""
    for name, value in zip(names, values, strict=True):
        head_end = header.index(name) + len(name)
        ends = [m.end() for m in re.finditer(rf"(?<![\w/-]){re.escape(value)}(?![\w/-])", row)]
        assert head_end in ends, (name, value, header, row)


def test_the_standings_table_is_aligned_however_long_the_userid(server: Server) -> None:
    signup(server, "averyveryverylonguserid")
    mailed(server, ANN, "vasco limit ann pw-ann 7")
    mailed(server, ANN, "vasco seek ann pw-ann 12")
    mailed(server, "averyveryverylonguserid@example.org",
           "vasco seek averyveryverylonguserid pw-averyveryverylonguserid 2")  # fmt: skip
    table = one(server, CAROL, "vasco standings").body.splitlines()
    header = next(line for line in table if "Player" in line)
    ann = next(line for line in table if " ann " in line and "/" in line)
    long = next(line for line in table if "averyvery" in line and "/" in line)
    columns(header, ann, ["Rating", "Games", "Active/Limit", "Seeking"], ["1600", "0", "0/7", "12"])
    columns(header, long, ["Rating", "Games", "Active/Limit", "Seeking"], ["1600", "0", "0/-", "2"])
    assert header.index("Player") == ann.index("ann") == long.index("avery")
    assert header.index("W-L-D") == ann.index("0-0-0") == long.index("0-0-0")


def test_list_says_1_game_and_1_player(server: Server) -> None:
    mailed(server, ANN, "vasco challenge ann bob")
    mailed(server, ANN, "vasco resign 1 ann pw-ann")
    listed = one(server, CAROL, "list vasco").body
    assert "2 players of Vasco:" in listed and "rating 1424, 1 game\n" in listed
    assert "1 games" not in listed


def test_a_signed_off_player_leaves_lists_and_standings_and_gets_no_message(
    server: Server,
) -> None:
    mailed(server, ANN, "vasco challenge carol ann")
    mailed(server, CAROL, "vasco move 1 carol pw-carol a0,0")  # carol has moved: a rated loss
    board_over = mailed(server, CAROL, "signoff carol pw-carol")  # resigns board 1
    assert any("Goodbye, carol" in m.body for m in board_over)
    everyone = one(server, BOB, "list").body
    assert "carol" not in everyone and "\n  ann\n" in everyone
    assert "carol" not in one(server, BOB, "list vasco").body
    standings = one(server, BOB, "vasco standings").body
    assert "carol" not in standings and "ann" in standings
    history = one(server, BOB, "vasco history carol").body  # her history stays
    assert "lost to ann" in history
    refused = one(server, ANN, "message ann pw-ann bob carol", "Hello both")
    assert refused.error is not None and "carol signed off" in refused.error
    assert refused.to == (ANN,)  # nothing went to bob either


def test_change_address_to_the_same_address_says_no_instead_of(server: Server) -> None:
    same = one(server, ANN, "change address ann pw-ann ann@example.org")
    assert same.body.startswith("Mail for ann goes to ann@example.org, as before.")
    assert "instead of" not in same.body
    moved = mailed(server, ANN, "change address ann pw-ann ann@new.example")
    assert moved[0].body.startswith("Mail for ann now goes to ann@new.example instead of ann@")
