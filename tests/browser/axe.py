"""axe-core, run in the page by the browser tests: the WCAG 2.1 A and AA rules and the best
practices (one main landmark, a level-one heading, landmarks named apart, ...).

axe-core comes from the npm registry, pinned, into ``.tools/`` (``scripts/setup.py``); without
it these checks skip and say how to install it. The script is evaluated through the browser's
debugging protocol, which the pages' Content-Security-Policy does not govern.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

AXE = Path(__file__).resolve().parents[2] / ".tools" / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


def violations(page: Any) -> list[str]:
    """What axe finds wrong with the page as it is now, one line per rule and element."""
    if not AXE.is_file():
        pytest.skip(f"no axe-core at {AXE}: run scripts/setup.py")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    found = page.evaluate("""(tags) => axe.run(document, {
        runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]})
        .then((result) => result.violations.map((v) => v.nodes.map((n) =>
            v.id + " (" + v.impact + "): " + n.target.join(" ") + ": "
            + (n.failureSummary || "").replace(/\\s+/g, " ").slice(0, 300))).flat())""", TAGS)
    assert isinstance(found, list)
    return [str(line) for line in found]
