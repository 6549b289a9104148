"""The fast Vacu engine against the slow, literal reading of RULINGS.md."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.games import get_game
from pbem.games.vacu import VacuState
from pbem.games.vacu.reference import Reference
from tests.conftest import examples


def compare_game(name: str, seed: int, size: int, komi: int, turns: int) -> None:
    """Random moves from the reference's legal list through both engines;
    the legal moves, stones, button, turn and end must agree all along."""
    rng = random.Random(seed)
    state: VacuState = get_game(name).start([f"-size={size}", f"-komi={komi}"])
    ref = Reference(size, komi, connection=name == "convacu")
    colours = {0: "B", 1: "W"}
    for _ in range(turns):
        theirs = ref.legal()
        assert sorted(state.move_text(m) for m in state.legal_moves()) == sorted(theirs)
        if not theirs:
            break
        text = rng.choice(theirs)
        state = state.play_text(text)
        ref.play(text)
        assert state.rows() == ref.rows()
        assert (state.result is not None) == ref.over
        if state.result is not None:
            winner = state.result.winner
            assert (None if winner is None else colours[winner]) == ref.winner
            assert state.result.scores == ref.score() or "joined" in state.result.reason
            break
        assert colours[state.to_move] == ref.to_move
        assert state.score() == ref.score()


@settings(max_examples=examples(25), deadline=None)
@given(
    st.sampled_from(["vacu", "convacu"]),
    st.integers(0, 2**32),
    st.sampled_from([5, 6, 7]),
    st.integers(-3, 8),
)
def test_random_games_agree_with_the_reference(name: str, seed: int, size: int, komi: int) -> None:
    compare_game(name, seed, size, komi, turns=150)


def test_whole_games_on_the_smallest_board_agree_to_their_end() -> None:
    for seed in range(8):
        compare_game("vacu", seed, 5, 0, turns=1000)
        compare_game("convacu", seed, 5, 0, turns=1000)
