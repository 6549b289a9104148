"""Every command line reads into a command object, and every command object
has what runs it: text is only one door's way of writing commands."""

from __future__ import annotations

import pytest

from pbem.server import Server
from pbem.server.dispatch import read_command
from pbem.server.errors import CommandError
from pbem.server.language import commands
from pbem.server.language.registry import ACCOUNT_VERBS, GAME_VERBS, RUNNERS
from tests.server.test_commands import challenge

# One line for each form of every command, with the command it reads into.
LINES: dict[str, commands.Command] = {
    "help": commands.Help(),
    "help Trugo": commands.Help(game="trugo"),
    "signup ann pw": commands.Signup(userid="ann", password="pw"),
    "signup ann pw a@x.org": commands.Signup(userid="ann", password="pw", address="a@x.org"),
    "add ann pw b@x.org": commands.AddAddress(userid="ann", password="pw", address="b@x.org"),
    "add ann pw b@x.org c@x.org": commands.AddAddress(
        userid="ann", password="pw", address="b@x.org", also=("c@x.org",)
    ),
    "change Password ann pw new": commands.Change(
        what="password", userid="ann", password="pw", new="new"
    ),
    "change address ann pw c@x.org": commands.Change(
        what="address", userid="ann", password="pw", new="c@x.org"
    ),
    "list": commands.ListPlayers(),
    "vacation ann pw on": commands.Vacation(userid="ann", password="pw", state="on"),
    "signoff ann pw": commands.SignOff(userid="ann", password="pw"),
    "signon ann pw": commands.SignOn(userid="ann", password="pw"),
    "delete ann pw": commands.DeleteAccount(userid="ann", password="pw"),
    "broadcast ann pw": commands.Broadcast(userid="ann", password="pw"),
    "message ann pw bob": commands.Message(userid="ann", password="pw", to="bob"),
    "all show bob": commands.AllShow(player="bob"),
    "mail ann pw digest": commands.MailPreference(userid="ann", password="pw", preference="digest"),
    "stop ann 0a1b": commands.Stop(userid="ann", token="0a1b"),
    "vasco challenge ann bob -size=54 --nagtime=3": commands.Challenge(
        game="vasco", players=("ann", "bob"), options=("-size=54",), nag_days=3
    ),
    "vasco move 7 ann pw a0,0#3": commands.Move(
        game="vasco", board=7, userid="ann", password="pw", move="a0,0", number=3
    ),
    "vasco submit 7 ann pw a0,0": commands.Submit(
        game="vasco", board=7, userid="ann", password="pw", move="a0,0"
    ),
    "vasco confirm 7 ann pw": commands.Confirm(game="vasco", board=7, userid="ann", password="pw"),
    "vacu pass 7 ann pw#4": commands.Pass(
        game="vacu", board=7, userid="ann", password="pw", number=4
    ),
    "vasco chat 7 ann pw": commands.Chat(game="vasco", board=7, userid="ann", password="pw"),
    "vacu swap 7 ann pw": commands.Swap(game="vacu", board=7, userid="ann", password="pw"),
    "vasco resign 7 ann pw": commands.Resign(game="vasco", board=7, userid="ann", password="pw"),
    "trugo queue 7 ann pw c3 if b2": commands.Queue(
        game="trugo", board=7, userid="ann", password="pw", move="c3", condition="b2"
    ),
    "vasco propose 7 ann pw": commands.Propose(game="vasco", board=7, userid="ann", password="pw"),
    "vacu hint 7 ann pw": commands.Hint(game="vacu", board=7, userid="ann", password="pw"),
    "vacu challenge ann hardbot -size=5 --hints": commands.Challenge(
        game="vacu", players=("ann", "hardbot"), options=("-size=5",), hints=True
    ),
    "vasco undo 7 ann pw": commands.Undo(game="vasco", board=7, userid="ann", password="pw"),
    "vasco accept 7 ann pw": commands.Accept(game="vasco", board=7, userid="ann", password="pw"),
    "vasco accept ann pw": commands.AnswerChallenges(
        game="vasco", userid="ann", password="pw", accept=True
    ),
    "vasco reject 7 ann pw": commands.Reject(game="vasco", board=7, userid="ann", password="pw"),
    "vasco reject ann pw": commands.AnswerChallenges(
        game="vasco", userid="ann", password="pw", accept=False
    ),
    "vasco show 7#2": commands.Show(game="vasco", board=7, at=2),
    "vasco show ann bob Next": commands.ShowPlayers(
        game="vasco", players=("ann", "bob"), selector="next"
    ),
    "vasco showas 7 bob": commands.Show(game="vasco", board=7, player="bob"),
    "vasco show 7 8#3 9": commands.Show(game="vasco", board=7, also=((8, 3), (9, None))),
    "vasco show board 101": commands.Show(game="vasco", board=101),
    "vasco showas bob pw next": commands.ShowPlayers(
        game="vasco", players=("bob",), selector="next", password="pw"
    ),
    "vasco showas bob pw 7 8": commands.Show(
        game="vasco", board=7, also=((8, None),), player="bob", password="pw"
    ),
    "vasco preview 7#1 a0,0 b1,0": commands.Preview(
        game="vasco", board=7, at=1, moves=("a0,0", "b1,0")
    ),
    "vasco preview new 2 -size=54 a0,0": commands.Preview(
        game="vasco", board=None, options=("-size=54",), moves=("a0,0",)
    ),
    "vasco games": commands.Games(game="vasco"),
    "vasco games bob": commands.Games(game="vasco", players=("bob",)),
    "vasco games ann bob active": commands.Games(
        game="vasco", players=("ann", "bob"), selector="active"
    ),
    "vasco games next": commands.Games(game="vasco", selector="next"),
    "vasco history": commands.History(game="vasco"),
    "help tutorial": commands.Help(subject="tutorial"),
    "help commands": commands.Help(subject="commands"),
    "help trugo": commands.Help(game="trugo"),
    "list vacu": commands.ListPlayers(games=("vacu",)),
    "list vacu trugo": commands.ListPlayers(games=("vacu", "trugo")),
    "help vasco tutorial": commands.Help(game="vasco", more=("tutorial",)),
    "message ann pw bob carol": commands.Message(
        userid="ann", password="pw", to="bob", also=("carol",)
    ),
    "signup ann pw a@x.org b@x.org": commands.Signup(
        userid="ann", password="pw", address="a@x.org", also=("b@x.org",)
    ),
    "all show ann next": commands.AllShow(player="ann", selector="next"),
    "vasco standings": commands.Standings(game="vasco"),
    "vasco ratings": commands.Standings(game="vasco"),
    "vasco history bob": commands.History(game="vasco", player="bob"),
    "vasco limit ann pw none": commands.Limit(
        game="vasco", userid="ann", password="pw", limit=None
    ),
    "vasco limit ann pw 5": commands.Limit(game="vasco", userid="ann", password="pw", limit=5),
    "vasco limit ann pw": commands.Limit(game="vasco", userid="ann", password="pw", choice="show"),
    "vasco limit ann pw reject": commands.Limit(
        game="vasco", userid="ann", password="pw", choice="reject"
    ),
    "vasco seek ann pw": commands.Seek(game="vasco", userid="ann", password="pw"),
    "vasco seek ann pw 2": commands.Seek(game="vasco", userid="ann", password="pw", count=2),
    "vasco subscribe ann pw 7 8 all": commands.Subscribe(
        game="vasco", userid="ann", password="pw", boards=(7, 8), new_boards=True
    ),
    "vasco unsubscribe ann pw 7": commands.Subscribe(
        game="vasco", userid="ann", password="pw", boards=(7,), add=False
    ),
    "vasco notify ann pw off": commands.Notify(game="vasco", userid="ann", password="pw", on=False),
    "vasco notify ann pw": commands.Notify(game="vasco", userid="ann", password="pw"),
    "vasco notify ann pw 7 8": commands.Notify(
        game="vasco", userid="ann", password="pw", boards=(7, 8)
    ),
    "vasco newboards ann pw on": commands.NewBoards(
        game="vasco", userid="ann", password="pw", on=True
    ),
    "vasco help": commands.Help(game="vasco"),
    "vasco challenge ann bob --unrated": commands.Challenge(
        game="vasco", players=("ann", "bob"), unrated=True
    ),
    "vasco open ann pw": commands.PostOpen(game="vasco", userid="ann", password="pw"),
    "vasco open ann pw -size=30 --rating=1400-1800 --days=3 --nagtime=2 --forfeittime=9 "
    "--totaltime=30 --hints --unrated": commands.PostOpen(
        game="vasco",
        userid="ann",
        password="pw",
        options=("-size=30",),
        min_rating=1400,
        max_rating=1800,
        days=3,
        nag_days=2,
        forfeit_days=9,
        total_days=30,
        hints=True,
        unrated=True,
    ),
    "vasco open ann pw --rating=1500-": commands.PostOpen(
        game="vasco", userid="ann", password="pw", min_rating=1500
    ),
    "vasco games open": commands.OpenChallenges(game="vasco"),
    "vasco take 3 ann pw": commands.TakeOpen(game="vasco", number=3, userid="ann", password="pw"),
    "vasco withdraw 3 ann pw": commands.WithdrawOpen(
        game="vasco", number=3, userid="ann", password="pw"
    ),
}


