"""The `pbem` command: a thin door onto the games and the server.

    pbem <game> help
    pbem <game> preview new 2 [-option ...] [MOVE ...] [--json]
    pbem serve | receive | poll | deliver | send | tick | db upgrade

`preview new` replays moves on a new board without any database and prints
the text board (or, with --json, the common JSON form of DESIGN.md). Exit
status: 0 done, 1 a move could not be played, 2 the command was wrong.
"""

from __future__ import annotations

import gc
import json
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, TextIO

from . import __version__
from .games import GAMES, get_game
from .games.base import Game, OptionError, ReplayError, is_option

if TYPE_CHECKING:
    from .server import Outgoing, Server
    from .settings import Settings

USAGE = f"""\
usage: pbem <game> help
       pbem <game> preview new <players> [-option ...] [MOVE ...] [--json]
       pbem db upgrade
       pbem send --from ADDRESS "COMMAND LINE" [--body TEXT] [--json]
       pbem tick
       pbem serve
       pbem bots
       pbem receive < MESSAGE
       pbem poll [--once]
       pbem deliver
       pbem outbox failed

Games: {", ".join(GAMES)}.
  help          print the rules of the game, as the server checks them
  preview new   replay MOVEs on a new board and print the board, whose turn
                it is and the result (--json: one JSON object instead)
  db upgrade    create or upgrade the server's database (PBEM_DATABASE_URL,
                by default SQLite at ./var/pbem.sqlite3)
  send          run one server command as if that mail had come from ADDRESS
                (the body from --body or standard input) and print the mails
                it produced; they also wait in the outbox for delivery
  tick          run the periodic job once: reminders, forfeits, digests
  serve         run the server: the SMTP listener, mail delivery, the tick,
                the bots (and the IMAP poller when PBEM_IMAP_URL is set)
  bots          run only the bot worker, which plays the built-in AI
                opponents' moves (for another machine on the same database)
  receive       run the command of one mail read from standard input (for a
                mail server's pipe delivery); exit 75 asks it to retry
  poll          read commands from the mailbox PBEM_IMAP_URL names, every
                PBEM_IMAP_SECONDS (--once: one look)
  deliver       send the mails waiting in the outbox, once
  outbox failed list the mails delivery gave up on (refused for good by the
                relay, or failing for PBEM_DELIVERY_GIVE_UP_DAYS), latest first
Settings: environment variables PBEM_* or ./pbem.toml (docs/operations.md).
Example: pbem vasco preview new 2 a0,0 b1,0 a2,1
"""


class UsageError(Exception):
    """The command line itself is wrong; the message says how to fix it."""


# The commands that open the server's database (`open_server`): a process of
# its own started for one of them pauses the garbage collector until then.
STARTING_PAUSED = ("send", "receive", "tick", "deliver", "poll", "bots", "outbox")
_paused = False  # (by pause_collector, until resume_collector)


def pause_collector() -> None:
    """No garbage collection while the process starts: importing SQLAlchemy
    and the server makes objects that live as long as the process, and the
    collector walked them over and over (8% of a `pbem receive`'s
    instructions, a quarter of its CPU: docs/performance.md). Only for a
    whole process: the tests' own interpreter, which calls `main` with
    arguments, keeps its collector as it is."""
    global _paused
    gc.disable()
    _paused = True


def resume_collector() -> None:
    """Start-up is over: what it made is set aside for good (gc.freeze, as
    `pbem serve` does), so that neither the collections while the command
    runs nor those at exit walk it again, and the collector runs again."""
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.enable()


@contextmanager
def open_server() -> Iterator[Server]:
    """The command layer on the server's database (PBEM_DATABASE_URL),
    upgraded first; imported here so that offline commands stay quick."""
    from .server import Server
    from .store import make_engine, session_factory, upgrade

    engine = make_engine(settings().database_url or None)
    try:
        upgrade(engine)
        server = Server(session_factory(engine))
        resume_collector()
        yield server
    finally:
        engine.dispose()


def settings() -> Settings:
    """The settings, with argon2's cost and the per-user limits set from
    them for this process."""
    from .server import set_cost, set_limits
    from .settings import SettingsError, load_settings

    try:
        config = load_settings()
    except SettingsError as error:
        raise UsageError(str(error)) from error
    set_cost(*config.argon2_cost)
    set_limits(*config.limits)
    return config


