# The two commands of the quick start, and the checks CI runs.
PYTHON ?= python3

.PHONY: setup test test-fast lint typecheck demo bench

setup:
	@$(PYTHON) scripts/setup.py

test: setup lint typecheck
	$(PYTHON) -m pytest -q

# A developer's loop: the pure and unit tests (no broker, browser, PostgreSQL, slow test or
# the aggregator's app over a database), on every core; under 30 s on two. `make test` stays
# the whole proof.
test-fast: setup
	$(PYTHON) -m pytest -q -p no:benchmark -n auto \
		--ignore=tests/server -m "not broker and not browser and not postgres and not slow"

lint:
	$(PYTHON) -m ruff check .

typecheck:
	$(PYTHON) -m mypy --strict tabled
	$(PYTHON) -m mypy --strict hardware
	$(PYTHON) -m mypy --strict mqttlink
	$(PYTHON) -m mypy --strict sim
	$(PYTHON) -m mypy --strict bidbox/broker.py
	$(PYTHON) -m mypy --strict server
	$(PYTHON) -m mypy --strict firmware

demo:
	@$(PYTHON) scripts/setup.py --demo
	$(PYTHON) -m bidbox demo

bench: setup
	$(PYTHON) -m bench
