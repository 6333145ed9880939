"""Every file a real event needs, written once: ``bidbox provision`` (docs/provision.md).

One output folder holds what goes where:

- ``broker/``: Mosquitto's config, password file, ACL and TLS certificate, for the director's
  machine (rendered by :mod:`bidbox.broker`, so the tests' brokers and the real one agree);
- ``tables/``: one TOML file per table Pi, in :mod:`tabled.config`'s format, and the CA;
- ``web/``: the server's HTTPS certificate and key, for the director's machine, and the CA
  for the browsers of the director (and, if they like, the players) to trust;
- ``server.env``: the environment of ``deploy/bidbox-server.service``;
- ``ca/``: the CA's key and certificate, which sign the broker's and the web certificates;
- ``credentials.json``: every broker password in clear, the director's record;
- ``README.txt``: what goes where.

Certificates are made with the ``openssl`` command line (Debian package ``openssl``), so
nothing beyond the standard library is needed. Everything is first written into a private
staging folder beside the output, then moved in: a failure leaves the output as it was.
"""

from __future__ import annotations

import ipaddress
import json
import os
import re
import secrets
import shutil
import subprocess
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from urllib.parse import urlsplit

from .broker import (
    Bridge,
    BrokerConfig,
    BrokerUsers,
    CentreUsers,
    Credentials,
    TlsListener,
    check_club_name,
    check_event_name,
    club_username,
)

BROKER_DIR = PurePosixPath("/var/lib/mosquitto/bidbox")
"""Where ``broker/`` goes on the director's machine: the Mosquitto user's own state folder,
since the broker keeps its persistence file beside its config."""
BROKER_USER = "mosquitto"
"""Debian's Mosquitto runs as root and drops to this user after reading its config."""
LOCAL_PORT = 1883
"""The broker's plain listener, on loopback only: the server on the same machine uses it."""
PI_CONFIG_DIR = PurePosixPath("/etc/bidbox")
PI_STATE_DIR = PurePosixPath("/var/lib/bidbox")
SERVER_ENV_PATH = PurePosixPath("/etc/bidbox/server.env")
WEB_DIR = PurePosixPath("/etc/bidbox/web")
"""Where ``web/`` goes on the director's machine: root's, the key 0600. systemd hands the
certificate and key to the server as credentials (deploy/bidbox-server.service)."""
LANGUAGES = ("es", "en")

CA_KEY = "ca/ca.key"
CA_CERT = "ca/ca.crt"
CREDENTIALS = "credentials.json"
SERVER_ENV = "server.env"
README = "README.txt"
BROKER_FILES = ("broker/mosquitto.conf", "broker/passwd", "broker/passwd-local", "broker/acl",
                "broker/ca.crt", "broker/server.crt", "broker/server.key")
WEB_FILES = ("web/ca.crt", "web/server.crt", "web/server.key")
TABLE_CA = "tables/ca.crt"
TABLES_GLOB = "tables/table-*.toml"
CENTRE_CA = "broker/centre-ca.crt"
"""A club's copy of the centre's CA, which its bridge checks the central broker against."""
CLUB_LOGINS_GLOB = "clubs/*.json"

_DNS_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_DNS_NAME = re.compile(rf"(?=.{{1,253}}\Z){_DNS_LABEL}(?:\.{_DNS_LABEL})*\Z")


class ProvisionError(OSError):
    """Root of every error of provisioning that is not a bad argument (those are ValueError)."""


class OpensslNotFoundError(ProvisionError, FileNotFoundError):
    """No ``openssl`` command on PATH."""


class SecretsExistError(ProvisionError, FileExistsError):
    """The output folder already holds an event's secrets and ``force`` was not given."""


class CertificateError(ProvisionError):
    """``openssl`` refused to make or check a key or certificate."""


def san_entry(host: str) -> str:
    """``host`` as an X.509 subjectAltName entry (``IP:...`` or ``DNS:...``), else ValueError.

    Only plain names and addresses pass, so nothing can be slipped into openssl's config.
    """
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        if not _DNS_NAME.match(host):
            raise ValueError(f"broker host {host!r} is neither an IP address nor a DNS name"
                             ) from None
        return f"DNS:{host.lower()}"
    if address.is_unspecified or address.is_multicast:
        raise ValueError(f"broker host {host!r} cannot be reached: give the broker's own address")
    return f"IP:{address}"


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


