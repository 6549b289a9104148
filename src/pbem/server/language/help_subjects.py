"""The subjects `help` knows besides the command list and each game's rules:
`help tutorial`, `help ratings`, `help timing`, `help mail`. Every example
in them is a command the server takes as written (a test mails each)."""

from __future__ import annotations

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
