"""Every command, named once: its word and aliases, how it is written, what
it does, and the reader that turns its words into its command object.

Dispatch finds commands here, `help` lists them from here, and the table at
the top of `docs/commands.md` is this list (`make docs` writes it; a test
checks it is current). A command is added by adding a `Verb` below.

What runs a command is registered where it is defined: `@runs(Kind)` above
the runner puts it in RUNNERS, which dispatch.execute looks in.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TypeVar

from ...games import GAMES
from . import commands
from .command_text import (
    AccountReader,
    GameReader,
    read_add,
    read_all,
    read_challenge,
    read_change,
    read_credentials,
    read_game_help,
    read_games,
    read_guarded,
    read_help,
    read_history,
    read_limit,
    read_list,
    read_mail_preference,
    read_message,
    read_move,
    read_newboards,
    read_notify,
    read_open,
    read_plain,
    read_preview,
    read_queue,
    read_seek,
    read_show,
    read_showas,
    read_signup,
    read_standings,
    read_stop,
    read_submit,
    read_subscribe,
    read_take_or_withdraw,
    read_vacation,
    read_vote,
)


@dataclass(frozen=True)
class Verb:
    """A command word. `forms` are how it is written (a game command's
    without the leading `GAME`); `summary` says what it does in a phrase or
    two; `aliases` are other words for it."""

    name: str
    forms: tuple[str, ...]
    summary: str
    aliases: tuple[str, ...] = ()
    shortest: int | None = None  # pbmserv's abbreviations: down to this many letters

    @property
    def abbreviations(self) -> tuple[str, ...]:
        if self.shortest is None:
            return ()
        return tuple(self.name[:n] for n in range(self.shortest, len(self.name)))

    @property
    def words(self) -> tuple[str, ...]:
        return (self.name, *self.aliases, *self.abbreviations)


@dataclass(frozen=True)
class AccountVerb(Verb):
    """A command that stands alone (`signup ...`)."""

    read: AccountReader | None = None  # None: the service itself reads it (`multiple`)


@dataclass(frozen=True)
class GameVerb(Verb):
    """A command that follows a game's name (`vasco move ...`)."""

    read: GameReader | None = None

    @property
    def written(self) -> tuple[str, ...]:
        return tuple(f"GAME {form}" for form in self.forms)


ACCOUNT_VERBS: tuple[AccountVerb, ...] = (
    AccountVerb(
        "help",
        ("help [GAME|commands|tutorial|ratings|timing|mail] ...",),
        "this list, a game's rules, or a subject",
        read=read_help,
    ),
    AccountVerb(
        "signup",
        ("signup USERID PASSWORD [ADDRESS ...]",),
        "make an account (ADDRESS: the sender's)",
        read=read_signup,
    ),
    AccountVerb(
        "add",
        ("add USERID PASSWORD ADDRESS ...",),
        "send commands from another address too",
        read=read_add,
    ),
    AccountVerb(
        "change",
        (
            "change password USERID PASSWORD NEWPASSWORD",
            "change address USERID PASSWORD NEWADDRESS ...",
        ),
        "a new password, or where your mail goes",
        read=read_change,
    ),
    AccountVerb("list", ("list [GAME ...]",), "the players (of games, rated)", read=read_list),
    AccountVerb(
        "vacation",
        ("vacation USERID PASSWORD on|off",),
        "no reminders or forfeits while away",
        read=read_vacation,
    ),
    AccountVerb(
        "signoff",
        ("signoff USERID PASSWORD",),
        "leave: resign every board, no more mail",
        read=read_credentials(commands.SignOff, "signoff USERID PASSWORD"),
    ),
    AccountVerb(
        "signon",
        ("signon USERID PASSWORD",),
        "come back after a signoff",
        read=read_credentials(commands.SignOn, "signon USERID PASSWORD"),
    ),
    AccountVerb(
        "delete",
        ("delete USERID PASSWORD",),
        "remove an account that never played",
        read=read_credentials(commands.DeleteAccount, "delete USERID PASSWORD"),
    ),
    AccountVerb(
        "broadcast",
        ("broadcast USERID PASSWORD",),
        "(administrators) the body to everyone",
        read=read_credentials(
            commands.Broadcast, "broadcast USERID PASSWORD (the message in the body)"
        ),
    ),
    AccountVerb(
        "message",
        ("message USERID PASSWORD TOUSERID ...",),
        "the body goes to those players",
        read=read_message,
    ),
    AccountVerb(
        "all",
        ("all show USERID [active|next]",),
        "every active board of a player (next: those awaiting them)",
        read=read_all,
    ),
    AccountVerb("multiple", ("multiple",), "each line of the body is a command"),
    AccountVerb(
        "mail",
        ("mail USERID PASSWORD every|digest|none",),
        "which mail you want: every board mail, one mail a day listing boards "
        "awaiting you, or none",
        read=read_mail_preference,
    ),
    AccountVerb(
        "stop",
        ("stop USERID TOKEN",),
        "no more mail, by the token in a mail's List-Unsubscribe header",
        read=read_stop,
    ),
)

