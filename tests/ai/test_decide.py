"""What a bot decides from a board's record: a legal move in every game and
phase (Vacu's komi step and colour choice included), within its level's
budget; resigning a game proven lost; and an answer to a draw offer."""

from __future__ import annotations

import sys
import time

import pytest

from pbem.ai.decide import choose_move, state_of, takes_draw
from pbem.ai.levels import LEVELS, level_named
from pbem.games import GAMES
from tests.processes import Processes

SMALL = {
    "vasco": {"size": 20},
    "trugo": {"size": 12, "pieces": 6},
    "vacu": {"size": 5, "komi": 3},
    "convacu": {"size": 5, "komi": 3},
}
# Vacu, White to move, lost whatever it does (each reply loses at once).
LOST = (
    "A4 button D5 D2 B5 E4 pass D4 C2 E3 D3 A2 B4 D1 C5 A3 A5 B3 E2 pass B2 E5 C3 pass C4 B1 "
    "E3 C1 E4"
)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_gets_a_legal_move_from_the_start(game: str) -> None:
    state = state_of(game, SMALL[game], [])
    decision = choose_move(game, SMALL[game], [], "easy", seed=1)
    assert decision.move in {state.move_text(move) for move in state.legal_moves()}
    assert not decision.resign and 0.0 <= decision.share <= 1.0
    assert decision.iterations <= (LEVELS["easy"].budget.iterations or 0)


def test_a_bot_names_a_komi_and_then_chooses_a_colour_in_vacu() -> None:
    options = {"size": 5}
    komi = choose_move("vacu", options, [], "easy", seed=2)
    assert komi.move is not None and komi.move.startswith("komi")
    assert -5 <= int(komi.move[4:]) <= 5
    colour = choose_move("vacu", options, [komi.move], "easy", seed=2)
    assert colour.move in ("black", "white")
    state = state_of("vacu", options, [komi.move, colour.move])
    assert state.to_move is not None  # play begins


def test_a_proven_loss_is_resigned() -> None:
    decision = choose_move("vacu", {"size": 5, "komi": 3}, LOST.split(), "easy", seed=1)
    assert decision.resign and decision.move is None and decision.share == 0.0


def test_a_draw_is_taken_when_behind_and_refused_when_ahead() -> None:
    moves = LOST.split()
    assert takes_draw("vacu", {"size": 5, "komi": 3}, moves, seat=1, seed=1)  # White is lost
    assert not takes_draw("vacu", {"size": 5, "komi": 3}, moves, seat=0, seed=1)


def test_the_easy_level_answers_within_its_budget() -> None:
    budget = level_named("easy").budget
    assert budget.seconds is not None
    started = time.perf_counter()
    choose_move("vasco", {"size": 54}, ["a0,0", "b1,0"], "easy", seed=3)
    assert time.perf_counter() - started < budget.seconds + 1.0


def test_an_unknown_level_says_which_there_are() -> None:
    with pytest.raises(KeyError, match="easy, medium, hard"):
        level_named("grandmaster")


def test_a_search_process_freezes_what_it_loaded_before_its_first_search(
    processes: Processes,
) -> None:
    """`prepare_process` (each bot search process's start) leaves the
    modules and compiled loops out of the cyclic collector's full passes,
    which otherwise paused a Vacu search for about 60 ms each; in a process
    of its own, as the freeze lasts for the process."""
    script = (
        "import gc; from pbem.ai.decide import prepare_process; "
        "before = gc.get_freeze_count(); prepare_process(); print(before, gc.get_freeze_count())"
    )
    out = processes.run([sys.executable, "-c", script], check=True, text=True)
    before, after = map(int, out.stdout.split())
    assert before == 0 and after > 10_000
