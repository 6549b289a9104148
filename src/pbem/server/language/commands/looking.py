"""The commands that look and change nothing: show, showas, preview,
games, standings, history, help, list and all show."""

from __future__ import annotations

from dataclasses import dataclass

from ....games.base import Game, is_option
from ...errors import CommandError
from ..help_subjects import HELP_SUBJECTS
from ..words import (
    MAX_TARGETS,
    AccountVerb,
    GameVerb,
    board_and_move,
    declares,
    game_named,
    usage,
)
from .base import Command, OfGame, with_number
from .challenges import OpenChallenges


def read_show(game: Game, words: list[str], body: str) -> Command:
    """`show BOARD[#N] ...` (pbmserv's `show board 101` too), or `show
    USERID ... [all|active|inactive|next]`."""
    form = (
        f"{game.name} show BOARD[#N] ..., or {game.name} show USERID ... [all|active|inactive|next]"
    )
    if words and words[0].lower() == "board":
        words = words[1:]
    if not words:
        raise CommandError(f"Write this command as: {form}")
    if not words[0].partition("#")[0].isdigit():
        return read_show_players(game, words, body)
    usage(form, words, 1, MAX_TARGETS)
    (board, at), *also = [board_and_move(word, form) for word in words]
    return Show(game=game.name, board=board, at=at, also=tuple(also), comment=body)


def selected(words: list[str]) -> tuple[list[str], str | None]:
    """The words before a trailing selector (all, active, inactive, next),
    and the selector (None: there is none)."""
    if words and words[-1].lower() in SHOW_SELECTORS:
        return words[:-1], words[-1].lower()
    return words, None


def read_showas(game: Game, words: list[str], body: str) -> Show | ShowPlayers:
    """`showas BOARD[#N] USERID`, or pbmserv's `showas USERID PASSWORD
    BOARD[#N] ...`."""
    form = (
        f"{game.name} showas BOARD[#N] USERID, or {game.name} showas USERID PASSWORD "
        "BOARD ...|all|active|inactive|next"
    )
    if len(words) == 3 and words[2].lower() in SHOW_SELECTORS:
        return ShowPlayers(
            game=game.name,
            players=(words[0],),
            selector=words[2].lower(),
            password=words[1],
            comment=body,
        )
    if len(words) >= 3 and not words[0].partition("#")[0].isdigit():
        usage(form, words, 3, MAX_TARGETS + 2)
        (board, at), *also = [board_and_move(word, form) for word in words[2:]]
        return Show(
            game=game.name, board=board, at=at, also=tuple(also), player=words[0],
            password=words[1], comment=body,
        )  # fmt: skip
    usage(form, words, 2)
    board, at = board_and_move(words[0], form)
    return Show(game=game.name, board=board, at=at, player=words[1], comment=body)


@declares(
    GameVerb(
        "show",
        ("show BOARD[#N] ...", "show USERID ... [all|active|inactive|next]"),
        "the boards (as they were after move N); or the boards of any of those "
        "players (next: those awaiting their move)",
        read=read_show,
    ),
    GameVerb(
        "showas",
        (
            "showas BOARD[#N] USERID",
            "showas USERID PASSWORD BOARD[#N] ...|all|active|inactive|next",
        ),
        "the board as that player sees it",
        read=read_showas,
    ),
)
@dataclass(frozen=True, kw_only=True)
class Show(OfGame):
    """A board as it is, or (`at`) as it was after that move, and `also`
    more boards (each with its move or None), a mail each; `player` draws
    them as that player sees them (`showas`), proven by `password` in
    pbmserv's form (`showas USERID PASSWORD BOARD ...`)."""

    board: int
    at: int | None = None
    also: tuple[tuple[int, int | None], ...] = ()
    player: str | None = None
    password: str | None = None

    def text(self) -> str:
        where = " ".join(
            with_number(str(board), at) for board, at in ((self.board, self.at), *self.also)
        )
        if self.player is None:
            return f"{self.game} show {where}"
        if self.password is not None:
            return f"{self.game} showas {self.player} PASSWORD {where}"
        return f"{self.game} showas {where} {self.player}"