@dataclass(frozen=True)
class Deployment:
    """What to provision: one event, tables 1 to ``tables``, one broker."""

    event: str
    tables: int
    broker_hosts: tuple[str, ...]
    """The names and addresses the tables may use for the broker; the first is the one their
    configs name. All of them go into the certificate's subjectAltName."""
    port: int = 8883
    days: int = 825
    language: str = "es"
    broker_dir: PurePosixPath = BROKER_DIR
    broker_user: str = BROKER_USER
    local_port: int = LOCAL_PORT
    club: str | None = None
    """With ``centre``: this club's name at the centre, and its broker bridged there."""
    centre: str | None = None
    """``mqtts://HOST:PORT`` of the central broker, as this club reaches it."""

    def __post_init__(self) -> None:
        check_event_name(self.event)
        if (self.club is None) != (self.centre is None):
            raise ValueError("--club and --centre go together: a club bridged to a centre")
        if self.club is not None:
            check_club_name(self.club)
            centre_address(self.centre or "")
        if self.tables < 1:
            raise ValueError(f"--tables must be at least 1, not {self.tables}")
        _check_broker(self.broker_hosts, self.port, self.local_port, self.days)
        if self.language not in LANGUAGES:
            raise ValueError(f"language {self.language!r} is not one of {LANGUAGES}")
        if not self.broker_dir.is_absolute():
            raise ValueError(f"the broker's folder {self.broker_dir} must be an absolute path")

    @property
    def table_numbers(self) -> range:
        return range(1, self.tables + 1)

    @property
    def broker_url(self) -> str:
        """What the tables connect to: TLS, on the first broker host."""
        return f"mqtts://{_url_host(self.broker_hosts[0])}:{self.port}"

    def server_url(self, creds: Credentials) -> str:
        """What the server on the broker's machine connects to: the loopback listener."""
        return f"mqtt://{creds.username}:{creds.password}@127.0.0.1:{self.local_port}"


def centre_address(url: str) -> tuple[str, int]:
    """``(host, port)`` of an ``mqtts://HOST[:PORT]`` URL, else ValueError: a club reaches
    its centre over the internet, so only TLS."""
    parts = urlsplit(url)
    if parts.scheme != "mqtts" or not parts.hostname:
        raise ValueError(f"--centre {url!r}: give mqtts://HOST:PORT (TLS only)")
    if parts.username or parts.password or parts.path not in ("", "/"):
        raise ValueError(f"--centre {url!r}: only mqtts://HOST:PORT; the club's login comes "
                         "from the centre's file (--centre-login)")
    try:
        port = parts.port or 8883
    except ValueError:
        raise ValueError(f"--centre {url!r}: the port is not a number") from None
    san_entry(parts.hostname)  # a name or address that a certificate can hold
    return parts.hostname, port


@dataclass(frozen=True)
class CentreLogin:
    """What a club needs from the centre to bridge to it: its user and password on the
    central broker, and the centre's CA. ``bidbox provision --clubs`` writes one per club
    (``clubs/<club>.json``); ``bidbox provision --club ... --centre-login FILE`` reads it."""

    club: str
    url: str
    credentials: Credentials
    ca: str = field(repr=False)
    """The centre's CA certificate, PEM."""

    def __post_init__(self) -> None:
        check_club_name(self.club)
        centre_address(self.url)
        if self.credentials.username != club_username(self.club):
            raise ValueError(f"the login of club {self.club} must be "
                             f"{club_username(self.club)!r}, not {self.credentials.username!r}")
        if "BEGIN CERTIFICATE" not in self.ca:
            raise ValueError(f"the login of club {self.club} holds no CA certificate")

    def dumps(self) -> str:
        return json.dumps({"club": self.club, "url": self.url,
                           "username": self.credentials.username,
                           "password": self.credentials.password, "ca": self.ca},
                          indent=2) + "\n"

    @classmethod
    def loads(cls, text: str) -> CentreLogin:
        try:
            data = json.loads(text)
            return cls(data["club"], data["url"],
                       Credentials(data["username"], data["password"]), data["ca"])
        except (ValueError, KeyError, TypeError) as error:
            raise ValueError(f"not a club's login from `bidbox provision --clubs`: {error}"
                             ) from None


