"""The contract every game meets, and the types the server and doors share.

A game is a set of rules with no I/O: it parses options, starts a state, and
each state knows whose turn it is, which moves are legal, how to read and write
move text, how to play a move (returning a new state) and how to draw itself.
A board's record is its game, options and canonical move texts; replaying the
record rebuilds the state, which is how the server stores, undoes and steps
through games.
"""

from __future__ import annotations

import random
import re
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar, runtime_checkable


class MoveError(ValueError):
    """A move a player sent cannot be played; `reason` is meant for people."""

    def __init__(self, text: str, reason: str) -> None:
        super().__init__(f"{text}: {reason}" if text else reason)
        self.text = text
        self.reason = reason


class MoveSyntaxError(MoveError):
    """The move text cannot be read at all; the reason shows the expected form."""


class IllegalMove(MoveError):
    """The move is readable but the rules forbid it; the reason says which rule."""


class OptionError(ValueError):
    """A game option (`-size=N`, `-strict`) is unknown or out of range."""


class ReplayError(ValueError):
    """A move of a record failed while replaying it (1-based `number`);
    `unreadable` tells text that is no move from a move the rules forbid."""

    def __init__(self, number: int, text: str, reason: str, unreadable: bool = False) -> None:
        what = "cannot be read" if unreadable else "is illegal"
        super().__init__(f"Move {number} ({text}) {what}: {reason}")
        self.number = number
        self.text = text
        self.reason = reason
        self.unreadable = unreadable


@dataclass(frozen=True)
class Side:
    """One seat at the table: its name in prose and its letter on text boards."""

    name: str
    letter: str
    colour: str


@dataclass(frozen=True)
class Result:
    """How a game ended: `winner` is a player index, or None for a draw."""

    winner: int | None
    reason: str
    scores: tuple[float, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"winner": self.winner, "reason": self.reason}
        if self.scores is not None:
            data["scores"] = list(self.scores)
        return data


@dataclass(frozen=True)
class MoveButton:
    """A move made by a button rather than a click on the board: its label,
    the move text it writes, and a hint saying what it does. With `field`
    (the least and greatest value) the player adds a whole number to
    `move`: Vacu's komi step, `komi6`."""

    label: str
    move: str
    hint: str
    field: tuple[int, int] | None = None
    field_label: str = ""  # what the number is ("Komi for White")


@dataclass(frozen=True)
class Choice:
    """One legal move at a place, for a picker: the move's text, a short
    label, a description for screen readers, and a small SVG picture."""

    move: str
    label: str
    description: str
    picture: str


_CELL_PLACE = re.compile(r"\s*([+-]?\d{1,9})\s*,\s*([+-]?\d{1,9})\s*")


def read_cell(place: str) -> tuple[int, int]:
    """A `data-choices` place written col,row (Vasco's and Trugo's cells);
    MoveSyntaxError for anything else."""
    match = _CELL_PLACE.fullmatch(place)
    if not match:
        raise MoveSyntaxError(place, "a cell is written col,row, like 1,-2")
    return int(match.group(1)), int(match.group(2))


@dataclass(frozen=True)
class MoveRecord:
    """One move of a record as played: who, the canonical text, and a note
    for people (auto tiles placed, a lost turn) that replay does not need."""

    player: int
    text: str
    note: str = ""


@dataclass(frozen=True)
class OptionSpec:
    """A game option. Its kind follows its default: bool is a flag (`-strict`),
    int takes a value (`-size=54`) between `minimum` and `maximum`, and None
    takes a value too but is off unless given (`-komi=6`); `example` shows
    the form in errors."""

    name: str
    default: bool | int | None
    help: str
    minimum: int | None = None
    maximum: int | None = None
    example: int | None = None

    def parse(self, value: str | None) -> bool | int:
        if isinstance(self.default, bool):
            if value is not None:
                raise OptionError(f"Option -{self.name} takes no value: write -{self.name}.")
            return True
        if value is None or not re.fullmatch(r"[+-]?\d{1,9}", value.strip()):
            raise OptionError(
                f"Option -{self.name} needs a whole number, like "
                f"-{self.name}={self.default if self.example is None else self.example}."
            )
        number = int(value)
        if self.minimum is not None and number < self.minimum:
            raise OptionError(
                f"Option -{self.name}={number} is too small: the least is {self.minimum}."
            )
        if self.maximum is not None and number > self.maximum:
            raise OptionError(
                f"Option -{self.name}={number} is too large: the most is {self.maximum}."
            )
        return number


