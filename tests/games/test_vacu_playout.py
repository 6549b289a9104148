"""The fast Vacu and Convacu playout agrees with `VacuState`, draws every legal
move with the same probability, and the board's incremental bookkeeping (groups,
pseudo-liberties, edges, hash) matches a recount from the stones."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any, cast

import pytest

from pbem.games import get_game
from pbem.games.vacu import VacuMove, VacuState
from pbem.games.vacu import playout as vacu_playout
from pbem.games.vacu import search as vacu_search
from pbem.games.vacu.board import BLACK, EDGE, EMPTY, NEEDS, WHITE, Board
from pbem.games.vacu.playout import (
    BUTTON_MOVE,
    CAPPED,
    CONNECTION,
    PASS_MOVE,
    PASSES,
    REMOVAL,
    REPETITION,
    Playout,
    play_out,
    play_out_state,
    position_hash,
    random_playout,
)
from pbem.games.vacu.state import BUTTON, PASS, STONE

GAMES = ("vacu", "convacu")
REASONS = {  # words of each end in `Result.reason`
    CONNECTION: "joined the",
    PASSES: "both players passed",
    REMOVAL: "removed the last enemy group",
    REPETITION: "third time",
}


def start(name: str, size: int, komi: int) -> VacuState:
    return cast(VacuState, get_game(name).start([f"-size={size}", f"-komi={komi}"]))


def as_move(raw: int) -> VacuMove:
    if raw == PASS_MOVE:
        return VacuMove(PASS)
    if raw == BUTTON_MOVE:
        return VacuMove(BUTTON)
    return VacuMove(STONE, raw)


def replay(state: VacuState, record: list[int]) -> VacuState:
    """Play the recorded moves through the clean API, each one legal there."""
    for number, raw in enumerate(record, start=1):
        assert state.result is None, f"move {number} follows the end of the game"
        move = as_move(raw)
        assert move in state.legal_moves(), f"move {number} {state.move_text(move)} is illegal"
        state = cast(VacuState, state.play(move))
    return state


def assert_agree(playout: Playout, record: list[int], board: Board, state: VacuState) -> None:
    """The playout and the replayed state end in the same position and result."""
    assert playout.moves == len(record)
    assert playout.stones == sum(raw >= 0 for raw in record)
    assert board.colour == state.board.colour
    assert board.stones == state.board.stones
    assert board.hash == state.board.hash
    if playout.capped:
        assert playout.end == CAPPED
        assert playout.winner is None
        assert state.result is None
    else:
        assert state.result is not None, playout
        assert playout.winner == state.result.winner
        assert REASONS[playout.end] in state.result.reason


def play_and_replay(
    name: str, size: int, komi: int, seed: int, cap: int | None = None
) -> tuple[Playout, list[int]]:
    board = Board(size)
    record: list[int] = []
    playout = play_out(
        board,
        0,
        random.Random(seed),
        record,
        connection=name == "convacu",
        komi=komi,
        seen={board.hash ^ vacu_playout.TO_MOVE_KEYS[0]: 1},
        cap=cap,
    )
    assert_agree(playout, record, board, replay(start(name, size, komi), record))
    return playout, record


@pytest.mark.parametrize("name", GAMES)
def test_random_games_replay_through_the_clean_api(name: str) -> None:
    ends: Counter[str] = Counter()
    passes = buttons = 0
    for seed in range(300):
        size = 5 + seed % 5
        playout, record = play_and_replay(name, size, seed % 9 - 4, seed)
        ends[playout.end] += 1
        passes += PASS_MOVE in record
        buttons += BUTTON_MOVE in record
    assert buttons > 250
    if name == "vacu":
        assert ends[PASSES] > 100 and ends[REMOVAL] > 10, ends
    else:
        assert ends[CONNECTION] > 250, ends
        assert passes > 5  # a Convacu player with no stone to play passes


def test_random_playout_is_play_out_on_a_new_board() -> None:
    record: list[int] = []
    playout = random_playout(7, random.Random(5), record, connection=True, komi=3)
    again: list[int] = []
    board = Board(7)
    seen = {board.hash ^ vacu_playout.TO_MOVE_KEYS[0]: 1}
    assert play_out(board, 0, random.Random(5), again, connection=True, komi=3, seen=seen) == (
        playout
    )
    assert again == record


@pytest.mark.parametrize("name", GAMES)
def test_a_game_stops_at_the_cap_undecided(name: str) -> None:
    playout, record = play_and_replay(name, 9, 6, 1, cap=30)
    assert playout == Playout(None, 30, playout.stones, capped=True, end=CAPPED)
    assert len(record) == 30


def test_the_default_cap_is_never_reached_by_random_games() -> None:
    rng = random.Random(3)
    lengths = [random_playout(9, rng).moves for _ in range(200)]
    assert max(lengths) < vacu_playout.default_cap(9) / 2


def test_large_boards_replay_too() -> None:
    for name in GAMES:
        play_and_replay(name, 13, 6, 4)
    play_and_replay("vacu", 25, 0, 5)


def test_passes_and_double_passes_in_both_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Confine every stone to the top two rows (in the clean API and the
    playout alike): the games end by passes, Convacu's too, where a player
    passes only with no stone to play."""
    placement = Board.placement

    def confined(board: Board, p: int, c: int) -> int:
        return placement(board, p, c) if p < 3 * board.stride else 0

    monkeypatch.setattr(Board, "placement", confined)
    ends: Counter[tuple[str, str]] = Counter()
    for seed in range(40):
        for name in GAMES:
            playout, _ = play_and_replay(name, 5 + seed % 3, 2, seed)
            ends[name, playout.end] += 1
    assert ends["vacu", PASSES] > 30
    assert ends["convacu", PASSES] > 30


