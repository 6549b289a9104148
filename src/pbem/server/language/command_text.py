"""Reading a command's words (a mail's Subject, a `multiple` line, `pbem
send`) into its command object (`commands.py`).

Readers check only how the command is written: the word count, numbers
that must be numbers, the words that must be one of a few. Whether the
board exists, the password is right or the move is legal is the server's
check, the same for every door. A reader that cannot read its words says
how to write them.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ...games import get_game
from ...games.base import Game, is_option
from ..errors import CommandError, UnfinishedMove
from . import commands
from .help_subjects import HELP_SUBJECTS


def game_named(name: str) -> Game:
    """The game a command names; an unknown name is a CommandError listing
    the games there are."""
    try:
        return get_game(name)
    except KeyError as error:
        raise CommandError(str(error.args[0])) from None


# What reads a command's words (after its command word, and for a game
# command after the game's name too), given the body as its comment.
AccountReader = Callable[[list[str], str], commands.Command]
GameReader = Callable[[Game, list[str], str], commands.Command]

MAX_DAYS = 365
MOST_WORDS = 12  # in a command with a move: a move may take a few (`place a1`)
MAX_TARGETS = 50  # boards in one subscribe


def usage(form: str, words: list[str], least: int, most: int | None = None) -> None:
    """Raise CommandError with the command's form if the word count is wrong."""
    most = least if most is None else most
    if not least <= len(words) <= most:
        raise CommandError(f"Write this command as: {form}")


def split_move_number(word: str, form: str) -> tuple[str, int | None]:
    text, mark, number = word.partition("#")
    if not mark:
        return text, None
    if not number.isdigit() or len(number) > 6 or int(number) < 1:
        raise CommandError(f"After '#' comes the move's number, like a0,0#1: write {form}.")
    return text, int(number)


def board_number(text: str) -> int:
    if not text.isdigit() or len(text) > 9:
        raise CommandError(f"'{text[:20]}' is not a board number like 101.")
    return int(text)


def board_and_move(word: str, form: str) -> tuple[int, int | None]:
    """`BOARD[#N]`: the board's number, and the move N (None: now)."""
    number, mark, at = word.partition("#")
    if not mark:
        return board_number(number), None
    if not at.isdigit() or len(at) > 6:
        raise CommandError(f"After '#' comes a move's number, like 101#3: write {form}.")
    return board_number(number), int(at)


# ------------------------------------------------------ acting on a board

VOTES: dict[str, type[commands.OnBoard]] = {
    "resign": commands.Resign,
    "propose": commands.Propose,
    "undo": commands.Undo,
    "accept": commands.Accept,
    "reject": commands.Reject,
}


# The words after 'Vasco Board 8' in the subjects of the server's own board
# mails that name no player ('game over', 'after move 3', 'queued', ...): a
# reply to one is a move command that stops short.
SUBJECT_WORDS = frozenset(
    ("game", "after", "queued", "chat", "accepted", "draw", "undo", "proposal", "is",
     "started", "submitted", "preview", "resignation", "error")
)  # fmt: skip


def read_move(game: Game, words: list[str], body: str) -> commands.OnBoard:
    """`move BOARD USERID PASSWORD MOVE[#N]`; pbmserv's `move ... resign`
    (and propose, undo, accept, reject, swap) are those commands."""
    form = f"{game.name} move BOARD USERID PASSWORD MOVE[#N]"
    if words and words[0].isdigit() and len(words[0]) < 10:
        if len(words) > 1 and words[1].lower() in SUBJECT_WORDS:
            raise UnfinishedMove(game.name, int(words[0]), None)  # 'Re: Vasco Board 8 game over'
        if len(words) < 4:
            raise UnfinishedMove(game.name, int(words[0]), words[1] if len(words) > 1 else None)
    usage(form, words, 4, MOST_WORDS)
    if len(words) > 4:  # a move in several words: no special move
        return played(commands.Move, game, words, body, form)
    word, mark, _ = words[3].partition("#")
    if word.lower() == "swap":
        return read_guarded(
            commands.Swap, game, [*words[:2], words[2] + words[3][len(word) :]], body
        )
    if word.lower() in VOTES and not mark:
        return read_plain(VOTES[word.lower()], game, words[:3], body)
    return played(commands.Move, game, words, body, form)


def read_submit(game: Game, words: list[str], body: str) -> commands.OnBoard:
    form = f"{game.name} submit BOARD USERID PASSWORD MOVE[#N]"
    usage(form, words, 4, MOST_WORDS)
    return played(commands.Submit, game, words, body, form)


