"""The pages' Spanish and English.

Every page text is in ``PAGES``, a ``tablemodel.texts`` table (``Words(es=..., en=...)``): each
area adds its own (``server.texts.display_texts``, ``server.texts.console_texts``); templates call
``t("key", name=value)``. The language is the visitor's choice (``?lang=`` kept in a cookie),
else the server's configured room language. The bridge words (calls, contracts, seats, suits,
vulnerability) come from ``tablemodel.words``, as on the table's displays.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, current_app, g, request

from tablemodel.texts import LANGUAGES, TextTable, Words, table

PAGES: TextTable[str] = table("pages")


def language() -> str:
    chosen = getattr(g, "language", None)
    if chosen is None:
        chosen = request.args.get("lang") or request.cookies.get("lang")
        if chosen not in LANGUAGES:
            chosen = current_app.config.get("LANGUAGE", "es")
        g.language = chosen
    return str(chosen)


def t(key: str, /, **values: Any) -> str:
    """The page text ``key`` in the visitor's language. A key built from data that has no
    text (a phase or a ruling field the pages do not name yet) shows itself rather than
    failing the page; ``PAGES.text`` is the strict lookup."""
    if key not in PAGES:
        return key
    return PAGES.text(key, language(), **values)


def language_name(code: str) -> str:
    """A language's name in that language ("English", "Español"): the link to switch to it."""
    return PAGES.text("language_name", code)


def _remember(response: Response) -> Response:
    # A visitor's choice is remembered from the pages; the API answers in the language asked
    # (display.js asks in its page's) and remembers nothing.
    chosen = request.args.get("lang")
    if chosen in LANGUAGES and request.blueprint != "api":
        response.set_cookie("lang", chosen, max_age=365 * 24 * 3600, samesite="Lax",
                            secure=request.is_secure)
    return response


def init_app(app: Flask) -> None:
    app.jinja_env.globals.update(t=t, language=language, LANGUAGES=LANGUAGES,
                                 language_name=language_name)
    app.after_request(_remember)


PAGES.add({
    "app_name": Words(es="bidbox", en="bidbox"),
    "csrf_failed": Words(es="El formulario ha caducado; vuelva a cargar la página.",
                         en="The form has expired; reload the page."),
    "login": Words(es="Entrar", en="Sign in"),
    "logout": Words(es="Salir", en="Sign out"),
    "login_title": Words(es="Consola del árbitro", en="Director's console"),
    "login_failed": Words(es="Usuario o contraseña incorrectos.",
                          en="Wrong user name or password."),
    "username": Words(es="Usuario", en="User name"),
    "password": Words(es="Contraseña", en="Password"),
    "language_name": Words(es="Español", en="English"),
    "skip_to_content": Words(es="Saltar al contenido", en="Skip to the content"),
    "languages_nav": Words(es="Idioma", en="Language"),
})

# Signing in: the throttle's words (server/pages/throttle.py, server/pages/auth.py).
PAGES.add({
    "login_wait": Words(
        es="Demasiados intentos fallidos: espere {seconds} s antes de volver a intentarlo.",
        en="Too many failed attempts: wait {seconds} s before trying again."),
    "login_locked": Words(
        es="Demasiados intentos fallidos: el acceso queda bloqueado {minutes} min.",
        en="Too many failed attempts: signing in is locked for {minutes} min."),
    "login_failures": Words(
        es="Intentos de acceso fallidos desde su último acceso: {wrong} con contraseña "
           "incorrecta y {refused} rechazados por espera, desde {addresses} direcciones; el "
           "último desde {address} a las {at}.",
        en="Failed sign-in attempts since your last sign-in: {wrong} with a wrong password "
           "and {refused} refused while waiting, from {addresses} addresses; the last from "
           "{address} at {at}."),
    "console_sign_in_failures": Words(
        es="Accesos fallidos en las últimas 24 horas: {wrong} con contraseña incorrecta y "
           "{refused} rechazados por espera, desde {addresses} direcciones; el último desde "
           "{address} a las {at}.",
        en="Failed sign-ins in the last 24 hours: {wrong} with a wrong password and "
           "{refused} refused while waiting, from {addresses} addresses; the last from "
           "{address} at {at}."),
})
