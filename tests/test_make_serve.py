"""`make serve` on a fresh clone, as a newcomer runs it: it builds its
virtual environment, upgrades the database, starts, serves the web pages,
and answers a first `help` mail into the Maildir it names."""

from __future__ import annotations

import os
import smtplib
import subprocess
import threading
import time
import urllib.request
from pathlib import Path

from tests.mail.smtp_world import free_port
from tests.processes import Processes

ROOT = Path(__file__).resolve().parents[1]


def test_make_serve_from_a_fresh_clone_answers_a_first_mail(
    processes: Processes, tmp_path: Path
) -> None:
    clone = tmp_path / "pbem"
    processes.run(["git", "clone", "-q", ROOT, clone], check=True)
    port, web_port = free_port(), free_port()
    # a newcomer's environment: none of the tests' settings, no virtualenv
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PBEM_", "VIRTUAL_ENV"))}
    env |= {"PBEM_SMTP_PORT": str(port), "PBEM_WEB_PORT": str(web_port)}
    process = processes.start(
        ["make", "serve"],
        cwd=clone,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    output: list[str] = []
    started = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            output.append(line)
            if "pbem is running" in line:
                started.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert started.wait(900), "".join(output[-40:])
        time.sleep(0.5)  # the rest of the banner
        banner = "".join(output)
        assert f"127.0.0.1:{port}" in banner and "var/mail" in banner
        assert 'pbem send --from you@example.org "help"' in banner
        assert f"http://127.0.0.1:{web_port}/" in banner
        with urllib.request.urlopen(f"http://127.0.0.1:{web_port}/", timeout=30) as page:
            assert page.status == 200 and b"Vasco" in page.read()
        with smtplib.SMTP("127.0.0.1", port, timeout=30) as smtp:
            smtp.sendmail(
                "newcomer@example.org",
                ["pbem@localhost"],
                b"From: newcomer@example.org\r\nSubject: help\r\n"
                b"Message-ID: <1@example.org>\r\n\r\n",
            )
        new = clone / "var" / "mail" / "new"
        deadline = time.monotonic() + 60
        answers: list[bytes] = []
        while time.monotonic() < deadline and not answers:
            answers = [p.read_bytes() for p in new.glob("*")] if new.exists() else []
            time.sleep(0.2)
        assert answers, "".join(output[-40:])
        [answer] = answers
        assert b"Subject: pbem help" in answer and b"To: newcomer@example.org" in answer
        assert (clone / "var" / "pbem.sqlite3").exists()
    finally:
        processes.signal(process)
        process.wait(60)
        reader.join(5)
