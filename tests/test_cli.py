"""The `pbem` command: the exact `preview new` contract later issues rely on."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from pbem.cli import main
from tests.processes import Processes

ROOT = Path(__file__).resolve().parents[1]


COMMON_KEYS = ["game", "options", "moves", "to_move", "result", "legal_moves", "position"]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_preview_json_has_the_documented_keys(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "vasco", "preview", "new", "2", "a0,0", "b1,0", "a2,1", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert list(data) == COMMON_KEYS
    assert data["game"] == "vasco"
    assert data["options"] == {"size": 54, "strict": False}
    assert data["moves"] == ["a0,0", "b1,0", "a2,1"]
    assert data["to_move"] == 1 and data["result"] is None
    assert data["legal_moves"] == sorted(data["legal_moves"]) and "c4,0" in data["legal_moves"]
    position = data["position"]
    assert position["pool"] == 48
    assert position["tiles"][0] == {"cell": [0, 0], "orientation": "a", "auto": False}
    assert position["tiles"][3] == {"cell": [2, 0], "orientation": "a", "auto": True}
    assert position["paths"] == [
        {"loops": [], "longest_path": 4},
        {"loops": [], "longest_path": 4},
    ]


def test_preview_json_result_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "vasco", "preview", "new", "2", "-size=12", "c0,0", "a1,-1", "f-1,-1", "--json"
    )
    data = json.loads(out)
    assert code == 0 and data["options"] == {"size": 12, "strict": False}
    assert data["result"] == {"winner": 0, "reason": "O (red) closed a loop of 6 tiles"}
    assert data["to_move"] is None and data["legal_moves"] == []


def test_canonical_moves_in_the_record(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "vasco", "preview", "new", "2", "A0, 0", "B6", "--json")
    assert json.loads(out)["moves"] == ["a0,0", "b1,0"]  # position 6 after a0,0 is 1,0


def test_preview_prints_the_text_board(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "vasco", "preview", "new", "2", "a0,0", "b1,0")
    assert code == 0
    assert "+---*---+" in out and "Move 3: Red (O) to move." in out


def test_illegal_move_exits_1_with_one_line_naming_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "vasco", "preview", "new", "2", "a0,0", "b2,0")
    assert code == 1 and out == ""
    assert err.count("\n") == 1
    assert err.startswith("Move 2 (b2,0) is illegal: it would leave cell 1,0 enclosed")


def test_unreadable_move_shows_the_expected_form(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "vasco", "preview", "new", "2", "a0,0", "hello")
    assert code == 1 and err.count("\n") == 1
    assert "Move 2 (hello) cannot be read" in err and "like a0,0" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["vasco", "preview", "new", "3"], "played by 2 players"),
        (["vasco", "preview", "new", "2", "-size=0"], "too small"),
        (["vasco", "preview", "new", "2", "-colour=red"], "Unknown option -colour"),
        (["vasco", "preview", "new"], "number of players"),
        (["vasco", "preview", "new", "\u00b2"], "number of players"),
        (["vasco", "preview", "new", "9" * 5000], "number of players"),
        (["chess", "help"], "No game called 'chess'"),
        (["vasco", "dance"], "Unknown vasco command"),
    ],
)
def test_command_errors_exit_2_and_say_what_to_do(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, _, err = run(capsys, *args)
    assert code == 2 and message in err


@pytest.mark.parametrize(
    ("game", "document"),
    [("vasco", "vasco"), ("trugo", "trugo"), ("vacu", "vacu"), ("convacu", "vacu")],
)
def test_help_prints_the_rules_document(
    capsys: pytest.CaptureFixture[str], game: str, document: str
) -> None:
    code, out, _ = run(capsys, game, "help")
    assert code == 0
    assert out == (ROOT / "docs" / "rules" / f"{document}.md").read_text(encoding="utf-8")


def test_vacu_preview_json_through_the_komi_step(capsys: pytest.CaptureFixture[str]) -> None:
    moves = ["komi6", "BLACK", "e5", "D5", "button"]
    code, out, err = run(capsys, "vacu", "preview", "new", "2", "-size=7", *moves, "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["game"] == "vacu" and data["options"] == {"size": 7, "komi": None}
    assert data["moves"] == ["komi6", "black", "E5", "D5", "button"]
    assert data["to_move"] == 0  # the second player took Black, and the button; White to move
    assert "pass" in data["legal_moves"] and "button" not in data["legal_moves"]
    position = data["position"]
    assert list(position)[:6] == ["size", "board", "black", "komi", "button", "score"]
    assert position["black"] == 1 and position["komi"] == 6 and position["button"] == 1
    assert position["board"][2] == "...WB.." and len(position["board"]) == 7
    assert position["score"] == [1 + 6, 1 + 0.5]


def test_vacu_result_carries_the_score(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "vacu", "preview", "new", "2", "-size=5", "-komi=0", "button",
                       "C3", "pass", "pass", "--json")  # fmt: skip
    data = json.loads(out)
    assert code == 0 and data["to_move"] is None and data["legal_moves"] == []
    assert data["result"] == {
        "winner": 1,
        "reason": "both players passed; Black (X) 0.5 to White (O) 25",
        "scores": [0.5, 25.0],
    }


def test_convacu_suicide_that_flips_nothing_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    moves = ["E5", "B9", "E4", "A8", "A9"]
    code, _, err = run(capsys, "convacu", "preview", "new", "2", "-komi=0", *moves)
    assert code == 1
    assert err.startswith("Move 5 (A9) is illegal: a stone at A9 would leave its group")


TRUGO_GAME = ["b0,0", "b1,0", "b0,-1", "c1,-2", "c2,1", "b0,1", "b-1,0", "b1,-1"]
TRUGO_GAME += ["a-1,1", "b2,0", "b-2,2", "a-2,1", "-2,1e--1,0e", "x2,1"]


def test_trugo_preview_json_and_moves_with_negative_columns(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A word like -2,1e--1,0e is a move (a junction of column -2), not an option."""
    code, out, err = run(capsys, "trugo", "preview", "new", "2", "-size=12", *TRUGO_GAME, "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert list(data) == COMMON_KEYS
    assert data["options"] == {"size": 12, "pieces": 25, "no_stack": False}
    assert data["moves"] == TRUGO_GAME and data["to_move"] == 0
    position = data["position"]
    assert list(position) == [
        "phase",
        "pool",
        "tiles",
        "pieces",
        "hand",
        "on_board",
        "captured",
        "removed",
    ]
    assert position["phase"] == "waning" and position["pool"] == 0
    assert position["tiles"][0] == {"cell": [0, 0], "rotation": "b"}
    assert {"cell": [2, 1], "rotation": "c"} not in position["tiles"]
    assert position["removed"] == [1, 0]
    assert all(1 <= len(piece["stack"]) <= 2 for piece in position["pieces"])


def test_trugo_illegal_move_names_it(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "trugo", "preview", "new", "2", "a0,0", "a5,5", "-no-stack")
    assert code == 1 and out == ""
    assert err == (
        "Move 2 (a5,5) is illegal: cell 5,5 shares no side with a tile: place next to the group.\n"
    )


def test_usage_without_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys)
    assert code == 0 and "pbem <game> preview new" in out