def is_option(word: str) -> bool:
    """`-size=40` is an option word; `-1,0e-0,0w` (a cell with a negative
    column) is a move."""
    return re.match(r"--?[A-Za-z_]", word) is not None


class Options(Mapping[str, Any]):
    """Parsed game options: every option present, defaults filled in."""

    def __init__(self, specs: Sequence[OptionSpec], values: Mapping[str, Any]) -> None:
        self._specs = tuple(specs)
        self._values = {spec.name: values.get(spec.name, spec.default) for spec in specs}

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Options) and self._values == other._values

    def __hash__(self) -> int:
        return hash(tuple(self._values.items()))

    def __repr__(self) -> str:
        return f"Options({self._values!r})"

    def to_json(self) -> dict[str, Any]:
        return dict(self._values)

    def args(self) -> list[str]:
        """The canonical option words for the non-default values (`-size=40`)."""
        words = []
        for spec in self._specs:
            value = self._values[spec.name]
            if value == spec.default:
                continue
            words.append(f"-{spec.name}" if isinstance(value, bool) else f"-{spec.name}={value}")
        return words


MoveT = TypeVar("MoveT")


# -- search positions: what the AI searches over ---------------------------------


@dataclass(frozen=True, slots=True)
class Playout:
    """How one random game from a search position went.

    `score` is player 0's share of the game: 1.0 a win, 0.0 a loss, 0.5 a
    draw; a playout cut off before the end (`capped`) scores the game's
    estimate of the position it stopped in (0.5 when it has none) and has no
    winner. `turns` counts the turns played, `placed` the pieces put on the
    board (tiles, or stones), auto moves included."""

    score: float
    winner: int | None
    turns: int
    placed: int
    capped: bool = False


def score_of(winner: int | None) -> float:
    """Player 0's share of a finished game with this winner (None: a draw)."""
    return 0.5 if winner is None else 1.0 - winner


class SearchPosition(Protocol):
    """A mutable position for search: the rules again, fast and in place.

    Each game implements it beside its clean `State` (`State.search_position`)
    and tests it against that state on random games: the same legal moves
    (`move_text` gives each one's canonical text), the same player to move
    and the same result after the same moves. Moves are small hashable
    values (ints, or tuples of ints) that mean something only to the position
    that listed them and to copies of it. Where a clean move has countless
    forms (Vacu's komi step), a position may offer a documented subset.
    """

    @property
    def to_move(self) -> int | None:
        """The player to move, None once the game is over."""

    @property
    def winner(self) -> int | None:
        """Once the game is over, the winner; None for a draw (and while in play)."""

    def copy(self) -> Self:
        """An independent position equal to this one."""

    def legal_moves(self) -> list[Hashable]:
        """Every legal move of the player to move; empty once the game is over."""

    def random_move(self, rng: random.Random) -> Hashable:
        """One legal move, each with the same chance (the game is not over)."""

    def play(self, move: Hashable) -> None:
        """Apply a legal move in place (an illegal one is not checked)."""

    def move_text(self, move: Hashable) -> str:
        """The canonical text of a legal move here, as `State.move_text` writes it."""

    def may_win(self, move: Hashable) -> bool:
        """Whether a legal `move` might end the game at once with the mover
        winning: False only when it certainly does not. A cheap filter for
        the search's win-in-one check, which plays only these (True for
        every move where the game has no cheap test)."""

    def play_out(self, rng: random.Random, record: list[Any] | None = None) -> Playout:
        """Play on with uniformly random legal moves until the game ends or
        the game's cap of turns; the game's fastest loop, which must agree
        with `random_move` and `play`. The position is used up (in place,
        or left as it was by a compiled loop): copy it first to keep it.
        `record`, if given, receives every move played, in order, as
        `legal_moves` lists them; the players alternate, the player to move
        first (save in Vacu's komi and colour steps, where the second
        player's colour choice may give the first move to either)."""


