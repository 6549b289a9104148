"""Settings: defaults, pbem.toml, the environment over the file, and clear
errors for what cannot be read."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.settings import Settings, SettingsError, load_settings


def test_defaults_work_on_a_fresh_machine(tmp_path: Path) -> None:
    settings = load_settings({}, tmp_path / "missing.toml")
    assert settings == Settings()
    assert (settings.smtp_host, settings.smtp_port, settings.maildir) == (
        "127.0.0.1",
        2525,
        "var/mail",
    )
    assert settings.domain == "localhost"


def test_the_file_then_the_environment(tmp_path: Path) -> None:
    config = tmp_path / "pbem.toml"
    config.write_text(
        'address = "pbem@games.example.org"\nsmtp_port = 2600\n[pbem]\ntick_seconds = 60\n'
    )
    settings = load_settings({"PBEM_SMTP_PORT": "2700"}, config)
    assert settings.address == "pbem@games.example.org" and settings.domain == "games.example.org"
    assert (settings.smtp_port, settings.tick_seconds) == (2700, 60.0)
    assert load_settings({"PBEM_CONFIG": str(config)}).smtp_port == 2600


@pytest.mark.parametrize(
    ("text", "environ", "words"),
    [
        ("smtp_prot = 1\n", {}, "unknown settings smtp_prot"),
        ("smtp_port = \n", {}, "is not valid TOML"),
        ("", {"PBEM_SMTP_PORT": "twenty"}, "smtp_port must be a number, not 'twenty'"),
    ],
)
def test_what_cannot_be_read_is_named(
    tmp_path: Path, text: str, environ: dict[str, str], words: str
) -> None:
    config = tmp_path / "pbem.toml"
    config.write_text(text)
    with pytest.raises(SettingsError, match=words):
        load_settings(environ, config)
