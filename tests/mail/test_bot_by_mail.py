"""A whole game against a bot by real mail: ann signs up and challenges
easybot through the SMTP listener, the bot worker (with its real search
process) answers each of her moves, and every one of its moves reaches
her as a board mail through the relay, to the game's end."""

from __future__ import annotations

import random
from email.message import EmailMessage

from pbem.games import get_game
from pbem.store import Board
from tests.conftest import BotWorkers
from tests.mail.conftest import Door

ANN = "ann@example.org"


def board(door: Door) -> Board:
    with door.server.sessions() as session:
        found = session.get_one(Board, 1)
        session.expunge(found)
        return found


def text_of(mail: EmailMessage) -> str:
    body = mail.get_body(preferencelist=("plain",))
    assert body is not None
    return str(body.get_content())


def test_a_game_against_a_bot_by_mail_to_its_end(door: Door, bot_workers: BotWorkers) -> None:
    door.send(ANN, "signup ann annpass1")
    door.send(ANN, "vacu challenge ann easybot -size=5 -komi=3", "Let us see.")
    rng = random.Random(7)
    worker = bot_workers(door.server, "mail test")
    bot_moves = 0
    for _ in range(400):
        row = board(door)
        if row.status != "active":
            break
        if row.to_move == 0:
            state = get_game("vacu").replay(
                get_game("vacu").options(size=5, komi=3), row.snapshot["moves"]
            )
            moves = state.legal_moves()
            text = state.move_text(moves[int(rng.random() * len(moves))])
            door.send(ANN, f"vacu move 1 ann annpass1 {text}#{row.version + 1}")
        else:
            assert worker.step() == 1
            bot_moves += 1
    else:
        raise AssertionError("the game did not end in 400 turns")
    finished = board(door)
    assert finished.status == "finished" and bot_moves > 0
    sent = door.deliver()
    mails = door.world.wait_for(sent)
    to_ann = [text_of(m) for m in mails if m["To"] == ANN]
    # (the "Last move" line itself: other lines may name White too, as the button's taker)
    by_bot = [
        text
        for text in to_ann
        if any(
            line.startswith("Last move:") and "by White (O)" in line for line in text.splitlines()
        )
    ]
    # one board mail for each move the bot played (ann's own come back to her too)
    with door.server.sessions() as session:
        played = session.get_one(Board, 1).moves
        assert len(by_bot) == sum(move.seat == 1 for move in played) > 0
    assert "Game over" in to_ann[-1]
    assert all("easybot" not in m["To"] for m in mails)  # the bot has no address
