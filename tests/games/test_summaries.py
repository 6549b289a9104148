"""Each game's one-line summary (the home page's cards, `help`) says how the
game is won as the rules and RULINGS.md do: the home page once said Vasco's
longest path wins, where its owner loses."""

from __future__ import annotations

import pytest

from pbem.games import get_game

# What the summary must say, and what it must not (lower case).
CLAIMS = {
    "vasco": (("close a loop", "longer path loses"), ("longest path wins", "longer path wins")),
    "trugo": (("last of your opponent's pieces to win", "capture"), ()),
    "vacu": (("territory", "last enemy group", "komi", "button"), ()),
    "convacu": (("joining your edges wins", "black top and bottom", "scored as vacu"), ()),
}


@pytest.mark.parametrize("name", sorted(CLAIMS))
def test_the_summary_says_how_the_game_is_won(name: str) -> None:
    summary = get_game(name).summary.lower()
    said, unsaid = CLAIMS[name]
    for words in said:
        assert words in summary, f"{name}'s summary does not say {words!r}: {summary!r}"
    for words in unsaid:
        assert words not in summary, f"{name}'s summary says {words!r}: {summary!r}"
