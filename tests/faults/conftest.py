"""Fixtures of the fault harnesses: a private Mosquitto of their own (its binary from the
shared fixture, tests/fixtures/broker.py)."""

from __future__ import annotations

import dataclasses
import getpass
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

import pytest

from bidbox.broker import Broker, Credentials, free_port
from bidbox.provision import Deployment, Provisioned, broker_config, provision
from mqttlink import BrokerSettings
from tests.faults.harness import EVENT, running_broker


@pytest.fixture
def fault_broker(mosquitto_bin: Path, tmp_path: Path) -> Iterator[Broker]:
    """A broker for event "faults" with tables 1 to 4, persistence in tmp_path; stopped
    (by its PID) afterwards."""
    with running_broker(tmp_path, [1, 2, 3, 4], mosquitto_bin) as broker:
        yield broker


@dataclass(frozen=True)
class ProvisionedBroker:
    """The broker as ``bidbox provision`` writes it for a club (its listener for the server on
    loopback, its TLS listener for the tables, its users and ACL), run on free loopback ports."""

    broker: Broker
    done: Provisioned

    def table(self, number: int, **changes: Any) -> BrokerSettings:
        """Table ``number``'s login over TLS, checked against the event's CA."""
        creds = self.done.users.table(number)
        tls = self.broker.config.tls
        assert tls is not None
        settings = BrokerSettings("127.0.0.1", tls.port, creds.username, creds.password,
                                  str(self.done.out / "tables" / "ca.crt"))
        return dataclasses.replace(settings, **changes)

    def loopback(self, creds: Credentials) -> BrokerSettings:
        return BrokerSettings(self.broker.host, self.broker.port, creds.username,
                              creds.password)


@pytest.fixture
def provisioned_broker(mosquitto_bin: Path, tmp_path: Path) -> Iterator[ProvisionedBroker]:
    """``bidbox provision --tables 4`` for event "faults", its broker run as generated (only the
    ports and the user it runs as are this machine's)."""
    deployment = Deployment(event=EVENT, tables=4, broker_hosts=("127.0.0.1",),
                            port=free_port(), local_port=free_port(),
                            broker_dir=PurePosixPath(tmp_path / "event" / "broker"),
                            broker_user=getpass.getuser())
    done = provision(deployment, tmp_path / "event")
    config = broker_config(deployment, done.users)
    assert config.render() == (tmp_path / "event/broker/mosquitto.conf").read_text()
    broker = Broker(config, binary=mosquitto_bin)
    broker.start()
    try:
        yield ProvisionedBroker(broker, done)
    finally:
        broker.stop()
