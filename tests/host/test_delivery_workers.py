"""`pbem serve` delivers its outbox from child processes of their own, at a
lower CPU priority than the doors: a mailed command's answer still arrives
at once (the listener wakes them), a delivery process that dies is replaced
without losing mail, and stopping the server stops them."""

from __future__ import annotations

import mailbox
import os
import signal
import smtplib
from pathlib import Path

from pbem.host.delivery_workers import DELIVERY_NICENESS, process_count
from tests.host.test_web_workers import name_of, start, wait_for
from tests.mail.smtp_world import free_port
from tests.processes import Processes


def delivery_processes(pid: int) -> list[int]:
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [int(child) for child in children if name_of(int(child)) == "pbem-delivery"]


def niceness(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


def subjects(maildir: Path) -> list[str]:
    return [str(message["Subject"]) for message in mailbox.Maildir(maildir, create=False)]


def mail_help(port: int, sender: str) -> None:
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as smtp:
        smtp.sendmail(sender, ["pbem@localhost"], f"From: {sender}\r\nSubject: help\r\n\r\n")


def test_process_count_reads_the_setting() -> None:
    assert process_count(3) == 3
    assert process_count(0) == max(1, min(4, len(os.sched_getaffinity(0))))


def test_serve_delivers_from_niced_processes_and_replaces_a_dead_one(
    processes: Processes, tmp_path: Path
) -> None:
    smtp_port = free_port()
    maildir = tmp_path / "mail"
    settings = {
        "PBEM_SMTP_PORT": str(smtp_port),
        "PBEM_DELIVERY_PROCESSES": "2",
        "PBEM_DELIVERY_SECONDS": "60",  # so only a wake-up delivers in time
        "PBEM_BOT_PROCESSES": "0",
    }
    server = start(processes, tmp_path, free_port(), 1, settings=settings)
    try:
        wait_for(lambda: len(delivery_processes(server.pid)) == 2)
        first = delivery_processes(server.pid)
        assert [niceness(pid) for pid in first] == [DELIVERY_NICENESS] * 2
        wait_for(lambda: mail_help(smtp_port, "ann@example.org") is None)
        wait_for(lambda: len(subjects(maildir)) == 1, seconds=20)  # woken, not after 60 s

        os.kill(first[0], signal.SIGKILL)
        wait_for(lambda: first[0] not in delivery_processes(server.pid))
        wait_for(lambda: len(delivery_processes(server.pid)) == 2)
        assert first[1] in delivery_processes(server.pid)
        mail_help(smtp_port, "bob@example.org")
        wait_for(lambda: len(subjects(maildir)) == 2, seconds=20)
    finally:
        server.send_signal(signal.SIGTERM)
        output, _ = server.communicate(timeout=90)
    assert server.returncode == 0, output
    assert "outgoing mail is delivered by 2 processes" in output
    assert "process" in output and "ended (exit -9)" in output  # the replaced one is logged
    assert sorted(subjects(maildir)) == ["pbem help", "pbem help"]
    for pid in first:
        assert (
            not Path(f"/proc/{pid}").exists()
            or b"zombie" in Path(f"/proc/{pid}/status").read_bytes()
        )
