"""Director sign-in and protection against cross-site request forgery.

The console needs a signed-in director (``login_required``). A sign-in is a row of
``console_sessions`` too, found by a hash of a random token the session cookie holds: every
request checks that its sign-in has not ended, and signing out ends it, so a cookie copied
before (Flask's cookie is signed, not revocable) no longer opens the console.

Every form a console page posts carries the session's CSRF token (``csrf_field()`` in a
template; the ``X-CSRF-Token`` header for scripts), checked before any POST, PUT, PATCH or
DELETE of this app is handled. The public display and API only read.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import math
import secrets
import time
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    g,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from markupsafe import Markup
from sqlalchemy import insert, select, update
from werkzeug.security import check_password_hash

from server.pages.throttle import KEEP, OK, WRONG, Failures, Throttle
from server.services import services
from server.storage import schema as s
from server.texts.i18n import t

bp = Blueprint("auth", __name__, url_prefix="/console")
F = TypeVar("F", bound=Callable[..., Any])
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
DAY = 24 * 3600.0


def csrf_token() -> str:
    token = session.get("csrf")
    if not isinstance(token, str):
        token = secrets.token_urlsafe(32)
        session["csrf"] = token
    return token


def csrf_field() -> Markup:
    return Markup('<input type="hidden" name="csrf" value="{}">').format(csrf_token())


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _signed_in() -> str | None:
    """The director this request's cookie signed in, if that sign-in has not ended."""
    director, token = session.get("director"), session.get("sid")
    if not isinstance(director, str) or not isinstance(token, str):
        return None
    with services().db.read() as conn:
        found = conn.execute(select(s.console_sessions.c.username).where(
            s.console_sessions.c.token_hash == _token_hash(token),
            s.console_sessions.c.ended_at.is_(None))).scalar()
    return director if found == director else None


def _begin_session(username: str, at: float) -> None:
    token = secrets.token_urlsafe(32)
    with services().db.write() as conn:
        conn.execute(insert(s.console_sessions).values(
            token_hash=_token_hash(token), username=username, started_at=at))
    session["director"] = username
    session["sid"] = token


def _end_session(at: float) -> None:
    token = session.get("sid")
    if isinstance(token, str):
        with services().db.write() as conn:
            conn.execute(update(s.console_sessions).where(
                s.console_sessions.c.token_hash == _token_hash(token),
                s.console_sessions.c.ended_at.is_(None)).values(ended_at=at))


@bp.before_app_request
def check_csrf() -> None:
    g.director = _signed_in() if "director" in session else None
    if request.method not in UNSAFE:
        return
    expected = session.get("csrf")
    if not isinstance(expected, str):
        # No form of ours was ever shown to this browser: refused before its body is read.
        abort(400, description=t("csrf_failed"))
    sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf") or ""
    if not hmac.compare_digest(sent.encode(), expected.encode()):
        abort(400, description=t("csrf_failed"))


@bp.app_context_processor
def template_helpers() -> dict[str, Any]:
    return {"csrf_field": csrf_field, "csrf_token": csrf_token,
            "director": g.get("director"), "sign_in_failures": recent_failures}


def recent_failures() -> str | None:
    """The console's word on the sign-ins that failed in the last day, or None if none."""
    failed = Throttle(services().db).failures_since(now() - DAY)
    return failures_text(failed, "console_sign_in_failures") if failed.wrong or failed.refused \
        else None


def login_required(view: F) -> F:
    @functools.wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if not g.get("director"):
            return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
        return view(*args, **kwargs)
    return wrapped  # type: ignore[return-value]


def check_login(username: str, password: str) -> bool:
    with services().db.read() as conn:
        hashed = conn.execute(select(s.directors.c.password_hash).where(
            s.directors.c.username == username)).scalar()
    return hashed is not None and check_password_hash(hashed, password)


def _local(target: str) -> str | None:
    """A path of this site, or None: never a redirect elsewhere. Browsers drop tabs and
    newlines and read a backslash as a slash, so "/\tevil.example" is "//evil.example"."""
    if not target or any(ord(ch) < 0x21 or ch == "\\" for ch in target):
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return None
    return target


def now() -> float:
    """The time the sign-in throttle goes by: ``CLOCK`` in the app's config, if a test set
    one, else the wall clock."""
    clock = current_app.config.get("CLOCK") or time.time
    return float(clock())


@bp.route("/login", methods=("GET", "POST"))
def login() -> Any:
    if request.method == "POST":
        username = request.form.get("username", "")
        address = request.remote_addr or ""
        throttle = Throttle(services().db)
        at = now()
        # Guesses are slowed per address and per user name (server/pages/throttle.py). Each
        # attempt is counted before its password is looked at, so that many at once are
        # counted against each other; a refused one is answered without looking.
        attempt, verdict = throttle.begin(address, username, at)
        if not verdict.allowed:
            wait = math.ceil(verdict.wait)
            flash(t("login_locked", minutes=math.ceil(wait / 60)) if verdict.locked
                  else t("login_wait", seconds=wait))
            answer = make_response(render_template("login.html"), 429)
            answer.headers["Retry-After"] = str(wait)
            return answer
        if check_login(username, request.form.get("password", "")):
            since = throttle.last_success(username, at)
            throttle.finish(attempt, OK)
            target = request.args.get("next") or ""
            session.clear()
            _begin_session(username, at)
            csrf_token()
            failed = throttle.failures_since(since if since is not None else at - KEEP)
            if failed.wrong or failed.refused:
                flash(failures_text(failed))
            return redirect(_local(target) or url_for("console.index"))
        throttle.finish(attempt, WRONG)
        flash(t("login_failed"))
    return render_template("login.html")


def failures_text(failed: Failures, key: str = "login_failures") -> str:
    """"3 wrong passwords and 5 attempts refused since ..., the last from 10.0.0.7 at 21:04"."""
    last = time.strftime("%H:%M", time.localtime(failed.last_at or 0))
    return t(key, wrong=failed.wrong, refused=failed.refused,
             addresses=failed.addresses, address=failed.last_address or "?", at=last)


@bp.route("/logout", methods=("POST",))
def logout() -> Any:
    _end_session(now())  # a copy of the cookie no longer opens the console
    session.clear()
    return redirect(url_for("auth.login"))
