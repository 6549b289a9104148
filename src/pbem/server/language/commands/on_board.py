"""Commands on a board: move, submit and confirm, pass and swap, resign,
chat, queue, hint, and the votes (propose, undo, accept, reject)."""

from __future__ import annotations

from dataclasses import dataclass

from ....games.base import Game
from ...errors import CommandError, UnfinishedMove
from ..words import MOST_WORDS, GameVerb, board_number, declares, split_move_number, usage
from .base import Command, OnBoard, with_number
from .challenges import AnswerChallenges

# The words after 'Vasco Board 8' in the subjects of the server's own board
# mails that name no player ('game over', 'after move 3', 'queued', ...): a
# reply to one is a move command that stops short.
SUBJECT_WORDS = frozenset(
    ("game", "after", "queued", "chat", "accepted", "draw", "undo", "proposal", "is",
     "started", "submitted", "preview", "resignation", "error")
)  # fmt: skip


class ChatReply(CommandError):
    """A reply to a chat mail ('Re: Vasco Board 8 chat from ann'): chat
    needs the password, as on pbmserv, so its answer is the exact command
    that sends the text, for `userid` (the sender's, when the address is a
    player's: `for_user`)."""

    def __init__(self, game: str, board: int, userid: str = "USERID") -> None:
        self.game, self.userid = game, userid
        line = f"{game} chat {board} {userid} PASSWORD"
        super().__init__(
            f"This is a reply to a chat mail, and chat needs your password. To send your "
            f"text to the players of board {board}, send a mail whose Subject is\n  {line}\n"
            "with your password for PASSWORD and your text in the body (it is quoted "
            "below, to copy).",
            board,
        )

    def for_user(self, userid: str) -> ChatReply:
        assert self.board is not None
        return ChatReply(self.game, self.board, userid)


def read_move(game: Game, words: list[str], body: str) -> OnBoard:
    """`move BOARD USERID PASSWORD MOVE[#N]`; pbmserv's `move ... resign`
    (and propose, undo, accept, reject, swap) are those"""
    form = f"{game.name} move BOARD USERID PASSWORD MOVE[#N]"
    if words and words[0].isdigit() and len(words[0]) < 10:
        if len(words) > 1 and words[1].lower() == "chat":
            raise ChatReply(game.name, int(words[0]))  # 'Re: Vasco Board 8 chat from ann'
        if len(words) > 1 and words[1].lower() in SUBJECT_WORDS:
            raise UnfinishedMove(game.name, int(words[0]), None)  # 'Re: Vasco Board 8 game over'
        if len(words) < 4:
            raise UnfinishedMove(game.name, int(words[0]), words[1] if len(words) > 1 else None)
    usage(form, words, 4, MOST_WORDS)
    if len(words) > 4:  # a move in several words: no special move
        return played(Move, game, words, body, form)
    word, mark, _ = words[3].partition("#")
    if word.lower() == "swap":
        return read_guarded(Swap, game, [*words[:2], words[2] + words[3][len(word) :]], body)
    if word.lower() in VOTES and not mark:
        return read_plain(VOTES[word.lower()], game, words[:3], body)
    return played(Move, game, words, body, form)


def played(
    kind: type[Move | Submit],
    game: Game,
    words: list[str],
    body: str,
    form: str,
) -> OnBoard:
    """`BOARD USERID PASSWORD MOVE[#N]`, four words or more already
    counted: a move may be written in several (`place a1`)."""
    text, number = split_move_number(" ".join(words[3:]), form)
    return kind(
        game=game.name,
        board=board_number(words[0]),
        userid=words[1],
        password=words[2],
        move=text,
        number=number,
        comment=body,
    )


@declares(
    GameVerb(
        "move",
        ("move BOARD USERID PASSWORD MOVE[#N]",),
        "play MOVE; #N (the move's number) makes a stale or repeated mail harmless",
        aliases=("board", "mvoe"),
        read=read_move,
    ),
)
@dataclass(frozen=True, kw_only=True)
class Move(OnBoard):
    """Play `move`; `number` (the move's number, pbmserv's `#N`) makes a
    stale or repeated request harmless."""

    move: str
    number: int | None = None

    def tail(self) -> str:
        return " " + with_number(self.move, self.number)


def read_submit(game: Game, words: list[str], body: str) -> OnBoard:
    form = f"{game.name} submit BOARD USERID PASSWORD MOVE[#N]"
    usage(form, words, 4, MOST_WORDS)
    return played(Submit, game, words, body, form)


@declares(
    GameVerb(
        "submit",
        ("submit BOARD USERID PASSWORD MOVE[#N]",),
        "see the board after MOVE first ...",
        read=read_submit,
    ),
)
@dataclass(frozen=True, kw_only=True)
class Submit(OnBoard):
    """Show the board after `move` to its player; `Confirm` plays it."""

    move: str
    number: int | None = None

    def tail(self) -> str:
        return " " + with_number(self.move, self.number)


def read_plain(kind: type[OnBoard], game: Game, words: list[str], body: str) -> OnBoard:
    """`VERB BOARD USERID PASSWORD` (resign, chat, propose, undo, confirm)."""
    usage(f"{game.name} {kind.verb} BOARD USERID PASSWORD", words, 3)
    return kind(
        game=game.name,
        board=board_number(words[0]),
        userid=words[1],
        password=words[2],
        comment=body,
    )


@declares(
    GameVerb(
        "confirm",
        ("confirm BOARD USERID PASSWORD",),
        "... then play it",
        of_kind=read_plain,
    ),
)
@dataclass(frozen=True, kw_only=True)
class Confirm(OnBoard):
    """Play the move the player submitted."""


