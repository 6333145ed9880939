"""``bidbox server``: a real process serving pages and ingesting from a real broker."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

from bidbox.broker import Broker, BrokerUsers
from tablemodel.wire import Event, table_topic
from tests.fixtures.broker import EVENT, TIMEOUT, MqttConnect
from tests.processes import spawned

ADDRESS = re.compile(r"live results:\s+(http://127\.0\.0\.1:\d+)/")


def test_the_server_command_serves_ingests_and_stops(
        broker: Broker, broker_users: BrokerUsers, mqtt_connect: MqttConnect,
        tmp_path: Path) -> None:
    creds = broker_users.server
    env = {**os.environ, "BIDBOX_DIRECTOR_PASSWORD": "mesa siete norte"}
    with spawned(
            [sys.executable, "-m", "bidbox", "server", "--db", str(tmp_path / "club.db"),
             "--broker", f"mqtt://{creds.username}:{creds.password}@{broker.host}:{broker.port}",
             "--event", EVENT, "--port", "0", "--threads", "4"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env) as process:
        assert process.stdout is not None
        seen = []
        for line in process.stdout:
            seen.append(line)
            found = ADDRESS.search(line)
            if found:
                break
        assert found, "".join(seen)
        base = found.group(1)
        with urllib.request.urlopen(f"{base}/", timeout=TIMEOUT) as page:
            assert page.status == 200
        with urllib.request.urlopen(f"{base}/console/", timeout=TIMEOUT) as page:
            assert page.url.endswith("/console/login?next=/console/")  # a login is required
        stream = urllib.request.urlopen(f"{base}/live/stream", timeout=TIMEOUT)
        try:
            assert stream.readline().startswith(b"retry:")
            table = mqtt_connect(broker_users.table(1))
            table.publish(table_topic(EVENT, 1, "events"), Event(
                1, "result", 1.0, 1, {"contract": "3NT", "declarer": "N", "tricks": 9,
                                      "score_ns": 400}).to_payload())
            # The live stream says "results changed" once the server has stored it.
            lines = iter(stream.readline, b"")
            assert any(line.startswith(b"event: change") for line in lines)
        finally:
            stream.close()
        with urllib.request.urlopen(f"{base}/api/v1/tables", timeout=TIMEOUT) as answer:
            [row] = json.load(answer)["tables"]
        assert (row["table"], row["board"]) == (1, 1)  # the stored event put it there
        process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=TIMEOUT * 2)
    assert code == 0
