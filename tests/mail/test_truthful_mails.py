"""Mails that say what is true for the one who reads them (issue 49), through
the real mail door (mails with a Message-ID into the SMTP listener, the
answers as the relay got them): whose open challenge a board came from, who
may decline a board and how, what a bot's first move may cost, what a
reminder's deadline will do, every move of a finished game, and the exact
command a step of the game asks for."""

from __future__ import annotations

import pytest

from pbem.games import get_game
from tests.mail.conftest import Door
from tests.mail.test_story_by_mail import ANN, BOB, exchange, players, tick, to
from tests.mail.test_veteran_forms import examples_play_as_written

CAT, WENDY = "cat@example.org", "wendy@example.org"


def test_a_taken_open_challenge_names_its_poster_and_passes_on_both_comments(
    door: Door,
) -> None:
    exchange(door, CAT, "signup cat catpass1")
    exchange(door, WENDY, "signup wendy wendypass1")
    exchange(door, CAT, "trugo open cat catpass1 -size=20 --days=2", "A long one?")
    mails = exchange(door, WENDY, "trugo take 1 wendy wendypass1", "Happy to play, wendy!")
    assert {m.to for m in mails} == {CAT, WENDY}
    assert {m.subject for m in mails} == {"New Trugo Board 1 cat **"}
    for mail in mails:
        assert mail.text.startswith("cat's open Trugo challenge 1, taken by wendy.\n")
        assert "decline" not in mail.text.lower()  # both chose it: no decline advice
        assert "resigning before a first move is a loss like any other" in mail.text
        assert "cat, posting the challenge, writes:\n> A long one?" in mail.text
        assert "wendy writes:\n> Happy to play, wendy!" in mail.text
    # and that is the truth: cat's resignation now is a rated loss
    over = exchange(door, CAT, "trugo resign 1 cat catpass1")
    assert to(over, CAT).text.startswith("Game over: cat resigned; wendy wins.\n")
    assert "This game was not rated." not in to(over, CAT).text


def test_only_the_challenged_player_is_told_how_to_decline_with_their_userid(
    door: Door,
) -> None:
    players(door)  # ann challenges bob
    mails = exchange(door, ANN, "vasco challenge ann bob -size=3")
    told_bob, told_ann = to(mails, BOB).text, to(mails, ANN).text
    assert (
        "To decline, resign before your first move ('vasco resign 2 bob PASSWORD'); a "
        "declined board is not rated. 'vasco accept bob PASSWORD' accepts." in told_bob
    )
    assert "USERID" not in told_bob and "USERID" not in told_ann
    assert "To decline" not in told_ann
    assert "You sent this challenge, so you cannot decline it: resigning is a loss." in told_ann


def test_the_challenger_cannot_decline_their_own_challenge(door: Door) -> None:
    players(door)
    mails = exchange(door, ANN, "vasco resign 1 ann annpass1")  # before any move
    text = to(mails, BOB).text
    assert text.startswith("Game over: ann resigned; bob wins.\n")
    assert "declined" not in text
    # the challenged player still declines: that board is declined, not drawn
    exchange(door, ANN, "vasco challenge ann bob -size=3")
    declined = exchange(door, BOB, "vasco resign 2 bob bobpass1")
    said = to(declined, ANN).text
    assert said.startswith("Game over: bob declined the challenge; not rated.\n")
    assert "draw" not in said.lower()


def test_a_board_against_a_bot_says_its_first_move_may_take_a_minute(door: Door) -> None:
    exchange(door, ANN, "signup ann annpass1")
    [mail] = exchange(door, ANN, "vacu challenge ann easybot -size=5")
    assert "easybot (a bot) accepts at once. Its first move may take a minute if easybot " in (
        mail.text
    )
    assert "is warming up" in mail.text and "after that its moves come in seconds" in mail.text


def test_a_reminder_under_a_pending_draw_says_the_board_is_drawn(door: Door) -> None:
    players(door, "vasco -size=3 --nagtime=1 --forfeittime=3")
    exchange(door, ANN, "vasco move 1 ann annpass1 a0,0")
    exchange(door, ANN, "vasco propose 1 ann annpass1")  # bob to move, a draw proposed
    door.clock.advance(days=1, hours=1)
    nags = tick(door)
    nag = next(m for m in nags if m.subject == "Vasco Board 1 bob (reminder)")
    assert "without a move by 2026-11-24 09:00 UTC, the board is drawn." in nag.text
    assert "you forfeit" not in nag.text
    door.clock.advance(days=2)
    ended = tick(door)
    assert to(ended, BOB).text.startswith("Game over: drawn: the proposal stood unanswered")


def test_a_reminder_of_an_unanswered_challenge_says_it_will_not_start(door: Door) -> None:
    exchange(door, ANN, "signup ann annpass1")
    exchange(door, BOB, "signup bob bobpass1")
    exchange(door, ANN, "vacu challenge ann bob -komi=3 --nagtime=1 --forfeittime=3")
    exchange(door, ANN, "vacu move 1 ann annpass1 e5")
    door.clock.advance(days=1, hours=1)
    [nag] = tick(door)
    assert nag.to == BOB
    assert "It has been your move on board 1 for 1 day." in nag.text
    assert "without a move by 2026-11-24 09:00 UTC, the board simply ends unplayed" in nag.text
    assert "'vacu resign 1 bob PASSWORD'" in nag.text
    assert "you forfeit" not in nag.text
    door.clock.advance(days=2)
    ended = tick(door)
    assert to(ended, ANN).text.startswith("Game over: bob never answered the challenge")