def random_game(position: SearchPosition, rng: random.Random, cap: int) -> Playout:
    """The slow, obviously correct twin of `play_out`: `random_move` and
    `play` in turn, in place, until the game ends or `cap` turns (it counts
    no pieces: `placed` is 0)."""
    turns = 0
    while position.to_move is not None and turns < cap:
        position.play(position.random_move(rng))
        turns += 1
    if position.to_move is not None:
        return Playout(0.5, None, turns, 0, capped=True)
    return Playout(score_of(position.winner), position.winner, turns, 0)


# -- a game's compiled search tree, behind the search position -------------------


@dataclass(frozen=True, slots=True)
class TreeNode:
    """One node of a compiled search tree, as the search reads it back: the
    move that reached it (as `legal_moves` lists it; None at the root), the
    player to move there (None once the game is over there, and before the
    search first walks to it), how many iterations went through it, the sum
    of player 0's shares over them (each a `Playout.score` or a proven
    result), and player 0's exact share once it is proven (else None)."""

    move: Hashable | None
    to_move: int | None
    visits: int
    value: float
    solved: float | None


class CompiledTree(Protocol):
    """A game's own search tree, compiled: the AI's RAVE search (docs/ai.md,
    "The search"; `pbem.ai.mcts` is its Python reference) grown over arrays
    by the game's compiled code. It is that search exactly, not a
    look-alike: each iteration walks, lists a position's moves (in
    `legal_moves`' order), tries them for a win in one, plays out, counts
    AMAF and proves as the Python tree does, each random game seeded from
    `seeds` in order where the Python tree draws a seed from its generator,
    so that from the same seeds both grow the same tree, visit for visit.

    The AI drives it (`pbem.ai.vacu_tree`): it chooses how many iterations
    each call runs and when the arrays grow, and ranks the root's moves
    itself. The arrays hold `capacity` nodes; an iteration adds the moves
    of at most one position."""

    @property
    def nodes(self) -> int:
        """The nodes the tree holds (the root is one)."""

    @property
    def capacity(self) -> int:
        """The nodes its arrays have room for."""

    def solved(self) -> bool:
        """Whether the root is proven (the search ends there)."""

    def has_room(self, n: int) -> bool:
        """Whether `n` more iterations surely fit in the arrays."""

    def grow(self, n: int, projected: int = 0) -> None:
        """Make room for `n` more iterations, and for `projected` nodes in
        all if that is more (copying the arrays: the cost grows with them)."""

    def iterate(self, n: int, seeds: Sequence[int]) -> tuple[int, int]:
        """Run up to `n` iterations (fewer once the root is proven; the
        arrays must have room for them), the random games seeded from
        `seeds` (64-bit ints, in order, at most one an iteration): how
        many iterations ran, and how many seeds they used."""

    def root(self) -> TreeNode:
        """The root's counts."""

    def children(self) -> list[TreeNode]:
        """The root's moves with their counts, as listed (none before the
        first iteration)."""


@runtime_checkable
class CompiledTreePosition(SearchPosition, Protocol):
    """A search position whose game keeps a compiled search tree: Vacu's
    and Convacu's, when their random games run compiled. The AI reaches
    the tree only through `compiled_tree`."""

    def compiled_tree(
        self,
        *,
        exploration: float,
        rave: float,
        first_play: float,
        solver: bool,
        decisive: bool,
        betas: Sequence[float],
        shrink: Sequence[float],
    ) -> CompiledTree | None:
        """A new compiled tree rooted at this position (left unchanged) for a
        RAVE search with these settings (as docs/ai.md gives them: UCB1's
        `exploration`, RAVE's equivalence visits `rave`, the value of a
        move nothing is known of `first_play`, whether to prove wins and
        losses and to try each listed move for a win in one), or None where
        the game keeps no tree for this position (Vacu: the komi and colour
        steps). `betas[n]` is the AMAF mean's weight after `n` visits of a
        move, `sqrt(rave / (3 n + rave))`, and `shrink[n]` the exploration
        bonus's factor, `1 / sqrt(n + 1)`, for `n` below their length (the
        formulas beyond it; float64 arrays are taken as they are): the
        numbers the Python tree uses, so both choose alike."""


