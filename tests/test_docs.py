"""The documents say what the code does: their examples are checked here."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from pbem.games import get_game
from pbem.games.base import IllegalMove, MoveSyntaxError
from pbem.games.trugo.geometry import ARCHES, CORNER_NAMES, WHITE_TIP
from pbem.games.vasco import reference as ref
from pbem.games.vasco.geometry import BLUE, LETTERS, RED
from tests.databases import upgraded_sqlite

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


def test_vasco_rules_touching_board_numbers_the_twelve_cells_around_the_first_tile() -> None:
    state = get_game("vasco").start().play_text("a0,0")
    board = state.text_board()
    assert code_block_after(VASCO_RULES, "every other empty cell is out of reach") in board
    assert len(state.positions) == 12


def test_vasco_rules_quote_the_real_refusals(capsys: Any) -> None:
    for move, marker in [("d3,-1", "so it stays apart and is refused"), ("a-3,0", "all the same")]:
        status, out, err = vacu_cli(["vasco", "preview", "new", "2", "a0,0", "b1,0", move], capsys)
        assert status == 1 and out == ""
        assert err.strip() == one_line(code_block_after(VASCO_RULES, marker))
    state = get_game("vasco").start().play_text("a0,0").play_text("b1,0")
    assert "`-1,0` seeing `x` from above and `o` from the right, so only `c`" in one_line(
        VASCO_RULES
    )
    seen = ref.shown_to({**ref_tiles(state), (-1, -1): LETTERS.index("e")}, (-1, 0))
    assert sorted(seen) == sorted([RED, BLUE])  # o from 0,0 on the right, x from above
    assert state.play_text("e-1,-1").history[-1].note == "auto c-1,0"


def ref_tiles(state: Any) -> dict[tuple[int, int], int]:
    return {(col, row): o for col, row, o, _ in state.tiles()}


def test_readme_position_number_example_is_real() -> None:
    readme = one_line((ROOT / "README.md").read_text(encoding="utf-8"))
    assert "(`c9`, since cell 4,0 is position 9 there)" in readme
    state = get_game("vasco").start()
    for text in ["a0,0", "b1,0", "a2,1"]:
        state = state.play_text(text)
    assert state.position_number(4, 0) == 9
    assert state.play_text("c9").moves[-1] == "c4,0"


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


# -- Vacu and Convacu ------------------------------------------------------------

VACU_RULES = (ROOT / "docs" / "rules" / "vacu.md").read_text(encoding="utf-8")

DEFINITIONS = "B5 D5 B4 D4 A4 E4 C3"
SUPPRESSION = "C4 C3 B3 D2 D3 E5 C2"
SEVERAL = "A2 A1 C2 C1 D1 E5 B1"
FLIP = "B1 A1 A3 B2 E5 B3 E4 A4 A2"
NO_FLIP = "E5 A2 E4 B1"
BUTTON_TIE = "B1 D1 B2 D2 B3 D3 B4 D4 B5 D5 button pass pass"
LAST_GROUP = "B1 A1 A2"
CYCLE_START = "B2 C2 A3 D2 C1 E2 D1"
CYCLE = "A2 E1 B1 D1 A1 C1"
PASS_START = "B2 C2 A3 D2 C1 E2 button A2 D1 pass"
PASS_CYCLE = "E1 B1 D1 A1 C1 A2"
BLACK_WIN = "C5 C3 C4 D4 C2 D2 C1 E3 B3 button D3"
WHITE_WIN = "C5 C3 C4 B3 B4 D3 D4 A3 E4 E3"
TEXT_BOARD = "komi6 black B1 A1 A3 B2 E5 B3 G3 A4 A2"
VACU_JSON = "B1 A1 A3 B2 E5 B3 E4 A4 A2 button"
SMALL = ("-size=5", "-komi=0")


def vacu(moves: str, *options: str, game: str = "vacu") -> Any:
    state = get_game(game).start(list(options))
    for text in moves.split():
        state = state.play_text(text)
    return state


def small(moves: str, game: str = "vacu") -> Any:
    return vacu(moves, *SMALL, game=game)


def grid(state: Any) -> str:
    """The board's grid alone: the text board up to its first blank line."""
    return state.text_board().split("\n\n", 1)[0] + "\n"


