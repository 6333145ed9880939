"""The pages' Spanish and English.

Each area registers its texts (``register({"key": {"es": ..., "en": ...}})``); templates call
``t("key", name=value)``. The language is the visitor's choice (``?lang=`` kept in a cookie),
else the server's configured room language. Bidding terms follow the table's i18n.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, current_app, g, request

LANGUAGES = ("es", "en")
TEXTS: dict[str, dict[str, str]] = {}


def register(texts: Mapping[str, Mapping[str, str]]) -> None:
    for key, versions in texts.items():
        missing = set(LANGUAGES) - set(versions)
        if missing:
            raise ValueError(f"text {key!r} has no {sorted(missing)} version")
        TEXTS[key] = dict(versions)


def language() -> str:
    chosen = getattr(g, "language", None)
    if chosen is None:
        chosen = request.args.get("lang") or request.cookies.get("lang")
        if chosen not in LANGUAGES:
            chosen = current_app.config.get("LANGUAGE", "es")
        g.language = chosen
    return str(chosen)


def t(key: str, **values: Any) -> str:
    versions = TEXTS.get(key)
    if versions is None:
        return key
    text = versions[language()]
    return text.format(**values) if values else text


def _remember(response: Response) -> Response:
    chosen = request.args.get("lang")
    if chosen in LANGUAGES:
        response.set_cookie("lang", chosen, max_age=365 * 24 * 3600, samesite="Lax",
                            secure=request.is_secure)
    return response


def init_app(app: Flask) -> None:
    app.jinja_env.globals.update(t=t, language=language, LANGUAGES=LANGUAGES)
    app.after_request(_remember)


register({
    "app_name": {"es": "bidbox", "en": "bidbox"},
    "csrf_failed": {"es": "El formulario ha caducado; vuelva a cargar la página.",
                    "en": "The form has expired; reload the page."},
    "login": {"es": "Entrar", "en": "Sign in"},
    "logout": {"es": "Salir", "en": "Sign out"},
    "login_title": {"es": "Consola del director", "en": "Director's console"},
    "login_failed": {"es": "Usuario o contraseña incorrectos.",
                     "en": "Wrong user name or password."},
    "login_wait": {"es": "Demasiados intentos fallidos: espere {seconds} s antes de volver a "
                         "intentarlo.",
                   "en": "Too many failed attempts: wait {seconds} s before trying again."},
    "login_locked": {"es": "Demasiados intentos fallidos: el acceso queda bloqueado "
                           "{minutes} min.",
                     "en": "Too many failed attempts: signing in is locked for {minutes} min."},
    "login_failures": {"es": "Intentos de acceso fallidos desde su último acceso: {wrong} con "
                             "contraseña incorrecta y {refused} rechazados por espera, desde "
                             "{addresses} direcciones; el último desde {address} a las {at}.",
                       "en": "Failed sign-in attempts since your last sign-in: {wrong} with a "
                             "wrong password and {refused} refused while waiting, from "
                             "{addresses} addresses; the last from {address} at {at}."},
    "console_sign_in_failures": {
        "es": "Accesos fallidos en las últimas 24 horas: {wrong} con contraseña incorrecta y "
              "{refused} rechazados por espera, desde {addresses} direcciones; el último desde "
              "{address} a las {at}.",
        "en": "Failed sign-ins in the last 24 hours: {wrong} with a wrong password and "
              "{refused} refused while waiting, from {addresses} addresses; the last from "
              "{address} at {at}."},
    "username": {"es": "Usuario", "en": "User name"},
    "password": {"es": "Contraseña", "en": "Password"},
    "language_name": {"es": "Español", "en": "English"},
})
