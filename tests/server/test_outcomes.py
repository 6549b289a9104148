"""A finished board's ending as the lists say it: the winner by userid,
then how, for every way a board ends (server/views/outcomes.py)."""

from __future__ import annotations

import pytest

from pbem.server.views.outcomes import outcome
from pbem.store import Ending

ANN_BOB = ("ann", "bob")


@pytest.mark.parametrize(
    ("game", "winner", "ending", "result", "said"),
    [
        ("vasco", 1, Ending.RULES, "X (blue) closed a loop of 6 tiles",
         "bob won: closed a loop of 6 tiles"),
        ("vasco", 0, Ending.RULES, "O (red) closed a loop of 7 tiles",
         "ann won: closed a loop of 7 tiles"),
        # a side that opens the sentence and is not the winner's: named
        ("trugo", 0, Ending.RULES,
         "Blue (X) has no piece left on the board in the Waning phase",
         "ann won: bob has no piece left on the board in the Waning phase"),
        ("trugo", 1, Ending.RULES, "Blue (X) took the last pieces off the board",
         "bob won: took the last pieces off the board"),
        # Vacu's colours are chosen in play: its words stay as they are
        ("vacu", 1, Ending.RULES, "Black (X) joined the top and bottom edges; the score was 1",
         "bob won: Black (X) joined the top and bottom edges; the score was 1"),
        ("vasco", None, Ending.RULES, "both colours closed loops; the longest of each is 6 tiles",
         "Drawn: both colours closed loops; the longest of each is 6 tiles"),
        ("vasco", 1, Ending.RESIGNATION, "ann resigned; bob wins", "bob won: ann resigned"),
        ("vasco", 0, Ending.FORFEIT, "bob forfeited: no move in 21 days; ann wins",
         "ann won: bob forfeited (no move in 21 days)"),
        ("vasco", 0, Ending.OUT_OF_TIME, "bob ran out of time (3 days in all); ann wins",
         "ann won: bob ran out of time (3 days in all)"),
        ("vasco", None, Ending.AGREED_DRAW, "drawn by agreement", "Drawn by agreement"),
        ("vasco", None, Ending.STANDING_DRAW,
         "drawn: the proposal stood unanswered until the forfeit time",
         "Drawn: the proposal stood unanswered until the forfeit time"),
        ("vasco", None, Ending.DECLINED, "bob declined the challenge; not rated",
         "Declined: bob declined the challenge; not rated"),
        ("vasco", None, Ending.UNANSWERED, "bob never answered the challenge in time; not rated",
         "Not started: bob never answered the challenge in time; not rated"),
    ],
)  # fmt: skip
def test_the_winner_comes_first_then_how(
    game: str, winner: int | None, ending: Ending, result: str, said: str
) -> None:
    assert outcome(game, ANN_BOB, winner, ending, result) == said