def before_and_after(moves: str, game: str = "vacu", gap: int = 8) -> str:
    """The grids before and after the last move, side by side."""
    before, after = small(moves.rsplit(" ", 1)[0], game), small(moves, game)
    left, right = grid(before).splitlines(), grid(after).splitlines()
    width = max(len(line) for line in left)
    pairs = zip(left, right, strict=True)
    return "".join((a.ljust(width + gap) + b).rstrip() + "\n" for a, b in pairs)


def one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def vacu_cli(argv: list[str], capsys: Any) -> tuple[int, str, str]:
    from pbem.cli import main

    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_vacu_rules_show_the_real_grids() -> None:
    examples = [
        ("Here is the\nempty 9 by 9 board", grid(vacu("", "-komi=0"))),
        ("after `B5 D5 B4 D4 A4 E4 C3`:", grid(small(DEFINITIONS))),
        ("Black plays `C2` (left: before", before_and_after(SUPPRESSION)),
        ("Black plays there:", before_and_after(SEVERAL)),
        ("Black plays `A2`:", before_and_after(FLIP)),
        ("`E5 A2 E4 B1`:", grid(small(NO_FLIP))),
        ("`B1 D1 B2 D2 B3 D3 B4 D4 B5 D5 button pass pass` ends", grid(small(BUTTON_TIE))),
        ("`B2 C2 A3 D2 C1 E2 D1` it is White's turn:", grid(small(CYCLE_START))),
        ("Black plays `D3`:", before_and_after(BLACK_WIN, "convacu")),
        ("and White wins with\nmove 10:", grid(small(WHITE_WIN, "convacu"))),
    ]
    for marker, expected in examples:
        assert code_block_after(VACU_RULES, marker) == expected, marker


def test_vacu_rules_show_the_real_text_boards() -> None:
    marker = "`pbem vacu preview new 2 komi6 black B1 A1 A3 B2 E5 B3 G3 A4 A2`"
    assert code_block_after(VACU_RULES, marker) == vacu(TEXT_BOARD).text_board()
    marker = "`pbem convacu preview new 2 -size=5 -komi=0 C5 C3 C4 D4 C2 D2 C1 E3 B3\nbutton D3`"
    assert code_block_after(VACU_RULES, marker) == small(BLACK_WIN, "convacu").text_board()


def test_vacu_rules_quote_the_real_board_lines() -> None:
    quotes = [
        ("The board reports:", small(SUPPRESSION)),
        ("are suppressed together:", small(SEVERAL)),
        ("the brackets stay on", small(FLIP)),
        ("Black wins:\n", small(BUTTON_TIE)),
        ("so the game ends with move 19", small(f"{CYCLE_START} {CYCLE} {CYCLE}")),
        ("top edge to the bottom edge:", small(BLACK_WIN, "convacu")),
    ]
    for marker, state in quotes:
        board = state.text_board()
        for line in code_block_after(VACU_RULES, marker).splitlines():
            assert line == "..." or line in board.splitlines(), (marker, line)
    who = "`Vacu 9x9: Black (X) is the second player, White (O) is the first player.`"
    assert who in VACU_RULES and who.strip("`") in vacu(TEXT_BOARD).text_board()
    for moves in ["C3 button", "C3 button pass", "komi6"]:
        assert "(" not in grid(small(moves) if moves != "komi6" else vacu(moves))
    colour = "`Move 2: the second player chooses a colour (black or white).`"
    assert colour in VACU_RULES
    assert colour.strip("`") in vacu("komi6", "-size=5").text_board()


def test_vacu_rules_definitions_example() -> None:
    state = small(DEFINITIONS)
    rows = state.rows()
    size = len(rows)

    def at(name: str) -> str:
        return rows[size - int(name[1:])]["ABCDEFGHJ".index(name[0])]

    def near(name: str) -> list[str]:
        col, row = "ABCDEFGHJ".index(name[0]), int(name[1:])
        steps = [(col - 1, row), (col + 1, row), (col, row - 1), (col, row + 1)]
        return [f"{'ABCDEFGHJ'[c]}{r}" for c, r in steps if 0 <= c < size and 1 <= r <= size]

    def group(name: str) -> set[str]:
        found, todo = {name}, [name]
        while todo:
            for other in near(todo.pop()):
                if other not in found and at(other) == at(name):
                    found.add(other)
                    todo.append(other)
        return found

    def liberties(stones: set[str]) -> set[str]:
        return {p for s in stones for p in near(s) if at(p) == "."}

    assert group("A4") == {"A4", "B4", "B5"}
    assert liberties(group("A4")) == {"A5", "C5", "C4", "B3", "A3"}
    assert group("C3") == {"C3"} and liberties({"C3"}) == {"C4", "B3", "D3", "C2"}
    assert group("D5") == {"D5", "D4", "E4"}
    assert liberties(group("D5")) == {"C5", "E5", "C4", "D3", "E3"}
    black, white, nobody = (
        sorted(state.point_name(p) for p in points) for points in state.board.territory()
    )
    assert black == ["A5"] and white == ["E5"] and len(nobody) == 25 - 7 - 2
    assert state.score() == (5.0, 4.0)