SHOW_SELECTORS = ("all", "active", "inactive", "next")


def read_show_players(game: Game, words: list[str], body: str) -> ShowPlayers:
    words, selector = selected(words)
    if not words or len(words) > 4:
        raise CommandError(
            f"Name one to four players: {game.name} show USERID ... [{'|'.join(SHOW_SELECTORS)}]"
        )
    return ShowPlayers(
        game=game.name, players=tuple(words), selector=selector or "active", comment=body
    )


@dataclass(frozen=True, kw_only=True)
class ShowPlayers(OfGame):
    """The boards of any of the `players`, chosen by `selector` (one of
    SHOW_SELECTORS; `next`: those awaiting their move)."""

    players: tuple[str, ...]
    selector: str = "active"
    password: str | None = None  # pbmserv's `showas USERID PASSWORD SELECTOR`

    def text(self) -> str:
        if self.password is not None:
            return " ".join([self.game, "showas", *self.players, "PASSWORD", self.selector])
        return " ".join([self.game, "show", *self.players, self.selector])


def read_preview(game: Game, words: list[str], body: str) -> Preview:
    """`preview BOARD[#N] MOVE ...`, or `preview new PLAYERS [-OPTION ...] MOVE ...`."""
    form = f"{game.name} preview BOARD[#N] MOVE ... or {game.name} preview new PLAYERS MOVE ..."
    if len(words) < 2:
        raise CommandError(f"Write this command as: {form}")
    if words[0].lower() == "new":
        if words[1] != str(game.players):
            raise CommandError(
                f"{game.title} is played by {game.players}: write {game.name} preview new "
                f"{game.players} [-OPTION ...] MOVE ..."
            )
        return Preview(
            game=game.name,
            board=None,
            options=tuple(word for word in words[2:] if is_option(word)),
            moves=tuple(word for word in words[2:] if not is_option(word)),
            comment=body,
        )
    board, at = board_and_move(words[0], form)
    return Preview(game=game.name, board=board, at=at, moves=tuple(words[1:]), comment=body)


@declares(
    GameVerb(
        "preview",
        ("preview BOARD[#N] MOVE ...", "preview new PLAYERS MOVE ..."),
        "what the moves would do; nothing is stored (new: on a new board)",
        shortest=4,
        read=read_preview,
    ),
)
@dataclass(frozen=True, kw_only=True)
class Preview(OfGame):
    """What `moves` would do on a board (as it is, or after move `at`), or
    with no `board` on a new one with `options`; nothing is stored."""

    board: int | None
    moves: tuple[str, ...]
    at: int | None = None
    options: tuple[str, ...] = ()

    def text(self) -> str:
        if self.board is None:
            return " ".join([self.game, "preview", "new", "PLAYERS", *self.options, *self.moves])
        return " ".join([self.game, "preview", with_number(str(self.board), self.at), *self.moves])


def read_games(game: Game, words: list[str], body: str) -> Games | OpenChallenges:
    """`games [USERID ...] [all|active|inactive|next]`; `games open`, the
    open challenges (a player called open: `games open all`)."""
    if [word.lower() for word in words] == ["open"]:
        return OpenChallenges(game=game.name, comment=body)
    words, selector = selected(words)
    usage(f"{game.name} games [USERID ...] [all|active|inactive|next]", words, 0, 4)
    return Games(game=game.name, players=tuple(words), selector=selector or "all", comment=body)


@declares(
    GameVerb(
        "games",
        ("games [USERID ...] [all|active|inactive|next]", "games open"),
        "the boards of any of those players, or of the game (next: those awaiting them, or you); "
        "open: the open challenges",
        read=read_games,
    ),
)
@dataclass(frozen=True, kw_only=True)
class Games(OfGame):
    """The boards of the game, of any of the `players` (none named: every
    board), chosen by `selector` (SHOW_SELECTORS; `next` with no player:
    those awaiting the sender)."""

    players: tuple[str, ...] = ()
    selector: str = "all"

    def text(self) -> str:
        words = [self.game, "games", *self.players]
        return " ".join(words if self.selector == "all" else [*words, self.selector])


