"""Serving the app, and stopping it cleanly: plain HTTP with waitress, or HTTPS with cheroot.

Without a certificate the app is served over plain HTTP by waitress (the demo, the tests, a
machine behind a proxy). With one, cheroot serves it over TLS in the same process, so a club's
machine runs one process and one systemd unit, with no proxy to configure; a second, plain
listener only redirects to the HTTPS address (old bookmarks keep working).

Each web server holds one worker thread per open live stream, so a stop first ends the streams
(the live hub closes), then stops the web server, then the app's own workers.

Slow or hostile visitors on the club's Wi-Fi (docs/security.md):

- A request body larger than ``MAX_REQUEST`` is refused with 413 as soon as its header says
  so, before any of it is read; a smaller one is held in memory, never spooled to a file on
  a disk the database may share.
- waitress reads each request whole before a thread takes it, so a half-sent request holds
  only a connection; each address may hold ``MAX_CONNECTIONS`` of them.
- cheroot (HTTPS) reads a request in a worker thread, and did its TLS handshake in the one
  thread that accepts connections: five silent connections stopped it for 50 s. Here the
  handshake happens in the worker, on the first read; each address may have ``MAX_READING``
  requests being read at once (more are refused with 503 at once), and a request's head must
  be in within ``READ_DEADLINE`` seconds, or its connection is cut.
"""

from __future__ import annotations

import ipaddress
import logging
import re
import socket
import ssl
import sys
import threading
import time
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import waitress  # type: ignore[import-untyped]
from cheroot import server as cheroot_server
from cheroot import wsgi
from cheroot.ssl.builtin import BuiltinSSLAdapter
from flask import Flask
from waitress.channel import HTTPChannel  # type: ignore[import-untyped]

from server import MAX_REQUEST
from server.errors import Refused

log = logging.getLogger(__name__)