def test_a_digest_names_no_one_on_a_board_played_alone_and_offers_no_digest(
    door: Door,
) -> None:
    exchange(door, ANN, "signup ann annpass1")
    exchange(door, ANN, "vasco challenge ann ann -size=3")
    exchange(door, ANN, "mail ann annpass1 digest")
    door.clock.advance(days=1, hours=1)
    [digest] = tick(door)
    assert digest.subject == "pbem digest ann: 1 board awaits you"
    assert "Vasco board 1 (you play both sides), move 1, waiting 1 day\n" in digest.text
    assert "against ," not in digest.text
    assert "who chose one digest a day" in digest.text
    assert "'mail ann PASSWORD digest'" not in digest.text


def test_the_game_over_mail_lists_every_move(door: Door) -> None:
    players(door, "vacu -size=9 -komi=3")
    state = get_game("vacu").start(["-size=9", "-komi=3"])
    for number in range(1, 26):
        going_on = (m for m in state.legal_moves() if state.play(m).result is None)
        text = state.move_text(next(going_on))
        state = state.play_text(text)
        who, sender = ("ann", ANN) if number % 2 else ("bob", BOB)
        mails = exchange(door, sender, f"vacu move 1 {who} {who}pass1 {text}#{number}")
        if number == 25:
            assert "... 5 earlier moves" in to(mails, ANN).text  # a game on: the last 20
    over = to(exchange(door, BOB, "vacu resign 1 bob bobpass1"), ANN).text
    assert "earlier moves" not in over
    assert "    1. ann " in over and "   25. ann " in over


def test_subscribing_to_a_finished_board_is_refused_with_the_reason(door: Door) -> None:
    players(door)
    exchange(door, BOB, "vasco resign 1 bob bobpass1")  # declined: board 1 is over
    exchange(door, ANN, "vasco challenge ann bob -size=3")
    exchange(door, "carol@example.org", "signup carol carolpass1")
    [refused] = exchange(door, "carol@example.org", "vasco subscribe carol carolpass1 1")
    assert refused.subject == "Vasco Board 1 Error"
    assert refused.text.startswith(
        "Board 1 is over, so no mail will come of it: nothing to subscribe to. "
        "'vasco show 1' shows the game as it ended."
    )
    [both] = exchange(door, "carol@example.org", "vasco subscribe carol carolpass1 1 2")
    assert both.text.startswith(
        "carol gets copies of the mails of board 2. Board 1 is over, so no mail will come "
        "of it: not subscribed.\n"
    )


def test_the_komi_step_names_the_players_and_the_command_to_send(door: Door) -> None:
    players(door, "vacu -size=5")
    mails = exchange(door, ANN, "vacu challenge ann bob -size=5")
    for mail in mails:
        assert (
            "ann names the komi, then bob chooses a colour. ann sends 'vacu move 2 ann "
            "PASSWORD komi6#1' (any whole number in place of 6)." in mail.text
        )
        assert "For example: komi6 (White gets 6 points, or Black with komi-6)." in mail.text
    sent = "vacu move 2 ann PASSWORD komi6#1".replace("PASSWORD", "annpass1")
    mails = exchange(door, ANN, sent)
    told = to(mails, BOB).text
    assert "bob chooses a colour: 'vacu move 2 bob PASSWORD black#2' or 'vacu move 2 bob " in told
    assert "For example: black (or white)." in told
    mails = exchange(door, BOB, "vacu move 2 bob bobpass1 black#2")
    assert all("Error" not in m.subject for m in mails)
    assert "names the komi" not in to(mails, ANN).text


@pytest.mark.parametrize(("game", "plies"), [
    ("vacu", 2), ("vacu", 9), ("convacu", 2), ("convacu", 7),
])  # fmt: skip
def test_every_vacu_example_a_board_mail_shows_plays_as_written(
    door: Door, game: str, plies: int
) -> None:
    """Vacu and Convacu board mails have their 'For example' line as the
    other games do; each move it offers, mailed as written, is played."""
    examples_play_as_written(door, game, "-size=5 -komi=2", plies)


def test_a_totaltime_board_mail_shows_each_players_time_used_and_left(door: Door) -> None:
    players(door, "vasco -size=12 --totaltime=10")
    door.clock.advance(hours=5)
    exchange(door, ANN, "vasco move 1 ann annpass1 a0,0")
    door.clock.advance(days=1, hours=2)
    mails = exchange(door, BOB, "vasco move 1 bob bobpass1 b1,0")
    line = (
        "Time (10 days each): ann used 5 hours, 9 days 19 hours left; "
        "bob used 1 day 2 hours, 8 days 22 hours left."
    )
    assert {to(mails, who).text.count(line) for who in (ANN, BOB)} == {1}
    door.clock.advance(days=2)  # ann's wait counts as hers, in bob's queued board
    [queued] = exchange(door, BOB, "vasco queue 1 bob bobpass1 c2,0")
    assert "ann used 2 days 5 hours, 7 days 19 hours left;" in queued.text
    over = exchange(door, ANN, "vasco resign 1 ann annpass1")
    assert "Time (10 days each)" not in to(over, BOB).text  # the story says the time taken


def test_answers_about_one_challenge_say_it_in_the_singular(door: Door) -> None:
    players(door)  # board 1: ann's challenge to bob
    [accepted] = exchange(door, BOB, "vasco accept bob bobpass1")[-1:]
    assert accepted.text.startswith(
        "You accept the Vasco challenge on board 1. Resigning now counts as a loss"
    )
    exchange(door, ANN, "vasco challenge ann bob -size=3")
    exchange(door, ANN, "vasco challenge ann bob -size=3")
    [declined] = exchange(door, BOB, "vasco reject bob bobpass1")[-1:]
    assert declined.text.startswith("You declined the Vasco challenges on boards 2, 3. ")