class State(ABC, Generic[MoveT]):
    """A position of one game, immutable from outside: `play` returns a new one."""

    game: Game
    options: Options
    # Whether text_board draws the board differently for each viewer (a game
    # with hidden information would); when not, one drawing serves everyone.
    boards_differ_by_viewer: ClassVar[bool] = False

    # Each game's state sets these three when it is made.
    _to_move: int | None
    _result: Result | None
    _history: tuple[MoveRecord, ...]
    _over_by: str | None = None  # how a game ended off the board (`ended`)

    @property
    def to_move(self) -> int | None:
        """The index of the player to move, None once the game is over."""
        return self._to_move

    @property
    def result(self) -> Result | None:
        """The result once the game is over, else None."""
        return self._result

    @property
    def history(self) -> tuple[MoveRecord, ...]:
        """Every move played so far, in order."""
        return self._history

    @property
    def moves(self) -> tuple[str, ...]:
        """The record: canonical move texts, one per move."""
        return tuple(record.text for record in self.history)

    @abstractmethod
    def legal_moves(self) -> list[MoveT]:
        """Every legal move for the player to move (empty when the game is over)."""

    @abstractmethod
    def parse_move(self, text: str) -> MoveT:
        """Read a move in any documented notation; raise MoveSyntaxError or
        IllegalMove (for notations that only make sense on this board)."""

    @abstractmethod
    def move_text(self, move: MoveT) -> str:
        """The canonical text of a move."""

    @abstractmethod
    def play(self, move: MoveT) -> State[MoveT]:
        """The state after the move; raise IllegalMove with a reason for people."""

    def play_text(self, text: str) -> State[MoveT]:
        return self.play(self.parse_move(text))

    @abstractmethod
    def search_position(self) -> SearchPosition:
        """This position as a fast, mutable search position (see
        `SearchPosition`), for the AI; the game must not be over."""

    @abstractmethod
    def text_board(self, viewer: int | None = None) -> str:
        """The board as text for a mail, drawn for `viewer` (a player index)."""

    @abstractmethod
    def svg_board(self) -> str:
        """The board as a standalone SVG document."""

    @abstractmethod
    def position(self) -> dict[str, Any]:
        """The game-specific part of the JSON form (documented per game)."""

    # -- entering a move by clicking (the web page asks; games answer) --------
    #
    # The SVG board marks what a click may do: an element with `data-move`
    # is that move; one with `data-choices` has choices at the place it
    # names (`choices`); one with `data-place` is a place pieces stand on
    # and move to (`movable`, `destinations`). Games without such things
    # keep these defaults.

    def move_buttons(self) -> list[MoveButton]:
        """The legal moves of the player to move that are no click on the
        board (a pass, Vacu's button and komi step)."""
        return []

    def choices(self, place: str) -> list[Choice]:
        """The legal moves at a `data-choices` place, pictured (Vasco's
        orientations, Trugo's rotations). MoveSyntaxError for a place that
        cannot be read."""
        raise MoveSyntaxError(place, f"{self.game.title} has no choices to make at a place")

    def movable(self) -> list[str]:
        """The `data-place` names whose piece the player to move can move."""
        return []

    def destinations(self, start: str) -> dict[str, list[str]]:
        """Where the piece at place `start` can go: each destination's
        `data-place` name and the move texts that end there (empty when it
        cannot move). MoveSyntaxError for a name that cannot be read."""
        raise MoveSyntaxError(start, f"{self.game.title} has no pieces that move")

    def side_text(self, player: int) -> str:
        """How boards name a player's side: 'Red (O)'."""
        side = self.game.sides[player]
        return f"{side.name} ({side.letter})"

    def sgf(self, names: Sequence[str]) -> str | None:
        """The record as SGF, for the Go-like games Go programs can read
        (`names`: the players by seat); None for a game SGF cannot hold."""
        return None

    def ended(self, reason: str, winner: int | None) -> State[MoveT]:
        """This position with the game ended off the board (a resignation,
        an agreed draw, a forfeit; `reason` says how, in a sentence): no one
        to move, no legal move, and every drawing and status line says it is
        over. For showing a finished board; the record is unchanged."""
        over = object.__new__(type(self))
        kind = type(self)
        over.__dict__.update(
            (name, value)
            for name, value in self.__dict__.items()
            if not isinstance(getattr(kind, name, None), cached_property)
        )  # what was worked out for the position in play is worked out again
        over._to_move = None
        over._result = Result(winner, reason)
        over._over_by = reason
        return over

    def status_line(self) -> str:
        """One line saying whose turn it is or how the game ended."""
        if self._over_by is not None:
            return f"Game over: {self._over_by}."
        if self.result is not None:
            result = self.result
            if result.winner is None:
                return f"Game over: a draw ({result.reason})."
            return f"Game over: {self.side_text(result.winner)} wins: {result.reason}."
        assert self.to_move is not None
        return f"Move {len(self.history) + 1}: {self.side_text(self.to_move)} to move."

    def last_move_line(self) -> str | None:
        """'Last move: <text> by <side> (<note>).', or None before the first move."""
        if not self.history:
            return None
        record = self.history[-1]
        note = f" ({record.note})" if record.note else ""
        return f"Last move: {record.text} by {self.side_text(record.player)}{note}."

    def to_json(self, *, legal_moves: bool = True) -> dict[str, Any]:
        """The common JSON form every game shares (see the CLI contract);
        without `legal_moves`, the form less that list (which can cost more
        to work out than the rest)."""
        data: dict[str, Any] = {
            "game": self.game.name,
            "options": self.options.to_json(),
            "moves": list(self.moves),
            "to_move": self.to_move,
            "result": None if self.result is None else self.result.to_json(),
        }
        if legal_moves:
            data["legal_moves"] = sorted(self.move_text(move) for move in self.legal_moves())
        data["position"] = self.position()
        return data


