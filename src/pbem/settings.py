"""The server's settings: environment variables over an optional `pbem.toml`.

Every setting has a default that works on a fresh machine; docs/operations.md
lists them. In `pbem.toml` a setting is written in lower case without the
`PBEM_` prefix (`smtp_port = 2525`), at the top level or under `[pbem]`;
the environment variable (`PBEM_SMTP_PORT=2525`) wins over the file.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import ipaddress


class SettingsError(ValueError):
    """A setting that cannot be read; the message says which and why."""


@dataclass(frozen=True)
class Settings:
    address: str = "pbem@localhost"  # the server's own mail address
    smtp_host: str = "127.0.0.1"  # where the SMTP listener listens
    smtp_port: int = 2525
    max_message_bytes: int = 10_000_000  # larger incoming mail is refused
    smtp_url: str = ""  # the relay for outgoing mail; empty: the Maildir
    maildir: str = "var/mail"  # where outgoing mail lands without a relay
    imap_url: str = ""  # a mailbox `pbem poll` reads commands from
    imap_seconds: float = 60.0  # how often `pbem poll` looks
    tick_seconds: float = 3600.0  # how often the timeout job runs
    delivery_seconds: float = 2.0  # how often the outbox is drained
    delivery_processes: int = 0  # processes delivering the outbox; 0: one per CPU (at most 4)
    delivery_give_up_days: float = 5.0  # a mail failing temporarily this long is failed for good
    web_host: str = "127.0.0.1"  # where the web door listens
    web_port: int = 8000
    web_workers: int = 0  # processes serving the web door; 0: one per CPU (at most 8)
    web_url: str = ""  # the web door's public address, for links; empty: http://host:port
    # Proxies whose X-Forwarded-For is believed (addresses or CIDRs, comma-separated);
    # empty: none, the client is the peer (docs/operations.md, behind nginx).
    trusted_proxies: str = ""
    secret_key: str = ""  # signs web sessions; empty: one kept in var/secret_key
    database_url: str = ""  # PBEM_DATABASE_URL; empty: SQLite under var/
    bot_processes: int = 1  # searches the bots run at once; 0: no bots in this `pbem serve`
    bot_seconds: float = 1.0  # how often the bot worker looks for boards waiting for a bot
    argon2_time_cost: int = 3  # passes argon2 makes over its memory to hash a password
    argon2_memory_kib: int = 65_536  # the memory (KiB) one password check takes
    argon2_parallelism: int = 4  # lanes that memory is split in
    bot_boards: int = 5  # boards against the bots one person may have going at once
    hints_per_hour: int = 20  # hints one player may ask for an hour
    chats_per_hour: int = 10  # chat lines one non-player may send on one board an hour

    def __post_init__(self) -> None:
        if self.argon2_time_cost < 1 or self.argon2_parallelism < 1:
            raise SettingsError(
                "The settings argon2_time_cost and argon2_parallelism must be 1 or more."
            )
        if self.argon2_memory_kib < 8 * self.argon2_parallelism:
            raise SettingsError(
                f"The setting argon2_memory_kib must be at least 8 per lane "
                f"({8 * self.argon2_parallelism} for argon2_parallelism = "
                f"{self.argon2_parallelism}), not {self.argon2_memory_kib}."
            )
        for name in ("bot_boards", "hints_per_hour", "chats_per_hour"):
            if getattr(self, name) < 0:
                raise SettingsError(f"The setting {name} must be 0 or more.")
        try:
            if self.trusted_proxies:
                self.trusted_networks  # noqa: B018 (read to check it)
        except ValueError as error:
            raise SettingsError(
                f"The setting trusted_proxies must be addresses or networks (CIDR), "
                f"comma-separated: {error}"
            ) from None

    @property
    def trusted_networks(self) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
        """The proxies whose X-Forwarded-For the web door believes."""
        import ipaddress  # (here: `pbem receive` never needs it)

        return tuple(
            ipaddress.ip_network(part.strip(), strict=False)
            for part in self.trusted_proxies.split(",")
            if part.strip()
        )

    @property
    def argon2_cost(self) -> tuple[int, int, int]:
        """argon2's time cost, memory (KiB) and parallelism, in that order."""
        return (self.argon2_time_cost, self.argon2_memory_kib, self.argon2_parallelism)

    @property
    def limits(self) -> tuple[int, int, int]:
        """Bot boards at once, hints an hour, non-players' chat lines an hour
        (server.set_limits takes them in this order)."""
        return (self.bot_boards, self.hints_per_hour, self.chats_per_hour)

    @property
    def public_url(self) -> str:
        """The web door's address as players reach it."""
        return (self.web_url or f"http://{self.web_host}:{self.web_port}").rstrip("/")

    @property
    def domain(self) -> str:
        """The domain of the server's address, for Message-IDs."""
        return self.address.rpartition("@")[2] or "localhost"


def load_settings(
    environ: dict[str, str] | None = None, config: str | Path | None = None
) -> Settings:
    """Settings from `config` (default: PBEM_CONFIG, else ./pbem.toml when
    it exists), then the environment."""
    env = os.environ if environ is None else environ
    path = Path(config or env.get("PBEM_CONFIG") or "pbem.toml")
    values: dict[str, Any] = {}
    if path.exists():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
            raise SettingsError(f"{path} is not valid TOML: {error}") from None
        values.update(data.get("pbem", {}) if isinstance(data.get("pbem"), dict) else {})
        values.update({k: v for k, v in data.items() if k != "pbem"})
    known = {field.name: field for field in fields(Settings)}
    unknown = sorted(set(values) - set(known))
    if unknown:
        raise SettingsError(
            f"{path}: unknown settings {', '.join(unknown)}; known: {', '.join(known)}"
        )
    for name in known:
        variable = f"PBEM_{name.upper()}"
        if variable in env:
            values[name] = env[variable]
    result: dict[str, Any] = {}
    for name, value in values.items():
        kind = known[name].type
        try:
            result[name] = (
                int(value) if kind == "int" else float(value) if kind == "float" else str(value)
            )
        except ValueError:
            raise SettingsError(f"The setting {name} must be a number, not {value!r}.") from None
    return Settings(**result)