def bots_command(server: Server, config: Settings, out: TextIO) -> int:
    """`pbem bots`: the bot worker alone, until SIGINT or SIGTERM."""
    import signal
    import threading
    import time

    from .bots import BotWorker
    from .host.processes import SPAWN

    stop = threading.Event()
    worker = BotWorker(server, max(1, config.bot_processes), context=SPAWN)  # (they die with us)
    thread = threading.Thread(target=worker.run, args=(stop, config.bot_seconds), name="bots")
    # The handler only notes the signal (see serve.py): the main thread sets `stop`.
    signalled: list[int] = []
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda number, _frame: signalled.append(number))
    thread.start()
    out.write("pbem bots: playing the bots' moves; Ctrl-C stops.\n")
    out.flush()
    while not signalled and thread.is_alive():
        time.sleep(0.2)
    stop.set()
    thread.join()
    return 0


def mail_command(name: str, words: Sequence[str], out: TextIO) -> int:
    """`serve`, `bots`, `receive`, `poll [--once]` and `deliver`: the doors
    that run until stopped or read mail."""
    import logging

    allowed = ["--once"] if name == "poll" else []
    if any(word not in allowed for word in words):
        raise UsageError(f"'pbem {name}' takes {' '.join(allowed) or 'no arguments'}.\n\n{USAGE}")
    from .host.logs import configure

    configure()
    config = settings()
    if name == "serve":
        from .host.processes import quieter_collector
        from .host.serve import serve

        quieter_collector()  # (this process is the server's main one from here on)
        try:
            serve(config, out=out)
        except OSError as error:  # a port in use, most likely
            print(f"pbem serve: {error}", file=sys.stderr)
            return 1
        return 0
    if name == "receive":
        from .mail.receive import receive

        raw = sys.stdin.buffer.read()
        try:
            with open_server() as server:
                receive(server, raw, config)
        except Exception:
            logging.getLogger("pbem.mail").exception("the mail could not be run")
            return 75  # EX_TEMPFAIL: the mail server keeps the mail and retries
        return 0
    with open_server() as server:
        if name == "bots":
            return bots_command(server, config, out)
        if name == "poll":
            from .mail import imap_poll

            if not config.imap_url:
                raise UsageError("pbem poll reads the mailbox PBEM_IMAP_URL names; set it first.")
            if words:
                out.write(f"poll: {imap_poll.poll_once(server, config)} mails processed.\n")
            else:
                import threading

                imap_poll.poll_forever(server, config, threading.Event())
            return 0
        from .mail.delivery import deliver_backlog, transport_for

        transport = transport_for(config)
        sent = deliver_backlog(server.sessions, config, transport, server.clock)
        out.write(f"deliver: {sent} mails sent to {transport.description}.\n")
        return 0


def write_mails(messages: Sequence[Outgoing], out: TextIO) -> None:
    for message in messages:
        out.write(f"To: {', '.join(message.to)}\nSubject: {message.subject}\n\n")
        out.write(message.body + "\n")


def preview_new(game: Game, words: Sequence[str], out: TextIO) -> int:
    """`preview new <players> [-options] [MOVE ...] [--json]`."""
    as_json = "--json" in words
    words = [word for word in words if word != "--json"]
    if not words or not re.fullmatch(r"[0-9]{1,3}", words[0]):
        raise UsageError(
            f"preview new needs the number of players first, like "
            f"'pbem {game.name} preview new {game.players} a0,0'."
        )
    if int(words[0]) != game.players:
        raise UsageError(
            f"{game.title} is played by {game.players} players, not {words[0]}: "
            f"write 'preview new {game.players}'."
        )
    options = [word for word in words[1:] if is_option(word)]
    moves = [word for word in words[1:] if not is_option(word)]
    try:
        state = game.replay(game.parse_options(options), moves)
    except OptionError as error:
        raise UsageError(str(error)) from error
    except ReplayError as error:
        print(f"{error}.", file=sys.stderr)
        return 1
    if as_json:
        out.write(json.dumps(state.to_json()) + "\n")
    else:
        out.write(state.text_board())
    return 0


def database_command(words: Sequence[str], out: TextIO) -> int:
    """`db upgrade`: bring the database's tables to the newest revision."""
    if [word.lower() for word in words] != ["upgrade"]:
        raise UsageError(f"The database command is 'pbem db upgrade'.\n\n{USAGE}")
    from .store import database_url, make_engine, upgrade

    url = settings().database_url or database_url()
    engine = make_engine(url)
    try:
        upgrade(engine)
    finally:
        engine.dispose()
    shown = url.split("@")[-1] if "@" in url else url  # never print a password
    out.write(f"The database ({shown}) is up to date.\n")
    return 0


