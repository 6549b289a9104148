"""Dispatch goes by the registry of commands: every word and alias reaches
its command, and an unknown word is answered with the list."""

from __future__ import annotations

import pytest

from pbem.server import Server
from pbem.server.language.registry import ACCOUNT_VERBS, ACCOUNT_WORDS, GAME_VERBS, GAME_WORDS


def error_of(server: Server, line: str) -> str:
    sent = server.handle("x@example.org", line)
    return sent.mails[0].error or ""


@pytest.mark.parametrize("word", sorted(GAME_WORDS))
def test_every_game_word_reaches_its_command(server: Server, word: str) -> None:
    error = error_of(server, f"vasco {word.upper()} 1 2 3 4 5 6 7 8 9")
    assert "is no Vasco command" not in error


@pytest.mark.parametrize("word", sorted(set(ACCOUNT_WORDS) - {"multiple", "help", "list"}))
def test_every_account_word_reaches_its_command(server: Server, word: str) -> None:
    error = error_of(server, f"{word} 1 2 3 4 5 6 7 8 9")
    assert error and "is no command" not in error


def test_an_unknown_word_is_answered_with_every_command(server: Server) -> None:
    unknown = error_of(server, "vasco dance")
    assert "'dance' is no Vasco command" in unknown
    assert all(verb.name in unknown for verb in GAME_VERBS)
    unknown = error_of(server, "dance")
    assert all(verb.name in unknown for verb in ACCOUNT_VERBS)


def test_multiple_inside_multiple_is_refused(server: Server) -> None:
    assert "stands alone" in error_of(server, "multiple now")


def test_help_lists_every_form_and_alias(server: Server) -> None:
    (mail,) = server.handle("x@example.org", "help").mails
    text = " ".join(mail.body.split())
    for verb in ACCOUNT_VERBS:
        assert all(form in text for form in verb.forms), verb.name
    for verb in GAME_VERBS:
        assert all(form in text for form in verb.written), verb.name
        assert all(f"GAME {alias}" in text for alias in verb.aliases), verb.name