def test_vacu_rules_stone_examples() -> None:
    suppression = small(SUPPRESSION)
    assert suppression.history[-1].note == "suppressed C3" and suppression.result is None
    several = small(SEVERAL)
    assert several.history[-1].note == "suppressed A1 C1" and several.result is None
    flip = small(FLIP)
    assert flip.history[-1].note == "suicide of A2 A3; flipped A1"
    assert flip.rows() == ["....B", "W...B", ".W...", ".W...", "BB..."]
    assert flip.suppressed == (2, 0) and flip.flipped == (0, 1) and flip.result is None
    merged = [stones for stones in flip.board.members.values() if len(stones) == 2]
    assert {flip.point_name(p) for p in merged[0]} == {"A1", "B1"}
    board = flip.board
    assert all(board.libs[g] > 0 for g in board.members)
    try:
        small(NO_FLIP).play_text("A1")
    except IllegalMove as error:
        assert "would leave its group without a liberty" in error.reason
    else:
        raise AssertionError("A1 should be refused")


def test_vacu_rules_quote_the_real_errors(capsys: Any) -> None:
    errors = [
        ("exit status 1 (the message", f"{NO_FLIP} A1"),
        ("-komi=0 pass` says (on one line)", "pass"),
    ]
    for marker, moves in errors:
        status, out, err = vacu_cli(["vacu", "preview", "new", "2", *SMALL, *moves.split()], capsys)
        assert status == 1 and out == ""
        assert err.strip() == one_line(code_block_after(VACU_RULES, marker))
    inline = [
        (["vacu", "preview", "new", "2", "-size=5", "komi3", "E5"], "the komi is 3: now choose"),
        (["convacu", "preview", "new", "2", *SMALL, "button", "pass"], "in Convacu you may"),
    ]
    flat = one_line(VACU_RULES)
    for argv, words in inline:
        status, _, err = vacu_cli(argv, capsys)
        assert status == 1 and words in err
        assert f"`{err.strip()}`" in flat


def test_vacu_rules_help_prints_this_page(capsys: Any) -> None:
    for name in ["vacu", "convacu"]:
        status, out, _ = vacu_cli([name, "help"], capsys)
        assert status == 0 and out == VACU_RULES


def test_vacu_rules_komi_step_examples() -> None:
    black = vacu("komi6 black", "-size=5")
    assert black.black == 1 and black.to_move == 1 and black.komi == 6
    white = vacu("komi-2 white", "-size=5")
    assert white.black == 0 and white.to_move == 0 and white.komi == -2
    assert vacu("").play_text("Komi = 6").moves == ("komi6",)
    assert vacu("komi=6").moves == ("komi6",)
    assert vacu("komi-81 BLACK").moves == ("komi-81", "black")
    for text, size in [("komi82", "-size=9"), ("komi26", "-size=5")]:
        try:
            vacu(text, size)
        except IllegalMove:
            pass
        else:
            raise AssertionError(f"{text} should be refused")
    assert vacu("komi25", "-size=5").komi == 25
    seated = vacu("", "-komi=6")
    assert seated.black == 0 and seated.to_move == 0 and seated.komi == 6
    assert vacu("komi6", "-size=5").position()["black"] is None
    assert vacu("", "-size=5").position()["komi"] is None