# -- from a state of the clean API ----------------------------------------------


def random_state(name: str, seed: int, turns: int, *, komi_step: bool = False) -> VacuState:
    """A position reached by random moves of the clean API; with `komi_step`,
    the second player chose Black."""
    rng = random.Random(seed)
    if komi_step:
        state = cast(VacuState, get_game(name).start(["-size=7"]))
        state = cast(VacuState, state.play_text("komi3").play_text("black"))
        assert state.black == 1
    else:
        state = start(name, 7, 4)
    for _ in range(turns):
        legal = state.legal_moves()
        if state.result is not None:
            break
        state = cast(VacuState, state.play(rng.choice(legal)))
    return state


@pytest.mark.parametrize("komi_step", [False, True])
@pytest.mark.parametrize("name", GAMES)
def test_play_out_state_continues_a_game_of_the_clean_api(name: str, komi_step: bool) -> None:
    played = 0
    for seed in range(30):
        state = random_state(name, seed, 25, komi_step=komi_step)
        if state.result is not None:
            continue
        before = state.board.copy()
        record: list[int] = []
        playout = play_out_state(state, random.Random(seed), record)
        assert state.board.colour == before.colour  # the state is left alone
        end = replay(state, record)
        assert end.result is not None
        assert playout.moves == len(record)
        assert playout.winner == end.result.winner
        assert REASONS[playout.end] in end.result.reason
        played += 1
    assert played > 20


def with_button(name: str, turns: int, count: int = 1) -> Iterator[VacuState]:
    """`count` undecided positions after `turns` random moves, the button taken."""
    for seed in range(1000):
        state = random_state(name, seed, turns)
        if state.result is None and state.button is not None:
            yield state
            count -= 1
            if not count:
                return
    raise AssertionError("too few such positions")


def seen_twice(state: VacuState, *, button: bool | None = None, shift: int = 0) -> None:
    """Count every position one stone away from `state` as seen twice already,
    with the button and the player to move as they will be (or, to check that
    they are part of the key, the button in the other state or the same player
    to move as now)."""
    for move in state.legal_moves():
        if move.kind == STONE:
            after = cast(VacuState, state.play(move))
            stones, taken, to_move = after._key(after.to_move)
            if button is not None:
                taken = button
            state.seen[stones, taken, (to_move + shift) % 2] = 2


@pytest.mark.parametrize(
    ("changes", "draw"),
    [
        ({}, True),
        ({"button": False}, False),  # seen with the button untaken
        ({"shift": 1}, False),  # seen with the other player to move
    ],
)
def test_the_third_occurrence_after_a_stone_is_a_draw(changes: dict[str, Any], draw: bool) -> None:
    """Random games hardly ever repeat: count the positions one stone away as
    seen twice, with the key right or one part of it wrong."""
    tried = 0
    for seed, state in enumerate(with_button("vacu", 12, 40)):
        seen_twice(state, **changes)
        record: list[int] = []
        playout = play_out_state(state, random.Random(seed), record)
        end = replay(state, record)
        assert end.result is not None
        assert playout.winner == end.result.winner
        if record[0] >= 0:
            assert (playout.end == REPETITION and playout.moves == 1) == draw
            assert ("third time" in end.result.reason) == draw
            tried += 1
    assert tried > 10


def test_once_before_is_no_repetition_yet() -> None:
    state = next(with_button("convacu", 12))
    for move in state.legal_moves():
        after = cast(VacuState, state.play(move))
        state.seen[after._key(after.to_move)] = 1
    record: list[int] = []
    playout = play_out_state(state, random.Random(1), record)
    assert playout.end != REPETITION or playout.moves > 1
    assert replay(state, record).result is not None


