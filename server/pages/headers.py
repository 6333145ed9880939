"""The headers every answer carries, so that a browser holds the pages to what they are.

- ``Content-Security-Policy``: scripts, styles, images and fetches from this server only; no
  inline script or style (the pages have none: their data rides in
  ``<script type="application/json">`` blocks, which are never run), no plugins, no ``<base>``,
  forms post only here, and no other site may frame a page (``frame-ancestors 'none'``:
  nobody can overlay the console to make the director click).
- ``X-Frame-Options: DENY``: the same for browsers older than ``frame-ancestors``.
- ``X-Content-Type-Options: nosniff``: a file is what its type says.
- ``Referrer-Policy: same-origin``: a link out of the console tells nobody where it came from.
- ``Cross-Origin-Opener-Policy: same-origin``: a page opened from elsewhere cannot script ours.

tests/browser/test_csp.py loads every page in Chromium and requires no CSP violation.
"""

from __future__ import annotations

from flask import Flask, Response

POLICY = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
))

HEADERS = {
    "Content-Security-Policy": POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def _protect(response: Response) -> Response:
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def init_app(app: Flask) -> None:
    app.after_request(_protect)
