"""Mails that tell the whole story, through the real mail door (mails with a
Message-ID into the SMTP listener, the answers read as the relay received
them): comments passed on with every command that takes one, new boards
and undo, swaps and colour choices that say what happened, the board at an
earlier move said to be that, the nag with its board, and the last mail of
a game, for each way a game ends, with the winner, the dates, the time
taken and the rating changes worked out by hand."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tests.mail.conftest import Door


@dataclass(frozen=True)
class Mail:
    to: str
    subject: str
    text: str


def exchange(door: Door, sender: str, subject: str, body: str = "") -> list[Mail]:
    """Mail a command to the listener, deliver what it queued, and return
    the mails the outside world got."""
    before = len(door.world.mails)
    door.send(sender, subject, body)
    door.deliver()
    return received(door, before)


def tick(door: Door) -> list[Mail]:
    """Run the periodic job, deliver what it queued, and return the mails
    the outside world got."""
    before = len(door.world.mails)
    door.server.tick()
    door.deliver()
    return received(door, before)


def received(door: Door, before: int) -> list[Mail]:
    mails = []
    for message in door.world.mails[before:]:
        part = message.get_body(preferencelist=("plain",))
        assert part is not None
        text = part.get_content().replace("\r\n", "\n")
        mails.append(Mail(str(message["To"]), str(message["Subject"]), text))
    return mails


def to(mails: list[Mail], address: str) -> Mail:
    [mail] = [mail for mail in mails if mail.to == address]
    return mail


ANN, BOB = "ann@example.org", "bob@example.org"


def players(door: Door, game: str = "vasco -size=3") -> None:
    exchange(door, ANN, "signup ann annpass1")
    exchange(door, BOB, "signup bob bobpass1")
    exchange(door, ANN, f"{game.split()[0]} challenge ann bob {' '.join(game.split()[1:])}")


def test_a_new_board_has_pbmserv_subject_and_the_challengers_words(door: Door) -> None:
    exchange(door, ANN, "signup ann annpass1")
    exchange(door, BOB, "signup bob bobpass1")
    mails = exchange(door, ANN, "vasco challenge ann bob -size=3", "Best of three?")
    assert {m.subject for m in mails} == {"New Vasco Board 1 ann **"}
    told = to(mails, BOB).text
    assert "from a challenge sent by ann." in told
    assert "Challenger writes:\n> Best of three?" in told
    assert "example.org" not in told


def test_a_resignation_with_its_comment_ends_in_a_rated_game_over_mail(door: Door) -> None:
    players(door)
    exchange(door, ANN, "vasco move 1 ann annpass1 a0,0#1")
    door.clock.advance(hours=5)
    exchange(door, BOB, "vasco move 1 bob bobpass1 b1,0#2")
    door.clock.advance(days=2, hours=3)
    mails = exchange(door, ANN, "vasco resign 1 ann annpass1", "Well played.")
    assert {m.to for m in mails} == {ANN, BOB}
    assert {m.subject for m in mails} == {"Vasco Board 1 game over **"}
    text = to(mails, BOB).text
    lines = text.splitlines()
    assert lines[0] == "Game over: ann resigned; bob wins."
    assert lines[1] == "Started 2026-11-21 09:00 UTC, ended 2026-11-23 17:00 UTC, after 2 moves."
    # ann moved at once, then waited 2 days 3 hours before resigning; bob took 5 hours
    assert lines[2] == "Time taken: ann 2 days 3 hours, bob 5 hours."
    # both provisional and new: each game is worth the average of both
    # ratings (1600) plus or minus 200, pulled by (1720 - 1600) / 5 = 24
    assert lines[3] == "ann's rating went down from 1600 to 1424 (provisional)."
    assert lines[4] == "bob's rating went up from 1600 to 1824 (provisional)."
    assert "Comment from ann:\n> Well played." in text
    assert text.count("Game over") == 2  # the story's line, and the board's status


def test_a_game_won_by_the_rules_names_the_winner(door: Door) -> None:
    players(door)
    exchange(door, ANN, "vasco move 1 ann annpass1 a0,0")
    mails = exchange(door, BOB, "vasco move 1 bob bobpass1 a-1,-1")
    text = to(mails, ANN).text
    assert mails[0].subject == "Vasco Board 1 game over"
    assert text.startswith("Game over: bob wins; the pool is empty and no loop was closed;")
    assert "ann's rating went down from 1600 to 1424 (provisional)." in text


def test_a_declined_challenge_passes_the_comment_on_and_is_not_rated(door: Door) -> None:
    players(door)
    mails = exchange(door, BOB, "vasco resign 1 bob bobpass1", "Not this week, sorry.")
    text = to(mails, ANN).text
    assert to(mails, ANN).subject == "Vasco Board 1 game over **"
    assert text.startswith("Game over: bob declined the challenge; not rated.\n")
    assert "This game was not rated." in text
    assert "Comment from bob:\n> Not this week, sorry." in text


def test_a_draw_proposed_and_accepted_with_comments(door: Door) -> None:
    players(door)
    exchange(door, ANN, "vasco move 1 ann annpass1 a0,0")
    proposed = exchange(door, BOB, "vasco propose 1 bob bobpass1", "Call it even?")
    assert {m.subject for m in proposed} == {"Vasco Board 1 draw proposed **"}
    assert "bob proposes a draw on board 1. Waiting for: ann." in to(proposed, ANN).text
    assert "bob writes:\n> Call it even?" in to(proposed, ANN).text
    drawn = exchange(door, ANN, "vasco accept 1 ann annpass1", "Gladly.")
    text = to(drawn, BOB).text
    assert to(drawn, BOB).subject == "Vasco Board 1 game over **"
    assert text.startswith("Game over: drawn by agreement.\n")
    assert "ann's rating went up from 1600 to 1624 (provisional)." in text  # the pull
    assert "Comment from ann:\n> Gladly." in text


def test_an_undo_says_what_was_taken_back_and_a_rejection_passes_its_comment(
    door: Door,
) -> None:
    players(door)
    exchange(door, ANN, "vasco move 1 ann annpass1 a0,0")
    exchange(door, BOB, "vasco move 1 bob bobpass1 b1,0")
    asked = exchange(door, BOB, "vasco undo 1 bob bobpass1", "Misclick!")
    assert to(asked, ANN).subject == "Vasco Board 1 undo proposed **"
    assert "bob writes:\n> Misclick!" in to(asked, ANN).text
    rejected = exchange(door, ANN, "vasco reject 1 ann annpass1", "No takebacks.")
    assert to(rejected, BOB).subject == "Vasco Board 1 proposal rejected **"
    assert "ann writes:\n> No takebacks." in to(rejected, BOB).text
    exchange(door, BOB, "vasco undo 1 bob bobpass1")
    undone = exchange(door, ANN, "vasco accept 1 ann annpass1", "Just this once.")
    text = to(undone, BOB).text
    assert to(undone, BOB).subject == "Vasco Board 1 bob **"
    assert text.startswith(
        "UNDO successful: move 2 (b1,0 by bob) was taken back, as every player agreed.\n"
    )
    assert "Comment from ann:\n> Just this once." in text


@pytest.mark.parametrize(
    ("second", "said"),
    [
        ("vacu move 1 bob bobpass1 white", "bob has chosen the colours: ann plays Black (X), "
         "bob plays White (O)."),
        ("vacu swap 1 bob bobpass1", "bob has swapped sides: ann plays White (O), "
         "bob plays Black (X)."),
    ],
)  # fmt: skip
def test_a_colour_choice_and_a_swap_say_who_plays_what(door: Door, second: str, said: str) -> None:
    players(door, "vacu -size=5")
    exchange(door, ANN, "vacu move 1 ann annpass1 komi3")
    mails = exchange(door, BOB, second)
    assert {m.to for m in mails} == {ANN, BOB}
    assert to(mails, ANN).text.startswith(said + "\n\n")


def test_show_at_an_earlier_move_says_so(door: Door) -> None:
    players(door)
    exchange(door, ANN, "vasco move 1 ann annpass1 a0,0")
    exchange(door, BOB, "vasco move 1 bob bobpass1 b1,0")
    [shown] = exchange(door, "carol@example.org", "vasco show 1#1")
    assert shown.subject == "Vasco Board 1 after move 1"
    assert shown.text.startswith(
        "Board 1 as it was after move 1, not as it is now (at move 3: 'vasco show 1' shows it)."
    )
    assert "b1,0" not in shown.text.split("Moves:")[1]
    [now] = exchange(door, "carol@example.org", "vasco show 1")
    assert now.subject == "Vasco Board 1 ann"


def test_the_nag_carries_the_board_and_the_forfeit_ends_the_game(door: Door) -> None:
    players(door, "vasco -size=3 --nagtime=1 --forfeittime=3")
    exchange(door, ANN, "vasco move 1 ann annpass1 a0,0")
    exchange(door, BOB, "vasco move 1 bob bobpass1 b1,0")
    door.clock.advance(days=1, hours=1)
    [nag] = tick(door)
    assert (nag.to, nag.subject) == (ANN, "Vasco Board 1 ann (reminder)")
    assert nag.text.startswith("It has been your move on board 1 for 1 day.")
    assert "Moves:\n    1. ann        a0,0     2. bob        b1,0" in nag.text
    assert "Last move: b1,0 by Blue (X)." in nag.text

    door.clock.advance(days=2)
    mails = tick(door)
    text = to(mails, BOB).text
    assert to(mails, BOB).subject == "Vasco Board 1 game over"
    assert text.startswith("Game over: ann forfeited: no move in 3 days; bob wins.\n")
    assert "Time taken: ann 3 days 1 hour, bob under a minute." in text
    assert "bob's rating went up from 1600 to 1824 (provisional)." in text


def test_chat_and_proposals_reach_subscribers_and_anyone_may_chat(door: Door) -> None:
    carol, dave = "carol@example.org", "dave@example.org"
    players(door)
    exchange(door, carol, "signup carol carolpw1")
    exchange(door, dave, "signup dave davepass1")
    exchange(door, carol, "vasco subscribe carol carolpw1 1")
    mails = exchange(door, ANN, "vasco chat 1 ann annpass1", "Nice opening?")
    assert {m.to for m in mails if "chat from ann" in m.subject} == {BOB, carol}
    assert to(mails, ANN).text.startswith("Your message went to bob, carol.\n")
    mails = exchange(door, dave, "vasco chat 1 dave davepass1", "Watching with interest.")
    assert {m.to for m in mails if "chat from dave" in m.subject} == {ANN, BOB, carol}
    proposed = exchange(door, BOB, "vasco propose 1 bob bobpass1")
    assert {m.to for m in proposed} == {ANN, BOB, carol}
    rejected = exchange(door, ANN, "vasco reject 1 ann annpass1")
    assert {m.to for m in rejected} == {ANN, BOB, carol}


def test_the_game_over_mail_gives_pbmserv_ratings_with_the_pull_towards_1720(
    door: Door,
) -> None:
    """pbmserv's (R*g + v)/(g+1) + (1720 - R)/5 with R the player's own
    rating: two established players (averaging 1820) change nothing, each
    newcomer is pulled by (1720 - 1600) / 5 = 24: 1800 + 24 and 1400 + 24."""
    from sqlalchemy import select

    from pbem.store import Rating, User

    exchange(door, "carol@example.org", "signup carol carolpw1")
    exchange(door, "dave@example.org", "signup dave davepass1")
    with door.server.sessions.begin() as session:
        for name, rating in (("carol", 1800), ("dave", 1840)):
            user = session.scalar(select(User).where(User.userid_key == name))
            assert user is not None
            session.add(
                Rating(user_id=user.id, game="vasco", rating=rating, games=25,
                       last_played=door.clock())
            )  # fmt: skip
    players(door)
    exchange(door, ANN, "vasco move 1 ann annpass1 a0,0")
    mails = exchange(door, BOB, "vasco move 1 bob bobpass1 a-1,-1")
    text = to(mails, ANN).text
    assert "ann's rating went down from 1600 to 1424 (provisional)." in text
    assert "bob's rating went up from 1600 to 1824 (provisional)." in text


def test_a_player_may_play_both_seats_of_a_board_they_start_and_it_is_never_rated(
    door: Door,
) -> None:
    exchange(door, ANN, "signup ann annpass1")
    exchange(door, BOB, "signup bob bobpass1")
    [refused] = exchange(door, ANN, "vasco challenge bob bob")
    assert "only on a board they start themselves" in refused.text
    [new] = exchange(door, ANN, "vasco challenge ann ann -size=3")  # one mail, not two
    assert (new.to, new.subject) == (ANN, "New Vasco Board 1 ann")
    [first] = exchange(door, ANN, "vasco move 1 ann annpass1 a0,0#1")
    assert first.subject == "Vasco Board 1 ann"  # ann again, on the other seat
    [over] = exchange(door, ANN, "vasco move 1 ann annpass1 a-1,-1#2")
    assert over.subject == "Vasco Board 1 game over"
    assert "This game was not rated." in over.text
    [listed] = exchange(door, BOB, "list vasco")
    assert "  ann  rating 1600, 0 games" in listed.text  # the board counted for nothing


def test_notify_tells_when_boards_end_and_newboards_announces_new_ones(door: Door) -> None:
    carol, dave = "carol@example.org", "dave@example.org"
    exchange(door, carol, "signup carol carolpw1")
    exchange(door, dave, "signup dave davepass1")
    [on] = exchange(door, carol, "vasco notify carol carolpw1")  # alone: on, as a toggle
    assert "carol gets a mail when any Vasco board ends." in on.text
    exchange(door, dave, "vasco newboards dave davepass1 on")
    exchange(door, ANN, "signup ann annpass1")
    exchange(door, BOB, "signup bob bobpass1")
    mails = exchange(door, ANN, "vasco challenge ann bob -size=3")
    [news] = [m for m in mails if m.to == dave]
    assert news.subject == "Vasco Board 1 started"
    assert "'vasco newboards dave PASSWORD off' stops these mails." in news.text
    exchange(door, ANN, "vasco move 1 ann annpass1 a0,0")
    mails = exchange(door, BOB, "vasco resign 1 bob bobpass1")
    [told] = [m for m in mails if m.to == carol]
    assert told.subject == "Vasco Board 1 is over"
    assert told.text.startswith(
        "Vasco board 1 (ann against bob) is over.\nGame over: bob declined the challenge"
    )
    [off] = exchange(door, carol, "vasco notify carol carolpw1")  # again: off
    assert "carol gets no mail when Vasco boards end." in off.text
    exchange(door, ANN, "vasco challenge ann bob -size=3")
    exchange(door, dave, "vasco notify dave davepass1 2")  # this board alone
    exchange(door, ANN, "vasco move 2 ann annpass1 a0,0")
    mails = exchange(door, BOB, "vasco resign 2 bob bobpass1")
    assert {m.to for m in mails if "is over" in m.subject} == {dave}


def test_accepting_a_challenge_passes_the_comment_on(door: Door) -> None:
    players(door)
    mails = exchange(door, BOB, "vasco accept bob bobpass1", "Game on!")
    told = to(mails, ANN)
    assert told.subject == "Vasco Board 1 accepted by bob **"
    assert "bob writes:\n> Game on!" in told.text
