"""Each Trugo rule of docs/rules/trugo.md (and the seed's own examples) as a test.

Positions are played from move records where that is short, or built tile by
tile with `build` when a test needs pieces where no short game puts them.
"""

from __future__ import annotations

import re

import pytest

from pbem.games import get_game
from pbem.games.base import IllegalMove, MoveSyntaxError
from pbem.games.trugo import TrugoState
from pbem.games.trugo.board import PASS_MOVE, Board
from pbem.games.trugo.geometry import CORNER_DELTAS, CORNER_NAMES, ROTATIONS, cell_id

TRUGO = get_game("trugo")
FLOWER = "a0,0 a0,-1 a1,-1 a1,0 a0,1 a-1,0 a-1,-1"  # 0,0 and its six neighbours
RING1 = ["0,-1", "1,-1", "1,0", "0,1", "-1,0", "-1,-1"]
RING2 = [
    "0,-2",
    "1,-2",
    "2,-1",
    "2,0",
    "2,1",
    "1,1",
    "0,2",
    "-1,1",
    "-2,1",
    "-2,0",
    "-2,-1",
    "-1,-2",
]
# Two rings round 0,0, all in rotation a: the corners of 0,0 and all their
# neighbours are junctions.
HEX19 = " ".join(f"a{cell}" for cell in ["0,0", *RING1, *RING2])


def vertex(name: str) -> int:
    match = re.fullmatch(r"(-?\d+),(-?\d+)(ne|nw|se|sw|e|w)", name)
    assert match, name
    col, row, corner = int(match.group(1)), int(match.group(2)), match.group(3)
    return cell_id(col, row) + CORNER_DELTAS[CORNER_NAMES.index(corner)]


def build(
    tiles: str,
    pieces: dict[str, str] | None = None,
    *,
    pool: int = 0,
    hand: tuple[int, int] = (0, 0),
    to_move: int = 0,
    options: tuple[str, ...] = (),
) -> TrugoState:
    """A position with these tiles (placed in order) and exactly these
    pieces: junction name -> the stack bottom to top, 'O' White, 'X' Blue."""
    opts = TRUGO.parse_options(options)
    words = tiles.split()
    board = Board(len(words), 0, opts["no_stack"])
    for word in words:
        col, row = map(int, word[1:].split(","))
        board.place(cell_id(col, row), ROTATIONS.index(word[0]))
    board.pool = pool
    board.hand = list(hand)
    board.stacks = {
        vertex(name): tuple("OX".index(p) for p in stack) for name, stack in (pieces or {}).items()
    }
    for v in board.stacks:
        assert board.count[v] == 3, f"{v} is no junction"
    return TrugoState(TRUGO, opts, board, to_move, (), None)


def play(*moves: str, options: tuple[str, ...] = ()) -> TrugoState:
    state = TRUGO.start(options)
    for text in moves:
        state = state.play_text(text)
    return state


def pieces(state: TrugoState) -> dict[str, str]:
    return {p["junction"]: "".join("OX"[i] for i in p["stack"]) for p in state.position()["pieces"]}


def legal(state: TrugoState) -> set[str]:
    return {move.text for move in state.legal_moves()}


def refused(state: TrugoState, text: str) -> str:
    with pytest.raises(IllegalMove) as caught:
        state.play_text(text)
    return caught.value.reason


# -- tiles ------------------------------------------------------------------


def test_white_opens_at_the_origin_with_one_of_three_rotations() -> None:
    state = TRUGO.start()
    assert state.to_move == 0
    assert legal(state) == {"a0,0", "b0,0", "c0,0"}
    assert "0,0" in refused(state, "a1,0")


def test_after_the_first_tile_only_three_rotations_exist_and_all_fit() -> None:
    state = play("b0,0")
    assert legal(state) == {f"{r}{c}" for r in "abc" for c in
                            ("0,-1", "1,-1", "1,0", "0,1", "-1,0", "-1,-1")}  # fmt: skip
    with pytest.raises(MoveSyntaxError, match="a, b and c"):
        state.play_text("d1,0")