GAME_VERBS: tuple[GameVerb, ...] = (
    GameVerb(
        "challenge",
        (
            "challenge USER1 USER2 [-OPTION ...] [--nagtime=D] [--forfeittime=D] [--totaltime=D] "
            "[--hints] [--unrated]",
        ),
        "start a board; USER1 moves first (--unrated: a friendly game)",
        shortest=4,
        read=read_challenge,
    ),
    GameVerb(
        "move",
        ("move BOARD USERID PASSWORD MOVE[#N]",),
        "play MOVE; #N (the move's number) makes a stale or repeated mail harmless",
        aliases=("board", "mvoe"),
        read=read_move,
    ),
    GameVerb(
        "submit",
        ("submit BOARD USERID PASSWORD MOVE[#N]",),
        "see the board after MOVE first ...",
        read=read_submit,
    ),
    GameVerb(
        "confirm",
        ("confirm BOARD USERID PASSWORD",),
        "... then play it",
        read=partial(read_plain, commands.Confirm),
    ),
    GameVerb(
        "pass",
        ("pass BOARD USERID PASSWORD[#N]",),
        "pass, in the games that allow it",
        read=partial(read_guarded, commands.Pass),
    ),
    GameVerb(
        "chat",
        ("chat BOARD USERID PASSWORD",),
        "the body goes to the other players",
        read=partial(read_plain, commands.Chat),
    ),
    GameVerb(
        "swap",
        ("swap BOARD USERID PASSWORD[#N]",),
        "the swap step (Vacu: take Black)",
        read=partial(read_guarded, commands.Swap),
    ),
    GameVerb(
        "resign",
        ("resign BOARD USERID PASSWORD",),
        "resign (out of turn: when the turn comes; before your first move: decline)",
        read=partial(read_plain, commands.Resign),
    ),
    GameVerb(
        "queue",
        ("queue BOARD USERID PASSWORD MOVE [if THEIRMOVE]",),
        "play MOVE at your next turn (only if the opponent played THEIRMOVE)",
        aliases=("qmove", "qboard", "moveq", "boardq"),
        read=read_queue,
    ),
    GameVerb(
        "propose",
        ("propose BOARD USERID PASSWORD",),
        "propose a draw; every player must accept",
        read=partial(read_plain, commands.Propose),
    ),
    GameVerb(
        "hint",
        ("hint BOARD USERID PASSWORD",),
        "the engine's best few moves here, mailed to you alone (on a board "
        "challenged with --hints)",
        read=partial(read_plain, commands.Hint),
    ),
    GameVerb(
        "undo",
        ("undo BOARD USERID PASSWORD",),
        "propose taking back the last move; every player must accept",
        read=partial(read_plain, commands.Undo),
    ),
    GameVerb(
        "accept",
        ("accept BOARD USERID PASSWORD", "accept USERID PASSWORD"),
        "vote for what is proposed; with no board: accept every open challenge, and take new ones",
        read=partial(read_vote, commands.Accept),
    ),
    GameVerb(
        "reject",
        ("reject BOARD USERID PASSWORD", "reject USERID PASSWORD"),
        "vote against what is proposed; with no board: decline every open challenge, "
        "and refuse new ones until accept",
        read=partial(read_vote, commands.Reject),
    ),
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
    GameVerb(
        "preview",
        ("preview BOARD[#N] MOVE ...", "preview new PLAYERS MOVE ..."),
        "what the moves would do; nothing is stored (new: on a new board)",
        shortest=4,
        read=read_preview,
    ),
    GameVerb(
        "games",
        ("games [USERID ...] [all|active|inactive|next]", "games open"),
        "the boards of any of those players, or of the game (next: those awaiting them, or you); "
        "open: the open challenges",
        read=read_games,
    ),
    GameVerb(
        "open",
        ("open USERID PASSWORD [-OPTION ...] [--rating=LOW-HIGH] [--days=D] [--unrated] ...",),
        "a challenge to anyone: the first to take it plays you, and you move first",
        read=read_open,
    ),
    GameVerb(
        "take",
        ("take NUMBER USERID PASSWORD",),
        "take open challenge NUMBER ('games open' lists them): the board starts at once",
        read=partial(read_take_or_withdraw, take=True),
    ),
    GameVerb(
        "withdraw",
        ("withdraw NUMBER USERID PASSWORD",),
        "take back your open challenge NUMBER",
        read=partial(read_take_or_withdraw, take=False),
    ),
    GameVerb(
        "standings",
        ("standings",),
        "the players, best first",
        aliases=("ratings",),
        read=read_standings,
    ),
    GameVerb(
        "history",
        ("history [USERID]",),
        "a player's rated boards and ratings, or the game's",
        read=read_history,
    ),
    GameVerb(
        "limit",
        ("limit USERID PASSWORD [N|none|accept|reject]",),
        "the most boards of the game at once, or whether you take challenges; alone, what is set",
        read=read_limit,
    ),
    GameVerb(
        "seek",
        ("seek USERID PASSWORD [N]",),
        "how many new boards you would like (alone: how many now)",
        read=read_seek,
    ),
    GameVerb(
        "subscribe",
        ("subscribe USERID PASSWORD BOARD ...|all|active", "subscribe BOARD USERID PASSWORD"),
        "copies of boards' mails (all: of every new board of the game; active: of "
        "every board being played)",
        shortest=3,
        read=partial(read_subscribe, True),
    ),
    GameVerb(
        "unsubscribe",
        ("unsubscribe USERID PASSWORD BOARD ...|all|active",),
        "no more copies",
        shortest=5,
        read=partial(read_subscribe, False),
    ),
    GameVerb(
        "notify",
        ("notify USERID PASSWORD [BOARD ...] [on|off]",),
        "a mail when a board of the game ends: every board (alone: on, or off "
        "again), or those named",
        read=read_notify,
    ),
    GameVerb(
        "newboards",
        ("newboards USERID PASSWORD on|off",),
        "a mail for each new board of the game",
        read=read_newboards,
    ),
    GameVerb("help", ("help",), "the rules of the game", read=read_game_help),
)