def test_installed_console_script(processes: Processes) -> None:
    script = Path(sys.executable).with_name("pbem")
    done = processes.run([script, "vasco", "preview", "new", "2", "a0,0", "--json"], text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["to_move"] == 1


def test_db_upgrade_creates_the_tables(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sqlalchemy import create_engine, inspect

    url = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    monkeypatch.setenv("PBEM_DATABASE_URL", url)
    code, out, _ = run(capsys, "db", "upgrade")
    assert code == 0 and "is up to date" in out
    assert "boards" in inspect(create_engine(url)).get_table_names()
    code, _, err = run(capsys, "db", "downgrade")
    assert code == 2 and "pbem db upgrade" in err


def test_send_runs_a_command_and_prints_its_mails(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PBEM_DATABASE_URL", f"sqlite:///{tmp_path / 'server.sqlite3'}")
    monkeypatch.setattr("sys.stdin", io.StringIO("a comment from standard input"))
    code, out, _ = run(capsys, "send", "--from", "ann@example.org", "signup", "ann", "secret1",
                       "--body", "hello", "--json")  # fmt: skip
    assert code == 0
    [mail] = json.loads(out)
    assert mail["to"] == ["ann@example.org"] and mail["subject"] == "pbem signup ann"
    code, out, _ = run(capsys, "send", "--from", "ann@example.org", "vasco challenge ann nobody")
    assert code == 0
    assert out.startswith("To: ann@example.org\nSubject: Vasco error\n")
    code, _, err = run(capsys, "send", "signup", "ann")
    assert code == 2 and "pbem send --from ADDRESS" in err


def test_tick_runs_the_periodic_job_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PBEM_DATABASE_URL", f"sqlite:///{tmp_path / 'server.sqlite3'}")
    code, out, _ = run(capsys, "tick")
    assert code == 0 and out == "tick: 0 mails queued.\n"
    code, _, err = run(capsys, "tick", "now")
    assert code == 2 and "takes no arguments" in err


@pytest.mark.parametrize(
    ("game", "option"),
    [("vasco", "-size=12"), ("trugo", "-size=6"), ("vacu", "-size=5"), ("convacu", "-size=5")],
)
def test_a_whole_game_through_pbem_send(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    game: str,
    option: str,
) -> None:
    """From signup and challenge to the result, ratings and history."""
    import random

    from pbem.games import get_game

    monkeypatch.setenv("PBEM_DATABASE_URL", f"sqlite:///{tmp_path / 'server.sqlite3'}")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))

    def send(sender: str, line: str) -> list[dict[str, object]]:
        code, out, _ = run(capsys, "send", "--from", f"{sender}@example.org", line, "--json")
        assert code == 0
        mails: list[dict[str, object]] = json.loads(out)
        assert not any(str(m["subject"]).startswith("pbem error") for m in mails), mails
        return mails

    send("ann", "signup ann secret1")
    send("ben", "signup ben secret2")
    send("ann", f"{game} challenge ann ben {option}" + (" -komi=3" if "vacu" in game else ""))
    state = get_game(game).start([option, *(["-komi=3"] if "vacu" in game else [])])
    rng = random.Random(11)
    players, passwords = ["ann", "ben"], ["secret1", "secret2"]
    while state.result is None:
        text = state.move_text(rng.choice(state.legal_moves()))
        seat = state.to_move
        assert seat is not None
        number = len(state.history) + 1
        send(players[seat], f"{game} move 1 {players[seat]} {passwords[seat]} {text}#{number}")
        state = state.play_text(text)
    [table] = send("ann", f"{game} standings")
    assert "ann" in str(table["body"]) and "ben" in str(table["body"])
    [past] = send("ben", f"{game} history ben")
    assert "board     1" in str(past["body"])


def test_offline_commands_do_not_load_the_server(processes: Processes) -> None:
    """`pbem GAME preview` and `help` stay quick: no database library at start-up."""
    done = processes.run(
        [sys.executable, "-c", "import sys, pbem.cli; print('sqlalchemy' in sys.modules)"],
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "False"


def test_the_rules_and_the_server_load_no_compiled_code(processes: Processes) -> None:
    """numba and numpy (half a second to import) come with a search's first
    position, not with the rules: every `pbem receive` and `pbem send` of a
    mail, one process each, imports the server."""
    probe = (
        "import sys, pbem.games, pbem.server; print(sorted({'numba', 'numpy'} & set(sys.modules)))"
    )
    done = processes.run([sys.executable, "-c", probe], text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_pbem_bots_runs_alone_and_stops_on_sigterm(processes: Processes, tmp_path: Path) -> None:
    """`pbem bots` (the bot worker alone, for another machine on the same
    PostgreSQL) starts, says so, and stops cleanly when told to."""
    import os
    import signal

    script = Path(sys.executable).with_name("pbem")
    env = {**processes.env(), "PBEM_DATABASE_URL": f"sqlite:///{tmp_path / 'bots.sqlite3'}"}
    upgraded = processes.run([script, "db", "upgrade"], text=True, env=env)
    assert upgraded.returncode == 0, upgraded.stderr
    bots = processes.start([script, "bots"], env=env, stdout=-1, stderr=-1, text=True)
    assert bots.stdout is not None
    assert bots.stdout.readline().startswith("pbem bots: playing the bots' moves")
    os.kill(bots.pid, signal.SIGTERM)
    assert bots.wait(60) == 0, bots.stderr.read() if bots.stderr else ""
