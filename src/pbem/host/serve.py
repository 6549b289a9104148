"""`pbem serve` (what `make serve` starts): one process running the SMTP
listener, the periodic tick, the bot worker (its searches in processes of
their own) and, when a mailbox is configured, the IMAP poller, with the web
door (web_workers.py) and the outbox delivery (delivery_workers.py) in
child processes; logging to the console. Every child dies with this process,
however it ends (processes.py): a kill -9 leaves no web process holding the
port, so a restart can listen at once."""

from __future__ import annotations

import contextlib
import logging
import resource
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TextIO

import uvicorn

from ..bots import BotWorker
from ..mail.delivery import Nudge, transport_for
from ..mail.listener import start_listener
from ..server import Server, utc_now
from ..settings import Settings
from ..store import database_url, make_engine, session_factory, upgrade
from ..web.session import secret_key
from .delivery_workers import DeliveryWorkers, process_count
from .processes import SPAWN
from .web_workers import WebWorkers, web_server, worker_count

log = logging.getLogger("pbem.serve")


def more_files() -> None:
    """Allow this process as many open files as the system lets it (each
    connection is one): the per-address caps then bound what one abuser can
    hold, not the soft limit everyone shares."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 65536
    if soft < wanted:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def tick_loop(server: Server, seconds: float, stop: threading.Event, wake: Nudge) -> None:
    """The timeout job now and every `seconds`: nags, forfeits, digests."""
    while not stop.is_set():
        try:
            if server.tick():
                wake.set()
        except Exception:
            log.exception("the tick failed; trying again at the next one")
        stop.wait(seconds)


def thread_web_server(server: Server, settings: Settings) -> uvicorn.Server:
    """The web door, served by uvicorn in a thread of this process (when
    `web_workers` is 1; otherwise see `web_workers.WebWorkers`)."""
    from ..web import create_app

    app = create_app(server, settings)
    return web_server(app, log_level="info", host=settings.web_host, port=settings.web_port)


def wait_until_listening(web: uvicorn.Server, thread: threading.Thread, settings: Settings) -> None:
    """Return once the in-thread web door listens; say why it cannot."""
    deadline = time.monotonic() + 30
    while not web.started and time.monotonic() < deadline and thread.is_alive():
        time.sleep(0.05)
    if not web.started:
        raise OSError(
            f"The web door could not listen on {settings.web_host}:{settings.web_port} "
            "(in use?): set PBEM_WEB_PORT to a free port."
        )


def banner(settings: Settings, url: str, outgoing: str) -> str:
    """What a newcomer needs to see: where it listens, where mail lands, and
    a first command to try."""
    shown = url.split("@")[-1] if "@" in url else url  # never print a password
    where = settings.smtp_host, settings.smtp_port
    maildir = Path(settings.maildir).resolve()
    lines = [
        "pbem is running. Stop it with Ctrl-C.",
        f"  The web pages are at {settings.public_url}/ (the JSON API at /docs).",
        f"  Mail to {settings.address} is taken on {where[0]}:{where[1]} (SMTP).",
        f"  Outgoing mail goes to {outgoing}.",
        f"  The database is {shown}.",
        "",
        "Send a first command from another terminal:",
        '  .venv/bin/pbem send --from you@example.org "help"',
        "or with any SMTP client, for instance:",
        f"  python3 -c \"import smtplib; smtplib.SMTP('{where[0]}', {where[1]}).sendmail("
        f"'you@example.org', ['{settings.address}'], 'Subject: help\\r\\n\\r\\n')\"",
    ]
    if not settings.smtp_url:
        lines += ["and read the answer in the Maildir:", f"  ls {maildir}/new; cat {maildir}/new/*"]
    if settings.imap_url:
        lines.append("  Commands are also read from the mailbox PBEM_IMAP_URL names.")
    return "\n".join(lines) + "\n"


def serve(
    settings: Settings,
    *,
    stop: threading.Event | None = None,
    clock: Callable[[], datetime] = utc_now,
    out: TextIO = sys.stdout,
) -> None:
    """Run until `stop` is set (or SIGINT/SIGTERM)."""
    stop = stop or threading.Event()
    more_files()
    # Mails link to the pages; every web process signs sessions with the one
    # key (made here once if there is none yet, so workers never race to).
    settings = replace(settings, web_url=settings.public_url, secret_key=secret_key(settings))
    url = settings.database_url or database_url()
    engine = make_engine(url)
    upgrade(engine)
    sessions = session_factory(engine)
    server = Server(sessions, clock)
    outgoing = transport_for(settings).description
    delivery = DeliveryWorkers(settings, url, process_count(settings.delivery_processes))
    workers = worker_count(settings.web_workers)
    pool = WebWorkers(settings, url, workers) if workers > 1 else None
    web = thread_web_server(server, settings) if pool is None else None
    controller = start_listener(server, settings, delivery)
    threads = [
        threading.Thread(
            target=tick_loop, args=(server, settings.tick_seconds, stop, delivery), name="tick"
        ),
    ]
    if web is not None:
        threads.append(threading.Thread(target=web.run, name="web"))
        web_thread = threads[-1]
    bots = (
        BotWorker(server, settings.bot_processes, context=SPAWN)  # (searches die with us)
        if settings.bot_processes > 0
        else None
    )
    if bots is not None:
        threads.append(
            threading.Thread(target=bots.run, args=(stop, settings.bot_seconds), name="bots")
        )
    if settings.imap_url:
        from ..mail.imap_poll import poll_forever

        threads.append(
            threading.Thread(target=poll_forever, args=(server, settings, stop), name="imap")
        )
    for thread in threads:
        thread.start()
    delivery.start()
    if pool is not None:
        pool.start()
    # The handler only notes the signal: setting an Event there could deadlock
    # on the lock the interrupted main thread holds inside that same Event.
    signalled: list[int] = []
    if threading.current_thread() is threading.main_thread():
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, lambda number, _frame: signalled.append(number))
    try:
        if web is not None:
            wait_until_listening(web, web_thread, settings)
        out.write(banner(settings, url, outgoing))
        out.flush()
        while True:
            time.sleep(0.2)
            if signalled or stop.is_set():
                break  # Ctrl-C reaches the web processes too: do not restart them
            if pool is not None:
                pool.keep_running()
            delivery.keep_running()
    finally:
        stop.set()
        if web is not None:
            web.should_exit = True
        if pool is not None:
            pool.stop()
        controller.stop()
        delivery.stop()
        for thread in threads:
            thread.join(timeout=30)
        engine.dispose()
        log.info("stopped")
