"""Each Vasco rule of docs/rules/vasco.md (RULINGS.md, Vasco), and the seeds' examples."""

from __future__ import annotations

import pytest

from pbem.games import get_game
from pbem.games.base import IllegalMove
from pbem.games.vasco import VascoState
from pbem.games.vasco.geometry import (
    LETTERS,
    SIDE_COLOURS,
    cell_id,
    cell_of,
    neighbour_ids,
    neighbours,
    points_up,
    touching,
    touching_offsets,
)

VASCO = get_game("vasco")


def play(*moves: str, options: tuple[str, ...] = ()) -> VascoState:
    state = VASCO.start(options)
    for text in moves:
        state = state.play_text(text)
    return state


def refusal(*moves: str, options: tuple[str, ...] = ()) -> str:
    """The reason the last of `moves` is refused."""
    state = play(*moves[:-1], options=options)
    with pytest.raises(IllegalMove) as caught:
        state.play_text(moves[-1])
    return caught.value.reason


def tiles(state: VascoState) -> list[tuple[str, bool]]:
    return [(f"{LETTERS[o]}{col},{row}", auto) for col, row, o, auto in state.tiles()]


# -- the lattice and the tiles ---------------------------------------------------


def test_cells_point_up_when_col_plus_row_is_even() -> None:
    assert points_up(0, 0) and points_up(1, 1) and points_up(-2, 4)
    assert not points_up(1, 0) and not points_up(0, -1)


def test_neighbours_across_left_right_and_horizontal_edges() -> None:
    assert neighbours(0, 0) == ((-1, 0), (1, 0), (0, 1))  # up: bottom edge below
    assert neighbours(1, 0) == ((0, 0), (2, 0), (1, -1))  # down: top edge above


def test_cell_ids_round_trip_and_sort_in_canonical_order() -> None:
    cells = [(c, r) for r in range(-3, 4) for c in range(-5, 6)]
    assert [cell_of(cell_id(c, r)) for c, r in cells] == cells
    assert sorted(cells, key=lambda cell: cell_id(*cell)) == cells  # row, then column
    for c, r in cells:
        assert [cell_of(n) for n in neighbour_ids(cell_id(c, r))] == list(neighbours(c, r))


def test_the_six_orientations_are_the_six_ways_to_show_o_x_star() -> None:
    marks = ["".join("ox*"[c] for c in SIDE_COLOURS[o]) for o in range(6)]
    assert marks == ["ox*", "xo*", "*ox", "*xo", "o*x", "x*o"]


# -- placement rules ------------------------------------------------------------------


def test_red_opens_at_the_origin_in_any_orientation() -> None:
    state = VASCO.start()
    assert state.to_move == 0
    assert sorted(move.text for move in state.legal_moves()) == [
        f"{letter}0,0" for letter in "abcdef"
    ]
    assert "first tile must be placed at 0,0" in refusal("b1,0")


def test_typical_opening_from_the_seeds() -> None:
    state = play("a0,0", "b1,0")
    assert tiles(state) == [("a0,0", False), ("b1,0", False)]
    assert state.to_move == 0 and state.pool == 52 and state.result is None


def test_a_tile_must_match_every_neighbouring_edge() -> None:
    reason = refusal("a0,0", "a1,0")
    assert reason == (
        "the tile's left edge would show red (o) but the tile at 0,0 shows blue (x) on that edge"
    )


def test_seed_illegal_placement_would_enclose_a_point_between_two_x_ends() -> None:
    reason = refusal("a0,0", "b2,0")
    assert "cell 1,0" in reason and "two x path ends" in reason


def test_no_cell_may_be_left_dead_even_by_a_matching_tile() -> None:
    # f1,0 matches a0,0 (x against x) but would show o to 2,0... it is legal;
    # whereas d1,0 shows * on its left edge, which a0,0 does not match.
    state = play("a0,0")
    assert {move.text for move in state.legal_moves() if move.cell == (1, 0)} == {"b1,0", "f1,0"}
    assert "would show purple (*)" in refusal("a0,0", "d1,0")


def test_occupied_cell_is_refused() -> None:
    assert refusal("a0,0", "b0,0") == "cell 0,0 already holds a tile"


def test_figure_3_move_c_auto_places_d_then_e_and_f() -> None:
    state = play("a0,0", "b1,0", "a2,1")
    assert tiles(state) == [
        ("a0,0", False),
        ("b1,0", False),
        ("a2,1", False),
        ("a2,0", True),  # the 60 degree gap d
        ("a0,1", True),  # the 120 degree gap e + f, least row and column first
        ("b1,1", True),
    ]
    assert state.pool == 48  # auto tiles come from the pool
    assert state.history[-1].note == "auto a2,0 a0,1 b1,1"
    assert state.last == tuple(cell_id(c, r) for c, r in [(2, 1), (2, 0), (0, 1), (1, 1)])
    assert state.to_move == 1