class Game(ABC):
    """The rules of one game: its name, seats, options, and how to start."""

    name: ClassVar[str]
    title: ClassVar[str]
    summary: ClassVar[str]  # the game in one sentence, for lists and cards
    picture_moves: ClassVar[int] = 14  # how far into a game its sample picture is
    sides: ClassVar[tuple[Side, ...]]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    can_pass: ClassVar[bool] = False
    can_undo: ClassVar[bool] = True
    # The move the `swap` command plays (the pie-like step), None without one.
    swap_move: ClassVar[str | None] = None
    rules_file: ClassVar[str] = ""  # docs/rules/<this>; empty: <name>.md
    has_sgf: ClassVar[bool] = False  # its states write SGF records (`State.sgf`)

    @property
    def rules_document(self) -> str:
        """The file name of the game's rules under docs/rules."""
        return self.rules_file or f"{self.name}.md"

    @property
    def players(self) -> int:
        return len(self.sides)

    def parse_options(self, words: Iterable[str] = ()) -> Options:
        """Read option words like `-size=40` and `-strict` into Options."""
        specs = {spec.name: spec for spec in self.option_specs}
        values: dict[str, Any] = {}
        for word in words:
            match = re.fullmatch(r"--?([A-Za-z_][\w-]*)(?:=(.*))?", word.strip())
            known = ", ".join(f"-{name}" for name in specs) or "none"
            if not match:
                raise OptionError(
                    f"Cannot read option {word!r}: options look like -size=40. "
                    f"{self.title} options: {known}."
                )
            name = match.group(1).lower().replace("-", "_")
            if name not in specs:
                raise OptionError(
                    f"Unknown option -{name} for {self.title}; its options are: {known}."
                )
            values[name] = specs[name].parse(match.group(2))
        options = Options(self.option_specs, values)
        self.check_options(options)
        return options

    def check_options(self, options: Options) -> None:  # noqa: B027 (a hook; most games need none)
        """Raise OptionError when options that are fine alone clash together."""

    def options(self, **values: Any) -> Options:
        """Options from keyword values (for code and tests), validated."""
        words = []
        for name, value in values.items():
            if isinstance(value, bool):
                if value:
                    words.append(f"-{name}")
            else:
                words.append(f"-{name}={value}")
        return self.parse_options(words)

    @abstractmethod
    def new_state(self, options: Options) -> State[Any]:
        """The opening position."""

    def start(self, words: Iterable[str] = ()) -> State[Any]:
        return self.new_state(self.parse_options(words))

    def replay(self, options: Options, moves: Iterable[str]) -> State[Any]:
        """Rebuild a state from a record; a failing move raises ReplayError."""
        state = self.new_state(options)
        for number, text in enumerate(moves, start=1):
            try:
                state = state.play_text(text)
            except MoveError as error:
                unreadable = isinstance(error, MoveSyntaxError)
                raise ReplayError(number, text, error.reason, unreadable) from error
        return state
