"""Visitors on the club's Wi-Fi that would stop the console (issue 27, items 2 and 3): a huge
anonymous upload, and many connections holding half-sent requests or saying nothing at all.

The real app on a SQLite file, served as `bidbox server` serves it: waitress over plain HTTP,
cheroot over HTTPS with a certificate as `bidbox provision` makes it. The intruders connect
from other loopback addresses (127.0.0.2 and on) than the director (127.0.0.1), as phones in
the room would.
"""

from __future__ import annotations

import http.client
import socket
import ssl
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest

from server import MAX_REQUEST
from server.serve import READ_DEADLINE, Serving, serve, serve_tls, tls_adapter
from tests.server.conftest import make_app
from tests.server_system.test_server_tls import Web, certificates

WAIT = 30.0
HUGE = 300 * 1024 * 1024
HALF_SENT = 120


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Web:
    return certificates(tmp_path_factory.mktemp("provision"))


@contextmanager
def served(tmp_path: Path, web: Web, scheme: str) -> Iterator[Serving]:
    app = make_app(str(tmp_path / f"{scheme}.db"))
    if scheme == "https":
        running = serve_tls(app, tls_adapter(web.cert, web.key), port=0, threads=32,
                            redirect_port=None)
    else:
        running = serve(app, port=0, threads=32)
    try:
        yield running
    finally:
        assert running.stop(WAIT)


def _port(running: Serving) -> int:
    return int(running.address.rsplit(":", 1)[1])


def _client_context(web: Web) -> ssl.SSLContext:
    context = ssl.create_default_context(cafile=str(web.ca))
    return context


def _connect(running: Serving, web: Web, source: str, *, handshake: bool = True
             ) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", _port(running)), timeout=WAIT,
                                    source_address=(source, 0))
    if running.address.startswith("https") and handshake:
        return _client_context(web).wrap_socket(sock, server_hostname="127.0.0.1")
    return sock


def _status_of(sock: socket.socket) -> int:
    sock.settimeout(WAIT)
    head = b""
    while b"\r\n" not in head:
        got = sock.recv(4096)
        assert got, f"closed without an answer after {head!r}"
        head += got
    return int(head.split(b" ", 2)[1])


@pytest.mark.parametrize("scheme", ["http", "https"])
def test_a_huge_anonymous_upload_is_refused_before_it_is_read(
        tmp_path: Path, web: Web, scheme: str) -> None:
    """A 300 MB POST to the sign-in page, nobody signed in: the answer is a 413 as soon as
    the header says how large it is; the test sends the header and 1 KB of the body, and
    waits for the answer (which may come, and the connection close, before the 1 KB is in)."""
    with served(tmp_path, web, scheme) as running:
        sock = _connect(running, web, "127.0.0.2")
        try:
            began = time.monotonic()
            sock.sendall(b"POST /console/login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         b"Content-Type: application/x-www-form-urlencoded\r\n"
                         b"Content-Length: " + str(HUGE).encode() + b"\r\n\r\n")
            try:
                sock.sendall(b"username=director&password=" + b"x" * 1000)
            except OSError:
                pass  # refused and closed already: the answer is waiting to be read
            status = _status_of(sock)
            answered = time.monotonic() - began
        finally:
            sock.close()
    assert status == 413
    print(f"{scheme}: a {HUGE // 2**20} MB upload refused with {status} after "
          f"{answered:.2f} s, 1 KB of it sent (the limit is {MAX_REQUEST // 2**20} MB)")


@pytest.mark.parametrize("scheme", ["http", "https"])
def test_half_sent_requests_and_silent_connections_do_not_stop_the_console(
        tmp_path: Path, web: Web, scheme: str) -> None:
    """120 connections from five addresses, each with a request's first lines and no more,
    and 10 from a sixth that never even start TLS: the director's sign-in page still answers
    at once."""
    refused = 0
    with served(tmp_path, web, scheme) as running, ExitStack() as held:
        for i in range(HALF_SENT):
            try:  # beyond its share, an address's connection is closed at once
                sock = held.enter_context(_connect(running, web, f"127.0.0.{2 + i % 5}"))
                sock.sendall(b"POST /console/login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                             b"Content-Length: 100\r\n")
            except OSError:
                refused += 1
        for _ in range(10):
            held.enter_context(_connect(running, web, "127.0.0.7", handshake=False))
        began = time.monotonic()
        if scheme == "https":
            conn: http.client.HTTPConnection = http.client.HTTPSConnection(
                "127.0.0.1", _port(running), timeout=WAIT, context=_client_context(web))
        else:
            conn = http.client.HTTPConnection("127.0.0.1", _port(running), timeout=WAIT)
        conn.request("GET", "/console/login")
        status = conn.getresponse().status
        answered = time.monotonic() - began
        conn.close()
    assert status == 200
    assert answered < READ_DEADLINE / 2, f"the sign-in page took {answered:.1f} s"
    print(f"{scheme}: the sign-in page answered in {answered:.2f} s beside {HALF_SENT} half-sent "
          f"requests ({refused} refused at once) and 10 silent connections")