def test_a_tile_is_placed_next_to_the_group_on_an_empty_cell() -> None:
    state = play("a0,0")
    assert "shares no side" in refused(state, "a2,2")
    assert "already holds a tile" in refused(state, "b0,0")


def test_one_placement_adds_three_pieces_of_both_colours() -> None:
    state = play("a0,0", "a0,-1", "a1,0", "a2,0")
    assert pieces(state) == {}
    after = state.play_text("a1,-1")  # touches four tiles on four sides in a row
    assert pieces(after) == {"1,-1w": "X", "0,0e": "O", "2,0w": "X"}
    assert after.position()["hand"] == [24, 23]
    assert after.history[-1].note == "new X at 1,-1w, O at 0,0e, X at 2,0w"


def test_a_short_hand_fills_new_junctions_counter_clockwise_from_the_east() -> None:
    # The new blue junctions are the tile's west (1,-1w) and south-east (2,0w)
    # corners; counter-clockwise from the east, west comes first.
    state = build("a0,0 a0,-1 a1,0 a2,0", pool=1, hand=(5, 1))
    after = state.play_text("a1,-1")
    assert pieces(after) == {"1,-1w": "X", "0,0e": "O"}
    assert after.position()["hand"] == [4, 0]
    empty = build("a0,0 a0,-1 a1,0 a2,0", pool=1, hand=(0, 0)).play_text("a1,-1")
    assert pieces(empty) == {}


def test_no_placement_in_the_waning_phase_and_no_removal_in_the_waxing() -> None:
    waning = build(FLOWER, {"0,0e": "O", "0,0w": "X"})
    assert "Waning" in refused(waning, "a2,0")
    waxing = build(FLOWER, {"0,0e": "O", "0,0w": "X"}, pool=3)
    assert "Waning" in refused(waxing, "x1,-1")


# -- tile removal -------------------------------------------------------------


def test_a_removal_takes_the_pieces_on_its_corners_out_of_the_game() -> None:
    state = build(FLOWER, {"1,-1w": "O", "0,0e": "X", "0,0w": "X", "-1,0e": "O"})
    after = state.play_text("x1,-1")
    assert pieces(after) == {"0,0w": "X", "-1,0e": "O"}
    assert after.position()["removed"] == [1, 1]
    assert "x1,-1" not in legal(after)  # the tile is gone
    assert after.history[-1].note == "off with the tile O at 1,-1w, X at 0,0e"


def test_removal_needs_three_free_sides_in_a_row() -> None:
    state = build(FLOWER, {"0,0e": "O", "0,0w": "X"})
    assert "three free sides" in refused(state, "x0,0")  # surrounded on all six sides
    removable = {m for m in legal(state) if m.startswith("x")}
    assert removable == {"x0,-1", "x1,-1", "x1,0", "x0,1", "x-1,0", "x-1,-1"}


def test_removal_must_not_split_the_other_tiles() -> None:
    # 0,-1 and -1,0 touch 0,0 on its north and south-west sides, not each other.
    assert "split" in refused(build("a0,0 a0,-1 a-1,0"), "x0,0")
    assert "x0,0" in legal(build("a0,0 a0,-1 a-1,0 a-1,-1"))  # now they are joined


def test_no_removal_of_an_empty_cell() -> None:
    assert "no tile at 5,5" in refused(build(FLOWER), "x5,5")


# -- piece moves ------------------------------------------------------------

WAYPOINT = "b0,0 c0,-1 c1,-1 b1,0 b0,1"  # 1,-1w reaches 1,0w only through 2,0w (partial)