def broker_config(deployment: Deployment, users: BrokerUsers,
                  login: CentreLogin | None = None) -> BrokerConfig:
    """The broker as it will run on the director's machine, from ``deployment.broker_dir``;
    bridged to the centre when the deployment is a club's (``login`` from the centre)."""
    where = Path(deployment.broker_dir)
    bridge = None
    if deployment.club is not None:
        if login is None:
            raise ValueError(f"club {deployment.club} needs its login from the centre "
                             "(--centre-login clubs/<club>.json of `bidbox provision --clubs`)")
        if login.club != deployment.club:
            raise ValueError(f"--centre-login is club {login.club}'s, not {deployment.club}'s")
        host, port = centre_address(deployment.centre or "")
        bridge = Bridge(club=deployment.club, event=deployment.event, host=host, port=port,
                        credentials=login.credentials, cafile=where / "centre-ca.crt")
    return BrokerConfig(
        directory=where, users=users, port=deployment.local_port, host="127.0.0.1",
        tls=TlsListener(port=deployment.port, cafile=where / "ca.crt",
                        certfile=where / "server.crt", keyfile=where / "server.key"),
        run_as=deployment.broker_user, bridge=bridge)


def _toml(value: str) -> str:
    # A JSON string is a valid TOML basic string: the same escapes, \uXXXX included.
    return json.dumps(value)


def table_config_text(deployment: Deployment, number: int, creds: Credentials) -> str:
    """Table ``number``'s TOML config, as ``/etc/bidbox/table.toml`` on its Pi."""
    return f"""\
# Table {number} of {deployment.event}, written by `bidbox provision`.
# On the table's Pi: {PI_CONFIG_DIR}/table.toml, owner root, group bidbox, mode 0640
# (docs/pi-setup.md). It holds this table's broker password: keep it private.
# deploy/table.example.toml and docs/table.md explain every key.
# It names no session: the table plays the one the director runs in the console, and keeps
# one journal per session in the folder `journals`. Nothing here changes from week to week.

[table]
number = {number}
journals = {_toml(str(PI_STATE_DIR))}
language = {_toml(deployment.language)}

[broker]
url = {_toml(deployment.broker_url)}
username = {_toml(creds.username)}
password = {_toml(creds.password)}
cafile = {_toml(str(PI_CONFIG_DIR / "ca.crt"))}

[hardware]
card_reader = "/dev/ttyACM0"     # better: its /dev/serial/by-id/ name; delete if none
display = "lcd"                  # lcd, terminal or none
i2c_bus = 1
lcd_addresses = {{ N = 0x27, E = 0x26, S = 0x25, W = 0x23 }}
feedback = true                  # false: no buzzer or LEDs fitted
"""


def server_env_text(deployment: Deployment, users: BrokerUsers, director_password: str,
                    secret_key: str) -> str:
    """``server.env``, read by systemd for deploy/bidbox-server.service."""
    # Every value is letters, digits, '-', '_', ':', '/', '@' and '.': nothing to quote.
    return f"""\
# bidbox server of {deployment.event}, written by `bidbox provision`. BIDBOX_EVENT names
# the first session created in the console; later ones add their date (docs/director.en.md).
# {SERVER_ENV_PATH} on the director's machine, owner root, mode 0600: systemd reads it
# (EnvironmentFile= in deploy/bidbox-server.service) before it drops to user bidbox.
BIDBOX_EVENT={deployment.event}
BIDBOX_LANGUAGE={deployment.language}
BIDBOX_BROKER_URL={deployment.server_url(users.server)}
BIDBOX_DIRECTOR_PASSWORD={director_password}
BIDBOX_SECRET_KEY={secret_key}
# Where web/ is installed. The unit hands these files to the server through systemd's
# LoadCredential= (its copy of these paths must agree); `bidbox server` run by hand reads them.
BIDBOX_TLS_CERT={WEB_DIR / "server.crt"}
BIDBOX_TLS_KEY={WEB_DIR / "server.key"}
"""


