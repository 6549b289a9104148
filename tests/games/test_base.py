"""The game contract's shared parts: options and replay."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.games import GAMES, get_game
from pbem.games.base import OptionError, ReplayError
from tests.conftest import examples

VASCO = get_game("vasco")


def test_defaults_and_canonical_option_words() -> None:
    options = VASCO.parse_options([])
    assert options.to_json() == {"size": 54, "strict": False} and options.args() == []
    options = VASCO.parse_options(["-SIZE=20", "-strict"])
    assert options["size"] == 20 and options["strict"] is True
    assert options.args() == ["-size=20", "-strict"]
    assert VASCO.options(size=20, strict=True) == options


@pytest.mark.parametrize(
    ("word", "message"),
    [
        ("-size", "needs a whole number, like -size=54"),
        ("-size=ten", "needs a whole number"),
        ("-size=0", "too small: the least is 1"),
        ("-size=1001", "too large: the most is 1000"),
        ("-strict=yes", "takes no value"),
        ("-komi=5", "Unknown option -komi for Vasco; its options are: -size, -strict"),
        ("size=5", "options look like -size=40"),
    ],
)
def test_bad_options_are_clear_errors(word: str, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        VASCO.parse_options([word])


def test_replay_names_the_failing_move() -> None:
    with pytest.raises(ReplayError) as caught:
        VASCO.replay(VASCO.parse_options([]), ["a0,0", "b1,0", "b1,0"])
    assert caught.value.number == 3
    assert str(caught.value) == "Move 3 (b1,0) is illegal: cell 1,0 already holds a tile"
    assert not caught.value.unreadable
    with pytest.raises(ReplayError, match=r"^Move 2 \(zz\) cannot be read: a Vasco move") as caught:
        VASCO.replay(VASCO.parse_options([]), ["a0,0", "zz"])
    assert caught.value.unreadable


def test_games_registry() -> None:
    assert GAMES["vasco"] is get_game("VASCO")
    with pytest.raises(KeyError, match="pbem hosts: vasco"):
        get_game("chess")


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.text(max_size=20) | st.from_regex(r"-[a-z]{1,8}(=[0-9]{1,6000})?"), max_size=3))
def test_any_option_words_parse_or_give_an_option_error(words: list[str]) -> None:
    try:
        options = VASCO.parse_options(words)
    except OptionError as error:
        assert str(error)
    else:
        assert VASCO.parse_options(options.args()) == options
