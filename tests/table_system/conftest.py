"""The real broker of tests/mqtt serves the table's tests too."""

from tests.mqtt.conftest import broker, broker_users, mosquitto_bin, mqtt_connect  # noqa: F401