def readme_text(deployment: Deployment, out: Path) -> str:
    broker_dir = deployment.broker_dir
    last = deployment.tables
    hosts = ", ".join(deployment.broker_hosts)
    web_url = f"https://{_url_host(deployment.broker_hosts[0])}"
    title = f"bidbox: event {deployment.event}, tables 1 to {last}"
    return f"""\
{title}
{"=" * len(title)}
Written by `bidbox provision`. docs/pi-setup.md walks through every step.
Everything here is secret except the .crt files: keep this folder private,
and ca/ca.key off the network once the event is set up.

The tables reach the broker at {deployment.broker_url} (TLS). Its certificate
is valid for: {hosts}; it and the CA expire after {deployment.days} days.
The director and the players reach the server at {web_url}/ (HTTPS, with
web/server.crt, valid for the same names); http:// there redirects to it.

On the director's machine (Mosquitto and the server)
----------------------------------------------------
broker/      -> {broker_dir}/, owned by user {deployment.broker_user}:
                   sudo mkdir -p {broker_dir}
                   sudo cp -r broker/. {broker_dir}/
                   sudo chown -R {deployment.broker_user}: {broker_dir}
                   sudo chmod 0700 {broker_dir}
                mosquitto.conf listens on 127.0.0.1:{deployment.local_port} (the server's
                login alone, passwd-local) and 0.0.0.0:{deployment.port} with TLS (the
                tables, each client id bound to its login). Run it with Debian's
                mosquitto.service, started on this config by the drop-in
                deploy/mosquitto-bidbox.conf:
                   sudo install -D -m 0644 deploy/mosquitto-bidbox.conf \\
                       /etc/systemd/system/mosquitto.service.d/bidbox.conf
                   sudo systemctl daemon-reload && sudo systemctl restart mosquitto
                The drop-in's ExecStart must name this event's config:
                   ExecStart=/usr/sbin/mosquitto -c {broker_dir}/mosquitto.conf
server.env   -> {SERVER_ENV_PATH}, owner root, mode 0600:
                   sudo install -D -o root -g root -m 0600 server.env {SERVER_ENV_PATH}
                read by deploy/bidbox-server.service. It holds the director's console
                password (BIDBOX_DIRECTOR_PASSWORD) and the server's broker login.
web/         -> {WEB_DIR}/, owner root, the key mode 0600:
                   sudo install -D -o root -g root -m 0644 web/server.crt \\
                       {WEB_DIR}/server.crt
                   sudo install -D -o root -g root -m 0600 web/server.key \\
                       {WEB_DIR}/server.key
                deploy/bidbox-server.service hands both to the server (systemd's
                LoadCredential=), which serves HTTPS on port 443 and redirects port 80.
                A certificate of the club's own works too: install it and its key there.
web/ca.crt   -> the director's laptop, and any phone or screen that opens the console
                or the live page: import it as a trusted authority (docs/provision.md).
                Without it a browser warns that the connection is not private.

On each table's Raspberry Pi
----------------------------
tables/table-<n>.toml -> {PI_CONFIG_DIR}/table.toml on table n's Pi:
                   sudo install -D -o root -g bidbox -m 0640 table-<n>.toml \\
                       {PI_CONFIG_DIR}/table.toml
tables/ca.crt         -> {PI_CONFIG_DIR}/ca.crt on every Pi:
                   sudo install -D -m 0644 ca.crt {PI_CONFIG_DIR}/ca.crt
Each table file holds only that table's password; a table can publish only
below bidbox/v1/<session>/table/<n>/, in whatever session the director runs.
These files are written once: each session is created in the console, and the
tables follow it with no file changed here or on a Pi (docs/director.en.md).

{_club_readme(deployment)}Stays here
----------
ca/ca.key, ca/ca.crt  the CA. Its key is needed only to sign another certificate by
                      hand; `bidbox provision --force` makes a new CA instead.
credentials.json      every broker password in clear (server, tables, display),
                      e.g. to rehearse a session: `bidbox simulate --server URL
                      --broker URL --credentials credentials.json` (docs/director.en.md).

Starting over
-------------
`bidbox provision ... --out {out} --force` makes new passwords, a new CA and new
certificates: every Pi then needs its new table file and ca.crt, the director's
machine its new broker/, web/ and server.env, and every browser the new web/ca.crt.
"""


def _club_readme(deployment: Deployment) -> str:
    if deployment.club is None:
        return ""
    return f"""\
The link to the centre
----------------------
broker/mosquitto.conf also bridges this club's broker to the centre at
{deployment.centre} (section "connection centre"), as user club-{deployment.club}, checking
the centre's certificate against broker/centre-ca.crt. Every table's events,
status and state of event {deployment.event} go there below clubs/{deployment.club}/; nothing
comes back. While the link is down the tables play on and the broker queues
what the centre has not had (docs/scale.md). The link's state, 1 or 0, is
retained on clubs/{deployment.club}/bridge/state here and at the centre:
   mosquitto_sub -h 127.0.0.1 -p {deployment.local_port} -u server -P <server's password> \\
       -t clubs/{deployment.club}/bridge/state -C 1

"""


def find_openssl() -> str:
    found = shutil.which("openssl")
    if found is None:
        raise OpensslNotFoundError(
            "the openssl command is not on PATH; it makes the TLS certificates: "
            "install the Debian package openssl (sudo apt-get install openssl)")
    return found


