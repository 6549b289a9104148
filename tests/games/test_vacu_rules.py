"""Each rule of Vacu and Convacu (docs/rules/vacu.md) as a test.

Positions are built stone by stone with `build` (in any order, which never
captures when every group of the final position has a liberty), then the
move under test is played through the state, as the server would.
"""

from __future__ import annotations

import pytest

from pbem.games import get_game
from pbem.games.base import IllegalMove, MoveSyntaxError, OptionError
from pbem.games.vacu import VacuState
from pbem.games.vacu.board import BLACK, WHITE, Board

VACU = get_game("vacu")
CONVACU = get_game("convacu")


def build(
    rows: str,
    *,
    to_move: str = "X",
    button: str | None = None,
    komi: int = 0,
    game: str = "vacu",
) -> VacuState:
    """A position from rows of X (Black), O (White) and '.', top row first;
    the first player is Black. `button` is 'X' or 'O' for who holds it."""
    lines = rows.split()
    size = len(lines)
    rules = get_game(game)
    options = rules.parse_options([f"-size={size}", f"-komi={komi}"])
    board = Board(size)
    for row, line in enumerate(lines):
        assert len(line) == size
        for col, mark in enumerate(line):
            if mark != ".":
                board.play((row + 1) * board.stride + col + 1, BLACK if mark == "X" else WHITE)
    player = {"X": 0, "O": 1}
    state = VacuState(
        rules,  # type: ignore[arg-type]
        options,
        board,
        komi=komi,
        black=0,
        button=None if button is None else player[button],
        to_move=player[to_move],
    )
    assert state.rows() == [line.replace("X", "B").replace("O", "W") for line in lines]
    return state


def board_of(state: VacuState) -> str:
    return " ".join(row.replace("B", "X").replace("W", "O") for row in state.rows())


def refused(state: VacuState, text: str) -> str:
    with pytest.raises(IllegalMove) as caught:
        state.play_text(text)
    return caught.value.reason


# -- stones -----------------------------------------------------------------


def test_a_stone_with_liberties_suppresses_enemy_groups_left_without() -> None:
    state = build("..... ..X.. .XOX. ..... ....O")
    after = state.play_text("C2")
    assert board_of(after) == "..... ..X.. .X.X. ..X.. ....O"
    assert after.history[-1].note == "suppressed C3"
    assert after.suppressed == (0, 1) and after.result is None


def test_several_enemy_groups_are_suppressed_at_once() -> None:
    state = build("XO.OX XX.XX ..... ..... ....O")
    after = state.play_text("C5")  # takes B5 and D5 together
    assert board_of(after) == "X.X.X XX.XX ..... ..... ....O"
    assert after.history[-1].note == "suppressed B5 D5"


def test_a_stone_without_liberties_suppresses_itself_and_flips_enemy_groups() -> None:
    # A5 has no liberty, but White's B5 and A4 each had A5 as their last one:
    # Black's stone goes, and both White stones turn Black, joining Black's wall.
    state = build(".OX.. OX... X.... ..... .....")
    after = state.play_text("A5")
    assert board_of(after) == ".XX.. XX... X.... ..... ....."
    assert after.history[-1].note == "suicide of A5; flipped A4 B5"
    assert after.suppressed == (1, 0) and after.flipped == (0, 2)
    groups = {frozenset(stones) for stones in after.board.members.values()}
    assert len(groups) == 1  # the flipped stones merged with Black's stones


def test_a_suicide_that_flips_nothing_is_illegal() -> None:
    state = build(".O... O.... ..... ..... .....")
    reason = refused(state, "A5")
    assert "without a liberty" in reason and "flip no enemy group" in reason
    assert "A5" not in {state.move_text(m) for m in state.legal_moves()}


def test_only_enemy_groups_without_liberties_flip() -> None:
    # Black's A5 has no liberty: White's B5 (last liberty A5) flips, White's
    # A4-A3 (liberties A5, B3, A2) stays White.
    state = build(".OX.. OX... O.... ..... .....")
    after = state.play_text("A5")
    assert board_of(after) == ".XX.. OX... O.... ..... ....."
    assert after.history[-1].note == "suicide of A5; flipped B5"
    assert after.result is None


def test_no_group_is_ever_left_without_a_liberty() -> None:
    state = build(".OX.. OX... X.... ..... .....")
    after = state.play_text("A5")
    board = after.board
    assert all(board.libs[g] > 0 for g in board.members)