def read_standings(game: Game, words: list[str], body: str) -> Standings:
    usage(f"{game.name} standings", words, 0)
    return Standings(game=game.name, comment=body)


@declares(
    GameVerb(
        "standings",
        ("standings",),
        "the players, best first",
        aliases=("ratings",),
        read=read_standings,
    ),
)
@dataclass(frozen=True, kw_only=True)
class Standings(OfGame):
    def text(self) -> str:
        return f"{self.game} standings"


def read_history(game: Game, words: list[str], body: str) -> History:
    usage(f"{game.name} history [USERID]", words, 0, 1)
    return History(game=game.name, player=words[0] if words else None, comment=body)


@declares(
    GameVerb(
        "history",
        ("history [USERID]",),
        "a player's rated boards and ratings, or the game's",
        read=read_history,
    ),
)
@dataclass(frozen=True, kw_only=True)
class History(OfGame):
    """A player's finished boards of the game and their rating changes
    (None: every rated board of the game)."""

    player: str | None = None

    def text(self) -> str:
        return f"{self.game} history" + ("" if self.player is None else f" {self.player}")


def read_help(words: list[str], body: str) -> Help:
    """`help [GAME|commands|tutorial|ratings|timing|mail] ...`: several
    subjects, a mail each."""
    subjects = ("commands", *HELP_SUBJECTS)
    usage(f"help [GAME|{'|'.join(subjects)}] ...", words, 0, 8)
    named = []
    for word in words:
        named.append(word.lower() if word.lower() in subjects else game_named(word).name)
    if not named:
        return Help(comment=body)
    first, more = named[0], tuple(named[1:])
    if first in subjects:
        return Help(subject=first, more=more, comment=body)
    return Help(game=first, more=more, comment=body)


def read_game_help(game: Game, words: list[str], body: str) -> Help:
    usage(f"{game.name} help", words, 0)
    return Help(game=game.name, comment=body)


@declares(
    AccountVerb(
        "help",
        ("help [GAME|commands|tutorial|ratings|timing|mail] ...",),
        "this list, a game's rules, or a subject",
        read=read_help,
    ),
    GameVerb("help", ("help",), "the rules of the game", read=read_game_help),
)
@dataclass(frozen=True, kw_only=True)
class Help(Command):
    """Every command, a game's rules (`game`), or another subject
    (`subject`, one of HELP_SUBJECTS); `more`, further games or subjects,
    a mail each."""

    game: str | None = None
    subject: str | None = None
    more: tuple[str, ...] = ()

    def text(self) -> str:
        words = [word for word in (self.game, self.subject) if word]
        return " ".join(["help", *words, *self.more])


def read_list(words: list[str], body: str) -> ListPlayers:
    usage("list [GAME ...]", words, 0, 8)
    return ListPlayers(games=tuple(game_named(word).name for word in words), comment=body)


@declares(
    AccountVerb("list", ("list [GAME ...]",), "the players (of games, rated)", read=read_list),
)
@dataclass(frozen=True, kw_only=True)
class ListPlayers(Command):
    """The players; with `games`, those with a rating in each of them."""

    games: tuple[str, ...] = ()

    def text(self) -> str:
        return " ".join(["list", *self.games])


def read_all(words: list[str], body: str) -> AllShow:
    form = "all show USERID [active|next]"
    usage(form, words, 2, 3)
    chosen = words[2].lower() if len(words) == 3 else "active"
    if words[0].lower() != "show" or chosen not in ("active", "next"):
        raise CommandError(f"Write this command as: {form}")
    return AllShow(player=words[1], selector=chosen, comment=body)


@declares(
    AccountVerb(
        "all",
        ("all show USERID [active|next]",),
        "every active board of a player (next: those awaiting them)",
        read=read_all,
    ),
)
@dataclass(frozen=True, kw_only=True)
class AllShow(Command):
    """Every active board of a player, in every game (`next`: those
    awaiting their move)."""

    player: str
    selector: str = "active"

    def text(self) -> str:
        return f"all show {self.player}" + (" next" if self.selector == "next" else "")
