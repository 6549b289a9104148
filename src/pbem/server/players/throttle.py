"""Failed password and token checks, counted in the database to stop guessing.

Every pbmserv command carries a password, by mail, on the web and through
the API, so a guesser can try as fast as the server answers. Each wrong
password is kept as a row (`password_failures`) under two keys: the userid
tried (`user:alice`, the same for a userid that does not exist) and the
client (`from:<client>`: the sender's address for mail, `web <ip>` on the
web, the ip the trusted proxies name, see web/clients.py). An unknown API
token is kept under the client's token key (`token:<client>`). The rows are
in the database, so `pbem receive` (a process per mail), the SMTP listener,
every web process and every server on one PostgreSQL count the same
failures. One indexed statement counts a try's keys over the last WINDOW
(`ix_password_failures_key_at`); a failure is written in a short
transaction of its own, after the command's own has ended (a refused
command rolls its own back; under SQLite a second writer would wait for it),
and rows a WINDOW old are deleted as new ones are written.

The rule, so that no one can aim the throttle at someone else:

- Under its limits (PER_USERID failures for a userid, PER_SOURCE from a
  client, in the WINDOW) every try is checked.
- Past a limit the key is *paced*, not shut: a try is checked only when the
  key's last failure is PACE old (USER_PACE for a userid, SOURCE_PACE for a
  client); the others are refused without a check ("try again in N
  seconds"), and a refused try is not written (a flood writes nothing). So
  a guesser gets at most the limit and then one guess a pace per key, and a
  right password is refused for a pace at most after the last wrong one:
  it is never shut out for the window. (A guesser who keeps every paced
  slot of one userid busy still delays its owner, by a pace at a time: the
  price of a per-userid limit; the client limit only touches those who share
  the guesser's real address.)
- A password this process remembers as right (no argon2 needed: only its
  owner can send it) is accepted whatever the counts. This spares an owner's
  repeated commands; it is no guarantee (a process remembers a few verdicts
  per account, and wrong tries push the oldest out): the pacing is.
- An API token is a 256-bit random key looked up by its SHA-256, not
  guessed by argon2: a known token is always accepted, whatever its client
  has sent before. Only unknown tokens are counted; past PER_SOURCE of them
  a client is answered 429 (the lookup still runs, so a valid token from
  the same address still works), and token failures never count against the
  client's passwords: a flood of bad tokens locks nobody out.
- The refusals are the same for a userid that exists and one that does not.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from sqlalchemy import Connection, Engine, delete, event, func, insert, select
from sqlalchemy.orm import Session, SessionTransaction

from ...store.database import READING
from ...store.models import PasswordFailure
from ..errors import FORBIDDEN, CommandError

WINDOW = timedelta(minutes=15)  # over which failures count
PER_USERID = 10  # wrong passwords for one userid in the window before it is paced
PER_SOURCE = 30  # wrong passwords (or unknown tokens) from one client before it is paced
USER_PACE = timedelta(seconds=60)  # past its limit, a userid's tries checked at most this often
SOURCE_PACE = timedelta(seconds=10)  # past its limit, a client's tries checked at most this often
MAX_KEY = 300  # the key column's length

Bind = Session | Connection | Engine


def utc_now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


clock: Callable[[], datetime] = utc_now  # (tests move it)


def user_key(userid: str) -> str:
    return f"user:{userid.lower()}"[:MAX_KEY]


def source_key(source: str) -> str:
    return f"from:{source.lower()}"[:MAX_KEY]


def token_key(source: str) -> str:
    return f"token:{source.lower()}"[:MAX_KEY]


def _counts(bind: Bind, keys: list[str], now: datetime) -> dict[str, tuple[int, datetime]]:
    """Each key's failures in the window and its latest, in one statement."""
    statement = (
        select(PasswordFailure.key, func.count(), func.max(PasswordFailure.at))
        .where(PasswordFailure.key.in_(keys), PasswordFailure.at > now - WINDOW)
        .group_by(PasswordFailure.key)
    )
    if isinstance(bind, Engine):
        with bind.connect() as connection:
            rows = connection.execute(statement).all()
    else:
        rows = bind.execute(statement).all()
    return {key: (count, latest) for key, count, latest in rows}