def test_occupied_and_off_board_points_are_refused() -> None:
    state = build("X.... ..... ..... ..... .....", to_move="O")
    assert "already taken" in refused(state, "a5")
    assert "off this 5x5 board" in refused(state, "F1")
    with pytest.raises(MoveSyntaxError):
        state.play_text("I3")  # there is no column I


# -- passing and the button ----------------------------------------------------


def test_no_pass_while_the_button_is_untaken_but_the_button_may_be_taken() -> None:
    state = VACU.start(["-komi=6"])
    assert "button" in refused(state, "pass")
    texts = {state.move_text(m) for m in state.legal_moves()}
    assert "button" in texts and "pass" not in texts
    after = state.play_text("button")
    assert after.button == 0 and after.to_move == 1
    assert "pass" in {after.move_text(m) for m in after.legal_moves()}
    assert "taken already" in refused(after, "button")


def test_the_button_half_point_breaks_a_tie() -> None:
    # Ten stones each, the middle column neutral, komi 0: Black holds the button.
    state = build("XX.OO XX.OO XX.OO XX.OO XX.OO", button="X")
    assert state.score() == (10.5, 10.0)
    over = state.play_text("pass").play_text("pass")
    assert over.result is not None and over.result.winner == 0
    assert over.result.scores == (10.5, 10.0)
    assert "Black (X) 10.5 to White (O) 10" in over.result.reason


def test_two_passes_in_succession_end_the_game_with_the_score() -> None:
    state = build("XX.OO XX.OO XX.OO XX.OO XX.OO", button="O", komi=3)
    once = state.play_text("pass")
    assert once.result is None
    again = once.play_text("C3")  # a board play in between: the count starts over
    assert again.play_text("pass").result is None
    over = state.play_text("pass").play_text("pass")
    assert over.result is not None and over.result.winner == 1
    assert over.result.scores == (10.0, 13.5)


def test_territory_needs_an_adjacent_stone_and_one_colour() -> None:
    empty = build("..... ..... ..... ..... .....", button="X")
    assert empty.score() == (0.5, 0.0)  # the empty board belongs to no one
    state = build("X.X.O .X..O XX.OO ...O. ....O", komi=2)
    black, white, neutral = (
        sorted(state.point_name(p) for p in points) for points in state.board.territory()
    )
    assert black == ["A4", "B5"]  # enclosed by Black alone
    assert white == ["E2"]
    assert "D5" in neutral and "A1" in neutral  # next to both colours
    assert state.score() == (5 + 2, 6 + 1 + 2)  # stones, territory, komi for White


# -- the komi step ---------------------------------------------------------------


def test_komi_step_second_player_takes_black() -> None:
    state = VACU.start()
    assert state.phase == "komi" and state.black is None and state.position()["black"] is None
    assert "komi step" in refused(state, "E5")
    named = state.play_text("komi6")
    assert named.komi == 6 and named.to_move == 1
    chosen = named.play_text("Black")
    assert chosen.black == 1 and chosen.to_move == 1  # Black starts
    assert chosen.position()["komi"] == 6
    assert chosen.play_text("E5").status_line() == "Move 4: White (O) to move."


def test_komi_step_second_player_takes_white() -> None:
    state = VACU.start().play_text("KOMI=-2").play_text("white")
    assert state.black == 0 and state.to_move == 0 and state.komi == -2
    assert state.moves == ("komi-2", "white")


def test_komi_is_bounded_by_the_board() -> None:
    state = VACU.start(["-size=5"])
    assert "between -25 and 25" in refused(state, "komi26")
    assert len(state.legal_moves()) == 51


def test_komi_option_has_the_komi_steps_bounds() -> None:
    assert VACU.start(["-size=5", "-komi=-25"]).komi == -25
    with pytest.raises(OptionError, match="between -25 and 25"):
        VACU.start(["-size=5", "-komi=26"])


def test_komi_option_skips_the_step_and_seats_the_first_player_as_black() -> None:
    state = VACU.start(["-komi=7"])
    assert state.phase == "play" and state.black == 0 and state.to_move == 0
    assert "over" in refused(state, "komi3")


# -- the end ------------------------------------------------------------------------


def test_removing_the_last_enemy_group_ends_the_game_with_the_score() -> None:
    state = build("..... ..X.. .XOX. ..... .....")
    after = state.play_text("C2")
    assert after.result is not None and after.result.winner == 0
    assert "removed the last enemy group" in after.result.reason
    assert after.to_move is None and after.legal_moves() == []


