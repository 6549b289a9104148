"""Passwords: argon2 hashes, made and checked outside the write transaction,
and verified passwords remembered.

argon2 costs a tenth of a second or more by design, and pbmserv's commands
carry the password every time. Checked inside a command's transaction it
would hold the write lock all that while (SQLite has one lock for the whole
database). So a command that meets a password with no remembered verdict
raises `PasswordWork`: the server rolls the transaction back, does the
argon2 work with no transaction open (`PasswordWork.do`), and runs the
command again, which then finds the verdict.

A door may take that work out of the command's thread (`handed_out`): the
PasswordWork then comes back to it instead, to be done where it holds
nothing else up (web/password_lane.py), before the door runs the command
again.

Verdicts are kept in this process only, by the stored hash and an HMAC of
the password under a key made at start (the password itself is never kept).
A changed password has a new hash, so no verdict about the old one can
answer for it, in this process or another; `forget` drops them at once.
A userid that does not exist is checked against a dummy hash, so it costs
what a real one costs and the answer's timing tells nothing, whatever is
repeated. Its verdict is kept under that userid (`unknown_key`), never under
one key for every unknown userid: else one wrong password tried on many
userids would be answered from memory for the names that do not exist (2
ms) and by argon2 for those that do (a quarter of a second), telling which
exist. So a (userid, password) pair met for the first time costs argon2,
known userid or not, and a pair met again is answered from memory, known
userid or not. Remembering a known hash's *failures* lets a guesser repeat
a wrong password cheaply, but a repeated wrong password teaches nothing,
each new guess still costs argon2, and the throttle (throttle.py) counts
every failure, remembered or not; not remembering them would only give the
unknown userids' remembered verdicts away. The dummy hash is made without
running argon2 (`dummy_hash`), so a process's first unknown userid costs one
check, as a known one does, not a hash and a check (`pbem receive` is a
fresh process for each mail).

argon2's cost is a host's setting (`set_cost`, from the argon2_* settings):
new hashes are made at the cost set, and a stored hash is checked at the
cost it was made with.
"""

from __future__ import annotations

import base64
import contextlib
import hmac
import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

HASHER = PasswordHasher()  # argon2-cffi's defaults: 3 passes over 64 MiB in 4 lanes
MAX_HASHES = 20_000  # stored hashes with verdicts remembered (least recently used dropped)
MAX_PER_HASH = 8  # verdicts per stored hash (a guesser cannot grow the memory)
NO_USER = "no user:"  # the start of the key of an unknown userid's verdicts (no hash starts so)


def set_cost(time_cost: int, memory_kib: int, parallelism: int) -> None:
    """Make new hashes (and the dummy one) at this cost from now on, in this
    process; hashes already stored keep the cost they were made with."""
    global HASHER
    HASHER = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib, parallelism=parallelism)
    dummy_hash.cache_clear()


@lru_cache(maxsize=1)
def dummy_hash() -> str:
    """The hash an unknown userid's password is checked against: random salt
    and digest in argon2's encoding at the cost new hashes are made at. No
    password matches it, and checking one costs what checking a real hash
    of that cost does; making it costs no argon2 (a hash made by HASHER
    would make a fresh process's first unknown userid cost twice a known
    one's)."""

    def b64(size: int) -> str:
        return base64.b64encode(secrets.token_bytes(size)).decode("ascii").rstrip("=")

    kind = HASHER.type.name.lower()
    return (
        f"$argon2{kind}$v=19$m={HASHER.memory_cost},t={HASHER.time_cost},"
        f"p={HASHER.parallelism}${b64(HASHER.salt_len)}${b64(HASHER.hash_len)}"
    )


def unknown_key(userid: str) -> str:
    """Where the verdicts about an unknown userid's passwords are kept: by
    the userid, as a known one's are by its hash."""
    return NO_USER + userid.lower()