def test_vacu_rules_end_examples() -> None:
    tie = small(BUTTON_TIE)
    assert tie.result.winner == 0 and tie.result.scores == (10.5, 10.0)
    assert tie.button == 0 and tie.moves[10] == "button"
    empty = small("button pass pass")
    assert empty.result.winner == 0 and empty.result.scores == (0.5, 0.0)
    flat = one_line(VACU_RULES)
    for komi, winner, reason in [
        ("0", 0, "Black (X) removed the last enemy group; Black (X) 25 to White (O) 0"),
        ("25", None, "Black (X) removed the last enemy group; a tie, Black (X) 25 to White (O) 25"),
    ]:
        state = vacu(LAST_GROUP, "-size=5", f"-komi={komi}")
        assert state.result.winner == winner and state.result.reason == reason
        assert f"{reason}`" in flat
    assert "with `-komi=0`: `Black (X) wins: Black (X) removed" in flat
    assert vacu(LAST_GROUP, "-size=5", "-komi=0").score() == (25.0, 0.0)
    assert vacu(LAST_GROUP, "-size=5", "-komi=0").board.stones[1] == 2
    assert "both players passed; Black (X) 10.5 to White (O) 10" in one_line(VACU_RULES)
    assert tie.result.reason == "both players passed; Black (X) 10.5 to White (O) 10"


def test_vacu_rules_repetition_examples() -> None:
    start = small(CYCLE_START)
    assert small(f"{CYCLE_START} {CYCLE}").rows() == start.rows()
    draw = small(f"{CYCLE_START} {CYCLE} {CYCLE}")
    assert len(draw.moves) == 19 and draw.result.winner is None
    assert "third time" in draw.result.reason
    assert small(f"{CYCLE_START} {CYCLE} {CYCLE}".rsplit(" ", 1)[0]).result is None
    notes = [record.note for record in small(f"{CYCLE_START} {CYCLE}").history[7:]]
    assert notes == ["", "", "suppressed C1 D1 E1", "", "", "suppressed A1 A2 B1"]
    button = f"{CYCLE_START} {CYCLE} button pass {CYCLE} {CYCLE}"
    assert small(button).moves[13] == "button"
    assert small(button).result.winner is None and len(small(button).moves) == 27
    assert small(button.rsplit(" ", 1)[0]).result is None
    assert small(button.rsplit(" ", 6)[0]).result is None
    passed = small(f"{PASS_START} {PASS_CYCLE} {PASS_CYCLE}")
    assert len(passed.moves) == 22 and passed.moves[-1] == "A2"
    assert passed.result.winner is None and "third time" in passed.result.reason
    assert small(f"{PASS_START} {PASS_CYCLE} {PASS_CYCLE}".rsplit(" ", 1)[0]).result is None
    assert small(PASS_START).rows() == small(f"{PASS_START} {PASS_CYCLE}").rows()


def test_vacu_rules_convacu_examples() -> None:
    black = small(BLACK_WIN, "convacu")
    assert black.result.winner == 0
    assert black.result.reason == (
        "Black (X) joined the top and bottom edges; the score was Black (X) 15 to White (O) 3.5"
    )
    assert black.history[-1].note == "suicide of D3; flipped C3"
    white = small(WHITE_WIN, "convacu")
    assert white.result.winner == 1 and len(white.moves) == 10
    assert white.result.reason.startswith("White (O) joined the left and right edges; the score")
    ended = small(LAST_GROUP, "convacu")
    assert ended.result.reason == small(LAST_GROUP).result.reason


def test_vacu_rules_notation_examples() -> None:
    state = vacu("", "-komi=6")
    assert state.move_text(state.parse_move("d4")) == "D4"
    assert state.move_text(state.parse_move("Button")) == "button"
    assert state.move_text(state.parse_move("PASS")) == "pass"
    big = vacu("", "-komi=6", "-size=25")
    assert big.move_text(big.parse_move("z25")) == "Z25"
    try:
        state.parse_move("I3")
    except MoveSyntaxError:
        pass
    else:
        raise AssertionError("I3 should not be read")
    try:
        small("").parse_move("F1")
    except IllegalMove as error:
        assert "off this 5x5 board" in error.reason
    else:
        raise AssertionError("F1 should be refused on 5x5")
    listed = vacu("", "-komi=0", "-size=13").to_json()["legal_moves"]
    assert listed.index("A10") < listed.index("A2") and listed[-1] == "button"
    assert small("button").to_json()["legal_moves"][-1] == "pass"
    assert "pass" not in small("button", "convacu").to_json()["legal_moves"]
    assert vacu("komi6", "-size=5").to_json()["legal_moves"] == ["black", "white"]
    komis = vacu("", "-size=5").to_json()["legal_moves"]
    assert set(komis) == {f"komi{k}" for k in range(-25, 26)}
    assert vacu("G7", "-size=13", "-komi=6").moves == ("G7",)


