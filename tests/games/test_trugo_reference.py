"""The fast Trugo engine against the slow, literal reading of RULINGS.md."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.games import get_game
from pbem.games.trugo import TrugoState
from pbem.games.trugo.reference import Reference
from tests.conftest import examples

TRUGO = get_game("trugo")
OPTIONS = [
    ("-size=36", "-pieces=25"),
    ("-size=6", "-pieces=3"),
    ("-size=10", "-pieces=2"),
    ("-size=14", "-pieces=25", "-no_stack"),
    ("-size=20", "-pieces=1"),
]


def engine_position(state: TrugoState) -> dict:
    position = state.position()
    position["pieces"] = sorted(position["pieces"], key=lambda piece: piece["junction"])
    return position


def compare_game(seed: int, options: tuple[str, ...], turns: int) -> None:
    """Play random moves drawn from the reference's legal list through both,
    comparing the legal moves before and the whole position after each."""
    rng = random.Random(seed)
    state = TRUGO.start(options)
    ref = Reference(state.options["size"], state.options["pieces"], state.options["no_stack"])
    for _ in range(turns):
        theirs = ref.legal()
        assert sorted(m.text for m in state.legal_moves()) == sorted(ref.text(m) for m in theirs)
        if not theirs:
            break
        move = rng.choice(theirs)
        state = state.play_text(ref.text(move))
        ref.play(move)
        assert engine_position(state) == ref.position()
        assert state.to_move == ref.to_move
        assert (state.result is not None) == ref.over
        if state.result is not None:
            assert state.result.winner == ref.winner
            assert state.legal_moves() == []
            break


@settings(max_examples=examples(15), deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(OPTIONS))
def test_random_games_agree_with_the_reference(seed: int, options: tuple[str, ...]) -> None:
    compare_game(seed, options, turns=120)


def test_whole_short_games_agree_to_their_end() -> None:
    for seed in range(6):
        compare_game(seed, ("-size=6", "-pieces=4"), turns=400)
