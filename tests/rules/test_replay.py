"""`bidbox replay`: records replayed through the engine, on real files and on made-up faults."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bidbox.cli import main
from laws import pbn
from laws.formats import load_path
from laws.replay import replay
from tests.records import GOLDEN, GOLDEN_PLAYED, REALBRIDGE, SHARED

GOOD = """[Event "Test"]
[Board "11"]
[Dealer "S"]
[Vulnerable "None"]
[Deal "N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ96"]
[Declarer "N"]
[Contract "1NT"]
[Result "8"]
[Auction "S"]
1C Pass 1NT Pass
Pass Pass
[Play "E"]
D4 DJ D3 D5
S5 S2 S3 SK
SQ SA S4 ST
D7 SJ S6 S8
H5 S9 S7 H6
D8 D6 D2 DA
C8 CQ CK C4
-  -  H3 -
*
[Score "NS 120"]
"""


def one(text: str) -> dict[str, object]:
    records = pbn.loads(text)
    assert len(records) == 1
    return replay(records[0], "t.pbn").to_json()


def test_a_consistent_record() -> None:
    result = one(GOOD)
    assert result == {"file": "t.pbn", "index": 0, "board": 11, "contract": "1NT",
                      "declarer": "N", "tricks": 8, "score_ns": 120, "ok": True,
                      "problems": []}


@pytest.mark.parametrize(("change", "expected"), [
    # The auction and the Contract tag disagree: the auction's contract is reported.
    (('[Contract "1NT"]', '[Contract "2NT"]'), r"auction gives 1NT by N .* tags say 2NT by N"),
    (('[Declarer "N"]', '[Declarer "S"]'), r"auction gives 1NT by N .* tags say 1NT by S"),
    # The Play tag names the wrong opening leader (Law 41A).
    (('[Play "E"]', '[Play "W"]'), r"opening lead is W's .* is E \(Law 41A\)"),
    # An insufficient bid (Laws 18D, 27).
    (("1C Pass 1NT Pass", "1NT Pass 1C Pass"), r"call 3 \(N 1C\): .*Law 27"),
    # A double of partner's bid (Law 19A1, refused under Law 36).
    (("1C Pass 1NT Pass", "1C Pass X Pass"), r"call 3 .*19A1.*Law 36"),
    # A card from the wrong hand: HA is North's, played in West's column.
    (("D7 SJ S6 S8", "D7 SJ HA S8"), r"HA is in N's hand.*Law 45A"),
    # The Result contradicts the play so far: declarer had won 6 and lost 1 of 7 tricks.
    (('[Result "8"]', '[Result "13"]'), r"Result says 13 tricks but declarer had already won 6"),
    # An auction that never ends (Law 22A).
    (("Pass Pass\n[Play", "Pass\n[Play"), r"auction is not finished.*Law 22A"),
])
def test_disagreements_are_problems_with_the_law(change: tuple[str, str], expected: str) -> None:
    old, new = change
    assert old in GOOD
    result = one(GOOD.replace(old, new))
    assert result["ok"] is False
    assert any(re.search(expected, p) for p in result["problems"]), result["problems"]  # type: ignore[attr-defined]


def test_the_reported_contract_is_the_auctions() -> None:
    result = one(GOOD.replace('[Contract "1NT"]', '[Contract "4S"]'))
    assert (result["contract"], result["score_ns"]) == ("1NT", 120)


def test_a_revoke_in_a_complete_play_is_found_and_adjusted() -> None:
    # West discards a spade on the diamond lead though holding diamonds, and keeps playing.
    lines = """D4 DJ S3 D5