def played(
    kind: type[commands.Move | commands.Submit],
    game: Game,
    words: list[str],
    body: str,
    form: str,
) -> commands.OnBoard:
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


def read_guarded(
    kind: type[commands.Guarded], game: Game, words: list[str], body: str
) -> commands.Guarded:
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


def read_plain(
    kind: type[commands.OnBoard], game: Game, words: list[str], body: str
) -> commands.OnBoard:
    """`VERB BOARD USERID PASSWORD` (resign, chat, propose, undo, confirm)."""
    usage(f"{game.name} {kind.verb} BOARD USERID PASSWORD", words, 3)
    return kind(
        game=game.name,
        board=board_number(words[0]),
        userid=words[1],
        password=words[2],
        comment=body,
    )


def read_vote(
    kind: type[commands.Accept | commands.Reject], game: Game, words: list[str], body: str
) -> commands.Command:
    """`accept|reject BOARD USERID PASSWORD` votes on the board's proposals;
    `accept|reject USERID PASSWORD` (pbmserv's answer to every open
    challenge) takes or declines them all."""
    usage(f"{game.name} {kind.verb} [BOARD] USERID PASSWORD", words, 2, 3)
    if len(words) == 3:
        return read_plain(kind, game, words, body)
    return commands.AnswerChallenges(
        game=game.name,
        userid=words[0],
        password=words[1],
        accept=kind is commands.Accept,
        comment=body,
    )


def read_queue(game: Game, words: list[str], body: str) -> commands.Queue:
    form = f"{game.name} queue BOARD USERID PASSWORD MOVE [if THEIRMOVE]"
    usage(form, words, 4, MOST_WORDS)
    rest = [word.lower() for word in words[3:]]
    cut = rest.index("if") if "if" in rest else len(rest)
    move, condition = words[3 : 3 + cut], words[4 + cut :]
    if not move or (cut < len(rest) and not condition):
        raise CommandError(f"Write this command as: {form}")
    return commands.Queue(
        game=game.name,
        board=board_number(words[0]),
        userid=words[1],
        password=words[2],
        move=" ".join(move),
        condition=" ".join(condition),
        comment=body,
    )


_DAYS = re.compile(r"--(nagtime|forfeittime|totaltime)=(\d{1,4})", re.IGNORECASE)


def read_challenge(game: Game, words: list[str], body: str) -> commands.Challenge:
    """`challenge USER1 USER2 [-OPTION ...] [--nagtime=DAYS] ...`."""
    names = [word for word in words if not word.startswith("-")]
    days: dict[str, int] = {}
    options = []
    hints = unrated = False
    for word in words:
        if word.lower() == "--hints":
            hints = True
        elif word.lower() == "--unrated":
            unrated = True
        elif word.startswith("--"):
            match = _DAYS.fullmatch(word)
            if not match:
                raise CommandError(
                    f"Cannot read '{word[:40]}': timing is --nagtime=DAYS, --forfeittime=DAYS "
                    f"or --totaltime=DAYS, with 1 to {MAX_DAYS} days; --hints lets the "
                    "players ask the engine; --unrated makes a friendly game."
                )
            days[match.group(1).lower()] = int(match.group(2))
        elif word.startswith("-"):
            options.append(word)
    return commands.Challenge(
        game=game.name,
        players=tuple(names),
        options=tuple(options),
        nag_days=days.get("nagtime"),
        forfeit_days=days.get("forfeittime"),
        total_days=days.get("totaltime"),
        hints=hints,
        unrated=unrated,
        comment=body,
    )


# ------------------------------------------------ open challenges

_RATING_RANGE = re.compile(r"--rating=(\d{0,4})-(\d{0,4})", re.IGNORECASE)
_OPEN_DAYS = re.compile(r"--(days|nagtime|forfeittime|totaltime)=(\d{1,4})", re.IGNORECASE)


def open_form(game: Game) -> str:
    return (
        f"{game.name} open USERID PASSWORD [-OPTION ...] [--rating=LOW-HIGH] [--days=DAYS] "
        "[--nagtime=DAYS] [--forfeittime=DAYS] [--totaltime=DAYS] [--hints] [--unrated]"
    )


