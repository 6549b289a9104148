"""The documents say what the code does: their examples are checked here."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from pbem.games import get_game
from pbem.games.base import IllegalMove
from pbem.games.trugo.geometry import ARCHES, CORNER_NAMES, WHITE_TIP

ROOT = Path(__file__).resolve().parents[1]
VASCO_RULES = (ROOT / "docs" / "rules" / "vasco.md").read_text(encoding="utf-8")


def code_block_after(text: str, marker: str) -> str:
    start = text.index(marker)
    match = re.search(r"```\n(.*?)```", text[start:], re.DOTALL)
    assert match, f"no code block after {marker!r}"
    return match.group(1)


def test_vasco_rules_show_the_real_text_board() -> None:
    state = get_game("vasco").start()
    for text in ["a0,0", "b1,0", "a2,1"]:
        state = state.play_text(text)
    assert code_block_after(VASCO_RULES, "Here is the board after") == state.text_board()


def test_vasco_rules_json_example_is_real() -> None:
    block = code_block_after(VASCO_RULES, "For example, `pbem vasco preview new 2 -size=3")
    flat = re.sub(r"\s+", " ", block)
    state = get_game("vasco").start(["-size=3"]).play_text("a0,0").play_text("a2,0")
    assert json.loads(flat) == json.loads(re.sub(r"\s+", " ", json.dumps(state.to_json())))


def test_vasco_rules_lines_fit_a_terminal() -> None:
    assert max(len(line) for line in VASCO_RULES.splitlines()) <= 80


# -- Trugo ---------------------------------------------------------------------

TRUGO_RULES = (ROOT / "docs" / "rules" / "trugo.md").read_text(encoding="utf-8")

THREE_PIECES = "a0,0 a1,-1 a2,0 a0,1 a1,0"
ONE_PIECE = "c0,0 c1,-1 a2,-1 a0,-1 b0,-2 c1,-2 a1,0 a-1,-2 c-1,-1 a-1,0"
FIRST_CAPTURE = "c0,0 b-1,-1 c0,-1 c1,0 c1,-1 a2,-1 b0,-2 c1,-2"
PIN_AND_RELEASE = "c0,0 a-1,-1 c1,0 a1,1 a0,1 1,0w-0,1e a-1,0 c0,-1 -1,-1e-1,0w 0,1e-1,0w"
WANING = "b0,0 b-1,0 c1,0 a2,0 c3,0 b0,1"
JSON_GAME = "c0,0 b0,1 a-1,0 a-1,1 a1,-1 a-1,-1 a1,0 x-1,1 x0,1 0,0w-0,0e"


def trugo(moves: str, *options: str) -> Any:
    state = get_game("trugo").start(list(options))
    for text in moves.split():
        state = state.play_text(text)
    return state


def drawing(state: Any) -> str:
    """The drawing alone: between the status lines and the legend, which hold
    no blank line."""
    board = state.text_board()
    return board.split("\n\n", 1)[1].rsplit("\n\n", 1)[0] + "\n"


def cell_point(name: str) -> int:
    """The engine's id of a point, by any of its names."""
    move = get_game("trugo").start().parse_move(f"{name}-{name}")
    return move.raw[1]


def paragraph_after(text: str, marker: str) -> str:
    start = text.index(marker)
    return text[start : text.index("\n\n", start)]


def test_trugo_rules_show_the_real_drawings() -> None:
    examples = [
        ("and draws it like this", trugo(THREE_PIECES)),
        ("which stands on a white junction:", trugo(ONE_PIECE)),
        ("The junction `0,-1e` is shown empty", trugo(FIRST_CAPTURE)),
        ("now pinned (`Xo`", trugo(PIN_AND_RELEASE)),
        ("and it is White's turn in the Waning phase", trugo(WANING, "-size=6")),
    ]
    for marker, state in examples:
        assert code_block_after(TRUGO_RULES, marker) == drawing(state), marker


def test_trugo_rules_show_the_real_text_board() -> None:
    state = trugo(THREE_PIECES, "-pieces=1")
    block = code_block_after(TRUGO_RULES, "The board in a mail (and in `pbem trugo preview`)")
    assert block == state.text_board()
    assert state.play_text("a6").moves[-1] == "a-1,0"


def test_trugo_rules_quote_the_real_last_move_lines() -> None:
    three = trugo(THREE_PIECES)
    assert code_block_after(TRUGO_RULES, "The board reports it as") in three.text_board()
    released = trugo(PIN_AND_RELEASE).play_text("c5")
    assert released.moves[-1] == "c1,-1"
    block = code_block_after(TRUGO_RULES, "is captured, and the White piece under it")
    assert block in released.text_board()
    assert released.board.stacks[cell_point("1,0w")] == (0,)


def test_trugo_rules_rotation_table_is_the_geometry() -> None:
    words = ["east", "north-east", "north-west", "west", "south-west", "south-east"]
    rows = re.findall(
        r"^\| ([abc]) +\| (.+?) +\| (.+?) +\| (.+?) +\| (.+?) +\|$", TRUGO_RULES, re.M
    )
    assert [row[0] for row in rows] == ["a", "b", "c"]
    for k, (_, white_tip, white_arch, blue_tip, blue_arch) in enumerate(rows):
        assert white_tip == words[WHITE_TIP[k]]
        assert blue_tip == words[(WHITE_TIP[k] + 3) % 6]
        white, blue = ARCHES[k]
        assert set(white_arch.split(" and ")) == {CORNER_NAMES[i] for i in white}
        assert set(blue_arch.split(" and ")) == {CORNER_NAMES[i] for i in blue}