@dataclass(frozen=True)
class _Openssl:
    binary: str
    workdir: Path
    config: Path

    def __call__(self, *args: str) -> bytes:
        # OPENSSL_CONF: no command reads the system's openssl.cnf, whose defaults vary.
        env = {**os.environ, "OPENSSL_CONF": str(self.config)}
        proc = subprocess.run([self.binary, *args], cwd=self.workdir, env=env,
                              capture_output=True, check=False)
        if proc.returncode != 0:
            why = proc.stderr.decode(errors="replace").strip() or f"status {proc.returncode}"
            raise CertificateError(f"openssl {args[0]} failed: {why}")
        return proc.stdout


def _name_constraints(deployment: Deployment | Centre) -> str:
    """The CA may sign only for the deployment's hosts: the director's laptop and the phones
    that trust web/ca.crt then trust nothing else it could sign, whoever gets hold of ca.key.

    A name type with no permitted entry would be unconstrained, so each type gets one: a DNS
    name under the reserved ``.invalid`` (RFC 2606), the unspecified address.
    """
    permitted = []
    for host in dict.fromkeys(deployment.broker_hosts):
        entry = san_entry(host)
        if entry.startswith("IP:"):
            address = ipaddress.ip_address(entry[3:])
            mask = ipaddress.ip_network(address).netmask
            permitted.append(f"permitted;IP:{address}/{mask}")
        else:
            permitted.append(f"permitted;{entry}")
    if not any(p.startswith("permitted;DNS:") for p in permitted):
        permitted.append("permitted;DNS:nothing.invalid")
    if not any(p.startswith("permitted;IP:") for p in permitted):
        permitted.append("permitted;IP:0.0.0.0/255.255.255.255")
    return ", ".join(permitted)


def _openssl_config(deployment: Deployment | Centre) -> str:
    sans = ", ".join(dict.fromkeys(san_entry(h) for h in deployment.broker_hosts))
    return f"""\
[req]
distinguished_name = req_dn
prompt = no
[req_dn]
CN = bidbox
[v3_ca]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
nameConstraints = critical, {_name_constraints(deployment)}
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
[v3_server]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = {sans}
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid, issuer
"""


def _serial() -> str:
    return f"0x{secrets.randbits(126) | 1 << 125:x}"  # positive, 16 bytes, never zero


def make_certificates(deployment: Deployment | Centre, ca_dir: Path, broker_dir: Path,
                      openssl: str, *, web_dir: Path | None = None) -> None:
    """A CA (``ca_dir/ca.key``, ``ca.crt``) and the broker's certificate signed by it
    (``broker_dir/server.key``, ``server.crt``, with the CA beside them as ``ca.crt``); with
    ``web_dir``, the same again there for the server's HTTPS (the director's machine runs
    both, so both name the same hosts; each has a key of its own).

    Keys are EC P-256 (quick on a Pi, understood by every TLS library in the chain and every
    browser), taken from openssl's stdout and written 0600 from the first byte.
    """
    with tempfile.TemporaryDirectory(prefix="bidbox-openssl-") as work:
        workdir = Path(work)
        config = workdir / "openssl.cnf"
        config.write_text(_openssl_config(deployment), encoding="utf-8")
        run = _Openssl(openssl, workdir, config)
        ca_key, ca_cert = ca_dir / "ca.key", ca_dir / "ca.crt"
        write_private(ca_key, run(*_NEWKEY).decode())
        run("req", "-x509", "-new", "-key", str(ca_key), "-sha256",
            "-days", str(deployment.days),
            "-subj", f"/CN=bidbox CA for {deployment.event}", "-set_serial", _serial(),
            "-config", str(config), "-extensions", "v3_ca", "-out", str(ca_cert))
        os.chmod(ca_cert, 0o644)
        for role, leaf_dir in (("broker", broker_dir), ("web server", web_dir)):
            if leaf_dir is not None:
                _make_leaf(run, deployment, ca_key, ca_cert, leaf_dir, role)


_NEWKEY = ("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256")


def _make_leaf(run: _Openssl, deployment: Deployment | Centre, ca_key: Path, ca_cert: Path,
               leaf_dir: Path, role: str) -> None:
    """A server certificate for the deployment's hosts, signed by the CA, checked for
    serverAuth: ``leaf_dir/server.key`` (0600), ``server.crt`` and ``ca.crt`` (0644).

    The hosts are in its subjectAltName, which is all that clients match. Its common name
    says what it is, with a space, so that OpenSSL never takes it for a host name to check
    against the CA's name constraints (it would, for a bare IP address with no DNS name).
    """
    key, cert = leaf_dir / "server.key", leaf_dir / "server.crt"
    write_private(key, run(*_NEWKEY).decode())
    csr = run.workdir / "server.csr"
    run("req", "-new", "-key", str(key), "-subj", f"/CN=bidbox {role} for {deployment.event}",
        "-config", str(run.config), "-out", str(csr))
    run("x509", "-req", "-in", str(csr), "-CA", str(ca_cert), "-CAkey", str(ca_key),
        "-set_serial", _serial(), "-days", str(deployment.days), "-sha256",
        "-extfile", str(run.config), "-extensions", "v3_server", "-out", str(cert))
    run("verify", "-CAfile", str(ca_cert), "-purpose", "sslserver", str(cert))
    csr.unlink()
    os.chmod(cert, 0o644)
    shutil.copyfile(ca_cert, leaf_dir / "ca.crt")
    os.chmod(leaf_dir / "ca.crt", 0o644)


