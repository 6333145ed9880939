"""Every error of the laws engine has a code, and every code its sentence in both languages.

The seat displays and the director's console say a refusal in their own language from the
error's code and params (laws/messages.py); an error raised with a bare sentence, or
with a code the table lacks, would reach them in English or not at all.
"""

from __future__ import annotations

import ast
import copy
import pickle
import string
from pathlib import Path

import pytest

from laws import (
    Bid,
    Card,
    IllegalCallError,
    LeadRestrictionError,
    PenaltyCardError,
    RulesError,
    Seat,
    Strain,
    Suit,
)
from laws.auction import Auction
from laws.messages import DETAILS, FAULTS, MESSAGES, PARAM_KINDS, REFUSALS, text

ENGINE = Path(__file__).resolve().parents[2] / "laws"
REFUSING = {"IllegalActionError", "IllegalCallError", "IllegalCardError", "LeadRestrictionError",
            "PenaltyCardError", "IllegalClaimError"}
ERRORS = REFUSING | {"RulesError", "InvalidNotationError", "InvalidCardError", "InvalidCallError",
          "InvalidDealError", "IllegalActionError", "IllegalCallError", "IllegalCardError",
          "LeadRestrictionError", "PenaltyCardError", "IllegalClaimError", "RecordError"}


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _codes(node: ast.expr) -> list[str] | None:
    """The codes a construction's first argument can be: a literal, or a choice of two."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        body, orelse = _codes(node.body), _codes(node.orelse)
        if body is not None and orelse is not None:
            return body + orelse
    return None


def _constructions() -> list[tuple[str, int, ast.Call]]:
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ERRORS):
                found.append((path.relative_to(ENGINE).as_posix(), node.lineno, node))
    return found


def test_the_engine_constructs_its_errors() -> None:
    assert len(_constructions()) >= 80  # the scan sees the raise sites


@pytest.mark.parametrize(("path", "line", "node"), _constructions(),
                         ids=lambda v: v if isinstance(v, str | int) else "")
def test_every_error_the_engine_makes_has_a_code_of_the_table(path: str, line: int,
                                                              node: ast.Call) -> None:
    assert node.args, f"{path}:{line}: an error without its code"
    codes = _codes(node.args[0])
    assert codes is not None, f"{path}:{line}: the code is not a literal"
    for code in codes:
        assert code in MESSAGES, f"{path}:{line}: {code!r} is not in messages.MESSAGES"
        # a refusal (the seats and the console show it) or a fault, as its class says
        assert code in (REFUSALS if node.func.id in REFUSING else FAULTS), (path, line, code)
        given = {k.arg for k in node.keywords}
        assert given == _fields(MESSAGES[code].en), (path, line, code, given)


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_every_code_has_its_english_and_spanish_with_the_same_fields(code: str) -> None:
    message = MESSAGES[code]
    assert message.en.strip() and message.es.strip()
    assert message.es != message.en or not message.en.isalpha()
    assert _fields(message.es) == _fields(message.en)
    for language in ("en", "es"):
        params = {name: 7 if name not in PARAM_KINDS else "N" for name in
                  _fields(message.en)}
        assert "{" not in text(code, params, language)


def test_every_code_of_the_table_is_raised_somewhere() -> None:
    raised = {code for _, _, node in _constructions() for code in _codes(node.args[0]) or []}
    # bidbox/score_cmd.py's; the details are the table's (tabled/control, server/link/ingest)
    assert set(MESSAGES) - raised == {"contract_needs_declarer", *DETAILS}


def test_an_error_keeps_its_english_its_law_its_code_and_params() -> None:
    auction = Auction(Seat.N)
    auction.make_call(Bid(2, Strain.H))
    with pytest.raises(IllegalCallError) as caught:
        auction.make_call(Bid(1, Strain.S))
    error = caught.value
    assert str(error) == "1S is insufficient over 2H (Law 27)"
    assert error.reason == "1S is insufficient over 2H"
    assert (error.code, error.law) == ("insufficient_bid", "27")
    assert error.params == {"call": "1S", "last": "2H"}
    assert text(error.code, error.params, "es") == "1S es insuficiente sobre 2H"


@pytest.mark.parametrize("error", [
    RulesError("not_a_card", text="ZZ"),
    IllegalCallError("must_pass", "37", seat="E", rule="30", call="1C"),
    LeadRestrictionError("must_lead_suit", "26", Suit.H, True, seat="W", suit="H"),
    PenaltyCardError("must_play_penalty_card", "50D1", Card.from_str("SQ"), seat="W",
                     due="SQ"),
])
def test_an_error_copies_and_pickles_whole(error: RulesError) -> None:
    for again in (copy.deepcopy(error), pickle.loads(pickle.dumps(error))):
        assert type(again) is type(error)
        assert str(again) == str(error)
        assert again.__dict__ == error.__dict__
