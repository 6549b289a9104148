"""The search finds a win in one and blocks a loss in one, in positions of
each game found by random play (their records are below): Vasco closing a
loop, Trugo taking the last pieces, Vacu a flip that removes the last
enemy group, Convacu completing a connection. The truth (which moves win,
which let the opponent win at once) is worked out here through the clean
API, move by move. Each is asked of `search` (compiled where it fits:
Vacu and Convacu with RAVE) and of the Python tree (`tree_search`)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pbem.ai.mcts import Budget, SearchSettings, search, tree_search
from pbem.games import get_game
from pbem.games.base import State

VASCO = ("vasco", ("-size=24",), "loop")
TRUGO = ("trugo", ("-size=12", "-pieces=4"), "last pieces")
VACU = ("vacu", ("-size=5", "-komi=3"), "removed the last")
CONVACU = ("convacu", ("-size=5", "-komi=3"), "joined")

WINS_IN_ONE = [
    (VASCO, "f0,0 d0,1 a2,0 b3,-1 d-1,0 d2,-1 d-1,2 e-2,-1"),
    (TRUGO, "c0,0 b1,0 b2,0 b-1,-1 a-2,0 c1,-1 a0,1 c2,-1 a-3,0 b-4,1 a0,2 c3,0 x3,0 "
            "2,0w-1,0w x0,2 x2,0"),
    (VACU, "D5 C1 E2 B4 C3 B3 C2 A1 B5 A5 D1 A3 D2 C5 D3 A2 D4 button pass B5 E5 E3 pass "
           "C4 B2 B1 A4 pass"),
    (CONVACU, "B1 D2 A3 A4 D3 E4 A1 B4 C3 A2 E1 B3 D5 E2 B2 E5 button D1 C2 E1"),
]  # fmt: skip

LOSSES_IN_ONE = [
    (VASCO, "f0,0 d0,1 a2,0 b3,-1 d-1,0"),
    (TRUGO, "c0,0 b1,0 b2,0 b-1,-1 a-2,0 c1,-1 a0,1 c2,-1 a-3,0 b-4,1 a0,2 c3,0 x3,0 "
            "2,0w-1,0w"),
    (VACU, "D5 C1 E2 B4 C3 B3 C2 A1 B5 A5 D1 A3 D2 C5 D3 A2 D4 button pass B5 E5 E3 pass "
           "C4 B2 B1"),
    (CONVACU, "B1 D2 A3 A4 D3 E4 A1 B4 C3 A2 E1 B3 D5 E2 B2 E5 button D1 C2"),
]  # fmt: skip


# Plain settings and RAVE's (the levels' knowledge), each held to the tactics.
HOW = pytest.mark.parametrize(
    "how", [SearchSettings(), SearchSettings(rave=300, exploration=0.2)], ids=["uct", "rave"]
)
SEARCH = pytest.mark.parametrize("find", [search, tree_search], ids=["search", "python"])


def position(rules: tuple[str, tuple[str, ...], str], record: str) -> State[Any]:
    game, options, _ = rules
    state = get_game(game).start(options)
    for text in record.split():
        state = state.play_text(text)
    return state


def wins_at_once(state: State[Any], words: str = "") -> set[str]:
    """The moves after which the player to move has won (by `words`)."""
    found = set()
    for move in state.legal_moves():
        after = state.play(move)
        result = after.result
        if result is not None and result.winner == state.to_move and words in result.reason:
            found.add(state.move_text(move))
    return found


@SEARCH
@HOW
@pytest.mark.parametrize(("rules", "record"), WINS_IN_ONE, ids=lambda v: str(v)[:12])
def test_takes_a_win_in_one(
    rules: tuple[str, tuple[str, ...], str], record: str, how: SearchSettings, find: Any
) -> None:
    state = position(rules, record)
    winning = wins_at_once(state, rules[2])
    assert winning and len(winning) < len(state.legal_moves())  # the position is a test
    analysis = find(state.search_position(), Budget(iterations=50), random.Random(1), how)
    assert analysis.best in winning
    assert analysis.proven and analysis.candidates[0].win_rate == 1.0


@SEARCH
@HOW
@pytest.mark.parametrize(("rules", "record"), LOSSES_IN_ONE, ids=lambda v: str(v)[:12])
def test_blocks_a_loss_in_one(
    rules: tuple[str, tuple[str, ...], str], record: str, how: SearchSettings, find: Any
) -> None:
    state = position(rules, record)
    assert not wins_at_once(state)
    after = {state.move_text(move): state.play(move) for move in state.legal_moves()}
    safe = {text for text, then in after.items() if not wins_at_once(then)}
    # a wrong move lets the opponent win at once, by the game's tactic
    assert safe and any(wins_at_once(then, rules[2]) for then in after.values())
    moves = len(state.legal_moves())
    for seed in range(3):
        budget = Budget(iterations=4 * moves + 50)
        analysis = find(state.search_position(), budget, random.Random(seed), how)
        assert analysis.best in safe, (analysis.best, sorted(safe))
