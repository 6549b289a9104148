"""Hints on SQLite and PostgreSQL: asked only by a player of a board
challenged with --hints, answered once by the bot worker's search (in its
own process), mailed to the asker alone and kept for the board page."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from pbem.bots import BotWorker
from pbem.games import get_game
from pbem.server import Server, bot_turns
from pbem.server.boards import hints as hint_rules
from pbem.server.language.commands.challenges import read_challenge
from pbem.store import HintRequest, OutboxMessage
from tests.conftest import BotWorkers
from tests.server.test_commands import Clock, signup

SMALL = "-size=5 -komi=3"


@pytest.fixture
def worker(server: Server, bot_workers: BotWorkers) -> BotWorker:
    return bot_workers(server, "hint test")


def hint_board(server: Server, flag: str = "--hints") -> None:
    signup(server, "ann", "bob", "cat")
    sent = server.handle("ann@example.org", f"vacu challenge ann bob {SMALL} {flag}")
    assert sent.board == 1, [m.body for m in sent.mails]


def test_hints_are_refused_on_a_board_challenged_without_them(server: Server) -> None:
    hint_board(server, flag="")
    [refused] = server.handle("ann@example.org", "vacu hint 1 ann pw-ann").mails
    assert refused.error is not None and "Hints are off on board 1" in refused.error
    assert "--hints" in refused.error
    assert "Vacu Board 1 Error" in refused.subject or "error" in refused.subject.lower()
    with server.sessions() as session:
        assert session.scalars(select(HintRequest)).all() == []


def test_only_a_player_may_ask(server: Server) -> None:
    hint_board(server)
    [refused] = server.handle("cat@example.org", "vacu hint 1 cat pw-cat").mails
    assert refused.error is not None
    with server.sessions() as session:
        assert session.scalars(select(HintRequest)).all() == []


def test_the_first_board_mail_tells_both_players_that_hints_are_on(server: Server) -> None:
    signup(server, "ann", "bob")
    sent = server.handle("ann@example.org", f"vacu challenge ann bob {SMALL} --hints")
    assert len(sent.mails) == 2
    assert all("Hints are on (--hints)" in mail.body for mail in sent.mails)


def test_a_hint_is_answered_once_to_the_asker_alone(server: Server, clock: Clock) -> None:
    hint_board(server)
    server.handle("ann@example.org", "vacu move 1 ann pw-ann C3")
    assert (
        server.handle("bob@example.org", "vacu hint 1 bob pw-bob").mails == ()
    )  # the answer comes later
    server.handle("bob@example.org", "vacu hint 1 bob pw-bob")  # asked twice: one question
    [question] = bot_turns.open_hints(server)
    assert question.moves == ("C3",)
    assert server.latest_hint(1, "bob", 1) == ""  # being worked out
    assert bot_turns.claim_hint(server, question, 30)
    assert not bot_turns.claim_hint(server, question, 30)  # one worker at a time
    assert bot_turns.open_hints(server) == []
    suggestions = [hint_rules.Suggestion("D4", 0.61, 120), hint_rules.Suggestion("B2", 0.5, 80)]
    bot_turns.answer_hint(server, question, suggestions, 400)
    bot_turns.answer_hint(server, question, suggestions, 400)  # a late second answer: ignored
    text = server.latest_hint(1, "bob", 1)
    assert text is not None and "1. D4: 61% to win (120 playouts)" in text
    assert "from 400 playouts" in text and "White (O) to move" in text
    with server.sessions() as session:
        mails = session.scalars(
            select(OutboxMessage).where(OutboxMessage.subject == "Vacu Board 1 hint")
        ).all()
    assert [mail.recipients for mail in mails] == [["bob@example.org"]]
    assert server.latest_hint(1, "ann", 1) is None  # ann asked nothing


def test_a_claim_that_ran_out_is_taken_again(server: Server, clock: Clock) -> None:
    hint_board(server)
    server.handle("ann@example.org", "vacu hint 1 ann pw-ann")
    [question] = bot_turns.open_hints(server)
    assert bot_turns.claim_hint(server, question, 30)
    clock.advance(seconds=31)
    assert bot_turns.open_hints(server) == [question]


def test_the_worker_answers_with_legal_moves_best_first(server: Server, worker: BotWorker) -> None:
    hint_board(server)
    server.handle("ann@example.org", "vacu hint 1 ann pw-ann")
    assert worker.step() == 1
    text = server.latest_hint(1, "ann", 0)
    assert text
    state = get_game("vacu").start(["-size=5", "-komi=3"])
    legal = {state.move_text(move) for move in state.legal_moves()}
    listed = [line.split(".", 1)[1].split(":")[0].strip() for line in text.splitlines()[1:4]]
    assert len(listed) == 3 and set(listed) <= legal
    assert worker.step() == 0  # answered once


def test_hints_read_back_from_the_challenge_text() -> None:
    vacu = get_game("vacu")
    command = read_challenge(vacu, ["ann", "bob", "-size=5", "--hints"], "")
    assert command.hints and command.text().endswith("--hints")
    assert read_challenge(vacu, command.text().split()[2:], "") == command