def test_after_a_move_no_empty_cell_has_exactly_one_possible_orientation() -> None:
    state = play("a0,0", "b1,0", "a2,1")
    board = state.board
    for cid in board.candidate_cells():
        assert bin(board.options_mask(cid)).count("1") != 1


def test_the_cells_touching_a_cell_share_an_edge_or_a_corner_with_it() -> None:
    # Up cell 0,0: three cells above its tip, four beside it, five along its bottom.
    assert touching(0, 0) == [
        *[(-1, -1), (0, -1), (1, -1)],
        *[(-2, 0), (-1, 0), (1, 0), (2, 0)],
        *[(-2, 1), (-1, 1), (0, 1), (1, 1), (2, 1)],
    ]
    # Down cell 1,0: the mirror image, five along its top, three below its tip.
    assert touching(1, 0) == [
        *[(-1, -1), (0, -1), (1, -1), (2, -1), (3, -1)],
        *[(-1, 0), (0, 0), (2, 0), (3, 0)],
        *[(0, 1), (1, 1), (2, 1)],
    ]
    for cid in (cell_id(0, 0), cell_id(1, 0), cell_id(-7, 12)):
        col, row = cell_of(cid)
        assert sorted(cid + offset for offset in touching_offsets(cid)) == sorted(
            cell_id(*cell) for cell in touching(col, row)
        )


NO_CONTACT = "the tile touches no tile on the board; it must share an edge or a corner with one"


@pytest.mark.parametrize("move", ["a3,0", "a-3,0", "a1,2", "a-1,2"])
def test_a_tile_touching_no_tile_is_refused(move: str) -> None:
    assert refusal("a0,0", move) == NO_CONTACT
    assert move not in {m.text for m in play("a0,0").legal_moves()}


def test_no_contact_is_refused_even_where_auto_moves_would_join_the_tile() -> None:
    # Before this rule, a-3,0 here forced f-2,0 and c-1,0, which joined it to the group.
    assert refusal("a0,0", "b1,0", "a-3,0") == NO_CONTACT
    assert refusal("a0,0", "b1,0", "c0,-2") == NO_CONTACT
    state = play("a0,0", "b1,0")
    near = {cell for col, row, _, _ in state.tiles() for cell in touching(col, row)}
    assert {move.cell for move in state.legal_moves()} <= near


def test_a_corner_placement_is_legal_exactly_when_its_auto_moves_connect_it() -> None:
    # a2,1 touches b1,0 only at a corner; its forced fills join it (the seed's Figure 3).
    assert [text for text, auto in tiles(play("a0,0", "b1,0", "a2,1")) if auto] == [
        "a2,0",
        "a0,1",
        "b1,1",
    ]
    assert [text for text, auto in tiles(play("a0,0", "b1,0", "e-1,-1")) if auto] == ["c-1,0"]
    # d3,-1 and f-2,1 touch the group at a corner too, but force nothing that joins them.
    for move in ("d3,-1", "f-2,1"):
        reason = refusal("a0,0", "b1,0", move)
        assert reason.startswith(f"the tile at {move[1:]} would not join the group: it touches")


def test_a_move_whose_auto_moves_need_more_tiles_than_the_pool_is_illegal() -> None:
    reason = refusal("d0,0", "b0,-1", options=("-size=4",))
    assert (
        reason
        == "the tile and its 4 auto moves would need 5 tiles, but the pool holds only 3 tiles"
    )
    assert play("d0,0", "b0,-1", options=("-size=6",)).pool == 0


# -- paths, loops and the end -----------------------------------------------------------


def test_paths_are_measured_in_tiles() -> None:
    state = play("a0,0", "b1,0", "a2,1")
    assert state.position()["paths"] == [
        {"loops": [], "longest_path": 4},
        {"loops": [], "longest_path": 4},
    ]


def test_red_loop_of_six_tiles_around_one_point_wins_for_red() -> None:
    state = play("c0,0", "a1,-1", "f-1,-1", options=("-size=12",))
    assert state.result is not None and state.result.winner == 0
    assert state.result.reason == "O (red) closed a loop of 6 tiles"
    assert state.position()["paths"][0]["loops"] == [6]
    assert state.to_move is None and state.legal_moves() == []


