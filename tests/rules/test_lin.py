"""LIN: single-deal lines and multi-board vugraph files into Records, and back."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laws import (
    ALL_BIDS,
    DOUBLE,
    PASS,
    REDOUBLE,
    Call,
    Card,
    Deal,
    Seat,
    Vulnerability,
    lin,
)
from laws.records import AuctionItem, Record

# S, W, N, E; N is dealt the rest (the fourth hand may be left out).
MD = "3SKH4579QKAD69C58K,S569QAH3D5TJQAC69,S47H8TD248KC347QA,"
DEAL = Deal.from_pbn(
    "N:74.T8.K842.AQ743 JT832.J62.73.JT2 K.AKQ9754.96.K85 AQ965.3.AQJT5.96")
BOARD = (f"pn|Sue,Walt,Nell,Ed|st||md|{MD}|rh||ah|Board 1|sv|o|mb|p|mb|p|mb|1H|"
         "an|Major suit opening|mb|2H!|an|Michaels |mb|p|mb|p|mb|p|pg||"
         "pc|C9|pc|C3|pc|C2|pc|CK|pg||pc|HA|pc|H3|pc|H8|pc|H2|pg||mc|10|")


def one(text: str | bytes) -> Record:
    records = lin.loads(text)
    assert len(records) == 1
    return records[0]


def calls(record: Record) -> str:
    return " ".join(str(item.call) for item in record.auction)


def test_a_single_deal_line() -> None:
    record = one(BOARD)
    assert record.tags == {"Board": "1", "South": "Sue", "West": "Walt", "North": "Nell",
                           "East": "Ed", "Dealer": "N", "Vulnerable": "None",
                           "Deal": DEAL.to_pbn(Seat.N), "Auction": "N"}
    assert (record.board, record.dealer, record.vulnerability) == (1, Seat.N, Vulnerability.NONE)
    assert record.deal == DEAL and record.auction_dealer is Seat.N
    assert record.auction == [
        AuctionItem(PASS), AuctionItem(PASS),
        AuctionItem(Call.from_str("1H"), False, "Major suit opening", 1),
        AuctionItem(Call.from_str("2H"), True, "Michaels", 2),
        AuctionItem(PASS), AuctionItem(PASS), AuctionItem(PASS)]
    assert record.notes == {1: "Major suit opening", 2: "Michaels"}
    assert record.auction_complete
    assert [str(card) for card in record.play_sequence] == "C9 C3 C2 CK HA H3 H8 H2".split()
    assert record.play == [] and record.play_leader is None
    assert record.claim == 10 and record.problems == []


@pytest.mark.parametrize(("md", "dealer", "known"), [
    (MD, Seat.N, 4),  # the fourth hand follows from the other three
    ("1" + MD[1:], Seat.S, 4),
    ("2SKH4579QKAD69C58K,,,", Seat.W, 1),
    ("4,,,", Seat.E, 0),
    (MD[1:], None, 4),  # no dealer digit
    ("3S10H4579QKAD69C58K,,,", Seat.N, 1),  # "10" for the ten
])
def test_md_dealer_and_hands(md: str, dealer: Seat | None, known: int) -> None:
    record = one(f"md|{md}|")
    assert record.dealer is dealer
    assert len(record.deal.hands if record.deal else {}) == known


@pytest.mark.parametrize(("sv", "vul"), [
    ("o", Vulnerability.NONE), ("0", Vulnerability.NONE), ("-", Vulnerability.NONE),
    ("n", Vulnerability.NS), ("e", Vulnerability.EW), ("b", Vulnerability.BOTH),
    ("B", Vulnerability.BOTH),
])
def test_sv(sv: str, vul: Vulnerability) -> None:
    assert one(f"md|{MD}|sv|{sv}|").vulnerability is vul


@pytest.mark.parametrize(("mb", "expected", "alerts"), [
    ("p,p,p,p", "Pass Pass Pass Pass", 0),
    ("1N,d,r,p", "1NT X XX Pass", 0),
    ("1c,2d!,D,R", "1C 2D X XX", 1),
    ("1C!,p!", "1C Pass", 2),
])
def test_mb_calls(mb: str, expected: str, alerts: int) -> None:
    record = one(f"md|{MD}|" + "".join(f"mb|{call}|" for call in mb.split(",")))
    assert calls(record) == expected
    assert sum(item.alert for item in record.auction) == alerts


@pytest.mark.parametrize(("text", "problem"), [
    (f"md|{MD}|mb|1Z|mb|p|", "line 1: mb '1Z' is not a call"),
    (f"md|{MD}|an|early|mb|p|", "line 1: an explanation before any call: 'early'"),
    (f"md|{MD}|pc|Z9|", "line 1: pc 'Z9' is not a card"),
    (f"md|{MD}|mc|lots|", "line 1: mc 'lots' is not a number of tricks"),
    (f"md|{MD}|zz|what|", "line 1: unknown LIN key 'zz' ignored"),
    (f"md|{MD}|sv|q|", "line 1: sv 'q' is not a vulnerability"),
    ("md|7SKH4579QKAD69C58K,,,|", "line 1: md dealer '7' is not 1 to 4"),
    ("md|3SKSK,,,|", "line 1: a card twice in LIN hand 'SKSK'"),
    ("md|3XK,,,|", "line 1: a rank before any suit in LIN hand 'XK'"),
    (f"md|{MD}|mb|p|pc|C9", "line 1: an unfinished pair 'pc|C9'"),
    ("md|,,,|mb|1C|", "calls without a dealer (md gives none)"),
])
def test_problems_are_reported_not_raised(text: str, problem: str) -> None:
    assert one(text).problems == [problem]


def test_one_board_per_line_starting_at_pn() -> None:
    text = "\n".join([BOARD, BOARD.replace("Sue", "Sam").replace("Board 1", "Board 2")])
    records = lin.loads(text)
    assert [(r.board, r.tags["South"], r.raw_lines, r.source_index) for r in records] == [
        (1, "Sue", (1, 1), 0), (2, "Sam", (2, 2), 1)]


VUGRAPH = f"""vg|Bermuda Bowl 2015,Final 1 of 8,I,1,16,USA,0,Poland,0|
rs|4SS+1,4SS=|
pn|s1,w1,n1,e1,s2,w2,n2,e2|pg||
qx|o1|st||md|{MD}|sv|o|ah|Board 1|mb|1H|mb|p|
mb|p|mb|p|pg||
pc|C9|pc|C3|pc|C2|
pc|CK|pg||nt|nice lead|pg||
qx|c1|md|{MD}|sv|o|mb|p|mb|
p|mb|p|mb|p|pg||
pn|s3,w3,n3,e3,s4,w4,n4,e4|
qx|o2|md|{MD}|
"""


def test_a_vugraph_file() -> None:
    records = lin.loads(VUGRAPH)
    session = {"Event": "Bermuda Bowl 2015", "Stage": "Final 1 of 8", "Scoring": "IMP",
               "HomeTeam": "USA", "VisitTeam": "Poland"}
    first, second, third = records
    assert first.tags == {**session, "Board": "1", "South": "s1", "West": "w1", "North": "n1",
                          "East": "e1", "Room": "Open", "Dealer": "N", "Vulnerable": "None",
                          "Deal": DEAL.to_pbn(Seat.N), "Auction": "N"}
    assert calls(first) == "1H Pass Pass Pass" and len(first.play_sequence) == 4
    assert first.commentary == ["nice lead"] and first.raw_lines == (4, 7)
    assert second.tags["Room"] == "Closed" and second.tags["South"] == "s2"
    assert calls(second) == "Pass Pass Pass Pass"  # a call split over two lines
    assert (third.board, third.tags["South"], third.auction) == (2, "s3", [])
    assert all(record.problems == [] for record in records)


@pytest.mark.parametrize("text", [
    f"md|{MD}|ah|Board 1|mb|p|\nmd|{MD}|ah|Board 2|mb|p|",
    f"ah|Board 1|md|{MD}|mb|p|\nah|Board 2|md|{MD}|mb|p|",
    f"ah|Board 1|md|{MD}|\nah|Board 2|md|{MD}|",
])
def test_a_second_deal_or_title_starts_the_next_board(text: str) -> None:
    assert [(r.board, calls(r)) for r in lin.loads(text)][-1][0] == 2
    assert len(lin.loads(text)) == 2


def test_a_pn_inside_a_vugraph_board_names_its_players() -> None:
    text = f"pn|a,b,c,d|\nqx|o5|pn|e,f,g,h|md|{MD}|\nqx|o6|md|{MD}|\n"
    records = lin.loads(text)
    assert [r.tags["South"] for r in records] == ["e", "e"]
    assert [r.board for r in records] == [5, 6]


@pytest.mark.parametrize("data", [
    BOARD.replace("Sue", "Zoë").encode(),
    BOARD.replace("Sue", "Zoë").encode("latin-1"),
    ("\ufeff" + BOARD.replace("Sue", "Zoë") + "\r\n").encode(),
])
def test_bytes_and_line_ends(data: bytes) -> None:
    assert one(data).tags["South"] == "Zoë"
    assert lin.load(io.BytesIO(data))[0].tags["South"] == "Zoë"


def test_garbage_does_not_crash() -> None:
    records = lin.loads("hello world\n|||\nmd|||\n" + BOARD + "\n\x00|\n")
    assert records[-1].tags["South"] == "Sue"
    assert any(record.problems for record in records)


# -- writing -------------------------------------------------------------------------------


def test_writing_one_board_per_line() -> None:
    record = one(BOARD)
    text = lin.dumps([record, record])
    line = ("pn|Sue,Walt,Nell,Ed|md|3SKHAKQ9754D96CK85,SAQ965H3DAQJT5C96,S74HT8DK842CAQ743,"
            "SJT832HJ62D73CJT2|sv|o|ah|Board 1|mb|p|mb|p|mb|1H|an|Major suit opening|"
            "mb|2H!|an|Michaels|mb|p|mb|p|mb|p|pg||pc|C9|pc|C3|pc|C2|pc|CK|pg||"
            "pc|HA|pc|H3|pc|H8|pc|H2|mc|10|\n")
    assert text == line + line
    assert lin.loads(text) == [record, replace(record, source_index=1)]


def test_a_record_from_pbn_goes_out_as_lin() -> None:
    record = Record(tags={"Event": "Club, night", "Room": "Closed", "South": "a|b"}, board=3,
                    dealer=Seat.S, auction=[AuctionItem(Call.from_str("1NT"), note="15-17")],
                    commentary=["two\nlines"])
    text = lin.dumps([record])
    assert text == ("vg|Club  night,,,3,3,,0,,0|qx|c3|pn|a/b,,,|md|1|ah|Board 3|"
                    "mb|1N|an|15-17|nt|two lines|\n")
    again = one(text)
    assert again.tags == {"Event": "Club  night", "Board": "3", "South": "a/b",
                          "Room": "Closed", "Dealer": "S", "Auction": "S"}


def test_boards_without_players_or_session_do_not_inherit_them() -> None:
    named = one(f"vg|Cup,,,,,,,,|pn|a,b,c,d|md|{MD}|")
    bare = Record(board=2)
    again = lin.loads(lin.dumps([named, bare]))
    assert "South" not in again[1].tags and "Event" not in again[1].tags


# -- random records round-trip ---------------------------------------------------------------

CALLS: list[Call] = [*ALL_BIDS, PASS, DOUBLE, REDOUBLE]
SEATS = st.sampled_from(list(Seat))
NAME = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"),
                             blacklist_characters="|,"), max_size=12).map(str.strip)
TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"),
                             blacklist_characters="|"), max_size=30).map(str.strip)


@st.composite
def deals(draw: st.DrawFn) -> Deal | None:
    deck = draw(st.permutations(Card.ALL))
    # three known hands would be completed with the fourth, as md's habit is
    known = draw(st.sampled_from([0, 1, 2, 4]))
    seats = draw(st.permutations(list(Seat)))[:known]
    hands = {seat: frozenset(deck[i * 13:(i + 1) * 13]) for i, seat in enumerate(seats)}
    return Deal(hands) if hands else None


@st.composite
def records(draw: st.DrawFn) -> Record:
    """A record in the form the LIN reader gives."""
    tags: dict[str, str] = {}
    for name in ("Event", "Stage", "HomeTeam", "VisitTeam"):
        text = draw(NAME)
        if text:
            tags[name] = text
    scoring = draw(st.sampled_from(["", "IMP", "MP", "BAM"]))
    if scoring:
        tags["Scoring"] = scoring
    board = draw(st.none() | st.integers(1, 99))
    if board is not None:
        tags["Board"] = str(board)
    for name in ("South", "West", "North", "East"):
        player = draw(NAME)
        if player:
            tags[name] = player
    room = draw(st.sampled_from([None, "Open", "Closed"]))
    if room is not None:
        tags["Room"] = room
    items: list[AuctionItem] = []
    notes: dict[int, str] = {}
    for call in draw(st.lists(st.sampled_from(CALLS), max_size=16)):
        note = draw(TEXT) or None
        ref = None
        if note is not None:
            ref = len(notes) + 1
            notes[ref] = note
        items.append(AuctionItem(call, draw(st.booleans()), note, ref))
    dealer = draw(SEATS) if items else draw(st.none() | SEATS)
    deal = draw(deals())
    vul = draw(st.none() | st.sampled_from(list(Vulnerability)))
    if dealer is not None:
        tags["Dealer"] = str(dealer)
    if vul is not None:
        tags["Vulnerable"] = str(vul)
    if deal is not None:
        tags["Deal"] = deal.to_pbn(dealer or Seat.N)
    if items:
        tags["Auction"] = str(dealer)
    return Record(tags=tags, board=board, dealer=dealer, vulnerability=vul, deal=deal,
                  auction=items, auction_dealer=dealer if items else None,
                  play_sequence=draw(st.lists(st.sampled_from(Card.ALL), max_size=52)),
                  claim=draw(st.none() | st.integers(0, 13)), notes=notes,
                  commentary=[text for text in draw(st.lists(TEXT, max_size=2)) if text])


@settings(max_examples=200, deadline=None)
@given(st.lists(records(), min_size=1, max_size=3))
def test_random_records_round_trip(generated: list[Record]) -> None:
    for index, record in enumerate(generated):
        record.source_index = index
    assert lin.loads(lin.dumps(generated)) == generated
