"""Users, roles, regions, passwords (argon2), API tokens and the scope of each role.

Roles (inspection.md): ``inspector`` — own and team cases; ``regional_chief`` — every case of
the region; ``national`` (coordenação nacional) — reads every case, receives reports, writes
none; ``admin`` — everything, including users.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from enum import StrEnum
from typing import TypeVar

import holidays
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Select, exists, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from abordo.cases import audit
from abordo.cases.models import ApiToken, Case, CaseMember, Setting, User
from abordo.law.errors import InputError, Refusal
from abordo.law.text import control_char, control_problem


class Role(StrEnum):
    INSPECTOR = "inspector"
    REGIONAL_CHIEF = "regional_chief"
    NATIONAL = "national"
    ADMIN = "admin"


_hasher = PasswordHasher()
_Bound = TypeVar("_Bound", User, ApiToken)


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def check_password(user: User, password: str) -> bool:
    if not user.password_hash:
        return False
    try:
        return _hasher.verify(user.password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def issue_token(session: Session, user: User, label: str | None = None,
                actor: str | None = None) -> str:
    """A new random bearer token (an API token, or a browser session's); only its digest is
    stored, and its issue is an audit event logging the row (``actor``: who asked; the user
    by default). Returned once."""
    token = "abd_" + secrets.token_urlsafe(32)
    row = ApiToken(user_id=user.id, token_hash=token_digest(token), label=label)
    session.add(row)
    session.flush()
    audit.append(session, actor=actor or user.email, command="issue_token", case_id=None,
                 reason=None, state_before=None, state_after=None,
                 payload={"label": label}, token=row)
    return token


def _revoke(session: Session, row: ApiToken, actor: str) -> None:
    """End one live token or browser session: the row stays, revoked, and the revocation is
    an audit event logging it (a token switched back on by hand is then refused)."""
    if row.revoked:
        return
    row.revoked = True
    audit.append(session, actor=actor, command="revoke_token", case_id=None, reason=None,
                 state_before=None, state_after=None, payload={"label": row.label},
                 token=row)


class TamperedUser(Refusal):
    """The stored user row is not the one its audit trail left (a change made outside the
    system: a role, region, status, e-mail, name or password edited by hand, or a user
    inserted by hand): nothing is granted on it."""


def require_untouched(session: Session, user: User) -> None:
    """:class:`TamperedUser` unless ``user``'s row is the one its last audit event logged
    (:func:`abordo.cases.audit.user_untouched`: three indexed queries)."""
    _require(session, user, audit.user_untouched, TamperedUser)


class TamperedToken(TamperedUser):
    """The stored token row is not the one its audit trail left (a token inserted by hand,
    a revoked one switched back on, or one handed to another user): nothing is granted on
    it."""


def _require(session: Session, row: _Bound, check: Callable[[Session, _Bound], str | None],
             refusal: type[TamperedUser]) -> None:
    """``refusal`` unless ``check`` finds ``row`` untouched. Read twice before refusing: a
    change committed between the row's read and the trail's is not tampering."""
    why = None
    for _ in range(2):
        why = check(session, row)
        if why is None:
            return
        session.expire(row)
    pt, en = audit.until_verified(why or "", "acesso bloqueado", "access blocked")
    raise refusal(f"{pt} ‖ {en}")


def user_by_token(session: Session, token: str) -> User | None:
    """The active user a live token belongs to, or None; :class:`TamperedToken` when the
    token's row, :class:`TamperedUser` when that user's row, is not the one its trail left
    (a raw edit never widens access)."""
    found = session.execute(
        select(User, ApiToken).join(ApiToken, ApiToken.user_id == User.id)
        .where(ApiToken.token_hash == token_digest(token), ApiToken.revoked.is_(False),
               User.active.is_(True))).one_or_none()
    if found is None:
        return None
    user, row = found
    _require(session, row, audit.token_untouched, TamperedToken)
    require_untouched(session, user)
    return user


def revoke_token(session: Session, token: str, actor: str) -> None:
    """End a token or browser session (its row stays, revoked, for the record; the
    revocation is an audit event)."""
    row = session.execute(select(ApiToken).where(ApiToken.token_hash == token_digest(token))
                          ).scalar_one_or_none()
    if row is not None:
        _revoke(session, row, actor)


def check_region(region: str | None, field: str = "region") -> str | None:
    """A region is a federative unit's code (the regional superintendences, SRTE, are one per
    UF): ``rj`` → ``RJ``; anything else is an :class:`InputError` — a typo would otherwise
    create a region nobody sees."""
    if region is None or not region.strip():
        return None
    code = region.strip().upper()
    ufs = sorted(s for s in holidays.list_supported_countries()["BR"] if len(s) == 2)
    if code not in ufs:
        raise InputError(f"região desconhecida '{region}': use a sigla da UF ({', '.join(ufs)})",
                         field, message_en=f"unknown region '{region}': use the state code")
    return code


MIN_PASSWORD = 8  # characters (as the API's user model asks)


def password_problem(password: str) -> InputError | None:
    """What is wrong with a new password (the CLI's rule is the API's): fewer than
    :data:`MIN_PASSWORD` characters, or nothing but spaces — eight spaces are no secret."""
    if len(password) < MIN_PASSWORD:
        return InputError(f"senha curta demais (mínimo {MIN_PASSWORD} caracteres)", "password",
                          message_en=f"password too short (at least {MIN_PASSWORD} characters)")
    if not password.strip():
        return InputError("senha em branco (só espaços)", "password",
                          message_en="blank password (spaces only)")
    return None


def add_user(session: Session, *, email: str, role: str, region: str | None,
             password: str | None, actor: str, name: str | None = None) -> User:
    """Create a user (recorded in the audit log). Region is required except for
    national coordination and administrators; a password has at least
    :data:`MIN_PASSWORD` characters, not only spaces (the CLI's rule is the API's). Raises
    :class:`InputError` listing every bad field at once."""
    email = email.strip().lower()
    problems: list[InputError] = []
    if "@" not in email or len(email) > 254 or control_char(email):
        problems.append(InputError("e-mail inválido", "email", message_en="invalid e-mail"))
    r: Role | None = None
    try:
        r = Role(role)
    except ValueError:
        problems.append(InputError(
            f"papel desconhecido '{role}' (use {', '.join(x.value for x in Role)})", "role",
            message_en=f"unknown role '{role}'"))
    try:
        region = check_region(region)
    except InputError as exc:
        problems.append(exc)
        region = None
    else:
        if r in (Role.INSPECTOR, Role.REGIONAL_CHIEF) and not region:
            problems.append(InputError("região obrigatória para este papel", "region",
                                       message_en="region required for this role"))
    if r == Role.INSPECTOR and not (name or "").strip():
        # An inspector signs the documents of the acts (IN SIT 70/2007 art. 4, sole
        # paragraph): by name, not by an e-mail address.
        problems.append(InputError(
            "nome obrigatório para inspetor: assina os documentos da ação fiscal", "name",
            message_en="name required for an inspector: they sign the inspection's documents"))
    if name and (bad_name := control_problem(name, "name")):
        # the documents are signed by this name: printed as it is stored, or not at all
        problems.append(bad_name)
    elif r != Role.INSPECTOR and name is not None and not name.strip():
        problems.append(InputError("nome em branco: informe o nome ou omita o campo", "name",
                                   message_en="blank name: give the name or leave it out"))
    if password is not None and (bad := password_problem(password)):
        problems.append(bad)
    if problems:
        raise InputError.listing(problems)
    assert r is not None
    if session.execute(select(User).where(User.email == email)).scalar_one_or_none():
        raise _user_exists(email)
    user = User(email=email, role=r.value, region=(region or None),
                name=(name or "").strip() or None,
                password_hash=hash_password(password) if password else None)
    session.add(user)
    try:
        session.flush()
    except IntegrityError:
        # The only unique value of a new user is its e-mail: another request created it
        # between the check above and this insert. The same refusal as the check's, and the
        # failed transaction rolled back (nothing of it is left, the session usable again).
        session.rollback()
        raise _user_exists(email) from None
    audit.append(session, actor=actor, command="add_user", case_id=None, reason=None,
                 state_before=None, state_after=None,
                 payload={"user_id": user.id, "email": email, "role": r.value,
                          "region": user.region}, user=user)
    return user


def _user_exists(email: str) -> InputError:
    return InputError(f"usuário já existe: {email}", "email",
                      message_en=f"user already exists: {email}")


def _existing(session: Session, email: str) -> User:
    """The user of ``email``, as its trail left it: a row changed outside the system is
    not written on (the next event would log the change as genuine) — an
    :class:`InputError` naming ``email``, as an unknown user."""
    user = session.execute(select(User).where(User.email == email.strip().lower())
                           ).scalar_one_or_none()
    if user is None:
        raise InputError(f"usuário não encontrado: {email}", "email",
                         message_en=f"no such user: {email}")
    try:
        require_untouched(session, user)
    except TamperedUser as exc:
        raise InputError(exc.message, "email", message_en=exc.message_en) from None
    return user


def _revoke_all(session: Session, user: User, actor: str) -> None:
    """End every live token and browser session of ``user`` (the rows stay, revoked; one
    audit event each)."""
    for row in session.execute(select(ApiToken).where(
            ApiToken.user_id == user.id, ApiToken.revoked.is_(False))).scalars():
        _revoke(session, row, actor)


def set_password(session: Session, *, email: str, password: str, actor: str) -> User:
    """Replace a user's password (at least :data:`MIN_PASSWORD` characters; every token and
    browser session of the user revoked; recorded in the audit log, the password itself
    never). Raises :class:`InputError` for an unknown user or
    a short password."""
    if bad := password_problem(password):
        raise bad
    user = _existing(session, email)
    user.password_hash = hash_password(password)
    _revoke_all(session, user, actor)  # a new password ends what the old one opened
    audit.append(session, actor=actor, command="set_password", case_id=None, reason=None,
                 state_before=None, state_after=None, payload={"user_id": user.id},
                 user=user)
    return user


def deactivate_user(session: Session, *, email: str, actor: str) -> User:
    """Retire a user: no login and every token and browser session revoked; the row stays,
    as the audit log and the cases name it (recorded in the audit log). Raises
    :class:`InputError` for an unknown user."""
    user = _existing(session, email)
    user.active = False
    _revoke_all(session, user, actor)
    audit.append(session, actor=actor, command="deactivate_user", case_id=None, reason=None,
                 state_before=None, state_after=None, payload={"user_id": user.id},
                 user=user)
    return user


def secret_key(session: Session) -> str:
    """The session-signing secret shared by every worker (created once, stored)."""
    row = session.get(Setting, "secret_key")
    if row is None:
        row = Setting(key="secret_key", value=secrets.token_urlsafe(48))
        session.add(row)
        session.flush()
    return row.value


def scoped_cases(user: User) -> Select[Case]:
    """Every case ``user`` may read, as a query (the one place scope is decided)."""
    q = select(Case)
    role = Role(user.role)
    if role in (Role.ADMIN, Role.NATIONAL):
        return q
    if role == Role.REGIONAL_CHIEF:
        return q.where(Case.region == user.region)
    member = exists().where(CaseMember.case_id == Case.id, CaseMember.user_id == user.id)
    return q.where((Case.owner_id == user.id) | member)


def can_write(user: User) -> bool:
    return Role(user.role) != Role.NATIONAL