def read_open(game: Game, words: list[str], body: str) -> commands.PostOpen:
    """`open USERID PASSWORD [-OPTION ...] [--rating=LOW-HIGH] [--days=N] ...`."""
    form = open_form(game)
    usage(form, words, 2, MOST_WORDS)
    options: list[str] = []
    days: dict[str, int] = {}
    low = high = None
    hints = unrated = False
    for word in words[2:]:
        lowered = word.lower()
        rating = _RATING_RANGE.fullmatch(word)
        timing = _OPEN_DAYS.fullmatch(word)
        if lowered == "--hints":
            hints = True
        elif lowered == "--unrated":
            unrated = True
        elif rating:
            low = int(rating.group(1)) if rating.group(1) else None
            high = int(rating.group(2)) if rating.group(2) else None
        elif timing:
            days[timing.group(1).lower()] = int(timing.group(2))
        elif word.startswith("--") or not word.startswith("-"):
            raise CommandError(
                f"Cannot read '{word[:40]}': after the password come the game's options "
                f"(-size=12) and --rating=LOW-HIGH (either may be left out: --rating=1500-), "
                f"--days=DAYS (until it expires), the timing and --hints or --unrated: {form}"
            )
        else:
            options.append(word)
    return commands.PostOpen(
        game=game.name,
        userid=words[0],
        password=words[1],
        options=tuple(options),
        unrated=unrated,
        min_rating=low,
        max_rating=high,
        days=days.get("days"),
        nag_days=days.get("nagtime"),
        forfeit_days=days.get("forfeittime"),
        total_days=days.get("totaltime"),
        hints=hints,
        comment=body,
    )


def read_take_or_withdraw(
    game: Game, words: list[str], body: str, *, take: bool
) -> commands.TakeOpen | commands.WithdrawOpen:
    """`take NUMBER USERID PASSWORD` and `withdraw NUMBER USERID PASSWORD`."""
    verb = "take" if take else "withdraw"
    form = (
        f"{game.name} {verb} NUMBER USERID PASSWORD (NUMBER: '{game.name} games open' lists them)"
    )
    usage(form, words, 3)
    if not words[0].isdigit() or len(words[0]) > 9:
        raise CommandError(f"The open challenge's number comes first: {form}")
    kind = commands.TakeOpen if take else commands.WithdrawOpen
    return kind(
        game=game.name, number=int(words[0]), userid=words[1], password=words[2], comment=body
    )


# ------------------------------------------------ a player's game settings


def read_limit(game: Game, words: list[str], body: str) -> commands.Limit:
    """`limit USERID PASSWORD [N|none|all|inf|accept|reject]`: no word
    asks for the current setting."""
    form = f"{game.name} limit USERID PASSWORD [N|none|accept|reject]"
    usage(form, words, 2, 3)
    word = words[2].lower() if len(words) == 3 else None
    number: int | None = None
    choice: str | None = None
    if word is None:
        choice = "show"
    elif word in ("accept", "reject"):
        choice = word
    elif word.isdigit() and len(word) <= 6:
        number = int(word)
    elif word not in ("none", "all", "inf"):
        raise CommandError(
            f"Write a number of boards (0 to 1000), none (no limit), accept or reject: {form}"
        )
    return commands.Limit(
        game=game.name,
        userid=words[0],
        password=words[1],
        limit=number,
        choice=choice,
        comment=body,
    )


def read_seek(game: Game, words: list[str], body: str) -> commands.Seek:
    """`seek USERID PASSWORD [N]`: no number asks for the current one."""
    usage(f"{game.name} seek USERID PASSWORD [N]", words, 2, 3)
    if len(words) == 3 and (not words[2].isdigit() or len(words[2]) > 6):
        raise CommandError(f"Write how many games you seek, 0 to 100: {game.name} seek ...")
    return commands.Seek(
        game=game.name,
        userid=words[0],
        password=words[1],
        count=int(words[2]) if len(words) == 3 else None,
        comment=body,
    )


def read_subscribe(add: bool, game: Game, words: list[str], body: str) -> commands.Subscribe:
    """`subscribe|unsubscribe USERID PASSWORD BOARD ...|all|active`, or
    pbmserv's `subscribe BOARD USERID PASSWORD`."""
    verb = "subscribe" if add else "unsubscribe"
    if len(words) == 3 and words[0].isdigit() and not words[1].isdigit():
        words = [words[1], words[2], words[0]]
    if len(words) < 3:
        raise CommandError(
            f"Write this command as: {game.name} {verb} USERID PASSWORD BOARD ...|all|active"
        )
    targets = words[2:]
    if len(targets) > MAX_TARGETS:
        raise CommandError(
            f"At most {MAX_TARGETS} boards at a time: send the others in another command."
        )
    selectors = ("all", "active")
    return commands.Subscribe(
        game=game.name,
        userid=words[0],
        password=words[1],
        boards=tuple(board_number(t) for t in targets if t.lower() not in selectors),
        new_boards=any(target.lower() == "all" for target in targets),
        active=any(target.lower() == "active" for target in targets),
        add=add,
        comment=body,
    )


