"""A throwaway Dovecot IMAP server for tests: Debian's binary with a config of
our own in a temporary directory, on 127.0.0.1, plain IMAP (no TLS), one
user. It never touches /etc/dovecot or the system's service."""

from __future__ import annotations

import grp
import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from imap_tools import BaseMailBox, MailBoxUnencrypted

from tests.processes import Processes

DOVECOT = "/usr/sbin/dovecot"
DOVECOT_HINT = (
    f"the IMAP poller's tests need Dovecot ({DOVECOT}; Debian: apt-get install "
    "dovecot-imapd); .ci/run installs it"
)
USER = "pbem"
PASSWORD = "s3cret/@%pass"  # characters the URL must percent-encode


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def dovecot_version(processes: Processes) -> tuple[int, int]:
    """Dovecot's (major, minor) version; fails the test when it is missing."""
    if not Path(DOVECOT).exists():
        pytest.fail(DOVECOT_HINT)
    text = processes.run([DOVECOT, "--version"], check=True, text=True).stdout
    found = re.match(r"(\d+)\.(\d+)", text)
    if not found:
        pytest.fail(f"cannot read Dovecot's version from {text!r}")
    return int(found[1]), int(found[2])


class Dovecot:
    """One Dovecot, started and stopped by the test (among its `processes`);
    `stop` then `start` again restarts it on the same port with the same
    mailbox."""

    def __init__(self, processes: Processes) -> None:
        self.processes = processes
        version = dovecot_version(processes)
        self.port = free_port()
        # Short, world-traversable paths: unix sockets live under base_dir,
        # and when root, the mail is written by the unprivileged dovecot user.
        self.home = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
        self.home.chmod(0o755)
        (self.home / "mail").mkdir()
        if os.geteuid() == 0:
            # Dovecot refuses uid 0 for mail and runs its login processes
            # unprivileged: use the users Debian's package creates.
            internal, login, mail = "dovecot", "dovenull", pwd.getpwnam("dovecot")
            shutil.chown(self.home / "mail", mail.pw_uid, mail.pw_gid)
        else:
            mail = pwd.getpwuid(os.getuid())
            internal = login = mail.pw_name
        (self.home / "users").write_text(f"{USER}:{{PLAIN}}{PASSWORD}\n", encoding="utf-8")
        config = _config(
            version,
            home=self.home,
            port=self.port,
            internal=internal,
            internal_group=grp.getgrgid(pwd.getpwnam(internal).pw_gid).gr_name,
            login=login,
            uid=mail.pw_uid,
            gid=mail.pw_gid,
        )
        self.config = self.home / "dovecot.conf"
        self.config.write_text(config, encoding="utf-8")
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """PBEM_IMAP_URL for this server's INBOX."""
        return f"imap://{USER}:{quote(PASSWORD, safe='')}@127.0.0.1:{self.port}/INBOX"

    def start(self) -> None:
        """Start Dovecot in the foreground and wait until it takes connections."""
        with open(self.home / "stderr.log", "ab") as stderr:
            self.process = self.processes.start(
                [DOVECOT, "-F", "-c", str(self.config)],
                stdin=subprocess.DEVNULL,
                stdout=stderr,
                stderr=stderr,
            )
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"Dovecot exited at start:\n{self.logs()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as probe:
                    if probe.recv(100).startswith(b"* OK"):
                        return
            except OSError:
                time.sleep(0.05)
        self.stop()
        pytest.fail(f"Dovecot did not listen on port {self.port} within 15 s:\n{self.logs()}")

    def stop(self) -> None:
        """Stop Dovecot (SIGTERM, then SIGKILL) and wait until it is gone."""
        if self.process is None:
            return
        self.processes.signal(self.process)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.processes.kill(self.process)
        self.process = None

    def close(self) -> None:
        """Stop and remove every file."""
        self.stop()
        shutil.rmtree(self.home, ignore_errors=True)

    def logs(self) -> str:
        return "\n".join(
            path.read_text(errors="replace")
            for path in (self.home / "stderr.log", self.home / "dovecot.log")
            if path.exists()
        )

    def mailbox(self) -> BaseMailBox:
        """A client logged in to the INBOX, for putting mail in and looking."""
        return MailBoxUnencrypted("127.0.0.1", self.port, timeout=10).login(USER, PASSWORD)


def _config(
    version: tuple[int, int],
    *,
    home: Path,
    port: int,
    internal: str,
    internal_group: str,
    login: str,
    uid: int,
    gid: int,
) -> str:
    """dovecot.conf for 2.3 (Debian 12) or 2.4 (Debian 13), whose syntax differs."""
    common = f"""\
protocols = imap
listen = 127.0.0.1
base_dir = {home}/run
state_dir = {home}/state
log_path = {home}/dovecot.log
ssl = no
auth_mechanisms = plain login
default_internal_user = {internal}
default_internal_group = {internal_group}
default_login_user = {login}
first_valid_uid = 1
first_valid_gid = 1
service imap-login {{
  inet_listener imap {{
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
"""
    if version < (2, 4):
        return f"""\
{common}
disable_plaintext_auth = no
mail_location = maildir:{home}/mail/%u
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {home}/users
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={home}/mail/%u
}}
"""
    return f"""\
dovecot_config_version = 2.4.0
dovecot_storage_version = 2.4.0
{common}
auth_allow_cleartext = yes
mail_driver = maildir
mail_home = {home}/mail/%{{user}}
mail_path = ~/
passdb passwd-file {{
  passwd_file_path = {home}/users
  default_password_scheme = PLAIN
}}
userdb static {{
  fields {{
    uid = {uid}
    gid = {gid}
    home = {home}/mail/%{{user}}
  }}
}}
"""