def test_flipping_the_last_enemy_group_ends_the_game() -> None:
    state = build(".OX.. OX... X.... ..... .....")
    after = state.play_text("A5")
    assert after.result is not None and after.result.winner == 0


CYCLE_START = "B2 C2 A3 D2 C1 E2 D1"  # then White's turn on a 5x5 board, komi 0
CYCLE = "A2 E1 B1 D1 A1 C1"  # six moves that bring the same position back


def small(moves: str) -> VacuState:
    state = VACU.start(["-size=5", "-komi=0"])
    for text in moves.split():
        state = state.play_text(text)
    return state


def test_the_third_repetition_with_the_same_player_to_move_is_a_draw() -> None:
    start = small(CYCLE_START)
    assert small(f"{CYCLE_START} {CYCLE}").rows() == start.rows()
    twice = small(f"{CYCLE_START} {CYCLE} {CYCLE[:-3]}")
    assert twice.result is None  # the second time
    draw = twice.play_text("C1")
    assert draw.result is not None and draw.result.winner is None
    assert "third time" in draw.result.reason and len(draw.history) == 19


def test_a_repetition_with_the_button_in_another_state_does_not_count() -> None:
    # White takes the button at move 14 and Black passes: the count starts over.
    moves = f"{CYCLE_START} {CYCLE} button pass {CYCLE} {CYCLE}"
    state = small(moves)
    assert state.result is not None and "third time" in state.result.reason
    assert len(state.history) == 27
    assert small(f"{CYCLE_START} {CYCLE} button pass {CYCLE}").result is None


def test_positions_after_a_pass_count_but_only_a_board_play_ends_the_game() -> None:
    state = build("X.... ..... ..... ..... .....", button="X", to_move="O")
    key = state.play_text("pass")._key(0)
    state.seen[key] = 2  # the position after the pass came up twice already
    once = state.play_text("pass")
    assert once.result is None and once.seen[key] == 3


# -- Convacu -------------------------------------------------------------------------


def test_convacu_black_wins_by_joining_top_and_bottom() -> None:
    state = build("..X.. ..X.. ..X.. ..X.. .....", game="convacu")
    after = state.play_text("C1")
    assert after.result is not None and after.result.winner == 0
    assert "joined the top and bottom edges" in after.result.reason


def test_convacu_white_wins_by_joining_left_and_right() -> None:
    state = build("..... ..... OOOO. ..... .X...", game="convacu", to_move="O")
    after = state.play_text("E3")
    assert after.result is not None and after.result.winner == 1
    assert "left and right" in after.result.reason


def test_convacu_a_flip_can_complete_the_movers_connection() -> None:
    # Black's A1 has no liberty but flips White's B1 (its last liberty was
    # A1): the flipped stone joins Black's column to the bottom edge.
    state = build(".X... .X... .X... OX... .OX..", game="convacu")
    after = state.play_text("A1")
    assert "flipped" in after.history[-1].note
    assert after.result is not None and after.result.winner == 0


def test_convacu_pass_only_without_any_other_move() -> None:
    state = build("..... ..... ..... ..... .....", game="convacu", button="X")
    assert "no other move" in refused(state, "pass")
    # Found in a random game: every empty point is suicide for White, flipping nothing.
    stuck = build("XX.X. .OXOX XOXO. .XXOO X.XOO", game="convacu", button="O", to_move="O")
    assert {stuck.move_text(m) for m in stuck.legal_moves()} == {"pass"}
    after = stuck.play_text("pass")
    assert after.result is None and after.to_move == 0


def test_convacu_button_is_a_move_so_no_pass_while_it_is_untaken() -> None:
    stuck = build("XX.X. .OXOX XOXO. .XXOO X.XOO", game="convacu", to_move="O")
    assert {stuck.move_text(m) for m in stuck.legal_moves()} == {"button"}


# -- notation -------------------------------------------------------------------------


def test_points_words_and_case() -> None:
    state = VACU.start(["-komi=6", "-size=19"])
    assert state.move_text(state.parse_move("t19")) == "T19"
    assert state.move_text(state.parse_move("j1")) == "J1"
    assert state.move_text(state.parse_move(" PASS ")) == "pass"
    assert state.move_text(state.parse_move("Button")) == "button"
    assert state.move_text(state.parse_move("komi = -3")) == "komi-3"
    with pytest.raises(MoveSyntaxError, match="D4"):
        state.parse_move("4D")
