"""When an account's trust ends: a new password, or "log out everywhere".

Both end every web session of the player (the session count moves on, so
every cookie made under the old one is refused, web/session.py) and revoke
every API token, but what the change came through: the web session that
changed the password starts again, and the API token that carried a
`change password` (`token_in_use`) keeps working, the reply saying so. A
token copied by someone else, or a session left open on another computer,
ends with the trust that made it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar

from sqlalchemy import and_, delete, select
from sqlalchemy.orm import Session

from ...store import ApiToken, User

_TOKEN_IN_USE: ContextVar[str | None] = ContextVar("pbem_token_in_use", default=None)


@contextlib.contextmanager
def token_in_use(token_hash: str) -> Iterator[None]:
    """Within it, the commands run for the API token of this hash: a new
    password revokes every other token of its owner, not that one."""
    token = _TOKEN_IN_USE.set(token_hash)
    try:
        yield
    finally:
        _TOKEN_IN_USE.reset(token)


def end_trust(session: Session, user: User, keep_token_in_use: bool) -> tuple[int, bool]:
    """End every web session of `user` and revoke their API tokens, but the
    one in use when `keep_token_in_use` (a command sent with it): how many
    were revoked, and whether one in use was kept."""
    user.session_generation += 1
    kept = _TOKEN_IN_USE.get() if keep_token_in_use else None
    mine = ApiToken.user_id == user.id
    revoked = session.scalars(
        delete(ApiToken)
        .where(mine if kept is None else and_(mine, ApiToken.token_hash != kept))
        .returning(ApiToken.id)
        .execution_options(synchronize_session=False)
    ).all()
    kept_one = kept is not None and (
        session.scalar(select(ApiToken.id).where(mine, ApiToken.token_hash == kept)) is not None
    )
    return len(revoked), kept_one
