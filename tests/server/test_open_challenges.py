"""Open challenges by mail (`GAME open`, `GAME games open`, `GAME take`,
`GAME withdraw`), on SQLite and PostgreSQL: the first taker whose rating
fits gets a board against the poster, who moves first; what is taken,
withdrawn or expired cannot be taken; two players taking one at once get one
board between them; an unrated board never moves the ratings."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from sqlalchemy import Engine, func, select

from pbem.server import Server
from pbem.server.runners.open_challenges import MAX_OPEN
from pbem.store import Board, OpenChallenge, Rating, RatingEvent, session_factory
from tests.server.test_commands import CheckedServer, Clock, signup


@pytest.fixture
def server(engine: Engine) -> Iterator[Server]:
    server = CheckedServer(session_factory(engine), Clock())
    signup(server, "ann", "bob", "cat")
    yield server


def send(server: Server, name: str, line: str, body: str = "") -> list[str]:
    """The bodies of the mails a command sends (the sender's answer last)."""
    return [mail.body for mail in server.handle(f"{name}@example.org", line, body).mails]


def boards(server: Server) -> int:
    with server.sessions() as session:
        return session.scalar(select(func.count()).select_from(Board)) or 0


def test_post_list_take_and_the_board_starts_with_the_poster_first(server: Server) -> None:
    [posted] = send(
        server, "ann", "vasco open ann pw-ann -size=30 --days=3 --hints", "Anyone? Be gentle."
    )
    assert "open Vasco challenge 1 is posted (-size=30, rated, hints allowed" in posted
    assert "expires on 2026-11-24 09:00 UTC" in posted
    [listing] = send(server, "cat", "vasco games open")
    assert "1 open Vasco challenge;" in listing
    assert "ann" in listing and "-size=30, rated, hints allowed, ratings: anyone" in listing
    assert "Anyone? Be gentle." in listing
    taken = server.handle("bob@example.org", "vasco take 1 bob pw-bob")
    assert taken.board == 1
    with server.sessions() as session:
        board = session.get_one(Board, 1)
        assert [p.user.userid for p in board.players] == ["ann", "bob"]
        assert board.options["size"] == 30 and board.hints and not board.unrated
        assert all(p.accepted for p in board.players)  # resigning now is a loss
        assert session.get_one(OpenChallenge, 1).board_id == 1
    assert all("ann's open Vasco challenge 1, taken by bob." in mail.body for mail in taken.mails)
    assert {mail.to[0] for mail in taken.mails} >= {"ann@example.org", "bob@example.org"}
    [late] = send(server, "cat", "vasco take 1 cat pw-cat")
    assert "Open challenge 1 was taken: it became board 1." in late
    assert boards(server) == 1
    [none] = send(server, "cat", "vasco games open")
    assert "No Vasco challenge is open now" in none


def test_refusals_change_nothing(server: Server) -> None:
    [posted] = send(server, "ann", "vasco open ann pw-ann --rating=1700-")
    assert "ratings: 1700 and up" in posted
    [own] = send(server, "ann", "vasco take 1 ann pw-ann")
    assert "Open challenge 1 is your own" in own
    [low] = send(server, "bob", "vasco take 1 bob pw-bob")
    assert "Open challenge 1 is for ratings 1700 and up; your Vasco rating is 1600." in low
    [other] = send(server, "bob", "trugo take 1 bob pw-bob")
    assert "There is no open Trugo challenge 1" in other
    [wrong] = send(server, "bob", "vasco take 1 bob not-his")
    assert "password" in wrong.lower()
    for line, words in (
        ("vasco open ann pw-ann --rating=1800-1200", "The lowest rating (1800) is above"),
        ("vasco open ann pw-ann --days=99", "stays open 1 to 60 days"),
        ("vasco open ann pw-ann -size=0", "size"),
        ("vasco open ann pw-ann size=4", "Cannot read 'size=4'"),
        ("vasco take one ann pw-ann", "number comes first"),
    ):
        [answer] = send(server, "ann", line)
        assert words in answer, (line, answer)
    assert boards(server) == 0
    [withdrawn] = send(server, "bob", "vasco withdraw 1 bob pw-bob")
    assert "You have no open Vasco challenge 1" in withdrawn
    with server.sessions() as session:
        assert session.get_one(OpenChallenge, 1).withdrawn_at is None


def test_withdrawn_and_expired_challenges_cannot_be_taken(server: Server) -> None:
    send(server, "ann", "trugo open ann pw-ann --days=1")
    send(server, "ann", "trugo open ann pw-ann --days=5")
    [gone] = send(server, "ann", "trugo withdraw 1 ann pw-ann")
    assert "challenge 1 is withdrawn" in gone
    [refused] = send(server, "bob", "trugo take 1 bob pw-bob")
    assert "Open challenge 1 was withdrawn." in refused
    server.clock.advance(days=6)  # type: ignore[attr-defined]
    [expired] = send(server, "bob", "trugo take 2 bob pw-bob")
    assert "Open challenge 2 expired on 2026-11-26 09:00 UTC." in expired
    [none] = send(server, "bob", "trugo games open")
    assert "No Trugo challenge is open now" in none
    assert boards(server) == 0


def test_a_player_keeps_a_few_open_at_once(server: Server) -> None:
    for _ in range(MAX_OPEN):
        send(server, "ann", "vacu open ann pw-ann")
    [refused] = send(server, "ann", "vacu open ann pw-ann")
    assert f"You have {MAX_OPEN} open Vacu challenges already" in refused


def test_an_unrated_board_never_moves_the_ratings(server: Server) -> None:
    send(server, "ann", "vasco open ann pw-ann --unrated")
    taken = server.handle("bob@example.org", "vasco take 1 bob pw-bob")
    assert any("A friendly game (--unrated)" in mail.body for mail in taken.mails)
    send(server, "ann", "vasco move 1 ann pw-ann a0,0")
    send(server, "bob", "vasco resign 1 bob pw-bob")
    with server.sessions() as session:
        board = session.get_one(Board, 1)
        assert board.status == "finished" and board.unrated and board.winner == 0
        assert session.scalar(select(func.count()).select_from(RatingEvent)) == 0
        games = session.scalars(select(Rating.games).where(Rating.game == "vasco")).all()
        assert set(games) <= {0}
    # A challenge by mail may be unrated too.
    sent = server.handle("ann@example.org", "vasco challenge ann cat --unrated")
    assert sent.board is not None
    with server.sessions() as session:
        assert session.get_one(Board, sent.board).unrated


def test_two_players_taking_one_at_once_get_one_board(server: Server, engine: Engine) -> None:
    """Two servers on one database (two processes' worth of connections),
    bob and cat taking the same open challenge at the same moment."""
    send(server, "ann", "convacu open ann pw-ann")
    other = Server(session_factory(engine), server.clock)
    start = threading.Barrier(2)
    answers: dict[str, list[str]] = {}

    def take(name: str, via: Server) -> None:
        start.wait()
        answers[name] = [
            m.body
            for m in via.handle(f"{name}@example.org", f"convacu take 1 {name} pw-{name}").mails
        ]

    threads = [
        threading.Thread(target=take, args=("bob", server)),
        threading.Thread(target=take, args=("cat", other)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert boards(server) == 1
    refused = [
        name
        for name, bodies in answers.items()
        if any("was taken" in b or "just taken" in b for b in bodies)
    ]
    assert len(refused) == 1, answers


def test_racing_posts_keep_the_cap(server: Server, engine: Engine) -> None:
    """Twelve posts by one player at once, through four servers on one
    database: at most MAX_OPEN are open after (PostgreSQL's READ COMMITTED
    let each count the others' uncommitted rows as absent: 12 were open)."""
    servers = [server] + [Server(session_factory(engine), server.clock) for _ in range(3)]
    racers = 12
    start = threading.Barrier(racers)

    def post(via: Server) -> None:
        start.wait(30)
        via.handle("ann@example.org", "vasco open ann pw-ann")

    threads = [threading.Thread(target=post, args=(servers[i % 4],)) for i in range(racers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    with server.sessions() as session:
        posted = session.scalar(select(func.count()).select_from(OpenChallenge))
    assert posted == MAX_OPEN
