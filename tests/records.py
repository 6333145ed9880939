"""Where the record tests find their records.

The real tournament records are in ``../shared/data/records`` beside the checkout (or in the
folder ``BIDBOX_RECORDS`` names: ``BIDBOX_RECORDS=/nonexistent`` runs the suite as a fresh
clone would). Without them, the tests that need a file of played boards play the golden set
the project made for itself, ``tests/data/`` (``python -m tests.data.make_golden``), so a
clone on its own still runs them; the tests of what one real file holds skip."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("BIDBOX_RECORDS") or ROOT.parent / "shared" / "data" / "records")
GOLDEN = ROOT / "tests" / "data"
REALBRIDGE = SHARED / "realbridge-2021-online-qual-r2.pbn"
GOLDEN_PLAYED = GOLDEN / "pairs.pbn"


def played_pbn() -> Path:
    """A PBN of boards played through at many tables, with the whole auction and play or a
    claim: the real qualifier when it is here, else the golden pairs session."""
    return REALBRIDGE if REALBRIDGE.is_file() else GOLDEN_PLAYED
