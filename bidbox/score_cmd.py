"""``bidbox score 4HX S 9 --vul NS [--scheme ...]``: the director's calculator."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from laws import Seat, Vulnerability, parse_contract
from laws.errors import RulesError
from laws.scoring import Scheme, deal_score


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "score", help="score one result (the director's calculator)",
        description="Score one deal: contract (4HX, 3NT, Pass), declarer, declarer's tricks.")
    parser.add_argument("contract", help="e.g. 4HX, 3NT, 6SXX, or Pass")
    parser.add_argument("declarer", nargs="?", help="N, E, S or W")
    parser.add_argument("tricks", nargs="?", type=int, help="tricks won by declarer, 0-13")
    parser.add_argument("--vul", default="None",
                        help="vulnerability: None, NS, EW or Both (default None)")
    parser.add_argument("--scheme", default=Scheme.DUPLICATE.value,
                        choices=[s.value for s in Scheme])
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(run=run)


def calculate(contract_text: str, declarer_text: str | None, tricks: int | None,
              vul_text: str, scheme: str) -> dict[str, Any]:
    contract = parse_contract(contract_text)
    vulnerability = Vulnerability.from_str(vul_text)
    if contract is None:
        return {"contract": "Pass", "declarer": None, "tricks": None, "scheme": scheme,
                "vulnerability": str(vulnerability), "score_ns": 0, "declarer_score": 0,
                "below_line": 0, "above_line": 0, "defenders_above_line": 0}
    if declarer_text is None or tricks is None:
        raise RulesError("contract_needs_declarer")
    declarer = Seat.from_str(declarer_text)
    score = deal_score(scheme, contract, vulnerability.is_vulnerable(declarer), tricks)
    sign = 1 if declarer.side.value == "NS" else -1
    return {"contract": str(contract), "declarer": str(declarer), "tricks": tricks,
            "scheme": scheme, "vulnerability": str(vulnerability),
            "declarer_score": score.net, "score_ns": sign * score.net,
            "below_line": score.declarer_below, "above_line": score.declarer_above,
            "defenders_above_line": score.defenders_above}


def describe(result: dict[str, Any]) -> str:
    if result["contract"] == "Pass":
        return "Passed out: 0"
    made = result["tricks"] - (int(result["contract"][0]) + 6)
    outcome = ("made exactly" if made == 0 else f"made +{made}" if made > 0
               else f"down {-made}")
    text = (f"{result['contract']} by {result['declarer']}, {result['tricks']} tricks "
            f"({outcome}), vulnerable: {result['vulnerability']}, {result['scheme']}: "
            f"{result['declarer_score']:+d} for declarer, NS {result['score_ns']:+d}")
    if result["scheme"] in (Scheme.RUBBER.value, Scheme.CHICAGO.value):
        text += (f"\n  below the line {result['below_line']}, above the line "
                 f"{result['above_line']}, defenders above the line "
                 f"{result['defenders_above_line']}")
    return text


def run(args: argparse.Namespace) -> int:
    try:
        result = calculate(args.contract, args.declarer, args.tricks, args.vul, args.scheme)
    except RulesError as error:
        print(f"bidbox score: {error}", file=sys.stderr)
        return 2
    print(json.dumps(result) if args.json else describe(result))
    return 0