def write_private(path: Path, text: str) -> None:
    """Write ``text`` readable by its owner only, from the first byte on."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.chmod(path, 0o600)  # O_CREAT's mode does not apply to a file that already existed


def write_public(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    os.chmod(path, 0o644)


def existing_files(out: Path) -> list[Path]:
    """The files of a provisioning that are already in ``out``."""
    fixed = [README, CREDENTIALS, SERVER_ENV, CA_KEY, CA_CERT, *BROKER_FILES, *WEB_FILES,
             TABLE_CA, CENTRE_CA]
    found = [out / name for name in fixed if (out / name).exists()]
    return found + sorted(out.glob(TABLES_GLOB)) + sorted(out.glob(CLUB_LOGINS_GLOB))


@dataclass(frozen=True)
class Provisioned:
    """What :func:`provision` wrote. The director's password is shown once, by the CLI."""

    out: Path
    deployment: Deployment
    users: BrokerUsers
    director_password: str = field(repr=False)
    files: tuple[Path, ...]

    def table_config(self, number: int) -> Path:
        return self.out / "tables" / f"table-{number}.toml"


def _check_out(out: Path, force: bool) -> list[Path]:
    """The files of a provisioning already in ``out``: SecretsExistError without ``force``."""
    if out.exists() and not out.is_dir():
        raise ProvisionError(f"{out} exists and is not a folder")
    existing = existing_files(out)
    if existing and not force:
        names = ", ".join(str(p.relative_to(out)) for p in existing[:4])
        more = f" and {len(existing) - 4} more" if len(existing) > 4 else ""
        raise SecretsExistError(
            f"{out} already holds an event's secrets ({names}{more}); nothing was changed. "
            "Use --force to make new ones (every Pi then needs its new files), "
            "or choose another --out")
    return existing


def provision(deployment: Deployment, out: Path, *, force: bool = False,
              centre_login: CentreLogin | None = None) -> Provisioned:
    """Write every file of ``deployment`` into ``out`` (created 0700 if missing); a club's
    (``deployment.club``) also bridges its broker to the centre with ``centre_login``.

    Refuses with :class:`SecretsExistError` if ``out`` already holds one of its files, unless
    ``force``: then everything is made afresh (new passwords, CA and certificates) and the
    files of tables beyond ``deployment.tables`` are removed.
    """
    openssl = find_openssl()
    out = out.absolute()
    broker_config(deployment, BrokerUsers.generate(deployment.event, [1]), centre_login)
    existing = _check_out(out, force)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.provision-", dir=out.parent))
    try:
        users, director_password = _write_all(deployment, staging, openssl, out, centre_login)
        written = _move_in(staging, out, stale=existing)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return Provisioned(out, deployment, users, director_password, tuple(written))


def _write_all(deployment: Deployment, stage: Path, openssl: str,
               out: Path, login: CentreLogin | None = None) -> tuple[BrokerUsers, str]:
    users = BrokerUsers.generate(deployment.event, deployment.table_numbers,
                                 club=deployment.club)
    director_password = secrets.token_urlsafe(12)
    for sub in ("ca", "broker", "broker/data", "web", "tables"):
        (stage / sub).mkdir(mode=0o700)
    make_certificates(deployment, stage / "ca", stage / "broker", openssl,
                      web_dir=stage / "web")
    config = broker_config(deployment, users, login)
    if login is not None:
        write_public(stage / CENTRE_CA, login.ca)
    write_private(stage / "broker/mosquitto.conf", config.render())
    write_private(stage / "broker/passwd", users.passwd_text(config.password_iterations))
    write_private(stage / "broker/passwd-local", config.local_passwd_text())
    write_private(stage / "broker/acl", users.acl_text())
    write_private(stage / CREDENTIALS, users.dumps())
    shutil.copyfile(stage / CA_CERT, stage / TABLE_CA)
    os.chmod(stage / TABLE_CA, 0o644)
    for number in deployment.table_numbers:
        write_private(stage / "tables" / f"table-{number}.toml",
                      table_config_text(deployment, number, users.table(number)))
    write_private(stage / SERVER_ENV, server_env_text(deployment, users, director_password,
                                                      secrets.token_hex(32)))
    write_public(stage / README, readme_text(deployment, out))
    return users, director_password


