"""The game contract, checked over every registered game on random legal
games (hypothesis): what the server relies on of any game. A new game is in
this suite by being registered; the per-game files keep only the game's own
invariants (captures, loops, scores) and its reference and golden tests.

Random games use random options drawn from the game's own option specs
(flags either way, numbers between their least and their default), and
random legal moves from `legal_moves`, so they reach the rare phases too
(Vacu's komi step, Trugo's Waning phase, Vasco's end)."""

from __future__ import annotations

import ast
import json
import random
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.games import GAMES, get_game
from pbem.games.base import Game, IllegalMove, MoveError, OptionSpec, State
from tests.conftest import examples

NAMES = sorted(GAMES)
MOST_RANDOM_MOVES = 120
MOVES_CHECKED = 40  # of a position's legal moves, a sample at most this big


def option_words(spec: OptionSpec, rng: random.Random) -> list[str]:
    """A random setting of one option, within what the game accepts and
        small enough for a test (a number is its default, or lies between its
    least and its default)."""
    if isinstance(spec.default, bool):
        return [f"-{spec.name}"] if rng.random() < 0.5 else []
    if spec.default is None:  # off unless given
        if rng.random() < 0.5:
            return []
        low = -5 if spec.minimum is None else max(spec.minimum, -5)
        high = 10 if spec.maximum is None else min(spec.maximum, 10)
        return [f"-{spec.name}={rng.randint(low, high)}"]
    low = spec.default if spec.minimum is None else spec.minimum
    return [f"-{spec.name}={rng.choice([spec.default, rng.randint(low, spec.default)])}"]


@st.composite
def random_games(draw: st.DrawFn, name: str) -> State[Any]:
    """A position of the game reached by uniformly random legal moves."""
    game = get_game(name)
    rng = random.Random(draw(st.integers(0, 2**32)))
    words = [word for spec in game.option_specs for word in option_words(spec, rng)]
    state = game.start(words)
    # Short games, long ones and whole ones (the seed decides, so it shrinks).
    length = rng.choice([rng.randint(0, 10), rng.randint(0, MOST_RANDOM_MOVES), MOST_RANDOM_MOVES])
    for _ in range(length):
        if state.result is not None:
            break
        state = state.play(rng.choice(state.legal_moves()))
    return state


def positions() -> st.SearchStrategy[State[Any]]:
    return st.sampled_from(NAMES).flatmap(random_games)


def sample(state: State[Any], rng: random.Random) -> list[Any]:
    moves = state.legal_moves()
    return moves if len(moves) <= MOVES_CHECKED else rng.sample(moves, MOVES_CHECKED)


@settings(max_examples=examples(80), deadline=None)
@given(positions())
def test_the_record_replays_to_the_same_position_and_json_round_trips(state: State[Any]) -> None:
    data = state.to_json()
    assert json.loads(json.dumps(data)) == data
    game = state.game
    options = game.parse_options(state.options.args())
    assert options == state.options
    again = game.replay(options, data["moves"])
    assert again.to_json() == data
    assert again.text_board() == state.text_board()
    assert again.svg_board() == state.svg_board()
    assert data["legal_moves"] == sorted(data["legal_moves"])
    assert list(state.moves) == [record.text for record in state.history]


@settings(max_examples=examples(60), deadline=None)
@given(positions(), st.randoms(use_true_random=False))
def test_every_listed_move_plays_and_its_text_names_it(
    state: State[Any], rng: random.Random
) -> None:
    for move in sample(state, rng):
        text = state.move_text(move)
        assert text == text.strip() and text
        assert state.parse_move(text) == move
        assert state.parse_move(f"  {text.upper()} ") == move  # case and spaces are free
        after = state.play(move)
        assert after.to_json() == state.play_text(text).to_json()
        assert after.moves[-1] == text  # the record keeps the canonical text
        assert len(after.history) == len(state.history) + 1
        assert state.to_json() == state.to_json()  # play left the state as it was


