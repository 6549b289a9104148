"""The bot worker on SQLite and PostgreSQL, with real search processes: it
plays a bot's move through the command layer, answers proposals, picks up a
board whose worker died, and two workers racing on the same boards move on
each board once."""

from __future__ import annotations

import os
import threading

import pytest
from sqlalchemy import select

from pbem.bots import BotWorker
from pbem.bots.worker import SEARCH_NICENESS, WARM_UP_SECONDS
from pbem.games import get_game
from pbem.server import Server
from pbem.server.bot_turns import claim, waiting
from pbem.store import Board, MoveRow, Vote
from tests.conftest import BotWorkers
from tests.server.test_commands import Clock, board_row, signup

SMALL = "-size=5 -komi=3"  # Vacu on 5x5 with the komi set: quick searches


@pytest.fixture
def worker(server: Server, bot_workers: BotWorkers) -> BotWorker:
    return bot_workers(server, "test-worker")


def test_the_worker_plays_a_legal_bot_move_that_everyone_is_mailed(
    server: Server, worker: BotWorker
) -> None:
    signup(server, "ann")
    server.handle("ann@example.org", f"vacu challenge easybot ann {SMALL}")
    assert worker.step() == 1
    board = board_row(server)
    [move] = board.moves
    assert move.seat == 0 and board.version == 1 and board.to_move == 1
    state = get_game("vacu").start(["-size=5", "-komi=3"])
    assert move.text in {state.move_text(m) for m in state.legal_moves()}
    assert worker.step() == 0  # nothing more to do: it is ann's move
    assert waiting(server) == []


def test_searches_run_at_a_lower_priority_than_the_doors(worker: BotWorker) -> None:
    """A search takes a core for its whole budget: the web's and the mail's
    requests get the CPU first."""
    expected = min(19, os.nice(0) + SEARCH_NICENESS)
    assert worker._think(WARM_UP_SECONDS, os.nice, 0) == expected
    assert os.nice(0) < expected  # (and this process is untouched)


def test_a_board_whose_worker_died_is_picked_up_when_its_lease_runs_out(
    server: Server, worker: BotWorker, clock: Clock
) -> None:
    signup(server, "ann")
    server.handle("ann@example.org", f"vacu challenge easybot ann {SMALL}")
    [turn] = waiting(server)
    assert claim(server, turn, "a worker that died", 60)
    assert worker.step() == 0
    clock.advance(seconds=61)
    assert worker.step() == 1
    assert board_row(server).version == 1


def test_the_bot_answers_a_draw_offer_and_rejects_an_undo(
    server: Server, worker: BotWorker
) -> None:
    signup(server, "ann")
    server.handle("ann@example.org", f"vacu challenge ann easybot {SMALL}")
    server.handle("ann@example.org", "vacu move 1 ann pw-ann c3")
    assert worker.step() == 1
    server.handle("ann@example.org", "vacu undo 1 ann pw-ann")
    assert worker.step() == 1
    assert board_row(server).version == 2  # the bot keeps its move
    server.handle("ann@example.org", "vacu propose 1 ann pw-ann")
    assert worker.step() == 1
    board = board_row(server)
    # The bot took the draw or rejected it: either way the offer is answered
    # and nothing waits for the bot (it is ann's move, if the game goes on).
    assert board.status == "finished" or board.to_move == 0
    assert waiting(server) == []
    with server.sessions() as session:
        assert session.scalars(select(Vote)).all() == []


def test_two_workers_racing_on_the_same_boards_move_on_each_once(
    server: Server, bot_workers: BotWorkers
) -> None:
    signup(server, "ann")
    boards = 4
    for _ in range(boards):
        server.handle("ann@example.org", f"vacu challenge easybot ann {SMALL}")
    workers = [bot_workers(server, f"worker {n}") for n in range(2)]
    done = [0, 0]
    start = threading.Barrier(2)

    def race(n: int) -> None:
        start.wait()
        while waiting(server):
            done[n] += workers[n].step()

    threads = [threading.Thread(target=race, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert sum(done) == boards
    with server.sessions() as session:
        assert session.scalars(select(Board.version)).all() == [1] * boards
        assert len(session.scalars(select(MoveRow)).all()) == boards
