"""Fixtures of the hardware tests: a fresh MockFactory per test, closed afterwards.

A device is never made without a pin factory here: gpiozero would fall back to a default
with a warning, and pytest turns warnings into errors.
"""

from __future__ import annotations

import queue
from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from hardware.layout import KeypadLayout


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    mock = MockFactory()
    yield mock
    mock.close()


@pytest.fixture
def pwm_factory() -> Iterator[MockFactory]:
    mock = MockFactory(pin_class=MockPWMPin)
    yield mock
    mock.close()


@pytest.fixture
def events() -> queue.Queue[Any]:
    return queue.Queue()


@pytest.fixture(scope="session")
def layout() -> KeypadLayout:
    return KeypadLayout.load()

