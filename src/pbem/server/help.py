"""Help texts: the server's command list and each game's rules document."""

from __future__ import annotations

from ..games import GAMES

COMMANDS = """\
Commands go in the Subject of a mail (or `pbem send`); the body is a comment.
Words are separated by spaces; userids and commands ignore case.

  help [GAME]                         this list, or a game's rules
  signup USERID PASSWORD [ADDRESS]    make an account (ADDRESS: the sender's)
  add USERID PASSWORD ADDRESS         send commands from another address too
  change password USERID PASSWORD NEWPASSWORD
  change address USERID PASSWORD NEWADDRESS
                                      where your mail goes
  list                                the players
  vacation USERID PASSWORD on|off     no reminders or forfeits while away
  signoff USERID PASSWORD             leave: resign every board, no more mail
  signon USERID PASSWORD              come back after a signoff
  delete USERID PASSWORD              remove an account that never played
  broadcast USERID PASSWORD           (administrators) the body to everyone
  message USERID PASSWORD TOUSERID    the body goes to that player
  all show USERID                     every active board of a player
  multiple                            each line of the body is a command
  mail USERID PASSWORD every|digest|none
                                      which mail you want: every board mail,
                                      one mail a day listing boards awaiting
                                      you, or none
  stop USERID TOKEN                   no more mail, by the token in a mail's
                                      List-Unsubscribe header
  GAME challenge USER1 USER2 [-OPTION ...] [--nagtime=D] [--forfeittime=D]
                 [--totaltime=D]      start a board; USER1 moves first
  GAME move BOARD USERID PASSWORD MOVE[#N]
                                      play MOVE; #N (the move's number) makes
                                      a stale or repeated mail harmless
  GAME submit BOARD USERID PASSWORD MOVE[#N]
                                      see the board after MOVE first ...
  GAME confirm BOARD USERID PASSWORD  ... then play it
  GAME pass BOARD USERID PASSWORD[#N] pass, in the games that allow it
  GAME chat BOARD USERID PASSWORD     the body goes to the other players
  GAME swap BOARD USERID PASSWORD[#N] the swap step (Vacu: take Black)
  GAME resign BOARD USERID PASSWORD   resign (out of turn: when the turn comes;
                                      before your first move: decline)
  GAME queue BOARD USERID PASSWORD MOVE [if THEIRMOVE]
                                      play MOVE at your next turn (only if
                                      the opponent played THEIRMOVE)
  GAME propose|undo BOARD USERID PASSWORD
                                      propose a draw, or taking back the last
                                      move; every player must accept
  GAME accept|reject BOARD USERID PASSWORD
                                      vote for or against what is proposed
  GAME accept|reject USERID PASSWORD  accept or decline every open challenge
  GAME show BOARD[#N]                 the board (as it was after move N)
  GAME show USERID ... [all|active|inactive|next]
                                      the boards those players share (next:
                                      the first awaiting the first one)
  GAME showas BOARD[#N] USERID        the board as that player sees it
  GAME preview BOARD[#N] MOVE ...     what the moves would do; nothing is
  GAME preview new PLAYERS MOVE ...   stored (new: on a new board)
  GAME games [USERID]                 the boards of a player (default: yours)
  GAME standings (or ratings)         the players, best first
  GAME history USERID                 a player's finished boards and ratings
  GAME limit USERID PASSWORD N|none   the most boards of the game at once
  GAME seek USERID PASSWORD N         how many new boards you would like
  GAME subscribe|unsubscribe USERID PASSWORD BOARD ...|all
                                      copies of boards' mails (all: of
                                      every new board of the game)
  GAME notify USERID PASSWORD on|off  a mail for each new board of the game
  GAME help                           the rules of the game

Games: {games}.
"""


def command_list() -> str:
    return COMMANDS.format(games=", ".join(GAMES))
