"""A session's scoring as a typed value: one spelling, every format's name, no guess."""

from __future__ import annotations

import pytest

from server.scoring.fieldscore import rankings
from server.setup.scorings import Method, Scoring
from server.setup.session import ALLOWED_SCORING, DEFAULT_SCORING, SCORINGS


def test_every_scoring_says_its_method_and_its_names_in_every_format() -> None:
    assert set(SCORINGS) == set(Scoring)
    for scoring in Scoring:
        assert scoring.method in Method
        assert scoring.pbn and scoring.pbn != "?"
        assert scoring.usebio and scoring.usebio != "?"
        assert scoring.social is (scoring.method is Method.POINTS)
    assert [s for s in Scoring if s.method is Method.MP] == [Scoring.MP]


def test_every_movement_allows_its_default() -> None:
    for movement, allowed in ALLOWED_SCORING.items():
        assert DEFAULT_SCORING[movement] in allowed


def test_one_spelling_of_imps() -> None:
    assert Scoring("cross_imps").method == "imps"
    with pytest.raises(ValueError, match="not 'imp'"):
        rankings([], method="imp")
    with pytest.raises(ValueError):
        Scoring("imps")