def test_position_hash_is_the_boards_hash() -> None:
    state = random_state("vacu", 8, 40)
    assert position_hash(state.board.key()) == state.board.hash != 0


# -- uniformity -----------------------------------------------------------------


def find_position(name: str) -> VacuState:
    """A position, the button taken, where some empty points are illegal for
    the player to move and some stones would flip."""
    for seed in range(1000):
        state = random_state(name, seed, 45)
        if state.result is not None or state.button is None:
            continue
        board = state.board
        assert state.to_move is not None
        colour = state.colour_of(state.to_move)
        kinds = Counter(board.placement(p, colour) for p in board.points if not board.colour[p])
        if kinds[0] and kinds[2] and kinds[1] >= 5:
            return state
    raise AssertionError("no such position")


@pytest.mark.parametrize("max_draws", [0, 1, vacu_search.MAX_DRAWS])
@pytest.mark.parametrize("name", GAMES)
def test_the_first_move_is_uniform_over_the_legal_moves(
    name: str, max_draws: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Chi-square of many first moves from one position against the legal
    moves (with a pass among them in Vacu, not in Convacu)."""
    monkeypatch.setattr(vacu_search, "MAX_DRAWS", max_draws)
    state = find_position(name)
    legal = state.legal_moves()
    assert (VacuMove(PASS) in legal) == (name == "vacu")
    rng = random.Random(7)
    runs = 40 * len(legal)
    drawn: Counter[VacuMove] = Counter()
    for _ in range(runs):
        record: list[int] = []
        play_out_state(state, rng, record, cap=1)
        drawn[as_move(record[0])] += 1
    assert set(drawn) <= set(legal), "drew a move that is not legal"
    expected = runs / len(legal)
    statistic = sum((drawn[move] - expected) ** 2 / expected for move in legal)
    freedom = len(legal) - 1
    assert statistic < freedom + 6 * (2 * freedom) ** 0.5, (statistic, freedom)
    assert statistic > freedom - 6 * (2 * freedom) ** 0.5, (statistic, freedom)


# -- the board's bookkeeping ------------------------------------------------------


def recount(board: Board) -> dict[str, Any]:
    """Groups, their pseudo-liberties and edges, and the hash, from the stones
    alone by flood fill."""
    colour = board.colour
    groups: dict[frozenset[int], tuple[int, int, int, int]] = {}
    seen: set[int] = set()
    for start in board.points:
        if colour[start] in (EMPTY, EDGE) or start in seen:
            continue
        stones = [start]
        seen.add(start)
        for here in stones:
            for n in board.neighbours[here]:
                if colour[n] == colour[start] and n not in seen:
                    seen.add(n)
                    stones.append(n)
        liberties = [n for s in stones for n in board.neighbours[s] if colour[n] == EMPTY]
        edges = 0
        for s in stones:
            edges |= board.edges[s]
        groups[frozenset(stones)] = (
            len(liberties),
            sum(liberties),
            sum(n * n for n in liberties),
            edges,
        )
    return {
        "groups": groups,
        "stones": [0, sum(c == BLACK for c in colour), sum(c == WHITE for c in colour)],
        "hash": position_hash(board.key()),
    }


def bookkeeping(board: Board) -> dict[str, Any]:
    groups = {}
    for head, stones in board.members.items():
        assert all(board.group[s] == head for s in stones)
        groups[frozenset(stones)] = (
            board.libs[head],
            board.lsum[head],
            board.lsq[head],
            board.reach[head],
        )
    return {"groups": groups, "stones": board.stones, "hash": board.hash}


def test_incremental_bookkeeping_matches_a_recount() -> None:
    """Long random games without passes, so that the boards fill up and flips
    and suppressions are frequent."""
    kinds: Counter[str] = Counter()
    for seed in range(30):
        rng = random.Random(seed)
        board = Board(5 + seed % 5)
        colour = BLACK
        stuck = 0
        for _ in range(300):
            legal = board.legal_points(colour)
            if not legal:  # pass, until neither player has a stone to play
                stuck += 1
                if stuck == 2:
                    break
                colour ^= 3
                continue
            stuck = 0
            suppressed, flipped = board.play(rng.choice(legal), colour)
            kinds["flip"] += bool(flipped)
            kinds["suppress"] += bool(suppressed)
            assert bookkeeping(board) == recount(board)
            groups = recount(board)["groups"]
            for c in (BLACK, WHITE):
                need = NEEDS[c]
                joined = any(
                    board.colour[min(stones)] == c and edges & need == need
                    for stones, (*_, edges) in groups.items()
                )
                assert board.connected(c) == joined
            copy = board.copy()
            assert bookkeeping(copy) == bookkeeping(board)
            colour ^= 3
    assert kinds["flip"] > 100 and kinds["suppress"] > 100, kinds
