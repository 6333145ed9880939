"""``bidbox server --tls-cert --tls-key``: the real process serving HTTPS with a certificate
from ``bidbox provision``'s CA, its plain-HTTP port redirecting, and its refusals.

Clients check the server as a browser that trusts web/ca.crt would: against that CA, for the
host name 127.0.0.1 (one of the certificate's names). Every wait is bounded; nothing sleeps.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import queue
import re
import signal
import socket
import ssl
import subprocess
import sys
import threading
import urllib.error
import urllib.request
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bidbox.provision import Deployment, find_openssl, make_certificates
from tests.processes import group_members, run, spawned

pytestmark = pytest.mark.slow  # each test starts the whole command

TIMEOUT = 60.0  # seconds for a start, a request or a stop, on a loaded machine
PASSWORD = "mesa siete norte"
HTTPS = re.compile(r"live results:\s+(https://127\.0\.0\.1:(\d+))/")
REDIRECT = re.compile(r"plain http:\s+(http://127\.0\.0\.1:(\d+))/ redirects to (https://\S+)/")


@dataclass(frozen=True)
class Web:
    ca: Path
    cert: Path
    key: Path


def certificates(folder: Path) -> Web:
    """A CA and a web certificate for 127.0.0.1, as `bidbox provision` makes them."""
    for sub in ("ca", "broker", "web"):
        (folder / sub).mkdir(parents=True)
    make_certificates(Deployment(event="club", tables=1, broker_hosts=("127.0.0.1",)),
                      folder / "ca", folder / "broker", find_openssl(), web_dir=folder / "web")
    web = folder / "web"
    return Web(web / "ca.crt", web / "server.crt", web / "server.key")


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Web:
    return certificates(tmp_path_factory.mktemp("provision"))


@pytest.fixture(scope="module")
def trusting(web: Web) -> ssl.SSLContext:
    """A client that trusts the provisioned CA and nothing else."""
    return ssl.create_default_context(cafile=web.ca)


def server_args(db: Path, web: Web, *more: str) -> list[str]:
    return [sys.executable, "-m", "bidbox", "server", "--db", str(db),
            "--tls-cert", str(web.cert), "--tls-key", str(web.key),
            "--port", "0", "--http-port", "0", "--threads", "6", *more]


class Lines:
    """What a process prints, line by line, read on a thread so every wait is bounded."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.seen: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, args=(process,), daemon=True).start()

    def _pump(self, process: subprocess.Popen[str]) -> None:
        assert process.stdout is not None
        try:
            for line in process.stdout:
                self._queue.put(line)
        except ValueError:  # closed by the clean-up
            pass
        self._queue.put(None)

    def until(self, pattern: re.Pattern[str]) -> re.Match[str]:
        while True:
            try:
                line = self._queue.get(timeout=TIMEOUT)
            except queue.Empty:
                pytest.fail(f"no line like {pattern.pattern} in {TIMEOUT} s:\n"
                            + "".join(self.seen))
            assert line is not None, "it ended:\n" + "".join(self.seen)
            self.seen.append(line)
            found = pattern.search(line)
            if found:
                return found

    def rest(self) -> str:
        while (line := self._queue.get(timeout=TIMEOUT)) is not None:
            self.seen.append(line)
        return "".join(self.seen)


@dataclass(frozen=True)
class Running:
    process: subprocess.Popen[str]
    lines: Lines
    https: str
    port: int
    http: str
    http_port: int


@contextlib.contextmanager
def start(db: Path, web: Web) -> Iterator[Running]:
    env = {**os.environ, "BIDBOX_DIRECTOR_PASSWORD": PASSWORD, "PYTHONUNBUFFERED": "1"}
    with spawned(server_args(db, web), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                 text=True, env=env) as process:
        lines = Lines(process)
        https = lines.until(HTTPS)
        redirect = lines.until(REDIRECT)
        assert redirect.group(3) == https.group(1)
        yield Running(process, lines, https.group(1), int(https.group(2)),
                      redirect.group(1), int(redirect.group(2)))


@pytest.fixture(scope="module")
def server(web: Web, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    with start(tmp_path_factory.mktemp("server") / "club.db", web) as running:
        yield running


def get(url: str, context: ssl.SSLContext) -> http.client.HTTPResponse:
    response: http.client.HTTPResponse = urllib.request.urlopen(url, timeout=TIMEOUT,
                                                                context=context)
    return response


# --- serving -----------------------------------------------------------------------------

def test_the_pages_are_served_over_tls_with_the_provisioned_certificate(
        server: Running, trusting: ssl.SSLContext) -> None:
    with get(f"{server.https}/", trusting) as page:
        assert page.status == 200
        assert b"<html" in page.read().lower()
    with get(f"{server.https}/console/login", trusting) as page:
        assert page.status == 200
    with socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT) as raw, \
            trusting.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
        assert tls.version() == "TLSv1.3"


def test_a_client_that_trusts_another_ca_refuses_the_server(
        server: Running, tmp_path: Path) -> None:
    other = certificates(tmp_path / "other")
    with pytest.raises(urllib.error.URLError) as caught:
        get(f"{server.https}/", ssl.create_default_context(cafile=other.ca))
    assert isinstance(caught.value.reason, ssl.SSLCertVerificationError)