@pytest.mark.parametrize("line", LINES)
def test_each_form_reads_into_its_command(line: str) -> None:
    assert read_command(line, "") == LINES[line]
    assert read_command(line, "a comment").comment == "a comment"


@pytest.mark.parametrize("line", LINES)
def test_a_commands_text_reads_back_into_it(line: str) -> None:
    """`text()` writes the mail form, with the password (and a stop token)
    as a placeholder: put them back and it reads into the same command."""
    command = LINES[line]
    text = command.text().replace(" NEWPASSWORD", " new").replace(" TOKEN", " 0a1b")
    text = text.replace(" PLAYERS ", " 2 ").replace(" PASSWORD", " pw")
    assert read_command(text, "") == command


def test_every_command_word_has_a_form_here_and_every_command_a_runner() -> None:
    read = {type(command) for command in LINES.values()}
    runs = set(RUNNERS)
    assert read == runs
    written = {line.split()[0].lower() for line in LINES} | {
        line.split()[1].lower() for line in LINES if line.split()[0] in ("vasco", "vacu", "trugo")
    }
    assert {verb.name for verb in ACCOUNT_VERBS} - {"multiple"} <= written
    assert {verb.name for verb in GAME_VERBS} <= written


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("vasco show 7#x", "After '#' comes a move's number"),
        ("vasco limit ann pw lots", "0 to 1000"),
        ("vasco seek ann pw -1", "0 to 100"),
        ("vasco notify ann pw maybe", "on|off"),
        ("vasco newboards ann pw maybe", "on|off"),
        ("vasco subscribe ann pw seven", "not a board number"),
        ("vasco show a b c d e", "one to four players"),
        ("vasco preview new 3 a0,0", "played by 2"),
        ("change name ann pw x", "change password USERID PASSWORD NEWPASSWORD"),
        ("all list bob", "all show USERID"),
        ("help chess", "chess"),
    ],
)
def test_words_that_cannot_be_read_say_how_to_write_them(line: str, said: str) -> None:
    with pytest.raises(CommandError, match=said):
        read_command(line, "")