def read_notify(game: Game, words: list[str], body: str) -> commands.Notify:
    """`notify USERID PASSWORD [BOARD ...] [on|off]`."""
    form = f"{game.name} notify USERID PASSWORD [BOARD ...] [on|off]"
    usage(form, words, 2, 3 + MAX_TARGETS)
    rest = words[2:]
    on: bool | None = None
    if rest and rest[-1].lower() in ("on", "off"):
        on = rest.pop().lower() == "on"
    if any(not word.isdigit() for word in rest):
        raise CommandError(f"Write this command as: {form}")
    return commands.Notify(
        game=game.name,
        userid=words[0],
        password=words[1],
        on=on,
        boards=tuple(board_number(word) for word in rest),
        comment=body,
    )


def read_newboards(game: Game, words: list[str], body: str) -> commands.NewBoards:
    if len(words) != 3 or words[2].lower() not in ("on", "off"):
        raise CommandError(f"Write this command as: {game.name} newboards USERID PASSWORD on|off")
    return commands.NewBoards(
        game=game.name,
        userid=words[0],
        password=words[1],
        on=words[2].lower() == "on",
        comment=body,
    )


# ----------------------------------------------------------------- looking


def read_show(game: Game, words: list[str], body: str) -> commands.Command:
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
    return commands.Show(game=game.name, board=board, at=at, also=tuple(also), comment=body)


def selected(words: list[str]) -> tuple[list[str], str | None]:
    """The words before a trailing selector (all, active, inactive, next),
    and the selector (None: there is none)."""
    if words and words[-1].lower() in commands.SHOW_SELECTORS:
        return words[:-1], words[-1].lower()
    return words, None


def read_show_players(game: Game, words: list[str], body: str) -> commands.ShowPlayers:
    words, selector = selected(words)
    if not words or len(words) > 4:
        raise CommandError(
            f"Name one to four players: {game.name} show USERID ... "
            f"[{'|'.join(commands.SHOW_SELECTORS)}]"
        )
    return commands.ShowPlayers(
        game=game.name, players=tuple(words), selector=selector or "active", comment=body
    )


def read_showas(game: Game, words: list[str], body: str) -> commands.Show | commands.ShowPlayers:
    """`showas BOARD[#N] USERID`, or pbmserv's `showas USERID PASSWORD
    BOARD[#N] ...`."""
    form = (
        f"{game.name} showas BOARD[#N] USERID, or {game.name} showas USERID PASSWORD "
        "BOARD ...|all|active|inactive|next"
    )
    if len(words) == 3 and words[2].lower() in commands.SHOW_SELECTORS:
        return commands.ShowPlayers(
            game=game.name,
            players=(words[0],),
            selector=words[2].lower(),
            password=words[1],
            comment=body,
        )
    if len(words) >= 3 and not words[0].partition("#")[0].isdigit():
        usage(form, words, 3, MAX_TARGETS + 2)
        (board, at), *also = [board_and_move(word, form) for word in words[2:]]
        return commands.Show(
            game=game.name, board=board, at=at, also=tuple(also), player=words[0],
            password=words[1], comment=body,
        )  # fmt: skip
    usage(form, words, 2)
    board, at = board_and_move(words[0], form)
    return commands.Show(game=game.name, board=board, at=at, player=words[1], comment=body)


def read_preview(game: Game, words: list[str], body: str) -> commands.Preview:
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
        return commands.Preview(
            game=game.name,
            board=None,
            options=tuple(word for word in words[2:] if is_option(word)),
            moves=tuple(word for word in words[2:] if not is_option(word)),
            comment=body,
        )
    board, at = board_and_move(words[0], form)
    return commands.Preview(
        game=game.name, board=board, at=at, moves=tuple(words[1:]), comment=body
    )


def read_games(game: Game, words: list[str], body: str) -> commands.Games | commands.OpenChallenges:
    """`games [USERID ...] [all|active|inactive|next]`; `games open`, the
    open challenges (a player called open: `games open all`)."""
    if [word.lower() for word in words] == ["open"]:
        return commands.OpenChallenges(game=game.name, comment=body)
    words, selector = selected(words)
    usage(f"{game.name} games [USERID ...] [all|active|inactive|next]", words, 0, 4)
    return commands.Games(
        game=game.name, players=tuple(words), selector=selector or "all", comment=body
    )


def read_standings(game: Game, words: list[str], body: str) -> commands.Standings:
    usage(f"{game.name} standings", words, 0)
    return commands.Standings(game=game.name, comment=body)