@settings(max_examples=examples(80), deadline=None)
@given(positions())
def test_whose_turn_and_the_result_are_consistent(state: State[Any]) -> None:
    game = state.game
    assert all(record.player in range(game.players) for record in state.history)
    if state.result is None:
        assert state.to_move in range(game.players)
        assert state.legal_moves(), "a game that is not over has a move to make"
        assert state.side_text(state.to_move) in state.status_line()
    else:
        assert state.to_move is None
        assert state.result.winner is None or state.result.winner in range(game.players)
        assert state.result.reason
        with pytest.raises(MoveError) as refused:
            state.play_text(state.moves[-1] if state.moves else "a")
        assert refused.value.reason
    for seat in range(game.players):
        assert state.side_text(seat)


@settings(max_examples=examples(60), deadline=None)
@given(positions())
def test_the_text_board_fits_a_mail_and_the_svg_is_well_formed(state: State[Any]) -> None:
    text = state.text_board()
    assert max(len(line) for line in text.splitlines()) <= 80
    assert state.status_line() in " ".join(text.split())
    for viewer in range(state.game.players):
        assert state.text_board(viewer) == text or state.boards_differ_by_viewer
    root = ElementTree.fromstring(state.svg_board().split("?>", 1)[-1])
    assert root.tag.endswith("svg")


@settings(max_examples=examples(40), deadline=None)
@given(positions(), st.integers(min_value=-1, max_value=1))
def test_a_game_ended_off_the_board_reads_as_over(state: State[Any], who: int) -> None:
    """A resignation or a forfeit ends a game the rules have not ended:
    `ended` is that position, over, for every drawing of it."""
    winner = None if who < 0 else who
    over = state.ended("bob resigned", winner)
    assert over.to_move is None and over.legal_moves() == []
    assert over.result is not None and over.result.winner == winner
    assert over.status_line() == "Game over: bob resigned."
    text = " ".join(over.text_board().split())
    assert "Game over: bob resigned." in text and "to move" not in text
    assert "For example" not in text
    assert over.moves == state.moves and over.svg_board()
    with pytest.raises(MoveError):
        over.play_text(state.move_text(state.legal_moves()[0]) if state.legal_moves() else "a")
    assert state.status_line() != over.status_line()  # the position itself is unchanged
    assert state.result is not None or state.legal_moves()


@pytest.mark.parametrize("name", NAMES)
def test_a_game_ended_before_its_first_move_is_drawn(name: str) -> None:
    """A declined challenge ends a board at its start."""
    for winner in (None, 0, 1):
        over = get_game(name).start().ended("bob declined the challenge", winner)
        assert "Game over: bob declined the challenge." in over.text_board()
        ElementTree.fromstring(over.svg_board().split("?>", 1)[-1])


def move_like_text(name: str) -> st.SearchStrategy[str]:
    """Any text, and text made of the characters the game's moves use (which
    reaches deeper into its move reader than random letters do)."""
    state = get_game(name).start()
    alphabet = sorted({c for m in state.legal_moves() for c in state.move_text(m)} | set("-,: 9"))
    return st.text(max_size=40) | st.text(alphabet=alphabet, max_size=24)


@settings(max_examples=examples(150), deadline=None)
@given(
    st.sampled_from(NAMES).flatmap(lambda name: st.tuples(random_games(name), move_like_text(name)))
)
def test_any_text_is_read_or_refused_with_a_reason(drawn: tuple[State[Any], str]) -> None:
    state, text = drawn
    try:
        move = state.parse_move(text)
    except MoveError as error:
        assert error.reason
        return
    try:
        state.play(move)
    except IllegalMove as error:
        assert error.reason


@pytest.mark.parametrize("name", NAMES)
def test_huge_numbers_are_refused_not_crashed(name: str) -> None:
    state = get_game(name).start()
    for text in ["a" + "9" * 5000, "a1," + "9" * 5000, "a99999999,0", "komi" + "9" * 5000]:
        try:
            state.play_text(text)
        except MoveError as error:
            assert error.reason
        else:
            raise AssertionError(f"{name} took {text[:20]}...")


