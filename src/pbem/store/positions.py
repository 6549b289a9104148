"""Game states by record, shared by every command and page of this process.

A board's record (its game, options and canonical moves) rebuilds its state
exactly, but a replay of a long record costs milliseconds, and nearly every
request wants a board's latest position, or, for a move, the one before it.
States are immutable, so the latest are kept here by record, the least
recently used dropped: a board looked at again costs nothing, and a record
one move past a kept one costs one `play`, whichever process made that move.
Any process may drop these at any time; the database's record is the truth.

A state's drawings (text boards, SVG) are kept with it too: a position is
drawn once however many mails and pages show it.
"""

from __future__ import annotations

import json
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..games import get_game
from ..games.base import Options, State

MAX_STATES = 2048


class Positions:
    """The cache: (game, options, moves) -> State, least recently used dropped."""

    def __init__(self, size: int = MAX_STATES) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._states: OrderedDict[tuple[str, str, tuple[str, ...]], State[Any]] = OrderedDict()
        self._options: dict[tuple[str, str], Options] = {}

    def options(self, game: str, values: Mapping[str, Any]) -> Options:
        """The game's options as stored on a board (their JSON form)."""
        key = (game, json.dumps(values, sort_keys=True))
        found = self._options.get(key)
        if found is None:
            found = get_game(game).parse_options(
                f"-{name}" if value is True else f"-{name}={value}"
                for name, value in values.items()
                if value is not None and value is not False
            )
            with self._lock:
                if len(self._options) > 1000:
                    self._options.clear()
                self._options[key] = found
        return found

    def state(self, game: str, values: Mapping[str, Any], moves: Sequence[str]) -> State[Any]:
        """The state after `moves` (canonical texts) with these options."""
        options_key = json.dumps(values, sort_keys=True)
        key = (game, options_key, tuple(moves))
        with self._lock:
            found = self._states.get(key)
            if found is not None:
                self._states.move_to_end(key)
                return found
            before = self._states.get((game, options_key, key[2][:-1])) if key[2] else None
        if before is not None:
            state = before.play_text(key[2][-1])
        else:
            state = get_game(game).replay(self.options(game, values), key[2])
        self.keep(game, values, state)
        return state

    def keep(self, game: str, values: Mapping[str, Any], state: State[Any]) -> None:
        """Remember a state reached by play (a move just made)."""
        key = (game, json.dumps(values, sort_keys=True), tuple(state.moves))
        with self._lock:
            self._states[key] = state
            self._states.move_to_end(key)
            while len(self._states) > self.size:
                self._states.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._states.clear()
            self._options.clear()


POSITIONS = Positions()

_drawings: weakref.WeakKeyDictionary[State[Any], dict[object, str]] = weakref.WeakKeyDictionary()
_drawings_lock = threading.Lock()


def drawn(state: State[Any], key: object, draw: Callable[[], str]) -> str:
    """`draw()`, worked out once per state and key (a drawing, or anything
    else as dear to work out that only the position decides)."""
    with _drawings_lock:
        found = _drawings.get(state, {}).get(key)
    if found is None:
        found = draw()
        with _drawings_lock:
            _drawings.setdefault(state, {})[key] = found
    return found


def text_board(state: State[Any], viewer: int | None = None) -> str:
    """`state.text_board(viewer)`, drawn once per state (and viewer, in a
    game whose boards differ by viewer)."""
    seen_by = viewer if state.boards_differ_by_viewer else None
    return drawn(state, ("text", seen_by), lambda: state.text_board(viewer))


def svg_board(state: State[Any]) -> str:
    """`state.svg_board()`, drawn once per state."""
    return drawn(state, "svg", state.svg_board)