def test_partial_junctions_are_waypoints_but_never_landing_points() -> None:
    state = build(WAYPOINT, {"1,-1w": "X", "0,0e": "O"}, to_move=1, pool=5)
    assert state.board.count[vertex("2,0w")] == 2
    assert "1,-1w-1,0w" in legal(state)
    reason = refused(state, "1,-1w-2,0w")
    assert "partial junction" in reason and "never stop" in reason


def test_a_piece_never_passes_over_another() -> None:
    # With rotation a everywhere the white arches run straight down the
    # column: 0,-1e to 0,0e to 0,1e. A piece on 0,0e can be landed on, not passed.
    free = build(HEX19, {"0,-1e": "O", "1,-1w": "X"}, pool=5)
    assert {"0,-1e-0,0e", "0,-1e-0,1e"} <= legal(free)
    blocked = build(HEX19, {"0,-1e": "O", "0,0e": "X"}, pool=5)
    assert "0,-1e-0,0e" in legal(blocked)
    assert "no path" in refused(blocked, "0,-1e-0,1e")


def test_the_final_step_goes_along_a_tile_edge_to_the_other_colour() -> None:
    state = build(HEX19, {"1,0e": "O", "1,-1w": "X"}, pool=5)
    moves = {m for m in legal(state) if m.startswith("1,0e-")}
    assert "1,0e-2,0w" in moves  # one step from the start, along an edge
    assert "1,0e-1,0w" not in moves  # 1,0w is blue but not next to 1,0e
    assert all(state.board.count[vertex(m.split("-", 1)[1])] == 3 for m in moves)


def test_the_step_may_start_from_an_empty_point_reached_in_the_region() -> None:
    # With rotation a everywhere, 0,0e's white arches lead to 0,-1e and 0,1e;
    # from 0,1e one step reaches the blue junctions 1,1w and 0,1w's neighbours.
    state = build(HEX19, {"0,0e": "O", "1,-1w": "X", "1,0w": "X", "2,0w": "X"}, pool=5)
    targets = {m.split("-", 1)[1] for m in legal(state) if m.startswith("0,0e-")}
    assert {"0,-1e", "0,1e"} <= targets  # within the region
    assert "1,1w" in targets  # a step from 0,1e, not from the start


def test_landing_on_a_single_piece_pins_it() -> None:
    state = build(HEX19, {"1,0e": "O", "2,0w": "X", "1,-1w": "X"}, pool=5)
    after = state.play_text("1,0e-2,0w")
    assert pieces(after)["2,0w"] == "XO"
    blue = after  # Blue to move: its piece under O is pinned
    reason = refused(blue, "2,0w-1,0e")
    assert "pinned" in reason
    assert not any(m.startswith("2,0w-") for m in legal(blue))


def test_no_stack_is_higher_than_two() -> None:
    state = build(HEX19, {"1,0e": "O", "2,0w": "XO", "1,-1w": "X"}, pool=5)
    assert "stack of two" in refused(state, "1,0e-2,0w")


def test_no_stack_option_forbids_landing_on_any_piece() -> None:
    state = build(HEX19, {"1,0e": "O", "2,0w": "X", "1,-1w": "X"}, pool=5, options=("-no_stack",))
    assert "-no_stack" in refused(state, "1,0e-2,0w")
    assert not any(m.endswith("-2,0w") for m in legal(state))


def test_a_piece_must_end_somewhere_new_and_be_the_movers() -> None:
    state = build(HEX19, {"1,0e": "O", "1,-1w": "X"}, pool=5)
    assert "somewhere new" in refused(state, "1,0e-1,0e")
    assert "Blue" in refused(state, "1,-1w-0,0e")
    assert "no piece at 0,0e" in refused(state, "0,0e-1,0w")


def test_junctions_have_six_names_and_one_canonical() -> None:
    state = build(HEX19, {"1,0e": "O", "1,-1w": "X"}, pool=5)
    # 1,0e is also the north-west corner of 2,1 and the south-west corner of 2,0.
    for alias in ("1,0e-2,0w", "2,1nw-2,0w", "2,0sw-1,0ne", "1,0E : 2,0W"):
        assert state.parse_move(alias).text == "1,0e-2,0w"