@pytest.mark.parametrize("name", NAMES)
def test_options_are_checked_and_described(name: str) -> None:
    game: Game = get_game(name)
    assert game.start().options == game.parse_options([])
    for spec in game.option_specs:
        assert spec.help
        if isinstance(spec.default, int) and not isinstance(spec.default, bool):
            if spec.maximum is not None:
                with pytest.raises(ValueError, match="too large"):
                    game.parse_options([f"-{spec.name}={spec.maximum + 1}"])
            if spec.minimum is not None:
                with pytest.raises(ValueError, match="too small"):
                    game.parse_options([f"-{spec.name}={spec.minimum - 1}"])
    with pytest.raises(ValueError):
        game.parse_options(["-no_such_option"])


GAMES_FOLDER = Path(__file__).parents[2] / "src" / "pbem" / "games"


def imports_within(path: Path, package: set[str]) -> set[str]:
    """The sibling modules a game module imports when it runs (imports only
    for the type checker do not count)."""
    found: set[str] = set()

    class Imports(ast.NodeVisitor):
        def visit_If(self, node: ast.If) -> None:
            if not (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"):
                self.generic_visit(node)

        def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
            if node.level == 1:
                names = [node.module] if node.module else [a.name for a in node.names]
                found.update(name.split(".")[0] for name in names)

    Imports().visit(ast.parse(path.read_text(encoding="utf-8")))
    return found & package


@pytest.mark.parametrize(
    "folder", sorted(p for p in GAMES_FOLDER.iterdir() if (p / "__init__.py").exists())
)
def test_no_import_cycles_inside_a_game_package(folder: Path) -> None:
    modules = {path.stem for path in folder.glob("*.py")} - {"__init__"}
    graph = {name: imports_within(folder / f"{name}.py", modules) for name in modules}
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        for imported in graph[name]:
            assert imported not in path, f"import cycle: {' -> '.join([*path, imported])}"
            if imported not in done:
                visit(imported, [*path, imported])
        done.add(name)

    for name in sorted(modules):
        visit(name, [name])


# -- entering a move by clicking ---------------------------------------------


def marked(svg: str, attribute: str) -> list[str]:
    """The values of `attribute` on the board drawing's elements."""
    root = ElementTree.fromstring(svg)
    return [element.attrib[attribute] for element in root.iter() if attribute in element.attrib]


def covered(move: str, buttons: list[Any]) -> bool:
    """Whether a button writes `move` (one with a number: its word, then a
    number in its range)."""
    for button in buttons:
        if move == button.move:
            return True
        if button.field is not None and move.startswith(button.move):
            rest = move[len(button.move) :]
            if rest.lstrip("+-").isdigit() and button.field[0] <= int(rest) <= button.field[1]:
                return True
    return False


@settings(max_examples=examples(60), deadline=None)
@given(positions())
def test_every_legal_move_can_be_clicked_and_every_click_is_legal(state: State[Any]) -> None:
    """What the board marks and the game offers by clicking (games/base.py)
    is exactly the legal moves: the points and tiles that are a move, the
    choices at each marked place, the pieces' destinations, the buttons."""
    legal = {state.move_text(move) for move in state.legal_moves()}
    svg = state.svg_board()
    offered: set[str] = set(marked(svg, "data-move")) if state.to_move is not None else set()
    for place in marked(svg, "data-choices"):
        offered |= {choice.move for choice in state.choices(place)}
    places = set(marked(svg, "data-place"))
    for start in state.movable():
        assert start in places, start
        for end, texts in state.destinations(start).items():
            assert end in places, end
            offered |= set(texts)
    buttons = state.move_buttons() if state.result is None else []
    assert offered <= legal, offered - legal
    for button in buttons:
        example = button.move if button.field is None else f"{button.move}{button.field[0]}"
        state.play_text(example)  # raises if the button is no legal move
    assert {move for move in legal - offered if not covered(move, buttons)} == set()