def test_vacu_rules_json_example_is_real() -> None:
    marker = "For example,\n`pbem vacu preview new 2 -size=5 -komi=3"
    state = vacu(VACU_JSON, "-size=5", "-komi=3")
    assert json.loads(code_block_after(VACU_RULES, marker)) == state.to_json()
    shown = re.search(r"-komi=3 (B1 .*?) --json", VACU_RULES, re.DOTALL)
    assert shown and shown.group(1).split() == VACU_JSON.split()
    position = state.position()
    assert set(position) == {
        "size",
        "board",
        "black",
        "komi",
        "button",
        "score",
        "suppressed",
        "flipped",
    }
    assert position["score"] == [4.0, 6.5]


def test_vacu_rules_lines_fit_a_terminal() -> None:
    assert max(len(line) for line in VACU_RULES.splitlines()) <= 80


# -- the command reference --------------------------------------------------------


def test_command_reference_examples_run(tmp_path: Path) -> None:
    """The first example block of docs/commands.md, run through the server."""
    from pbem.server import Server
    from pbem.store import make_engine, session_factory

    text = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    block = code_block_after(text, "prints the mails it produced")
    engine = make_engine(upgraded_sqlite(tmp_path / "doc.sqlite3"))
    server = Server(session_factory(engine))
    for line in block.splitlines():
        match = re.fullmatch(r'\$ pbem send --from (\S+) "([^"]+)"(?: --body "([^"]*)")?', line)
        assert match, line
        messages = server.handle(match.group(1), match.group(2), match.group(3) or "")
        assert not any(m.subject.startswith("pbem error") for m in messages.mails), messages
    engine.dispose()
    assert max(len(line) for line in text.splitlines()) <= 80


def test_ratings_document_examples_are_the_formulas() -> None:
    from pbem.server.players.ratings import Standing, after_game, established_change, pull_of

    text = " ".join((ROOT / "docs" / "ratings.md").read_text(encoding="utf-8").split())
    new = Standing(1600, 0)
    winner, loser = after_game(new, new, 1.0), after_game(new, new, 0.0)
    assert f"rated {winner.rating:.0f} and {loser.rating:.0f}" in text
    assert f"(1720 - 1600) / 5 = {pull_of(1600):.0f}" in text
    rookie = after_game(Standing(1500, 4), Standing(1900, 30), 1.0)
    assert f"(1500 * 4 + 2300) / 5 + (1720 - 1500) / 5 = 1660 + 44 = {rookie.rating:.0f}" in text
    strong = established_change(Standing(2000, 50), Standing(1600, 50), 1)
    assert f"gains 32 * (1 - 1 / 1.1) = {strong:.1f}" in text
    against_rookie = established_change(Standing(1700, 30), Standing(1500, 10), 1)
    assert f"gains 16 * (1 - 0.7597) = {against_rookie:.1f}" in text
    assert max(len(line) for line in (ROOT / "docs" / "ratings.md").read_text().splitlines()) <= 80


def test_every_command_is_in_the_reference_and_the_help() -> None:
    """The registry names every command once; `help` and the table in
    docs/commands.md are made from it, and each command has its section."""
    from pbem.server.language.registry import ACCOUNT_VERBS, GAME_VERBS, command_list, with_listing

    reference = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    assert with_listing(reference) == reference, "docs/commands.md is behind: run `make docs`"
    headings = [line for line in reference.splitlines() if line.startswith("### ")]
    listing = command_list()
    for verb in ACCOUNT_VERBS:
        assert any(f"`{verb.name}" in heading for heading in headings), verb.name
        assert all(form in listing for form in verb.forms), verb.name
    for verb in GAME_VERBS:
        assert any(f"`GAME {verb.name}" in heading for heading in headings), verb.name
        for form in verb.written:
            assert " ".join(form.split()) in " ".join(listing.split()), form


def test_the_documented_reply_cap_is_the_servers() -> None:
    from pbem.server.mailing.reply_cap import REPLIES_PER_HOUR

    for name in ("operations.md", "commands.md"):
        text = one_line((ROOT / "docs" / name).read_text(encoding="utf-8"))
        assert f"at most {REPLIES_PER_HOUR} mails an hour" in text.replace("**", ""), name