def _wait(found: tuple[int, datetime] | None, limit: int, pace: timedelta, now: datetime) -> float:
    """Seconds until the key's next try is checked (0: now)."""
    if found is None or found[0] < limit:
        return 0.0
    return max(0.0, (found[1] + pace - now).total_seconds())


def check_allowed(bind: Bind, userid: str, source: str) -> None:
    """Refuse, before any password check, a try whose userid or client is
    past its limit and not yet due its paced check (the rule above)."""
    now = clock()
    keys = ([user_key(userid)] if userid else []) + ([source_key(source)] if source else [])
    if not keys:
        return
    counts = _counts(bind, keys, now)
    wait = max(
        _wait(counts.get(user_key(userid)), PER_USERID, USER_PACE, now) if userid else 0.0,
        _wait(counts.get(source_key(source)), PER_SOURCE, SOURCE_PACE, now) if source else 0.0,
    )
    if wait > 0:
        seconds = math.ceil(wait)
        raise CommandError(
            f"Too many wrong passwords lately for '{userid[:40] or 'you'}' or from your address: "
            f"no password is checked for it for {seconds} more second"
            f"{'s' if seconds != 1 else ''}. Try again then.",
            kind=FORBIDDEN,
        )


def tokens_allowed(bind: Bind, source: str) -> bool:
    """Whether an unknown token from `source` is still answered as unknown
    (False: the client is past PER_SOURCE unknown tokens: answer 429)."""
    if not source:
        return True
    found = _counts(bind, [token_key(source)], clock()).get(token_key(source))
    return found is None or found[0] < PER_SOURCE


def _write(engine: Engine, keys: list[str]) -> None:
    """The failure's rows, and the window's old ones gone, in a transaction
    of its own."""
    now = clock()
    with engine.begin() as connection:
        connection.execute(insert(PasswordFailure), [{"key": key, "at": now} for key in keys])
        connection.execute(delete(PasswordFailure).where(PasswordFailure.at <= now - WINDOW))


def _writer(bind: Bind) -> Engine:
    """The engine to write with: the bind's, as a writer (a reading
    session's engine takes no write lock under SQLite)."""
    engine = bind.get_bind() if isinstance(bind, Session) else bind
    if isinstance(engine, Connection):
        engine = engine.engine
    return engine.execution_options(**{READING: False})


def record_failure(bind: Bind, userid: str, source: str) -> None:
    """Count a wrong password: at once with an engine, or, in a session,
    once the session's transaction has ended (committed or rolled back)."""
    keys = ([user_key(userid)] if userid else []) + ([source_key(source)] if source else [])
    if not keys:
        return
    if isinstance(bind, Session) and bind.in_transaction():
        pending: list[str] = bind.info.setdefault(_PENDING, [])
        pending.extend(keys)
        bind.info[_ENGINE] = _writer(bind)
        return
    _write(_writer(bind), keys)


def record_token_failure(engine: Engine, source: str) -> None:
    """Count an unknown API token from `source` (not written past the limit:
    a flood writes nothing); `engine` may be a reading one (a door's)."""
    if source and tokens_allowed(engine, source):
        _write(_writer(engine), [token_key(source)])


_PENDING = "pbem_password_failures"
_ENGINE = "pbem_password_failures_engine"


def write_pending(session: Session) -> None:
    """The failures a session's transaction met, written now that it has
    ended (its connection back in the pool, its SQLite lock let go)."""
    keys = session.info.pop(_PENDING, None)
    engine = session.info.pop(_ENGINE, None)
    if keys and engine is not None:
        _write(engine, keys)


@event.listens_for(Session, "after_transaction_end")
def _ended(session: Session, transaction: SessionTransaction) -> None:
    if transaction.parent is None and _PENDING in session.info:
        write_pending(session)


def forget_failures(bind: Bind) -> None:
    """Start counting afresh (tests, and a keeper who lifted a block)."""
    with _writer(bind).begin() as connection:
        connection.execute(delete(PasswordFailure))