def test_the_session_cookie_is_secure_httponly_and_lax(
        server: Running, trusting: ssl.SSLContext) -> None:
    with get(f"{server.https}/console/login", trusting) as page:
        cookies = page.headers.get_all("Set-Cookie") or []
    [session] = [c for c in cookies if c.startswith("session=")]
    attributes = {part.strip().split("=")[0].lower() for part in session.split(";")[1:]}
    assert {"secure", "httponly", "samesite"} <= attributes, session
    assert "SameSite=Lax" in session


def test_plain_http_to_the_tls_port_gets_no_page(server: Running) -> None:
    with pytest.raises((OSError, http.client.HTTPException)):
        urllib.request.urlopen(f"http://127.0.0.1:{server.port}/", timeout=TIMEOUT).close()


def test_a_client_of_tls_1_1_at_most_is_refused(server: Running, web: Web) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # TLSv1_1 is, rightly
        old = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        old.load_verify_locations(web.ca)
        old.minimum_version = ssl.TLSVersion.TLSv1
        old.maximum_version = ssl.TLSVersion.TLSv1_1
    old.set_ciphers("DEFAULT:@SECLEVEL=0")  # so the client offers TLS 1.1 at all
    with socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT) as raw, \
            pytest.raises(ssl.SSLError, match="PROTOCOL_VERSION"):
        old.wrap_socket(raw, server_hostname="127.0.0.1").close()  # the server's alert
    old.maximum_version = ssl.TLSVersion.TLSv1_2
    with socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT) as raw, \
            old.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
        assert tls.version() == "TLSv1.2"


# --- the plain-HTTP port -----------------------------------------------------------------

def redirect_of(server: Running, target: str, host: str) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", server.http_port, timeout=TIMEOUT)
    connection.request("GET", target, headers={"Host": host})  # replaces its own Host
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


def test_the_plain_port_redirects_to_the_same_path_and_query_over_https(
        server: Running, trusting: ssl.SSLContext) -> None:
    target = "/console/login?next=%2Fconsole%2F&lang=en"
    response = redirect_of(server, target, f"127.0.0.1:{server.http_port}")
    assert response.status == 308
    assert response.headers["Location"] == f"{server.https}{target}"
    with get(response.headers["Location"], trusting) as page:
        assert page.status == 200


@pytest.mark.parametrize(("host", "expected"), [
    ("director.example:8000", "director.example"),  # the name the browser used
    ("director.example", "director.example"),
    ("[::1]:8000", "[::1]"),
    ("evil.example/@x", "127.0.0.1"),  # not a plain name: the server's own address
])
def test_the_redirect_keeps_the_host_name_and_takes_the_tls_port(
        server: Running, host: str, expected: str) -> None:
    response = redirect_of(server, "/live/?x=1", host)
    assert response.status == 308
    assert response.headers["Location"] == f"https://{expected}:{server.port}/live/?x=1"


def test_the_plain_port_serves_nothing_else(server: Running) -> None:
    for method in ("GET", "POST", "HEAD"):
        connection = http.client.HTTPConnection("127.0.0.1", server.http_port, timeout=TIMEOUT)
        connection.request(method, "/console/login", body=b"password=x" if method == "POST"
                           else None)
        response = connection.getresponse()
        body = response.read()
        connection.close()
        assert response.status == 308, method
        assert b"<html" not in body.lower() and "Set-Cookie" not in response.headers


# --- refusals ----------------------------------------------------------------------------

def test_a_key_that_is_not_the_certificates_is_refused(web: Web, tmp_path: Path) -> None:
    other = certificates(tmp_path / "other")
    refused(Web(web.ca, web.cert, other.key), tmp_path,
            f"bidbox server: cannot use the TLS certificate {web.cert} with the key "
            f"{other.key}: the key does not belong to the certificate")


def test_a_missing_key_is_refused(web: Web, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.key"
    refused(Web(web.ca, web.cert, missing), tmp_path,
            f"bidbox server: cannot read the TLS key {missing}: No such file or directory")


def test_a_file_that_is_not_pem_is_refused(web: Web, tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("not a certificate\n")
    done = refused(Web(web.ca, notes, web.key), tmp_path, None)
    assert done.startswith(f"bidbox server: cannot use the TLS certificate {notes} with the "
                           f"key {web.key}: not a PEM certificate chain and its key"), done


def refused(files: Web, tmp_path: Path, message: str | None) -> str:
    db = tmp_path / "club.db"
    done = run(server_args(db, files), env={**os.environ, "BIDBOX_DIRECTOR_PASSWORD": PASSWORD},
               text=True, timeout=TIMEOUT * 2)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and "live results" not in done.stdout
    if message is not None:
        assert done.stderr.strip() == message
    assert not db.exists()  # refused before the database, the broker or a port
    assert not done.left
    return str(done.stderr).strip()


# --- stopping ----------------------------------------------------------------------------

def test_sigterm_stops_both_listeners_and_open_live_streams(
        web: Web, trusting: ssl.SSLContext, tmp_path: Path) -> None:
    with start(tmp_path / "club.db", web) as running:
        stream = get(f"{running.https}/live/stream", trusting)
        try:
            assert stream.readline().startswith(b"retry:")
            running.process.send_signal(signal.SIGTERM)
            try:
                code = running.process.wait(timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                pytest.fail("still running after SIGTERM:\n" + "".join(running.lines.seen))
            left = group_members(running.process.pid)
            out = running.lines.rest()
            # The server ended the open stream (its last chunk came), it was not cut off.
            stream.read()
        finally:
            stream.close()
        assert code == 0, out
        assert not left, out
        for port in (running.port, running.http_port):
            with pytest.raises(ConnectionRefusedError):
                socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT).close()