# -- capture ----------------------------------------------------------------


def test_a_surrounded_group_is_captured_and_its_pinned_piece_released() -> None:
    # Blue's X sits on White's O at 0,0e; White closes the third side.
    state = build(HEX19, {"0,0e": "OX", "1,-1w": "O", "1,0w": "O", "1,0e": "O"}, pool=5)
    after = state.play_text("1,0e-2,0w")
    assert pieces(after) == {"0,0e": "O", "1,-1w": "O", "1,0w": "O", "2,0w": "O"}
    assert after.position()["captured"] == [0, 1]
    assert after.history[-1].note == "captured X at 0,0e"


def test_a_captured_double_stack_of_one_colour_goes_whole() -> None:
    state = build(HEX19, {"0,0e": "XX", "1,-1w": "O", "1,0w": "O", "1,0e": "O"}, pool=5)
    after = state.play_text("1,0e-2,0w")
    assert "0,0e" not in pieces(after)
    assert after.position()["captured"] == [0, 2]


def test_an_empty_or_partial_neighbour_saves_a_group() -> None:
    empty = build(HEX19, {"0,0e": "X", "1,-1w": "O", "1,0w": "O", "0,1e": "O"}, pool=5)
    assert pieces(empty.play_text("0,1e-1,1w"))["0,0e"] == "X"  # 2,0w is still empty
    # In the flower the outer neighbour 2,0w of 0,0e is a partial junction:
    # the perimeter piece is safe however White crowds it in the Waxing phase.
    flower = build(FLOWER, {"0,0e": "X", "1,-1w": "O", "-1,0e": "O", "0,0w": "X"}, pool=5)
    after = flower.play_text("-1,0e-1,0w")
    assert pieces(after)["0,0e"] == "X"


def test_a_perimeter_piece_leaves_with_its_tile_in_the_waning_phase() -> None:
    state = build(FLOWER, {"0,0e": "X", "1,-1w": "O", "1,0w": "O", "0,0w": "X"})
    after = state.play_text("x1,0")
    assert "0,0e" not in pieces(after) and after.position()["removed"] == [1, 1]


def test_suicide_the_movers_surrounded_group_is_captured() -> None:
    state = build(
        HEX19, {"0,1e": "O", "1,-1w": "X", "1,0w": "X", "2,0w": "X", "-1,-1e": "O"}, pool=5
    )
    after = state.play_text("0,1e-0,0e")
    assert "0,0e" not in pieces(after)
    assert after.position()["captured"] == [1, 0]


def test_the_opponents_groups_are_captured_first_which_can_save_the_mover() -> None:
    state = build(
        HEX19,
        {"0,-1e": "O", "0,1e": "O", "-1,0e": "O", "1,-1w": "X", "1,0w": "X", "2,0w": "X"},
        pool=5,
    )
    after = state.play_text("0,-1e-0,0e")  # surrounded by X, but 1,0w falls first
    assert "1,0w" not in pieces(after)
    assert pieces(after)["0,0e"] == "O"
    assert after.position()["captured"] == [0, 1]


# -- the end ----------------------------------------------------------------


def test_taking_the_last_pieces_off_the_board_wins_for_the_mover() -> None:
    state = build(FLOWER, {"1,-1w": "O", "0,0e": "X"})
    after = state.play_text("x1,-1")
    assert after.result is not None and after.result.winner == 0
    assert "last pieces" in after.result.reason
    assert after.to_move is None and after.legal_moves() == []
    assert "over" in refused(after, "x1,0")