V = TypeVar("V", bound=Verb)

# A runner takes (context, game, command) for a command of a game (OfGame),
# else (context, command); it changes the database and queues mails.
Runner = Callable[..., None]
RUNNERS: dict[type[commands.Command], Runner] = {}
R = TypeVar("R", bound=Runner)


def runs(kind: type[commands.Command]) -> Callable[[R], R]:
    """Register the decorated function as what runs commands of `kind`."""

    def register(runner: R) -> R:
        assert kind not in RUNNERS, f"two runners for {kind.__name__}"
        RUNNERS[kind] = runner
        return runner

    return register


def _index(verbs: tuple[V, ...]) -> dict[str, V]:
    index: dict[str, V] = {}
    for verb in verbs:
        for word in verb.words:
            assert word not in index, f"two commands are called '{word}'"
            index[word] = verb
    return index


ACCOUNT_WORDS: dict[str, AccountVerb] = _index(ACCOUNT_VERBS)
GAME_WORDS: dict[str, GameVerb] = _index(GAME_VERBS)

FORM_WIDTH = 38  # where the summaries start
LINE_WIDTH = 78


def _entry(forms: tuple[str, ...], summary: str) -> list[str]:
    """One command in the listing: its forms on the left, what it does on
    the right (below the forms when the last one is too long)."""
    lines = [
        line
        for form in forms
        for line in textwrap.wrap(form, LINE_WIDTH, initial_indent="  ", subsequent_indent="      ")
    ]
    said = textwrap.wrap(summary, LINE_WIDTH - FORM_WIDTH)
    if len(lines[-1]) <= FORM_WIDTH - 2:
        lines[-1] = f"{lines[-1]:<{FORM_WIDTH}}{said[0]}"
        said = said[1:]
    lines.extend(" " * FORM_WIDTH + line for line in said)
    return lines


def listing() -> str:
    """Every command with what it does: the body of `help`, and the table
    in docs/commands.md."""
    lines = [
        *(line for verb in ACCOUNT_VERBS for line in _entry(verb.forms, verb.summary)),
        *(line for verb in GAME_VERBS for line in _entry(verb.written, verb.summary)),
    ]
    aliases = [f"GAME {a} (GAME {v.name})" for v in GAME_VERBS for a in v.aliases]
    aliases += [f"{a} ({v.name})" for v in ACCOUNT_VERBS for a in v.aliases]
    if aliases:
        lines += ["", *textwrap.wrap("Also: " + ", ".join(aliases) + ".", LINE_WIDTH)]
    short = [
        f"{v.name[: v.shortest]}({v.name[v.shortest :]})"
        for v in (*ACCOUNT_VERBS, *GAME_VERBS)
        if v.shortest is not None
    ]
    if short:
        said = "Shortened down to: " + ", ".join(short) + " (pbmserv's abbreviations)."
        lines += textwrap.wrap(said, LINE_WIDTH)
    return "\n".join(lines) + "\n"


INTRODUCTION = """\
Commands go in the Subject of a mail (or `pbem send`); the body is a comment.
Words are separated by spaces; userids and commands ignore case.
"""


def command_list() -> str:
    """The `help` mail: how commands are written, every command, the games."""
    return f"{INTRODUCTION}\n{listing()}\nGames: {', '.join(GAMES)}.\n"


BEGIN = "<!-- From here, `make docs` writes the list (server/language/registry.py) -->"
END = "<!-- to here -->"


def write_listing(path: Path) -> None:
    """Bring the listing in the document at `path` up to date (`make docs`)."""
    path.write_text(with_listing(path.read_text(encoding="utf-8")), encoding="utf-8")


def with_listing(document: str) -> str:
    """`document` (docs/commands.md) with the block between BEGIN and END
    replaced by the current listing."""
    head, begin, rest = document.partition(BEGIN)
    _, end, tail = rest.partition(END)
    if not begin or not end:
        raise ValueError(f"the document has no block between {BEGIN!r} and {END!r}")
    return f"{head}{BEGIN}\n\n```\n{listing()}```\n\n{END}{tail}"