S5 S2 D3 SK
SQ SA S4 ST
D7 ST S6 S8"""
    text = GOOD.replace("D4 DJ D3 D5\nS5 S2 S3 SK\nSQ SA S4 ST\nD7 SJ S6 S8", lines)
    result = one(text)
    problems = result["problems"]
    assert isinstance(problems, list)
    assert any("W revoked on trick 1" in p and "Law 61" in p for p in problems), problems


def test_a_passed_out_board_scores_nothing() -> None:
    text = GOOD.replace("1C Pass 1NT Pass\nPass Pass", "Pass Pass Pass Pass").replace(
        '[Contract "1NT"]', '[Contract "Pass"]').replace('[Declarer "N"]', '[Declarer ""]')
    text = text[:text.index("[Play")].replace('[Result "8"]', '[Result ""]')
    result = one(text)
    assert (result["contract"], result["declarer"], result["tricks"], result["score_ns"],
            result["ok"]) == ("Pass", None, None, 0, True)


CLAIMS = [
    # Realbridge's board 11 at table 30: 2D by E, eight tricks played, then a claim: 8.
    *([pytest.param(REALBRIDGE, 11, "30", 32, ("2D", "E", 8, -90), "2", id="realbridge")]
      if REALBRIDGE.is_file() else []),
    # The golden pairs' board 13 at table 1: 1NT by E, eleven tricks played (four won), then
    # a claim: 6.
    pytest.param(GOLDEN_PLAYED, 13, "1", 44, ("1NT", "E", 6, 100), "3", id="golden"),
]


@pytest.mark.parametrize(("path", "board", "table", "cards", "expected", "fewer"), CLAIMS)
def test_a_claim_after_some_tricks_takes_the_result_tag(
        path: Path, board: int, table: str, cards: int, expected: tuple[str, str, int, int],
        fewer: str) -> None:
    records = load_path(path)
    record = next(r for r in records if r.board == board and r.tags.get("Table") == table)
    assert sum(len(row) for row in record.play) == cards
    result = replay(record)
    assert (result.contract, result.declarer, result.tricks, result.score_ns, result.ok) == (
        *expected, True)
    record.result_tag = fewer      # fewer than declarer had won already
    assert any(f"Result says {fewer} tricks but declarer had already won" in p
               for p in replay(record).problems)


def test_a_complete_play_decides_the_tricks(played_records: Path) -> None:
    records = load_path(played_records)
    complete = [r for r in records if sum(len(row) for row in r.play) == 52]
    assert len(complete) >= 10
    for record in complete[:10]:
        result = replay(record)
        assert result.ok and result.tricks == int(record.result_tag or "-1")
        assert result.tricks is not None
        record.result_tag = str((result.tricks + 1) % 14)
        assert any(f"play gives {result.tricks}" in p for p in replay(record).problems)


def test_an_unreadable_record_does_not_stop_the_next(tmp_path: Path) -> None:
    bad = GOOD.replace('[Deal "N:KT8.A96', '[Deal "N:KKK.A96').replace('[Board "11"]',
                                                                      '[Board "12"]')
    path = tmp_path / "mixed.pbn"
    path.write_text(bad + "\n" + GOOD.replace('[Board "11"]', '[Board "13"]'))
    results = [replay(r, str(path)) for r in load_path(path)]
    assert [r.board for r in results] == [12, 13]
    assert results[0].ok is False and results[1].ok is True


def score_tag(value: str) -> int:
    side, points = value.split()
    return int(points) if side == "NS" else -int(points)


REAL_FILES = ["realbridge-2021-online-qual-r2.pbn", "mixed-events-3-boards.pbn",
              "spingold-2014-shared-deals.pbn", "bbo-robots-8-boards.lin",
              "club-pairs-2013-travellers.pbn"]
GOLDEN_FILES = ["pairs.pbn", "travellers.pbn", "robots.lin", "bidding.lin"]
RECORD_FILES = [pytest.param(path, id=path.name) for path in
                [SHARED / n for n in REAL_FILES if (SHARED / n).is_file()]
                + [GOLDEN / n for n in GOLDEN_FILES]]


@pytest.mark.parametrize("path", RECORD_FILES)
def test_every_real_record_replays_and_agreeing_ones_match_their_score(path: Path) -> None:
    name = path.name
    records = load_path(path)
    assert records
    checked = 0
    for record in records:
        result = replay(record, name)
        assert result.index == record.source_index
        if result.ok and record.score_tag:
            assert result.score_ns == score_tag(record.score_tag), (result, record.score_tag)
            checked += 1
        if result.ok:
            assert result.contract is not None and result.score_ns is not None
    if name.startswith("realbridge"):
        # Every record there agrees with itself, and with its Score tag where it has one.
        assert all(replay(r).ok for r in records)
        assert checked == sum(1 for r in records if r.score_tag) >= 270
    if path.parent == GOLDEN:
        # The project's own records: every one agrees with the laws and with its Score tag.
        assert all(replay(r).ok for r in records)
        assert checked == sum(1 for r in records if r.score_tag)


JSON_FILES = [
    *([pytest.param(REALBRIDGE, 299, "1NT", 120, id="realbridge")] if REALBRIDGE.is_file()
      else []),
    pytest.param(GOLDEN_PLAYED, 60, "3C", -50, id="golden"),
]


@pytest.mark.parametrize(("path", "count", "contract", "score"), JSON_FILES)
def test_replay_command_json(path: Path, count: int, contract: str, score: int,
                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--json", str(path)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == count
    assert [line["index"] for line in lines] == list(range(count))
    assert set(lines[0]) == {"file", "index", "board", "contract", "declarer", "tricks",
                             "score_ns", "ok", "problems"}
    assert lines[1]["contract"] == contract and lines[1]["score_ns"] == score


def test_replay_command_summary_and_progress(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "one.pbn"
    path.write_text(GOOD)
    assert main(["replay", "--progress", str(path), str(tmp_path / "missing.pbn")]) == 2
    captured = capsys.readouterr()
    assert "board 11: 1NT by N, 8 tricks, NS +120  ok" in captured.out
    assert "1 records: 1 ok, 0 with problems" in captured.out
    assert "[" in captured.err and "1/1" in captured.err
    assert "missing.pbn" in captured.err


@pytest.mark.parametrize(("argv", "expected"), [
    (["4HX", "S", "9", "--vul", "NS"], {"score_ns": -200, "declarer_score": -200}),
    (["3NT", "E", "10", "--vul", "EW"], {"score_ns": -630}),
    (["7NTXX", "N", "0", "--vul", "Both"], {"score_ns": -7600}),
    (["Pass"], {"score_ns": 0}),
    (["4D", "N", "8", "--vul", "Both", "--scheme", "rubber"],           # seed 003: 200
     {"score_ns": -200, "defenders_above_line": 200}),
    (["6NT", "E", "12", "--vul", "EW", "--scheme", "club"], {"score_ns": -940}),
])
def test_score_command(argv: list[str], expected: dict[str, int],
                       capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", *argv, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert {k: result[k] for k in expected} == expected


@pytest.mark.parametrize("argv", [["4HX"], ["4HX", "Q", "9"], ["9HX", "S", "9"],
                                  ["4H", "S", "14"]])
def test_score_command_refuses_bad_input(argv: list[str],
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", *argv]) == 2
    assert "bidbox score:" in capsys.readouterr().err


def test_cards_after_a_gap_in_a_play_row_are_reported() -> None:
    result = one(GOOD.replace("S5 S2 S3 SK", "S5 -  S3 SK"))
    assert result["ok"] is False
    assert any("cards after the gap in trick 2" in p for p in result["problems"])  # type: ignore[attr-defined]


def test_a_pass_out_with_a_play_is_reported() -> None:
    text = GOOD.replace("1C Pass 1NT Pass\nPass Pass", "Pass Pass Pass Pass").replace(
        '[Contract "1NT"]', '[Contract "Pass"]')
    result = one(text)
    assert result["contract"] == "Pass" and result["ok"] is False
    assert any("passed out but the record has a play" in p for p in result["problems"])  # type: ignore[attr-defined]


def test_a_call_after_the_final_pass_names_its_seat() -> None:
    result = one(GOOD.replace("1C Pass 1NT Pass\nPass Pass", "1C Pass 1NT Pass\nPass Pass Pass"))
    assert any(p.startswith("call 7 (N Pass)") and "Law 39" in p for p in result["problems"])  # type: ignore[attr-defined]