def _move_in(stage: Path, out: Path, stale: Iterable[Path]) -> list[Path]:
    """Move every file of ``stage`` into ``out``; remove the ``stale`` files it does not
    replace (the tables a smaller event no longer has)."""
    out.mkdir(mode=0o700, exist_ok=True)
    written: list[Path] = []
    for source in sorted(stage.rglob("*")):
        target = out / source.relative_to(stage)
        if source.is_dir():
            target.mkdir(mode=0o700, exist_ok=True)
        else:
            os.replace(source, target)
            written.append(target)
    for path in set(stale) - set(written):
        path.unlink(missing_ok=True)
    return written



# -- the centre: one broker for every club's bridge (docs/scale.md) ------------------------

@dataclass(frozen=True)
class Centre:
    """What to provision at a federation's centre: its broker, a user per club."""

    clubs: tuple[str, ...]
    broker_hosts: tuple[str, ...]
    """The centre's names and addresses as the clubs reach it; the first is the one their
    logins name. All of them go into its certificate."""
    port: int = 8883
    days: int = 825
    broker_dir: PurePosixPath = BROKER_DIR
    broker_user: str = BROKER_USER
    local_port: int = LOCAL_PORT
    event: str = "centre"
    """Only in the certificates' names."""

    def __post_init__(self) -> None:
        if not self.clubs:
            raise ValueError("--clubs: name at least one club")
        for club in self.clubs:
            check_club_name(club)
        if len(set(self.clubs)) != len(self.clubs):
            raise ValueError(f"--clubs names a club twice: {', '.join(self.clubs)}")
        _check_broker(self.broker_hosts, self.port, self.local_port, self.days)
        if not self.broker_dir.is_absolute():
            raise ValueError(f"the broker's folder {self.broker_dir} must be an absolute path")

    @property
    def url(self) -> str:
        """What the clubs' bridges connect to: TLS, on the first host."""
        return f"mqtts://{_url_host(self.broker_hosts[0])}:{self.port}"

    def server_url(self, creds: Credentials) -> str:
        """What the central server on the broker's machine connects to."""
        return f"mqtt://{creds.username}:{creds.password}@127.0.0.1:{self.local_port}"


def centre_broker_config(centre: Centre, users: CentreUsers) -> BrokerConfig:
    """The central broker as it will run from ``centre.broker_dir``: the central server on
    the loopback listener, the clubs' bridges on the TLS one."""
    where = Path(centre.broker_dir)
    return BrokerConfig(
        directory=where, users=users, port=centre.local_port, host="127.0.0.1",
        tls=TlsListener(port=centre.port, cafile=where / "ca.crt",
                        certfile=where / "server.crt", keyfile=where / "server.key"),
        run_as=centre.broker_user)


@dataclass(frozen=True)
class ProvisionedCentre:
    out: Path
    centre: Centre
    users: CentreUsers
    files: tuple[Path, ...]

    def login(self, club: str) -> Path:
        return self.out / "clubs" / f"{club}.json"


def provision_centre(centre: Centre, out: Path, *, force: bool = False) -> ProvisionedCentre:
    """Write the central broker's files and one login per club into ``out``; the same
    safeguards as :func:`provision` (nothing replaced without ``force``, staged, moved in)."""
    openssl = find_openssl()
    out = out.absolute()
    existing = _check_out(out, force)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.provision-", dir=out.parent))
    try:
        users = CentreUsers.generate(centre.clubs)
        for sub in ("ca", "broker", "broker/data", "clubs"):
            (staging / sub).mkdir(mode=0o700)
        make_certificates(centre, staging / "ca", staging / "broker", openssl)
        config = centre_broker_config(centre, users)
        write_private(staging / "broker/mosquitto.conf", config.render())
        write_private(staging / "broker/passwd", users.passwd_text(config.password_iterations))
        write_private(staging / "broker/passwd-local", config.local_passwd_text())
        write_private(staging / "broker/acl", users.acl_text())
        write_private(staging / CREDENTIALS, users.dumps())
        ca = (staging / CA_CERT).read_text(encoding="utf-8")
        for club in centre.clubs:
            login = CentreLogin(club, centre.url, users.club(club), ca)
            write_private(staging / "clubs" / f"{club}.json", login.dumps())
        write_public(staging / README, centre_readme_text(centre, users))
        written = _move_in(staging, out, stale=existing)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return ProvisionedCentre(out, centre, users, tuple(written))