def test_blue_loop_of_six_wins_for_blue_even_when_red_closed_it() -> None:
    state = play("b0,0", "d-1,1", "e-2,0", options=("-size=8",))
    assert state.history[-1].player == 0  # red moved ...
    assert state.result is not None and state.result.winner == 1  # ... blue's loop wins
    assert state.position()["paths"][1]["loops"] == [6]


def test_empty_pool_without_loop_the_longest_path_loses() -> None:
    state = play("b0,0", "c2,0", options=("-size=3",))
    assert state.pool == 0
    assert state.result is not None and state.result.winner == 1
    assert "longest path, 3 tiles, is red's (red 3, blue 2), so red loses" in state.result.reason


def test_empty_pool_with_equal_longest_paths_is_a_draw() -> None:
    state = play("b0,0", "c1,-1", options=("-size=3",))
    assert state.result is not None and state.result.winner is None
    assert "both longest paths are 2 tiles" in state.result.reason


def test_a_player_with_no_legal_move_ends_the_game_by_paths() -> None:
    state = play("b0,0", "b2,0", "b1,-1", options=("-size=5",))
    assert state.pool > 0
    assert state.result is not None and state.result.winner is None
    assert state.result.reason.startswith("X (blue) has no legal move")


def test_a_pool_of_one_tile_ends_after_the_first_move_in_a_draw() -> None:
    state = play("a0,0", options=("-size=1",))
    assert state.result is not None and state.result.winner is None
    assert (
        state.result.reason
        == "the pool is empty and no loop was closed; both longest paths are 1 tile"
    )


def test_no_move_after_the_end() -> None:
    state = play("b0,0", "c1,-1", options=("-size=3",))
    with pytest.raises(IllegalMove, match="the game is over"):
        state.play_text("a1,0")


# -- -strict -------------------------------------------------------------------------------


def test_strict_illegal_placement_is_taken_back_and_the_turn_lost() -> None:
    before = play("a0,0", options=("-strict",))
    state = before.play_text("b2,0")
    assert state.to_move == 0  # blue lost the turn
    assert tiles(state) == [("a0,0", False)] and state.pool == before.pool
    assert state.moves == ("a0,0", "b2,0")
    assert state.history[-1].note.startswith("illegal, tile taken back and turn lost: it would")


def test_strict_tile_touching_no_tile_loses_the_turn() -> None:
    state = play("a0,0", "b1,0", "a-3,0", options=("-strict",))
    assert state.to_move == 1 and state.pool == 52
    assert tiles(state) == [("a0,0", False), ("b1,0", False)]
    assert state.history[-1].note == f"illegal, tile taken back and turn lost: {NO_CONTACT}"


def test_strict_still_refuses_an_occupied_cell() -> None:
    assert refusal("a0,0", "b0,0", options=("-strict",)) == "cell 0,0 already holds a tile"


def test_strict_first_tile_off_the_origin_loses_the_turn() -> None:
    state = play("a1,0", options=("-strict",))
    assert state.to_move == 1 and state.tiles() == []
    assert "first tile must be placed at 0,0" in state.history[-1].note
    assert tiles(state.play_text("b0,0")) == [("b0,0", False)]


def test_strict_replay_gives_the_same_state() -> None:
    state = play("a0,0", "a1,0", "b1,0", "a5,5", options=("-strict",))
    again = VASCO.replay(state.options, state.moves)
    assert again.to_json() == state.to_json()
    assert [record.note.startswith("illegal") for record in state.history] == [
        False,
        True,
        False,
        True,
    ]


def test_loops_of_both_colours_the_longest_loop_loses() -> None:
    state = play("a0,0", "e1,1", "a-2,0", "b3,1", "a3,2", "b2,-1", "d1,-2", "a-2,-1")
    assert state.result is not None and state.result.winner == 1  # red's 10 beats blue's 6
    assert [paths["loops"] for paths in state.position()["paths"]] == [[10], [6]]
    assert "the longest, 10 tiles, is red's" in state.result.reason


def test_loops_of_both_colours_of_equal_length_draw() -> None:
    state = play("d0,0", "e2,0", "a-1,1", "f3,2", "a5,2", "b1,-1", "d3,-1")
    assert state.result is not None and state.result.winner is None
    assert state.result.reason == "both colours closed loops; the longest of each is 6 tiles"


def test_a_cell_far_out_never_joins_and_under_strict_costs_the_turn() -> None:
    assert refusal("a0,0", "a3000,0") == NO_CONTACT
    assert "first tile must be placed at 0,0" in refusal("a-5000,7")
    state = play("a0,0", "a3000,-99999", options=("-strict",))
    assert state.to_move == 0 and state.moves == ("a0,0", "a3000,-99999")
    assert state.position_number(3000, 0) is None