@dataclass(frozen=True, kw_only=True)
class Guarded(OnBoard):
    """A move with a fixed text (pass, swap), guarded by `#N` like any move."""

    number: int | None = None

    def tail(self) -> str:
        return with_number("", self.number)


def read_guarded(kind: type[Guarded], game: Game, words: list[str], body: str) -> Guarded:
    """`pass|swap BOARD USERID PASSWORD[#N]`."""
    form = f"{game.name} {kind.verb} BOARD USERID PASSWORD[#N]"
    usage(form, words, 3)
    password, number = split_move_number(words[2], form)
    return kind(
        game=game.name,
        board=board_number(words[0]),
        userid=words[1],
        password=password,
        number=number,
        comment=body,
    )


@declares(
    GameVerb(
        "pass",
        ("pass BOARD USERID PASSWORD[#N]",),
        "pass, in the games that allow it",
        of_kind=read_guarded,
    ),
)
@dataclass(frozen=True, kw_only=True)
class Pass(Guarded):
    pass


@declares(
    GameVerb(
        "swap",
        ("swap BOARD USERID PASSWORD[#N]",),
        "the swap step (Vacu: take Black)",
        of_kind=read_guarded,
    ),
)
@dataclass(frozen=True, kw_only=True)
class Swap(Guarded):
    pass


@declares(
    GameVerb(
        "resign",
        ("resign BOARD USERID PASSWORD",),
        "resign (out of turn: when the turn comes; before your first move: decline)",
        of_kind=read_plain,
    ),
)
@dataclass(frozen=True, kw_only=True)
class Resign(OnBoard):
    pass


@declares(
    GameVerb(
        "chat",
        ("chat BOARD USERID PASSWORD",),
        "the body goes to the other players",
        of_kind=read_plain,
    ),
)
@dataclass(frozen=True, kw_only=True)
class Chat(OnBoard):
    """`comment` goes to the board's other players."""


def read_queue(game: Game, words: list[str], body: str) -> Queue:
    form = f"{game.name} queue BOARD USERID PASSWORD MOVE [if THEIRMOVE]"
    usage(form, words, 4, MOST_WORDS)
    rest = [word.lower() for word in words[3:]]
    cut = rest.index("if") if "if" in rest else len(rest)
    move, condition = words[3 : 3 + cut], words[4 + cut :]
    if not move or (cut < len(rest) and not condition):
        raise CommandError(f"Write this command as: {form}")
    return Queue(
        game=game.name,
        board=board_number(words[0]),
        userid=words[1],
        password=words[2],
        move=" ".join(move),
        condition=" ".join(condition),
        comment=body,
    )


@declares(
    GameVerb(
        "queue",
        ("queue BOARD USERID PASSWORD MOVE [if THEIRMOVE]",),
        "play MOVE at your next turn (only if the opponent played THEIRMOVE)",
        aliases=("qmove", "qboard", "moveq", "boardq"),
        read=read_queue,
    ),
)
@dataclass(frozen=True, kw_only=True)
class Queue(OnBoard):
    """Play `move` at the player's next turn, if the opponent's move before
    it is `condition` (when there is one)."""

    move: str
    condition: str = ""

    def tail(self) -> str:
        return f" {self.move}" + (f" if {self.condition}" if self.condition else "")


@declares(
    GameVerb(
        "hint",
        ("hint BOARD USERID PASSWORD",),
        "the engine's best few moves here, mailed to you alone (on a board "
        "challenged with --hints)",
        of_kind=read_plain,
    ),
)
@dataclass(frozen=True, kw_only=True)
class Hint(OnBoard):
    """Ask the engine for the best few moves of the player to move (on a
    board challenged with --hints); the answer is mailed to the asker."""


@declares(
    GameVerb(
        "propose",
        ("propose BOARD USERID PASSWORD",),
        "propose a draw; every player must accept",
        of_kind=read_plain,
    ),
)
@dataclass(frozen=True, kw_only=True)
class Propose(OnBoard):
    """Propose a draw."""


@declares(
    GameVerb(
        "undo",
        ("undo BOARD USERID PASSWORD",),
        "propose taking back the last move; every player must accept",
        of_kind=read_plain,
    ),
)
@dataclass(frozen=True, kw_only=True)
class Undo(OnBoard):
    """Propose taking back the last move."""


def read_vote(kind: type[Accept | Reject], game: Game, words: list[str], body: str) -> Command:
    """`accept|reject BOARD USERID PASSWORD` votes on the board's proposals;
    `accept|reject USERID PASSWORD` (pbmserv's answer to every open
    challenge) takes or declines them all."""
    usage(f"{game.name} {kind.verb} [BOARD] USERID PASSWORD", words, 2, 3)
    if len(words) == 3:
        return read_plain(kind, game, words, body)
    return AnswerChallenges(
        game=game.name,
        userid=words[0],
        password=words[1],
        accept=kind is Accept,
        comment=body,
    )


@declares(
    GameVerb(
        "accept",
        ("accept BOARD USERID PASSWORD", "accept USERID PASSWORD"),
        "vote for what is proposed; with no board: accept every open challenge, and take new ones",
        of_kind=read_vote,
    ),
)
@dataclass(frozen=True, kw_only=True)
class Accept(OnBoard):
    pass


@declares(
    GameVerb(
        "reject",
        ("reject BOARD USERID PASSWORD", "reject USERID PASSWORD"),
        "vote against what is proposed; with no board: decline every open challenge, "
        "and refuse new ones until accept",
        of_kind=read_vote,
    ),
)
@dataclass(frozen=True, kw_only=True)
class Reject(OnBoard):
    pass


VOTES: dict[str, type[OnBoard]] = {
    "resign": Resign,
    "propose": Propose,
    "undo": Undo,
    "accept": Accept,
    "reject": Reject,
}
