"""Run every benchmark in turn."""

import sys

from bench import replay

sys.exit(replay.main(sys.argv[1:]))