StartResponse = Callable[[str, list[tuple[str, str]]], Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

MAX_CONNECTIONS = 24
"""Open connections from one address (plain HTTP): a browser opens six to a site, and a
director's laptop may have the console, the live page and a vugraph open."""
CONNECTION_LIMIT = 500
"""Open connections in all (waitress's ``connection_limit``; its default is 100)."""
MAX_READING = 4
"""Requests of one address being read by HTTPS worker threads at once: a browser's requests
take milliseconds to read, a half-sent one holds its thread until ``READ_DEADLINE``."""
READ_DEADLINE = 10.0
"""Seconds from a connection's turn in a worker to its request's head read (TLS handshake
included), however slowly its bytes come."""


class Serving(ABC):
    """The app served from a thread of its own: ``address``, ``start()``, ``stop()``."""

    app: Flask
    thread: threading.Thread
    redirect_address: str | None = None
    """The plain-HTTP address that only redirects to ``address``, if there is one."""

    @property
    @abstractmethod
    def address(self) -> str:
        """The base URL the app answers on, with the real port (port 0 asks for a free one)."""

    def start(self) -> Serving:
        self.thread.start()
        return self

    def stop(self, timeout: float = 10.0) -> bool:
        """Stop serving and the app's workers; whether the web server stopped in time."""
        services = self.app.extensions["bidbox"]
        services.hub.close()  # ends the open event streams, freeing their threads
        stopped = self._stop_server(timeout)
        services.close()
        return stopped

    @abstractmethod
    def _stop_server(self, timeout: float) -> bool:
        """Close the listener(s) and every connection; whether the threads ended in time."""


class Served(Serving):
    """Plain HTTP with waitress.

    waitress closes every connection and the listener from inside its own loop, so nothing
    races its poll on a closed socket.
    """

    def __init__(self, app: Flask, host: str, port: int, threads: int) -> None:
        self.app = app
        # A body is held in memory up to the size limit (inbuf_overflow): none goes to a
        # temporary file on the disk the database may be on.
        self.server: Any = waitress.create_server(
            app, host=host, port=port, threads=threads, channel_timeout=120,
            max_request_body_size=MAX_REQUEST, inbuf_overflow=MAX_REQUEST + 65536,
            connection_limit=CONNECTION_LIMIT)
        self.server.channel_class = _LimitedChannel
        self.thread = threading.Thread(target=self._run, name="waitress", daemon=True)
        self._closed_outside = False

    def _run(self) -> None:
        try:
            self.server.run()
        except OSError as error:
            if not self._closed_outside:
                raise
            # Closed from outside its loop (below): the loop's poll may meet a closed socket.
            log.info("waitress: its loop ended on %s after closing from outside", error)

    @property
    def address(self) -> str:
        return f"http://{self.server.effective_host}:{self.server.effective_port}"

    def _stop_server(self, timeout: float) -> bool:
        server = self.server
        server.task_dispatcher.shutdown(timeout=timeout)

        def close_everything() -> None:
            for dispatcher in list(server._map.values()):
                if dispatcher is not server and dispatcher is not server.trigger:
                    dispatcher.handle_close()
            server.close()

        try:
            server.trigger.pull_trigger(close_everything)
        except OSError as error:
            # waitress's wake-up pipe is gone, so its loop cannot be asked: close from here
            # (seen once in CI under a load average of 270; not reproduced since).
            log.warning("waitress: its trigger failed (%s); closing from outside", error)
            self._closed_outside = True
            close_everything()
        self.thread.join(timeout)
        return not self.thread.is_alive()


class _Addresses:
    """How many of something each address holds, under a lock."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._held: Counter[str] = Counter()
        self._lock = threading.Lock()

    def take(self, address: str) -> bool:
        """One more for ``address``, unless it holds ``most`` already."""
        with self._lock:
            if self._held[address] >= self.most:
                return False
            self._held[address] += 1
            return True

    def give_back(self, address: str) -> None:
        with self._lock:
            self._held[address] -= 1
            if self._held[address] <= 0:
                del self._held[address]


_WAITRESS_CONNECTIONS = _Addresses(MAX_CONNECTIONS)


class _LimitedChannel(HTTPChannel):  # type: ignore[misc]
    """waitress's connection, refused (closed at once) beyond ``MAX_CONNECTIONS`` from one
    address."""

    def __init__(self, server: Any, sock: Any, addr: Any, adj: Any, map: Any = None) -> None:
        super().__init__(server, sock, addr, adj, map)
        self._address = str(addr[0]) if isinstance(addr, tuple) else str(addr)
        self._counted = _WAITRESS_CONNECTIONS.take(self._address)
        if not self._counted:
            log.warning("refused a connection from %s: %d open already", self._address,
                        MAX_CONNECTIONS)
            self.will_close = True
            self.close()

    def handle_close(self) -> None:
        if self._counted:
            self._counted = False
            _WAITRESS_CONNECTIONS.give_back(self._address)
        super().handle_close()


class TlsFilesError(Refused):
    """The certificate or key cannot be read or used; the message says which and why."""


def tls_adapter(certfile: Path, keyfile: Path) -> BuiltinSSLAdapter:
    """cheroot's TLS adapter for this certificate chain and key (PEM), TLS 1.2 at least.

    Raises :class:`TlsFilesError` with a message for a person when a file is missing or
    unreadable, is not PEM, or the key does not belong to the certificate.
    """
    for kind, path in (("certificate", certfile), ("key", keyfile)):
        try:
            with open(path, "rb") as f:
                f.read(1)
        except OSError as error:
            raise TlsFilesError(f"cannot read the TLS {kind} {path}: {error.strerror}"
                                ) from None
    try:
        adapter = _HandshakeInWorker(str(certfile), str(keyfile))
    except ssl.SSLError as error:
        if error.reason == "KEY_VALUES_MISMATCH":
            why = "the key does not belong to the certificate"
        else:
            why = f"not a PEM certificate chain and its key ({error.reason or error})"
        raise TlsFilesError(f"cannot use the TLS certificate {certfile} with the key "
                            f"{keyfile}: {why}") from None
    # Older versions have known weaknesses; every browser of the last ten years speaks 1.2.
    adapter.context.minimum_version = ssl.TLSVersion.TLSv1_2
    return adapter


class _HandshakeInWorker(BuiltinSSLAdapter):
    """cheroot's TLS, with the handshake left to the first read, in a worker thread: cheroot
    does it in the thread that accepts every connection, where a client that connects and
    says nothing stops everyone else's for the socket's timeout (10 s)."""

    def wrap(self, sock: socket.socket) -> tuple[ssl.SSLSocket, dict[str, str]]:
        wrapped = self.context.wrap_socket(sock, server_side=True,
                                           do_handshake_on_connect=False)
        return wrapped, {"wsgi.url_scheme": "https", "HTTPS": "on"}


class _Watchdog:
    """Cuts the connections whose request's head is not in by its deadline: a blocked read
    then ends, and its worker thread is free."""

    def __init__(self) -> None:
        self._due: dict[int, tuple[float, socket.socket]] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def watch(self, sock: socket.socket, deadline: float) -> None:
        with self._lock:
            self._due[id(sock)] = (deadline, sock)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="read-deadline",
                                                daemon=True)
                self._thread.start()

    def forget(self, sock: socket.socket) -> None:
        with self._lock:
            self._due.pop(id(sock), None)

    def _run(self) -> None:
        while True:
            time.sleep(0.5)
            now = time.monotonic()
            with self._lock:
                late = [sock for key, (due, sock) in list(self._due.items()) if due <= now
                        and self._due.pop(key, None) is not None]
            for sock in late:
                log.warning("cut a connection whose request was not in after %.0f s",
                            READ_DEADLINE)
                try:  # the plain socket's shutdown: an SSLSocket's would drop its TLS state
                    socket.socket.shutdown(sock, socket.SHUT_RDWR)
                except OSError:
                    pass


_WATCHDOG = _Watchdog()


class _GuardedRequest(cheroot_server.HTTPRequest):
    """cheroot's request, its head read under a deadline and a per-address limit."""

    def parse_request(self) -> None:
        address = str(getattr(self.conn, "remote_addr", None) or "")
        reading: _Addresses = self.server.reading
        if not reading.take(address):
            log.warning("refused a request from %s: %d being read already", address,
                        MAX_READING)
            # Not a word back: over TLS that would need the handshake this very client may
            # be holding up. Not ready: the connection closes.
            return
        sock = self.conn.socket
        _WATCHDOG.watch(sock, time.monotonic() + READ_DEADLINE)
        try:
            super().parse_request()
        finally:
            _WATCHDOG.forget(sock)
            reading.give_back(address)


class _GuardedConnection(cheroot_server.HTTPConnection):
    RequestHandlerClass = _GuardedRequest


class _Cheroot(wsgi.Server):
    """cheroot's WSGI server, logging through :mod:`logging` instead of onto stderr; each
    request's head read under a deadline and a per-address limit, and its body refused
    beyond ``MAX_REQUEST`` before it is read."""

    ConnectionClass = _GuardedConnection

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.reading = _Addresses(MAX_READING)
        self.max_request_body_size = MAX_REQUEST

    def error_log(self, msg: str = "", level: int = logging.INFO,
                  traceback: bool = False) -> None:
        # A phone that closes a live page mid-stream is a warning with a traceback to cheroot;
        # here it is one line. Errors keep their traceback.
        if traceback and level < logging.ERROR:
            log.log(level, "cheroot: %s: %r", msg, sys.exc_info()[1])
        else:
            log.log(level, "cheroot: %s", msg, exc_info=traceback)


def _url(scheme: str, host: str, port: int) -> str:
    return f"{scheme}://{f'[{host}]' if ':' in host else host}:{port}"


class TlsServed(Serving):
    """HTTPS with cheroot, and optionally a plain-HTTP listener that only redirects to it.

    Both listeners are bound at construction, so ``address`` has the real ports before the
    threads start and a port in use fails here, not in a thread.
    """

    def __init__(self, app: Flask, host: str, port: int, threads: int,
                 adapter: BuiltinSSLAdapter, redirect_port: int | None = None) -> None:
        self.app = app
        # A fixed pool, as with waitress: each open live page holds a thread.
        self.server = _Cheroot((host, port), app, numthreads=threads, max=threads)
        self.server.ssl_adapter = adapter
        self.server.prepare()
        self.thread = threading.Thread(target=self.server.serve, name="cheroot", daemon=True)
        self.redirect: _Cheroot | None = None
        self.redirect_thread: threading.Thread | None = None
        if redirect_port is not None:
            try:
                self.redirect = _Cheroot((host, redirect_port),
                                         redirect_app(self.port, fallback=host), numthreads=2)
                self.redirect.prepare()
            except BaseException:
                self.server.stop()
                raise
            self.redirect_thread = threading.Thread(target=self.redirect.serve,
                                                    name="cheroot-redirect", daemon=True)
            self.redirect_address = _url("http", *self.redirect.bind_addr[:2])

    @property
    def port(self) -> int:
        bound: int = self.server.bind_addr[1]
        return bound

    @property
    def address(self) -> str:
        return _url("https", self.server.bind_addr[0], self.port)

    def start(self) -> Serving:
        super().start()
        if self.redirect_thread is not None:
            self.redirect_thread.start()
        return self

    def _stop_server(self, timeout: float) -> bool:
        threads = [self.thread]
        servers = [self.server]
        if self.redirect is not None and self.redirect_thread is not None:
            threads.append(self.redirect_thread)
            servers.append(self.redirect)
        for server in servers:
            server.shutdown_timeout = timeout
            server.stop()  # closes the listener, the idle connections, then joins its workers
        for thread in threads:
            if thread.ident is not None:
                thread.join(timeout)
        return not any(thread.is_alive() for thread in threads)


_HOST = re.compile(r"(?:\[(?P<v6>[0-9A-Fa-f:.]+)\]|(?P<name>[A-Za-z0-9.-]+))(?::\d+)?\Z")


def _host_name(header: str | None, fallback: str) -> str:
    """The host name of a Host header, bracketed if IPv6; ``fallback`` when it has none that
    is a plain name or address (nothing else goes into the Location header)."""
    found = _HOST.match(header or "")
    if found and found.group("v6"):
        try:
            return f"[{ipaddress.IPv6Address(found.group('v6'))}]"
        except ValueError:
            pass
    elif found and found.group("name"):
        return found.group("name")
    if fallback in ("0.0.0.0", "::", ""):
        return "localhost"
    return f"[{fallback}]" if ":" in fallback else fallback


def redirect_app(https_port: int, fallback: str = "localhost") -> WsgiApp:
    """A WSGI app that answers every request with a permanent redirect (308, which keeps the
    method) to the same path and query on ``https://<the Host header's name>:https_port``."""
    port = "" if https_port == 443 else f":{https_port}"

    def app(environ: dict[str, Any], start_response: StartResponse) -> list[bytes]:
        host = _host_name(environ.get("HTTP_HOST"), fallback)
        # PATH_INFO arrives decoded as latin-1 (PEP 3333); quote its bytes back.
        path = quote(environ.get("PATH_INFO", "/").encode("latin-1"), safe="/:@!$&'()*+,;=~")
        query = environ.get("QUERY_STRING", "")
        target = f"https://{host}{port}{path or '/'}{'?' + query if query else ''}"
        body = f"This page is served over HTTPS: {target}\n".encode()
        start_response("308 Permanent Redirect", [
            ("Location", target),
            # Not remembered by the browser: the same address may serve plain HTTP again
            # (the demo, a machine moved back to http).
            ("Cache-Control", "no-store"),
            ("Content-Type", "text/plain; charset=utf-8"),
            ("Content-Length", str(len(body)))])
        return [body]

    return app


def serve(app: Flask, *, host: str = "127.0.0.1", port: int = 8000,
          threads: int = 32) -> Serving:
    """Serve ``app`` over plain HTTP with waitress."""
    return Served(app, host, port, threads).start()


def serve_tls(app: Flask, adapter: BuiltinSSLAdapter, *, host: str = "127.0.0.1", port: int = 8443,
              threads: int = 32, redirect_port: int | None = 8000) -> Serving:
    """Serve ``app`` over HTTPS with cheroot (``adapter`` from :func:`tls_adapter`), and
    redirect plain HTTP on ``redirect_port`` to it (None: no plain listener)."""
    return TlsServed(app, host, port, threads, adapter, redirect_port).start()