def test_trugo_rules_new_pieces_examples() -> None:
    three = trugo(THREE_PIECES)
    assert three.history[-1].note == "new X at 2,0w, O at 0,0e, X at 1,0w"
    short = trugo(THREE_PIECES, "-pieces=1")
    assert short.history[-1].note == "new X at 2,0w, O at 0,0e"
    assert cell_point("1,0w") in short.board.count and cell_point("1,0w") not in short.board.stacks


def test_trugo_rules_piece_move_example_lists_every_destination() -> None:
    state = trugo(ONE_PIECE)
    listed = re.findall(r"`([^`]+)`", paragraph_after(TRUGO_RULES, "So this piece has eight moves"))
    legal = {move.text for move in state.legal_moves() if move.text.startswith("-1,-2e-")}
    assert len(listed) == 8
    assert set(listed) == legal
    for text in listed:
        assert state.parse_move(text).text == text


def test_trugo_rules_capture_examples() -> None:
    first = trugo(FIRST_CAPTURE)
    assert first.history[-1].note == ("new X at 1,-2w, O at 0,-1e, X at 2,-1w; captured O at 0,-1e")
    assert first.board.stacks[cell_point("1,-1w")] == (1,)
    state = trugo(PIN_AND_RELEASE)
    assert state.history[4].note == "new O at 0,1e, X at 1,0w"
    assert trugo(PIN_AND_RELEASE.rsplit(" ", 4)[0]).board.stacks[cell_point("0,1e")] == (0, 1)
    assert trugo(PIN_AND_RELEASE.rsplit(" ", 2)[0]).board.count[cell_point("0,0e")] == 2
    assert state.board.stacks[cell_point("1,0w")] == (0, 1)
    assert state.board.stacks[cell_point("0,1e")] == (0,)
    waxing = trugo("a0,0 a1,-1 a1,0 a0,-1 a0,1 a2,0")
    assert waxing.history[-1].note == "new X at 2,0w; captured O at 0,0e"
    assert waxing.board.on_board() == [0, 3] and waxing.to_move == 0


def test_trugo_rules_removal_and_end_examples() -> None:
    state = trugo(WANING, "-size=6")
    assert state.phase == "waning" and state.to_move == 0
    for text in ["x0,0", "x0,1"]:
        after = state.play_text(text)
        assert after.board.removed == [1, 1]
        assert after.result is not None and after.result.winner == 0
    for text, reason in [("x1,0", "three free sides in a row"), ("x2,0", "split")]:
        try:
            state.play_text(text)
        except IllegalMove as error:
            assert reason in error.reason
        else:
            raise AssertionError(f"{text} should be refused")
    assert state.play_text("x3,0").result is None
    assert state.play_text("x3,0").board.removed == [0, 0]
    lost = state.play_text("x-1,0")
    assert lost.board.removed == [1, 0] and lost.result.winner == 1
    pinned = state.play_text("-1,0e-1,0w")
    assert pinned.result is None and pinned.board.on_board() == [1, 1]
    assert all(move.kind == "remove" for move in pinned.legal_moves())
    won = pinned.play_text("x0,0")
    assert won.result.winner == 1 and "last pieces" in won.result.reason
    drawn = trugo("a0,0 a0,1", "-size=2")
    assert drawn.result is not None and drawn.result.winner is None


def test_trugo_rules_notation_examples_parse() -> None:
    state = trugo(WANING, "-size=6")
    assert state.parse_move("0,-1w:-1,0e") == state.parse_move("0,-1w--1,0e")
    assert state.parse_move("0,0sw-0,0se").text == "-1,0e-1,0w"
    assert state.parse_move("-1,0E : 1,0 W").text == "-1,0e-1,0w"
    assert state.parse_move("x2,0").text == "x2,0"
    assert state.parse_move("pass").text == "pass"
    fresh = get_game("trugo").start()
    assert fresh.parse_move("A 0, 0").text == "a0,0"
    assert fresh.parse_move("c-1,2").text == "c-1,2"
    assert fresh.parse_move("b1").text == "b0,0"
    names = {cell_point(name) for name in ["0,0e", "1,-1sw", "1,0nw"]}
    assert len(names) == 1
    assert {cell_point(name) for name in ["1,0w", "0,0se", "0,1ne"]} == {cell_point("1,0w")}


def test_trugo_rules_json_example_is_real() -> None:
    block = code_block_after(TRUGO_RULES, "For example,\n`pbem trugo preview new 2 -size=7")
    state = trugo(JSON_GAME, "-size=7", "-pieces=3")
    assert json.loads(block) == state.to_json()
    shown = re.search(r"-pieces=3 (.*?) --json", TRUGO_RULES, re.DOTALL)
    assert shown and shown.group(1).split() == JSON_GAME.split()
    position = state.position()
    for player in range(2):
        total = sum(position[key][player] for key in ["hand", "on_board", "captured", "removed"])
        assert total == 3


def test_trugo_rules_lines_fit_a_terminal() -> None:
    assert max(len(line) for line in TRUGO_RULES.splitlines()) <= 80
