# The two commands of the quick start, and the checks CI runs.
# PYTHON is the Python that makes the checkout's virtual environment (VENV, .venv/ by default:
# Debian's own python3 refuses pip into the system, PEP 668); everything then runs on the
# environment's Python. `make test PYTHON=/usr/bin/python3` makes it from Debian's own.
PYTHON ?= python3
VENV ?= .venv
VPY := $(VENV)/bin/python

.PHONY: setup test test-fast lint typecheck demo bench

setup:
	@$(PYTHON) scripts/setup.py --venv $(VENV)

# Two workers, one a core of a two-core machine (the whole suite: about twenty minutes there).
test: setup lint typecheck
	$(VPY) -m pytest -q -n 2

# A developer's loop: the pure and unit tests (no broker, browser, PostgreSQL, slow test or
# the aggregator's app over a database), on every core; under 30 s on two. `make test` stays
# the whole proof.
test-fast: setup
	$(VPY) -m pytest -q -p no:benchmark -n auto \
		--ignore=tests/server -m "not broker and not browser and not postgres and not slow"

lint:
	$(VPY) -m ruff check .
	$(VENV)/bin/lint-imports --no-cache

typecheck:
	$(VPY) -m mypy --strict laws
	$(VPY) -m mypy --strict tablemodel
	$(VPY) -m mypy --strict tabled
	$(VPY) -m mypy --strict hardware
	$(VPY) -m mypy --strict mqttlink
	$(VPY) -m mypy --strict sim
	$(VPY) -m mypy --strict bidbox/broker.py
	$(VPY) -m mypy --strict server
	$(VPY) -m mypy --strict firmware

demo:
	@$(PYTHON) scripts/setup.py --demo --venv $(VENV)
	$(VPY) -m bidbox demo

bench: setup
	$(VPY) -m bench