class Verdicts:
    """Remembered argon2 outcomes, and hashes made ahead for new passwords."""

    def __init__(self) -> None:
        self._key = secrets.token_bytes(32)
        self._lock = threading.Lock()
        self._verdicts: OrderedDict[str, dict[bytes, bool]] = OrderedDict()
        self._fresh: dict[bytes, str] = {}

    def _digest(self, password: str) -> bytes:
        return hmac.new(self._key, password.encode("utf-8", "surrogatepass"), "sha256").digest()

    def known(self, password_hash: str, password: str) -> bool | None:
        """Whether the password matches the hash, if that was worked out."""
        digest = self._digest(password)
        with self._lock:
            found = self._verdicts.get(password_hash)
            if found is None or digest not in found:
                return None
            self._verdicts.move_to_end(password_hash)
            return found[digest]

    def remember(self, password_hash: str, password: str, matches: bool) -> None:
        digest = self._digest(password)
        with self._lock:
            found = self._verdicts.setdefault(password_hash, {})
            if len(found) >= MAX_PER_HASH:
                found.pop(next(iter(found)))
            found[digest] = matches
            self._verdicts.move_to_end(password_hash)
            while len(self._verdicts) > MAX_HASHES:
                self._verdicts.popitem(last=False)

    def forget(self, password_hash: str) -> None:
        """Drop every verdict about a hash (its password was changed)."""
        with self._lock:
            self._verdicts.pop(password_hash, None)

    def take_fresh_hash(self, password: str) -> str | None:
        """A hash made ahead for this password (each is used once)."""
        with self._lock:
            return self._fresh.pop(self._digest(password), None)

    def add_fresh_hash(self, password: str, password_hash: str) -> None:
        with self._lock:
            if len(self._fresh) > 1000:
                self._fresh.clear()
            self._fresh[self._digest(password)] = password_hash


VERDICTS = Verdicts()


@dataclass
class PasswordWork(Exception):
    """argon2 work a command needs before it can go on: checking `password`
    against `password_hash` (None: an unknown userid), or hashing it."""

    password: str
    password_hash: str | None = None
    hashing: bool = False
    userid: str = ""  # (for an unknown userid: where its verdict is kept)

    def do(self) -> None:
        """The work, with no transaction open; its outcome is remembered."""
        if self.hashing:
            VERDICTS.add_fresh_hash(self.password, HASHER.hash(self.password))
            return
        matches: bool
        try:
            matches = HASHER.verify(self.password_hash or dummy_hash(), self.password)
        except (VerificationError, InvalidHashError):
            matches = False
        if self.password_hash is None:
            VERDICTS.remember(unknown_key(self.userid), self.password, False)
        else:
            VERDICTS.remember(self.password_hash, self.password, matches)


def password_matches(password_hash: str | None, password: str, userid: str = "") -> bool:
    """Whether `password` is the one `password_hash` was made from (None for
    an unknown `userid`: never); raises PasswordWork if not yet worked out."""
    key = unknown_key(userid) if password_hash is None else password_hash
    verdict = VERDICTS.known(key, password)
    if verdict is None:
        raise PasswordWork(password, password_hash, userid=userid)
    return verdict


def new_password_hash(password: str) -> str:
    """The hash to store for a new password; raises PasswordWork to have it
    made outside the transaction."""
    made = VERDICTS.take_fresh_hash(password)
    if made is None:
        raise PasswordWork(password, hashing=True)
    VERDICTS.remember(made, password, True)
    return made


def password_changed(old_hash: str) -> None:
    VERDICTS.forget(old_hash)


_HANDED_OUT: ContextVar[bool] = ContextVar("pbem_password_work_handed_out", default=False)


@contextlib.contextmanager
def handed_out(out: bool = True) -> Iterator[None]:
    """Within it, `do_or_hand_out` raises argon2 work to the door for it to
    do, and the door runs the command again; `handed_out(False)` undoes
    that for a command of several steps, which cannot start again."""
    token = _HANDED_OUT.set(out)
    try:
        yield
    finally:
        _HANDED_OUT.reset(token)


def do_or_hand_out(work: PasswordWork) -> None:
    """The argon2 work a command met, done now with no transaction open;
    within `handed_out`, raised for the door to do instead."""
    if _HANDED_OUT.get():
        raise work
    work.do()