def centre_readme_text(centre: Centre, users: CentreUsers) -> str:
    title = f"bidbox: the centre of clubs {', '.join(centre.clubs)}"
    return f"""\
{title}
{"=" * len(title)}
Written by `bidbox provision --clubs`. docs/scale.md walks through every step.
Everything here is secret except the .crt files.

The clubs' brokers reach this one at {centre.url} (TLS), each as its own
user club-<name>, which may write only below clubs/<name>/ (broker/acl).

On the centre's machine
-----------------------
broker/      -> {centre.broker_dir}/, owned by user {centre.broker_user}, as for a club
                (docs/provision.md): listens on 127.0.0.1:{centre.local_port} for the central
                server and on 0.0.0.0:{centre.port} with TLS for the clubs.
The central server reads every club as user {users.server.username}:
   BIDBOX_BROKER_URL=mqtt://{users.server.username}:<its password>@127.0.0.1:{centre.local_port}
(the password is in credentials.json).

To each club, by a private channel
----------------------------------
clubs/<name>.json  the club's login here and this centre's CA; the club's director runs
   bidbox provision --club <name> --centre {centre.url} \\
       --centre-login <name>.json --tables N --out DIR ...

Stays here
----------
ca/ca.key, ca/ca.crt  the CA; credentials.json every password here in clear.
A new club: `bidbox provision --add-clubs <name> --out <this folder>`, then copy
broker/passwd and broker/acl to the broker's folder and `systemctl reload mosquitto`.
"""


def add_clubs(out: Path, clubs: Iterable[str]) -> tuple[Path, ...]:
    """New clubs for the centre provisioned in ``out``: a user and a login each, the password
    file and the ACL written again; the CA, the certificates and every other club's password
    stay, so no other club provisions again. Mosquitto rereads the password file and the ACL
    on a reload (SIGHUP): copy ``broker/passwd`` and ``broker/acl`` to the centre's broker
    folder and ``systemctl reload mosquitto``."""
    out = out.absolute()
    try:
        users = CentreUsers.loads((out / CREDENTIALS).read_text(encoding="utf-8"))
        logins = sorted((out / "clubs").glob("*.json"))
        url = CentreLogin.loads(logins[0].read_text(encoding="utf-8")).url if logins else None
        ca = (out / CA_CERT).read_text(encoding="utf-8")
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ProvisionError(f"{out} does not hold a centre of `bidbox provision --clubs`: "
                             f"{error}") from None
    if url is None:
        raise ProvisionError(f"{out} holds no club's login (clubs/*.json) to take the "
                             "centre's URL from")
    names = list(dict.fromkeys(clubs))
    if not names:
        raise ValueError("--add-clubs: name at least one club")
    for name in names:
        check_club_name(name)
    known = [name for name in names if name in users.clubs]
    if known:
        raise ValueError(f"--add-clubs: {', '.join(known)} already at this centre")
    added = CentreUsers(server=users.server, clubs={
        **users.clubs, **{c: Credentials.generate(club_username(c)) for c in names}})
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.provision-", dir=out.parent))
    try:
        for sub in ("broker", "clubs"):
            (staging / sub).mkdir(mode=0o700)
        write_private(staging / "broker/passwd", added.passwd_text())
        write_private(staging / "broker/acl", added.acl_text())
        write_private(staging / CREDENTIALS, added.dumps())
        for name in names:
            write_private(staging / "clubs" / f"{name}.json",
                          CentreLogin(name, url, added.club(name), ca).dumps())
        written = _move_in(staging, out, stale=())
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return tuple(written)


def _check_broker(hosts: Iterable[str], port: int, local_port: int, days: int) -> None:
    """What a club's and a centre's broker both need: a host for the certificate, two
    different TCP ports, a certificate that lasts a day at least."""
    hosts = list(hosts)
    if not hosts:
        raise ValueError("give at least one broker host")
    for host in hosts:
        san_entry(host)
    for name, number in (("--port", port), ("--local-port", local_port)):
        if not 1 <= number <= 65535:
            raise ValueError(f"{name} {number} is not a TCP port")
    if port == local_port:
        raise ValueError(f"--port {port} is also --local-port, the broker's loopback port: "
                         "choose two different ports")
    if days < 1:
        raise ValueError(f"--days must be at least 1, not {days}")
