"""How a finished board ended, in the words a list gives it: who won, by
userid, and how ("easybot won: closed a loop of 6 tiles", "bob won: ann
resigned", "Drawn by agreement", "Declined: bob declined the challenge;
not rated"). A reader of a list need not know which colour a player had.

The rules' own words name sides ("X (blue) closed a loop of 6 tiles"): a
side that opens the sentence is the winner's, dropped, or another
player's, named by userid. Only games whose sides are fixed by seat are
read so (in Vacu the players choose their colours, and a list does not
replay the board to learn who chose which)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from ...games import GAMES, get_game
from ...store import Ending

# A side as the rules' sentences name it: "X (blue)", "White (O)".
_SIDE = re.compile(r"^(\w+) \((\w+)\) ")
_NOT_STARTED = {
    Ending.DECLINED: "Declined",
    Ending.UNANSWERED: "Not started",
}


@cache
def _fixed_sides(game_name: str) -> tuple[frozenset[str], ...] | None:
    """The words naming each seat's side (name, letter, colour), or None
    when the sides are not fixed by seat (chosen during the game)."""
    if game_name not in GAMES:
        return None
    game = get_game(game_name)
    state = game.new_state(game.parse_options())
    words = []
    for seat, side in enumerate(game.sides):
        if state.side_text(seat) != f"{side.name} ({side.letter})":
            return None  # (the game names its sides its own way: chosen in play)
        words.append(frozenset(word.lower() for word in (side.name, side.letter, side.colour)))
    return tuple(words)


def _named(game: str, reason: str, players: Sequence[str], winner: int) -> str:
    """The rules' sentence with a side that opens it named by its player
    (the winner's own: dropped)."""
    sides = _fixed_sides(game)
    found = _SIDE.match(reason)
    if sides is None or found is None:
        return reason
    said = {found.group(1).lower(), found.group(2).lower()}
    for seat, words in enumerate(sides):
        if said <= words and seat < len(players):
            rest = reason[found.end() :]
            return rest if seat == winner else f"{players[seat]} {rest}"
    return reason


def outcome(
    game: str,
    players: Sequence[str],
    winner: int | None,
    ending: Ending | None,
    result: str | None,
) -> str:
    """A finished board's ending in a phrase (no full stop)."""
    reason = (result or "").strip().rstrip(".")
    if ending in _NOT_STARTED:
        return f"{_NOT_STARTED[ending]}: {reason}" if reason else _NOT_STARTED[ending]
    if winner is None or not 0 <= winner < len(players):
        if not reason:
            return "Drawn"
        if reason.lower().startswith("drawn"):
            return reason[:1].upper() + reason[1:]
        return f"Drawn: {reason}"
    name = players[winner]
    if ending is Ending.RULES or ending is None:
        reason = _named(game, reason, players, winner)
    else:  # the server's endings end with who wins ("ann resigned; bob wins")
        reason = reason.removesuffix(f"; {name} wins")
        head, colon, tail = reason.partition(": ")
        if colon:  # "ann forfeited: no move in 7 days"
            reason = f"{head} ({tail})"
    return f"{name} won: {reason}" if reason else f"{name} won"