def read_history(game: Game, words: list[str], body: str) -> commands.History:
    usage(f"{game.name} history [USERID]", words, 0, 1)
    return commands.History(game=game.name, player=words[0] if words else None, comment=body)


def read_game_help(game: Game, words: list[str], body: str) -> commands.Help:
    usage(f"{game.name} help", words, 0)
    return commands.Help(game=game.name, comment=body)


def read_help(words: list[str], body: str) -> commands.Help:
    """`help [GAME|commands|tutorial|ratings|timing|mail] ...`: several
    subjects, a mail each."""
    subjects = ("commands", *HELP_SUBJECTS)
    usage(f"help [GAME|{'|'.join(subjects)}] ...", words, 0, 8)
    named = []
    for word in words:
        named.append(word.lower() if word.lower() in subjects else game_named(word).name)
    if not named:
        return commands.Help(comment=body)
    first, more = named[0], tuple(named[1:])
    if first in subjects:
        return commands.Help(subject=first, more=more, comment=body)
    return commands.Help(game=first, more=more, comment=body)


def read_list(words: list[str], body: str) -> commands.ListPlayers:
    usage("list [GAME ...]", words, 0, 8)
    return commands.ListPlayers(games=tuple(game_named(word).name for word in words), comment=body)


def read_all(words: list[str], body: str) -> commands.AllShow:
    form = "all show USERID [active|next]"
    usage(form, words, 2, 3)
    chosen = words[2].lower() if len(words) == 3 else "active"
    if words[0].lower() != "show" or chosen not in ("active", "next"):
        raise CommandError(f"Write this command as: {form}")
    return commands.AllShow(player=words[1], selector=chosen, comment=body)


# ---------------------------------------------------------------- accounts


MOST_ADDRESSES = 5  # in one signup or change address


def read_signup(words: list[str], body: str) -> commands.Signup:
    usage("signup USERID PASSWORD [ADDRESS ...]", words, 2, 2 + MOST_ADDRESSES)
    return commands.Signup(
        userid=words[0],
        password=words[1],
        address=words[2] if len(words) > 2 else None,
        also=tuple(words[3:]),
        comment=body,
    )


def read_add(words: list[str], body: str) -> commands.AddAddress:
    usage("add USERID PASSWORD ADDRESS ...", words, 3, 2 + MOST_ADDRESSES)
    return commands.AddAddress(
        userid=words[0], password=words[1], address=words[2], also=tuple(words[3:]), comment=body
    )


CHANGE_FORM = (
    "change password USERID PASSWORD NEWPASSWORD, or change address USERID PASSWORD NEWADDRESS ..."
)


def read_change(words: list[str], body: str) -> commands.Change:
    usage(CHANGE_FORM, words, 4, 3 + MOST_ADDRESSES)
    what = words[0].lower()
    if what not in ("password", "address") or (what == "password" and len(words) > 4):
        raise CommandError(f"Write this command as: {CHANGE_FORM}")
    return commands.Change(
        what=what,
        userid=words[1],
        password=words[2],
        new=words[3],
        also=tuple(words[4:]),
        comment=body,
    )


def read_mail_preference(words: list[str], body: str) -> commands.MailPreference:
    usage("mail USERID PASSWORD every|digest|none", words, 3)
    return commands.MailPreference(
        userid=words[0], password=words[1], preference=words[2], comment=body
    )


def read_vacation(words: list[str], body: str) -> commands.Vacation:
    usage("vacation USERID PASSWORD on|off", words, 3)
    return commands.Vacation(userid=words[0], password=words[1], state=words[2], comment=body)


def read_credentials(kind: type[commands.Acting], form: str) -> AccountReader:
    """The reader of `VERB USERID PASSWORD` (signoff, signon, delete,
    broadcast), written as `form` when it is not."""

    def read(words: list[str], body: str) -> commands.Command:
        usage(form, words, 2)
        return kind(userid=words[0], password=words[1], comment=body)

    return read


MOST_RECIPIENTS = 20  # players in one message


def read_message(words: list[str], body: str) -> commands.Message:
    usage(
        "message USERID PASSWORD TOUSERID ... (the message in the body)",
        words,
        3,
        2 + MOST_RECIPIENTS,
    )
    return commands.Message(
        userid=words[0], password=words[1], to=words[2], also=tuple(words[3:]), comment=body
    )


def read_stop(words: list[str], body: str) -> commands.Stop:
    usage("stop USERID TOKEN (the token comes in each mail's List-Unsubscribe header)", words, 2)
    return commands.Stop(userid=words[0], token=words[1], comment=body)