def test_in_the_waning_phase_a_player_without_pieces_on_the_board_loses() -> None:
    state = build(HEX19, {"0,0e": "X", "1,-1w": "O", "1,0w": "O", "1,0e": "O", "-1,0e": "X"})
    after = state.play_text("1,0e-2,0w")
    assert after.result is None  # Blue still has -1,0e
    state = build(HEX19, {"0,0e": "X", "1,-1w": "O", "1,0w": "O", "1,0e": "O"})
    after = state.play_text("1,0e-2,0w")
    assert after.result is not None and after.result.winner == 0
    assert "Blue (X) has no piece" in after.result.reason


def test_pinned_pieces_count_as_on_the_board() -> None:
    state = build(HEX19, {"1,0e": "O", "2,0w": "X", "-1,0e": "O"})
    after = state.play_text("1,0e-2,0w")  # Blue's only piece is now pinned
    assert after.result is None and after.position()["on_board"] == [2, 1]


def test_the_mover_who_empties_their_own_side_in_the_waning_phase_loses() -> None:
    state = build(HEX19, {"0,1e": "O", "1,-1w": "X", "1,0w": "X", "2,0w": "X"})
    after = state.play_text("0,1e-0,0e")  # suicide of White's last piece
    assert after.result is not None and after.result.winner == 1


def test_in_the_waxing_phase_having_no_pieces_is_no_loss() -> None:
    state = build(HEX19, {"0,0e": "X", "1,-1w": "O", "1,0w": "O", "1,0e": "O"}, pool=5)
    after = state.play_text("1,0e-2,0w")
    assert after.result is None and after.position()["on_board"] == [3, 0]


def test_a_game_entering_the_waning_phase_with_an_empty_board_is_drawn() -> None:
    after = play("a0,0", options=("-size=1",))
    assert after.result is not None and after.result.winner is None
    assert "neither player" in after.result.reason


def test_pass_is_only_for_a_player_without_a_legal_move_and_two_passes_draw() -> None:
    state = build(FLOWER, {"0,0e": "O", "0,0w": "X"})
    assert "only with no legal move" in refused(state, "pass")
    # No real position forces a pass: the top tile of the rightmost column has
    # its north, north-east and south-east sides free and its other neighbours
    # touch each other, so it can always be removed. Pin the answer instead.
    state.__dict__["_legal"] = [PASS_MOVE]
    once = state.play_text("pass")
    assert once.result is None and once.to_move == 1 and once.passes == 1
    once.__dict__["_legal"] = [PASS_MOVE]
    twice = once.play_text("pass")
    assert twice.result is not None and twice.result.winner is None
    assert "passed" in twice.result.reason


def test_a_move_after_a_pass_resets_the_count() -> None:
    state = build(FLOWER, {"0,0e": "O", "0,0w": "X", "-1,0e": "O"})
    state.__dict__["_legal"] = [PASS_MOVE]
    once = state.play_text("pass")
    again = once.play_text("x1,-1")
    assert again.passes == 0 and again.result is None


# -- notation ---------------------------------------------------------------


def test_canonical_texts_and_position_numbers() -> None:
    state = play("a0,0")
    assert state.positions[0] == cell_id(0, -1)
    assert state.parse_move("B1").text == "b0,-1"
    assert state.parse_move(" c 1 , 0 ").text == "c1,0"
    assert "no position 7" in refused(state, "a7")
    assert state.parse_move("X1,0").text == "x1,0" and state.parse_move("PASS").text == "pass"


@pytest.mark.parametrize("text", ["", "a", "a0", "q1,2", "1,0-0,0", "1,0e-", "0,0n-1,1s", "x1"])
def test_unreadable_moves_say_what_a_move_looks_like(text: str) -> None:
    state = play("a0,0")
    with pytest.raises((MoveSyntaxError, IllegalMove)) as caught:
        state.play_text(text)
    assert caught.value.reason


def test_far_cells_are_refused_not_crashed() -> None:
    state = play("a0,0")
    assert "far beyond" in refused(state, "a999999,0")
    assert "far beyond" in refused(state, "0,0e-999999,0w")
