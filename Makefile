# The two commands of the quick start, and the checks CI runs.
PYTHON ?= python3

.PHONY: setup test lint typecheck demo bench

setup:
	@$(PYTHON) scripts/setup.py

test: setup lint typecheck
	$(PYTHON) -m pytest -q

lint:
	$(PYTHON) -m ruff check .

typecheck:
	$(PYTHON) -m mypy --strict tabled
	$(PYTHON) -m mypy --strict hardware
	$(PYTHON) -m mypy --strict bidbox/broker.py
	$(PYTHON) -m mypy --strict server
	$(PYTHON) -m mypy --strict firmware

demo:
	@$(PYTHON) scripts/setup.py --demo
	$(PYTHON) -m bidbox demo

bench: setup
	$(PYTHON) -m bench