def send_command(words: Sequence[str], out: TextIO, stdin: TextIO) -> int:
    """`send --from ADDRESS "COMMAND LINE" [--body TEXT] [--json]`."""
    import argparse

    parser = argparse.ArgumentParser(prog="pbem send", add_help=False, exit_on_error=False)
    parser.add_argument("--from", dest="sender", required=True)
    parser.add_argument("--body")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("line", nargs="+")
    try:
        args = parser.parse_args(list(words))
    except (argparse.ArgumentError, SystemExit) as error:
        raise UsageError(
            'Write: pbem send --from ADDRESS "COMMAND LINE" [--body TEXT] [--json]'
        ) from error
    body = args.body
    if body is None:
        body = "" if stdin.isatty() else stdin.read()
    with open_server() as server:
        messages = server.handle(args.sender, " ".join(args.line), body).mails
    if args.json:
        out.write(json.dumps([message.to_json() for message in messages], indent=2) + "\n")
    else:
        write_mails(messages, out)
    return 0


def tick_command(words: Sequence[str], out: TextIO) -> int:
    """`tick`: the periodic job, once; prints what it mailed."""
    if words:
        raise UsageError(f"'pbem tick' takes no arguments.\n\n{USAGE}")
    with open_server() as server:
        messages = server.tick()
    write_mails(messages, out)
    out.write(f"tick: {len(messages)} mails queued.\n")
    return 0


def outbox_command(words: Sequence[str], out: TextIO) -> int:
    """`outbox failed`: the mails delivery gave up on, with why, latest first."""
    if [word.lower() for word in words] != ["failed"]:
        raise UsageError(f"The outbox command is 'pbem outbox failed'.\n\n{USAGE}")
    from .mail.delivery import failed_mails

    most = 100
    with open_server() as server:
        rows = failed_mails(server.sessions, most)
    for row in rows:
        tries = f"{row.attempts} {'try' if row.attempts == 1 else 'tries'}"
        out.write(
            f"#{row.id} to {', '.join(row.recipients)}: {row.subject}\n"
            f"  queued {row.created_at:%Y-%m-%d %H:%M}, given up "
            f"{row.failed_at:%Y-%m-%d %H:%M} UTC after {tries}: {row.last_error}\n"
        )
    latest = f" (the latest {most})" if len(rows) == most else ""
    out.write(f"{len(rows)} {'mail' if len(rows) == 1 else 'mails'} given up{latest}.\n")
    return 0


def run(argv: Sequence[str], out: TextIO) -> int:
    if not argv or argv[0] in ("-h", "--help", "help"):
        out.write(USAGE)
        return 0
    if argv[0] == "--version":
        out.write(f"pbem {__version__}\n")
        return 0
    if argv[0] == "db":
        return database_command(argv[1:], out)
    if argv[0] == "send":
        return send_command(argv[1:], out, sys.stdin)
    if argv[0] == "tick":
        return tick_command(argv[1:], out)
    if argv[0] == "outbox":
        return outbox_command(argv[1:], out)
    if argv[0] in ("serve", "receive", "poll", "deliver", "bots"):
        return mail_command(argv[0], argv[1:], out)
    try:
        game = get_game(argv[0])
    except KeyError as error:
        raise UsageError(f"{error.args[0]}\n\n{USAGE}") from error
    command = [word.lower() for word in argv[1:3]]
    if command[:1] == ["help"]:
        from .games.documents import rules_text

        out.write(rules_text(game))
        return 0
    if command == ["preview", "new"]:
        return preview_new(game, argv[3:], out)
    raise UsageError(f"Unknown {game.name} command {' '.join(argv[1:3])!r}.\n\n{USAGE}")


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:  # a process of its own: the `pbem` script, python -m pbem.cli
        argv = sys.argv[1:]
        if argv[:1] and argv[0] in STARTING_PAUSED:
            pause_collector()
    try:
        return run(argv, sys.stdout)
    except UsageError as error:
        print(error, file=sys.stderr)
        return 2
    except Exception as error:
        from .store.database import UpgradeRefused  # (only now: offline commands stay quick)

        if not isinstance(error, UpgradeRefused):
            raise
        print(error, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