def test_a_runner_checks_what_a_door_may_build_unread(server: Server) -> None:
    """Doors that build commands skip the reader; the runner still refuses
    what the reader would have."""
    challenge(server)
    for command, said in [
        (commands.Limit(game="vasco", userid="bob", limit=5000), "0 to 1000"),
        (commands.Seek(game="vasco", userid="bob", count=500), "0 to 100"),
        (commands.ShowPlayers(game="vasco", players=(), selector="active"), "one to four"),
        (commands.ShowPlayers(game="vasco", players=("bob",), selector="odd"), "one of"),
        (commands.Subscribe(game="vasco", userid="bob"), "Name the boards"),
        (commands.Show(game="vasco", board=1, at=9), "Board 1 has moves 0 to 0"),
        (commands.Preview(game="vasco", board=1, moves=()), "Name the moves"),
    ]:
        (refusal,) = server.execute(command, as_user="bob").mails
        assert said in (refusal.error or ""), command


def test_signup_is_a_command_too(server: Server) -> None:
    (refusal,) = server.execute(
        commands.Signup(userid="zed", password="a long pass", address="z@example.org"),
        as_user=None,
    ).mails
    assert "no spaces" in (refusal.error or "")  # every door: a mail command could not hold it
    sent = server.execute(
        commands.Signup(userid="zed", password="longpass", address="z@example.org"),
        as_user=None,
    )
    assert [message.to for message in sent.mails] == [("z@example.org",)]
    (refusal,) = server.execute(
        commands.Signup(userid="zed2", password="pw22", address="z@example.org"), as_user=None
    ).mails
    assert "already belongs to an account" in (refusal.error or "")
