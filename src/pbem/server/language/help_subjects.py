"""The subjects `help` knows besides the command list and each game's rules:
`help tutorial`, `help ratings`, `help timing`, `help mail`. Every example
in them is a command the server takes as written (a test mails each)."""

from __future__ import annotations

import re

from ...games.base import Game
from ..players.ratings import ESTABLISHED, START

TUTORIAL = """\
A first game, by mail. Each command goes in the Subject of a mail to this
server; the body is a comment passed on to the other players.

1. Make an account (a userid and a password; mail goes to your address):
     signup alice secret1
2. Challenge someone (they move second), or a bot that is always there:
     vasco challenge alice easybot
   Both players get the board by mail: the subject names the board and
   the player to move ("New Vasco Board 1 alice").
3. Move when it is your turn. To see first what a move would do, without
   playing it: 'vasco preview 1 a0,0'. Then play it; #1 is the number of
   the move (the board mail says which comes next), so a mail sent twice
   plays once:
     vasco move 1 alice secret1 a0,0#1
4. Look at any board, yours or another, at any time:
     vasco show 1
     vasco games alice
5. Offer a draw with 'vasco propose 1 alice secret1', or end the game at
   once: 'vasco resign 1 alice secret1'.

'help' lists every command; 'help vasco' (or trugo, vacu, convacu) gives
the rules of a game; 'help ratings', 'help timing' and 'help mail' say more.
"""

RATINGS = f"""\
Ratings, as pbmserv kept them: one per player and game, starting at
{START:.0f}. For your first {ESTABLISHED} games you are provisional: your
rating is the average of one value per game, the rating of the opponent
plus 400 for a win, minus 400 for a loss (against a provisional opponent:
the average of both ratings plus or minus 200), plus a fifth of how far
the average of the active established players is below 1720. After that a
game moves it by the Elo formula with K = 32. Ratings are whole numbers.
A declined challenge, a challenge never answered and a game against
yourself are not rated. 'vasco standings' lists the players; 'vasco history alice'
the rated games of a player, 'vasco history' every rated game.
"""

TIMING = """\
Every board has a nag time (7 days unless the challenge said --nagtime=D)
and a forfeit time (21 days, or --forfeittime=D), counted from the last
change to the board. Past the nag time the player to move gets a reminder
a day, with the board; at the forfeit time they lose the game (a challenge
never answered ends unrated). --totaltime=D gives each player D days for the
whole game. 'vacation alice secret1 on' stops your clocks while you are
away; 'vacation alice secret1 off' starts them again.
"""

MAIL = """\
Which mail you get: 'mail alice secret1 every' (each board mail), 'mail
alice secret1 digest' (one mail a day listing the boards awaiting you) or
'mail alice secret1 none'. Every mail says how to get fewer, and its
List-Unsubscribe header stops them with one click. Copies of other boards:
'vasco subscribe alice secret1 1' (and unsubscribe).
"""

HELP_SUBJECTS = {
    "tutorial": TUTORIAL,
    "ratings": RATINGS,
    "timing": TIMING,
    "mail": MAIL,
}


# ------------------------------------------------------------ a game's help

# Sections of a rules document for programs, not for a player reading a
# mail: they stay in the web's rules (docs/rules/).
FOR_DEVELOPERS = ("The JSON form",)
WRITING = "Writing a move"
_FENCE = re.compile(r"^\s*(```|~~~)")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
# Inline marks, which may run over a line's end but never a paragraph's.
_SPAN = r"((?:(?!\n\s*\n)[^`])+?)"
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_CODE = re.compile(r"`" + _SPAN + r"`")
_STRONG = re.compile(r"(\*\*|__)((?:(?!\n\s*\n).)+?)\1", re.DOTALL)
_EMPHASIS = re.compile(r"(?<![\w*])\*(?![\s*])((?:(?!\n\s*\n)[^*])+?)(?<!\s)\*(?![\w*])")
_WEB_ONLY = re.compile(r"\s*[^.]*\bJSON form below\.")


def plain(markdown: str) -> str:
    """Markdown as plain text a mail reader shows well: no backticks, no
    asterisks, headings underlined, code blocks (boards drawn in text)
    indented and left as they are, links as their text, tables without
    their rule lines."""
    out: list[str] = []
    prose: list[str] = []
    fenced = False

    def flush() -> None:
        text = _inline("\n".join(prose))
        prose.clear()
        for line in text.split("\n"):
            heading = _HEADING.match(line)
            if heading:
                title = heading.group(2)
                out.extend([title, ("=" if len(heading.group(1)) <= 2 else "-") * len(title)])
            elif not (_TABLE_RULE.match(line) and "|" in line):
                out.append(line)

    for line in markdown.splitlines():
        if _FENCE.match(line):
            if not fenced:
                flush()
            fenced = not fenced
        elif fenced:
            out.append("    " + line if line.strip() else "")
        else:
            prose.append(line)
    flush()
    return "\n".join(out).strip("\n") + "\n"


def _inline(text: str) -> str:
    text = _WEB_ONLY.sub("", text)  # (a pointer to a section only the web shows)
    text = _LINK.sub(r"\1", text)
    text = _CODE.sub(r"\1", text)
    text = _STRONG.sub(r"\2", text)
    return _EMPHASIS.sub(r"\1", text)


def sections(markdown: str) -> tuple[str, list[tuple[str, str]]]:
    """The document's opening (its title and what comes before the first
    `##` section) and its `##` sections, as (title, text with its heading)."""
    parts = re.split(r"(?m)^(?=## )", markdown)
    found = []
    for part in parts[1:]:
        title = part.splitlines()[0].removeprefix("## ").strip()
        found.append((title, part))
    return parts[0], found


def example_move(game: Game) -> str:
    """A first move of a new board of the game, as a player writes it (a
    komi step names a komi as players do: komi6)."""
    state = game.new_state(game.parse_options())
    texts = [state.move_text(move) for move in state.legal_moves()]
    return "komi6" if "komi6" in texts else texts[0]


def by_mail(game: Game) -> str:
    """How to play the game by mail, in a few lines, with commands the
    server takes as written."""
    name, move = game.name, example_move(game)
    commands = [
        ("signup alice secret1", "make an account (once)"),
        (f"{name} challenge alice easybot", "a new board: alice against a bot"),
        (f"{name} move 1 alice secret1 {move}#1", f"play {move} as move 1 of board 1"),
        (f"{name} show 1", "board 1 as it is now"),
        (f"{name} resign 1 alice secret1", "give up on board 1"),
    ]
    width = max(len(command) for command, _ in commands) + 2
    examples = "\n".join(f"  {command.ljust(width)}{what}" for command, what in commands)
    return f"""\
{game.title} by mail
{"=" * len(f"{game.title} by mail")}
Each command goes in the Subject of a mail to this server; the body of
the mail is a comment passed on to the other player. For example:

{examples}

The board mail says whose move it is and the number of the next move
(#1 above: a mail that comes twice is played once). 'help' lists every
command; 'help tutorial' walks through a first game.

"""


def game_help(game: Game, rules: str) -> str:
    """A game's help mail: how to play it by mail, how to write a move, then
    the rules (`rules`: its rules document), as plain text, without the
    sections for programs."""
    opening, parts = sections(rules)
    writing = [text for title, text in parts if title == WRITING]
    rest = [text for title, text in parts if title not in (WRITING, *FOR_DEVELOPERS)]
    body = plain("".join([*writing, opening, *rest]))
    return by_mail(game) + body
