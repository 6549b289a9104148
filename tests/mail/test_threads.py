"""A board's mails thread for every reader: through the SMTP listener and
the relay, each mail of board 1 (the new board, the moves, the chat, an
error) carries the root `<board-1@DOMAIN>` first in `References`, the
opponent's too, whose mails answer no mail of theirs."""

from __future__ import annotations

from tests.mail.conftest import Door

ANN, BOB = "ann@example.org", "bob@example.org"


def test_every_mail_of_a_board_shares_its_root_for_both_players(door: Door) -> None:
    door.send(ANN, "signup ann annpass1")
    door.send(BOB, "signup bob bobpass1")
    door.send(ANN, "vasco challenge ann bob")
    door.send(ANN, "vasco move 1 ann annpass1 a0,0#1")
    door.send(BOB, "Re: Vasco Board 1 bob", "Hello")  # (an error about the board)
    door.send(BOB, "vasco chat 1 bob bobpass1", "Good luck!")
    while door.deliver():
        pass
    of_board = [m for m in door.world.mails if "Board 1" in str(m["Subject"])]
    readers = {str(m["To"]) for m in of_board}
    assert readers == {ANN, BOB}
    assert len(of_board) >= 6
    for mail in of_board:
        assert str(mail["References"]).split()[0] == "<board-1@games.test>", mail["Subject"]
    signups = [m for m in door.world.mails if str(m["Subject"]).startswith("pbem signup")]
    assert signups and not any("board-" in str(m["References"]) for m in signups)
