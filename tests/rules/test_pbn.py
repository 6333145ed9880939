"""PBN 2.1: reading real-archive habits into Records, writing them back, and round trips."""

from __future__ import annotations

import io
import itertools
from collections.abc import Iterator

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
    RecordError,
    Seat,
    Vulnerability,
    pbn,
)
from laws.records import AuctionItem, Record, Visitor, passes_to_close

DEAL = "N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ96"


def one(text: str | bytes) -> Record:
    records = pbn.loads(text)
    assert len(records) == 1
    return records[0]


def calls(record: Record) -> str:
    return " ".join(str(item.call) for item in record.auction)


# -- tags ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("line", "name", "value"), [
    ('[Event "Club night"]', "Event", "Club night"),
    ('[Event ""]', "Event", ""),
    ('[West "Said \\"Bob\\" Smith"]', "West", 'Said "Bob" Smith'),
    ('[Site "C:\\\\bridge"]', "Site", "C:\\bridge"),
    ('[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]', "OptimumResultTable",
     "Declarer;Denomination\\2R;Result\\2R"),  # not an escape: kept as real files write it
    ('  [ Board   "7" ]  ', "Board", "7"),
    ('[Note_x "a]b"]', "Note_x", "a]b"),
])
def test_tag_values_and_escapes(line: str, name: str, value: str) -> None:
    record = one(line)
    assert record.tags == {name: value}
    assert record.problems == []


@pytest.mark.parametrize(("tags", "board", "dealer", "vul"), [
    ('[Board "12"][Dealer "W"][Vulnerable "NS"]', 12, Seat.W, Vulnerability.NS),
    ('[Board "?"][Dealer "?"][Vulnerable "All"]', None, None, Vulnerability.BOTH),
    ('[Board ""][Dealer ""][Vulnerable "Love"]', None, None, Vulnerability.NONE),
    ('[Board "3"][Dealer "S"][Vulnerable "Both"]', 3, Seat.S, Vulnerability.BOTH),
])
def test_identification_tags_fill_fields(tags: str, board: int | None, dealer: Seat | None,
                                         vul: Vulnerability) -> None:
    record = one(tags)
    assert (record.board, record.dealer, record.vulnerability) == (board, dealer, vul)


@pytest.mark.parametrize(("tag", "fragment"), [
    ('[Board "twelve"]', "Board tag"),
    ('[Dealer "Q"]', "Dealer tag"),
    ('[Vulnerable "Sometimes"]', "Vulnerable tag"),
    ('[Deal "N:AKQ.xx"]', "Deal tag"),
    ('[Deal "N:AKQJT98765432... - - -  -"]', "Deal tag"),
    ('[Auction "Z"]', "Auction tag"),
])
def test_unreadable_tag_values_are_problems(tag: str, fragment: str) -> None:
    record = one(tag)
    assert len(record.problems) == 1 and fragment in record.problems[0]


def test_a_repeated_tag_keeps_the_first() -> None:
    record = one('[Board "1"]\n[Board "2"]\n')
    assert record.board == 1
    assert record.problems == ["line 2: the Board tag again; the first is kept"]


# -- inheritance ---------------------------------------------------------------------------

FIRST = f"""[Event "Spingold"]
[Site "Chicago"]
[Board "62"]
[West "Brogeland"]
[North "Helness"]
[Dealer "E"]
[Vulnerable "None"]
[Deal "{DEAL}"]
[Contract "6C"]
[Result "11"]
[Auction "E"]
1S 3H 4S 6C
AP
[Score "NS 920"]
[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]
N NT  7
S  C  8

"""


@pytest.mark.parametrize(("second", "expected"), [
    # a game that gives neither Deal nor Board is the next table of the same board
    ('[West "Nunes"]\n[Contract "6SX"]\n',
     {"Event": "Spingold", "Site": "Chicago", "Board": "62", "Dealer": "E",
      "Vulnerable": "None", "Deal": DEAL, "OptimumResultTable":
      "Declarer;Denomination\\2R;Result\\2R", "West": "Nunes", "Contract": "6SX"}),
    # the same board number: still a continuation
    ('[Board "62"]\n[Contract "3NT"]\n',
     {"Event": "Spingold", "Site": "Chicago", "Dealer": "E", "Vulnerable": "None",
      "Deal": DEAL, "OptimumResultTable": "Declarer;Denomination\\2R;Result\\2R",
      "Board": "62", "Contract": "3NT"}),
    # another board: nothing is inherited by omission
    ('[Board "63"]\n[Contract "3NT"]\n', {"Board": "63", "Contract": "3NT"}),
    # its own deal: a new board, nothing inherited by omission
    (f'[Deal "{DEAL}"]\n', {"Deal": DEAL}),
    # "#" copies the previous game's value, even with a deal of its own
    (f'[Event "#"]\n[Site "#"]\n[Deal "{DEAL}"]\n',
     {"Event": "Spingold", "Site": "Chicago", "Deal": DEAL}),
    # "#" for a tag no game had is empty (PBN 4.8)
    (f'[Annotator "#"]\n[Deal "{DEAL}"]\n', {"Annotator": "", "Deal": DEAL}),
])
def test_inheritance(second: str, expected: dict[str, str]) -> None:
    records = pbn.loads(FIRST + second)
    assert records[1].tags == expected
    assert records[1].problems == []


def test_a_continuation_inherits_the_board_not_the_table() -> None:
    second = pbn.loads(FIRST + '[West "Nunes"]\n')[1]
    assert (second.board, second.dealer, second.deal) == (62, Seat.E, Deal.from_pbn(DEAL))
    assert second.auction == [] and second.contract_tag is None and second.score_tag is None
    assert "North" not in second.tags and "Result" not in second.tags
    assert second.sections == {"OptimumResultTable": ["N NT  7", "S  C  8"]}


def test_double_hash_sets_a_tag_for_every_later_game() -> None:
    text = (f'[Event "##Club night"]\n[Deal "{DEAL}"]\n\n[Deal "{DEAL}"]\n\n'
            f'[Event "Other"]\n[Deal "{DEAL}"]\n')
    events = [record.tags.get("Event") for record in pbn.loads(text)]
    assert events == ["Club night", "Club night", "Other"]


def test_hash_is_forbidden_for_the_deal_but_inherited_and_reported() -> None:
    records = pbn.loads(f'[Deal "{DEAL}"]\n\n[Board "2"]\n[Deal "#"]\n')
    assert records[1].deal == Deal.from_pbn(DEAL)
    assert records[1].problems == ["line 4: PBN forbids '#' in the Deal tag; inherited"]


# -- auction -------------------------------------------------------------------------------


@pytest.mark.parametrize(("section", "expected", "complete"), [
    ("1S 3H 4S 6C\nAP", "1S 3H 4S 6C Pass Pass Pass", True),
    ("AP", "Pass Pass Pass Pass", True),
    ("Pass AP", "Pass Pass Pass Pass", True),
    ("1C Pass AP", "1C Pass Pass Pass", True),
    ("6S X AP", "6S X Pass Pass Pass", True),
    ("1C Pass Pass Pass AP", "1C Pass Pass Pass", True),
    ("1N P 3N p\npass pass", "1NT Pass 3NT Pass Pass Pass", True),
    ("Pass 1D X XX\n1S", "Pass 1D X XX 1S", False),
    ("1C 1D *", "1C 1D", False),
    ("- 1C Pass", "1C Pass", False),  # "-" is a filler, not a call
    ("1C\n\t2C   3C", "1C 2C 3C", False),
])
def test_auction_calls_and_all_pass(section: str, expected: str, complete: bool) -> None:
    record = one(f'[Auction "N"]\n{section}\n')
    assert calls(record) == expected
    assert record.auction_complete is complete
    assert record.auction_dealer is Seat.N
    assert record.problems == []


@pytest.mark.parametrize(("section", "items"), [
    ("1C =1= Pass", [AuctionItem(Call.from_str("1C"), False, "strong", 1), AuctionItem(PASS)]),
    # PBN 3.5.3: "!" is the suffix annotation "good call" ($1), not an alert
    ("1C=1=! Pass", [AuctionItem(Call.from_str("1C"), False, "strong", 1, ("!",)),
                     AuctionItem(PASS)]),
    ("2C ! Pass", [AuctionItem(Call.from_str("2C"), False, None, None, ("!",)),
                   AuctionItem(PASS)]),
    ("2C! Pass", [AuctionItem(Call.from_str("2C"), False, None, None, ("!",)),
                  AuctionItem(PASS)]),
    ("1NT ? X !! $12", [AuctionItem(Call.from_str("1NT"), False, None, None, ("?",)),
                        AuctionItem(DOUBLE, False, None, None, ("!!", "$12"))]),
    ("1H 2NT =1= ! XX =2=", [AuctionItem(Call.from_str("1H")),
                             AuctionItem(Call.from_str("2NT"), False, "strong", 1, ("!",)),
                             AuctionItem(REDOUBLE, False, "to play", 2)]),
])
def test_notes_alerts_and_annotations(section: str, items: list[AuctionItem]) -> None:
    record = one(f'[Auction "N"]\n{section}\n[Note "1:strong"]\n[Note "2: to play "]\n')
    assert record.auction == items
    assert record.notes == {1: "strong", 2: "to play"}
    assert record.problems == []


@pytest.mark.parametrize(("section", "problem"), [
    ("1C =3= Pass", "call 1C refers to note 3, which the record does not give"),
    ("1C Pass 1Q", "line 2: not a call in the auction: '1Q'"),
    ("1C Pass hello", "line 2: not a call in the auction: 'HELLO'"),
    ("=1= 1C", "line 2: annotation '=1=' follows no call"),
    ("1C AP 2C", "line 2: '2C' after the end of the auction"),
    ("1C * AP", "line 2: AP after the end of the auction"),
    ("1C =1= =2= Pass", "line 2: a second note =2= on 1C; kept =1="),
])
def test_auction_syntax_problems_are_reported(section: str, problem: str) -> None:
    text = f'[Auction "N"]\n{section}\n[Note "1:one"]\n[Note "2:two"]\n'
    record = one(text.replace("hello", "HELLO"))
    assert record.problems == [problem]
    assert record.auction[0].call == Call.from_str("1C")


def test_notes_after_the_play_are_play_notes() -> None:
    record = one('[Auction "N"]\nAP\n[Note "1:a"]\n[Play "E"]\nSA SK SQ SJ\n[Note "1:b"]\n')
    assert (record.notes, record.play_notes) == ({1: "a"}, {1: "b"})


# -- play ----------------------------------------------------------------------------------


def trick(**cards: str) -> dict[Seat, Card]:
    return {Seat.from_str(seat): Card.from_str(card) for seat, card in cards.items()}


@pytest.mark.parametrize(("section", "tricks", "problems"), [
    ("SA SK SQ SJ\nH2 H3 H4 H5\n*", [trick(E="SA", S="SK", W="SQ", N="SJ"),
                                     trick(E="H2", S="H3", W="H4", N="H5")], []),
    ("SA S7 S2 S6\n-  -  H3 - \n*", [trick(E="SA", S="S7", W="S2", N="S6"), trick(W="H3")],
     []),
    ("HQ - - -\n*", [trick(E="HQ")], []),
    ("S10 s9 ♠8 10H", [trick(E="ST", S="S9", W="S8", N="HT")], []),
    ("SA! SK SQ=1= SJ", [trick(E="SA", S="SK", W="SQ", N="SJ")], []),
    ("- - - -\n*", [{}], []),
    ("-- HQ H7 --", [trick(S="HQ", W="H7")],
     ["line 2: '--' read as '-' (no card)", "line 2: '--' read as '-' (no card)"]),
    ("SA SK\nH2 H3 H4 H5", [trick(E="SA", S="SK"), trick(E="H2", S="H3", W="H4", N="H5")],
     ["line 2: a play row of 2 columns, not 4"]),
    ("SA SK SQ XX", [trick(E="SA", S="SK", W="SQ")], ["line 2: not a card in the play: 'XX'"]),
    ("SA SK SQ SJ\n*\nH2", [trick(E="SA", S="SK", W="SQ", N="SJ")],
     ["line 4: 'H2' after the end of the play"]),
])
def test_play_rows_are_columns_from_the_leader(section: str, tricks: list[dict[Seat, Card]],
                                               problems: list[str]) -> None:
    record = one(f'[Play "E"]\n{section}\n')
    assert record.play_leader is Seat.E
    assert record.play == tricks
    assert record.problems == problems


def test_play_without_a_leader_is_skipped_and_reported() -> None:
    record = one('[Play ""]\nSA SK SQ SJ\nH2 H3 H4 H5\n')
    assert record.play == []
    assert record.problems == ["line 2: a play section without a leading seat; skipped"]


# -- layout: comments, line ends, encodings, garbage -----------------------------------------


@pytest.mark.parametrize(("text", "commentary"), [
    ('[Board "1"]\n{A lead}\n', ["A lead"]),
    ('[Board "1"] {inline} [Dealer "N"]\n', ["inline"]),
    ('[Board "1"]\n{\nTwo\nlines\n}\n', ["Two\nlines"]),
    ('[Board "1"]\n{outer {inner} more}\n', ["outer {inner} more"]),
    ('[Board "1"]\n; to the end [Dealer "N"]\n', ['to the end [Dealer "N"]']),
    ('[Board "1"]\n{a\n\nblank line inside}\n[Dealer "N"]\n', ["a\n\nblank line inside"]),
    ('[Auction "N"]\n1C {why} Pass\n', ["why"]),
])
def test_commentary(text: str, commentary: list[str]) -> None:
    record = one(text)
    assert record.commentary == commentary
    assert record.problems == []


def test_an_unclosed_brace_is_reported_and_kept() -> None:
    record = one('[Board "1"]\n{never closed\n[Dealer "N"]\n')
    assert record.commentary == ['never closed\n[Dealer "N"]']
    assert record.problems == ["line 2: commentary in braces is not closed"]


@pytest.mark.parametrize("garbage", [
    "hello world", "]]]", "[Board 3]", '[Board "3"', "1C 2C", "{", "\x00\x01", "}}}",
])
def test_garbage_is_a_problem_not_a_crash(garbage: str) -> None:
    records = pbn.loads(f'[Event "x"]\n{garbage}\n[Board "2"]\n\n[Event "y"]\n')
    assert [r.tags.get("Event") for r in records] == ["x", "y"][:len(records)]
    assert records[0].problems


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_line_ends(newline: str) -> None:
    text = newline.join(['[Board "1"]', '[Auction "S"]', "1C Pass", "", '[Board "2"]', ""])
    assert [(r.board, calls(r)) for r in pbn.loads(text)] == [(1, "1C Pass"), (2, "")]


@pytest.mark.parametrize(("data", "west"), [
    ('[West "Zoë"]\n'.encode(), "Zoë"),
    ('\ufeff[West "Zoë"]\n'.encode(), "Zoë"),
    ('[West "Zoë"]\n'.encode("latin-1"), "Zoë"),
    ('[West "Jiří"]\r\n'.encode(), "Jiří"),
])
def test_bytes_are_utf8_else_latin1(data: bytes, west: str) -> None:
    assert one(data).tags == {"West": west}
    assert pbn.load(io.BytesIO(data))[0].tags == {"West": west}


def test_escape_lines_and_blank_lines_between_games() -> None:
    text = "% PBN 2.1\n%EXPORT\n\n\n[Board \"1\"]\n\n\n\n[Board \"2\"]\n% trailer\n"
    records = pbn.loads(text)
    assert [(r.board, r.source_index, r.raw_lines) for r in records] == [
        (1, 0, (5, 5)), (2, 1, (9, 9))]


def test_reading_streams_a_game_at_a_time() -> None:
    consumed: list[str] = []

    def lines() -> Iterator[str]:
        for line in ['[Board "1"]', "", '[Board "2"]', "", '[Board "3"]']:
            consumed.append(line)
            yield line

    first = next(pbn.iter_records(lines()))
    assert first.board == 1 and len(consumed) == 2


def test_a_visitor_sees_the_events() -> None:
    class Counter(Visitor[tuple[int, int, int]]):
        def begin_record(self, index: int, line: int) -> None:
            self.counts = [0, 0, 0]

        def call(self, call: Call, alert: bool, note_ref: int | None,
                 nags: tuple[str, ...]) -> None:
            self.counts[0] += 1

        def trick(self, cards: object) -> None:
            self.counts[1] += 1

        def problem(self, message: str) -> None:
            self.counts[2] += 1

        def end_record(self, line: int) -> tuple[int, int, int]:
            return (self.counts[0], self.counts[1], self.counts[2])

    text = '[Auction "N"]\n1C AP\n[Play "E"]\nSA SK SQ SJ\n\n[Auction "S"]\nbogus\n'
    assert list(pbn.iter_records(text, Counter())) == [(4, 1, 0), (0, 0, 1)]


# -- writing -------------------------------------------------------------------------------


def built_record() -> Record:
    """A record as the table builds it: fields set, no tags."""
    items = [AuctionItem(Call.from_str("1NT"), True, "15-17", None),
             AuctionItem(PASS), AuctionItem(Call.from_str("2C"), False, "Stayman"),
             AuctionItem(PASS), AuctionItem(Call.from_str("2H")), AuctionItem(PASS),
             AuctionItem(Call.from_str("4H")), AuctionItem(PASS), AuctionItem(PASS),
             AuctionItem(PASS)]
    return Record(tags={"Event": "Club night", "Site": "Madrid", "Room": "Open"},
                  board=5, dealer=Seat.N, vulnerability=Vulnerability.NS,
                  deal=Deal.from_pbn(DEAL), auction=items, auction_dealer=Seat.N,
                  play_leader=Seat.W, play=[trick(W="DK", N="D5", E="D4", S="D2")],
                  contract_tag="4H", declarer_tag="N", result_tag="10",
                  commentary=["Well bid"])


def test_writing_a_built_record() -> None:
    text = pbn.dumps([built_record()])
    assert text == (
        '% PBN 2.1\n[Event "Club night"]\n[Site "Madrid"]\n[Board "5"]\n[Dealer "N"]\n'
        '[Vulnerable "NS"]\n'
        f'[Deal "{DEAL}"]\n'
        '[Declarer "N"]\n[Contract "4H"]\n[Result "10"]\n[Auction "N"]\n'
        "1NT =1= Pass 2C =2= Pass\n2H Pass 4H Pass\nPass Pass\n"
        '[Note "1:Alert: 15-17"]\n[Note "2:Stayman"]\n[Play "W"]\nDK D5 D4 D2\n*\n'
        '[Room "Open"]\n{Well bid}\n\n')
    again = one(text)
    assert again.auction[0] == AuctionItem(Call.from_str("1NT"), False, "Alert: 15-17", 1)
    assert (again.board, again.deal, again.play) == (5, Deal.from_pbn(DEAL), built_record().play)


def test_fields_decide_their_tags_when_they_differ() -> None:
    record = one(f'[Board "1"]\n[Dealer "N"]\n[Deal "{DEAL}"]\n[Vulnerable "Love"]\n')
    record.board, record.dealer = 2, Seat.E
    text = pbn.dumps([record])
    assert '[Board "2"]' in text and '[Dealer "E"]' in text
    assert '[Vulnerable "Love"]' in text and f'[Deal "{DEAL}"]' in text  # unchanged: as read


def test_incomplete_auction_ends_with_a_star_and_crlf_is_optional() -> None:
    record = Record(auction=[AuctionItem(Call.from_str("1C"))], auction_dealer=Seat.S)
    text = pbn.dumps([record], newline="\r\n")
    assert text == '% PBN 2.1\r\n[Auction "S"]\r\n1C\r\n*\r\n\r\n'
    assert calls(one(text)) == "1C"


@pytest.mark.parametrize("record", [
    Record(auction=[AuctionItem(PASS)]),
    Record(play=[trick(N="SA")]),
])
def test_a_section_without_its_seat_cannot_be_written(record: Record) -> None:
    with pytest.raises(RecordError):
        pbn.dumps([record])


def test_dump_writes_to_a_text_file() -> None:
    out = io.StringIO()
    pbn.dump([built_record()], out)
    assert one(out.getvalue()).tags["Event"] == "Club night"


# -- random records round-trip ---------------------------------------------------------------

CALLS: list[Call] = [*ALL_BIDS, PASS, DOUBLE, REDOUBLE]
SEATS = st.sampled_from(list(Seat))
TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=20)
WORDS = TEXT.map(str.strip).filter(lambda s: s != "" and not s.startswith("#"))
NOTE_TEXT = TEXT.map(str.strip).filter(bool)
COMMENT = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"),
                                blacklist_characters="{}"), max_size=30).map(str.strip)


@st.composite
def deals(draw: st.DrawFn) -> Deal:
    deck = draw(st.permutations(Card.ALL))
    known = draw(st.sets(SEATS))
    return Deal({seat: frozenset(deck[i * 13:(i + 1) * 13]) for i, seat in enumerate(Seat)
                 if seat in known})


@st.composite
def records(draw: st.DrawFn) -> Record:
    """A record in the form the reader gives: every field mirrored in its tag."""
    tags: dict[str, str] = {}
    for name in draw(st.lists(st.sampled_from(["Event", "Site", "West", "Room", "Stage"]),
                              unique=True)):
        tags[name] = draw(WORDS)
    board = draw(st.none() | st.integers(1, 99))
    dealer = draw(st.none() | SEATS)
    vul = draw(st.none() | st.sampled_from(list(Vulnerability)))
    deal = draw(deals())
    if board is not None:
        tags["Board"] = str(board)
    if dealer is not None:
        tags["Dealer"] = str(dealer)
    if vul is not None:
        tags["Vulnerable"] = str(vul)
    tags["Deal"] = deal.to_pbn(dealer or Seat.N)
    items: list[AuctionItem] = []
    notes: dict[int, str] = {}
    for call in draw(st.lists(st.sampled_from(CALLS), max_size=16)):
        note = draw(st.none() | NOTE_TEXT)
        ref = None
        if note is not None:
            ref = len(notes) + 1
            notes[ref] = note
        # Export format: NAGs only (the suffixes are import format, PBN 3.5.3), and no alert
        # mark (an alert is a note: test_an_alert_goes_out_as_a_note).
        nags = tuple(draw(st.lists(st.sampled_from(["$1", "$2", "$3", "$6", "$12"]),
                                   max_size=2)))
        items.append(AuctionItem(call, False, note, ref, nags))
    auction_dealer = draw(SEATS) if items else None
    if auction_dealer is not None:
        tags["Auction"] = str(auction_dealer)
    leader = draw(st.none() | SEATS)
    play: list[dict[Seat, Card]] = []
    if leader is not None:
        tags["Play"] = str(leader)
        play = draw(st.lists(st.dictionaries(SEATS, st.sampled_from(Card.ALL)), max_size=13))
    raw = {name: draw(st.none() | WORDS) for name in ("Contract", "Declarer", "Result", "Score")}
    tags.update({name: text for name, text in raw.items() if text is not None})
    return Record(tags=tags, board=board, dealer=dealer, vulnerability=vul, deal=deal,
                  auction=items, auction_dealer=auction_dealer, play_leader=leader, play=play,
                  contract_tag=raw["Contract"], declarer_tag=raw["Declarer"],
                  result_tag=raw["Result"], score_tag=raw["Score"], notes=notes,
                  commentary=[c for c in draw(st.lists(COMMENT, max_size=2)) if c])


@settings(max_examples=200, deadline=None)
@given(st.lists(records(), min_size=1, max_size=3))
def test_random_records_round_trip(generated: list[Record]) -> None:
    for index, record in enumerate(generated):
        record.source_index = index
    again = pbn.loads(pbn.dumps(generated))
    assert again == generated


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(CALLS), max_size=12))
def test_all_pass_closes_any_call_sequence(sequence: list[Call]) -> None:
    closed = [*sequence, *itertools.repeat(PASS, passes_to_close(sequence))]
    assert passes_to_close(closed) == 0
    text = " ".join(str(call) for call in sequence)
    assert one(f'[Auction "W"]\n{text} AP\n').calls == closed


def test_an_alert_goes_out_as_a_note_and_suffixes_as_nags() -> None:
    """PBN 3.5.3-3.5.5: export format has no "!" after a call; an alert is a note
    reference with its Note tag, and a suffix annotation is written as its NAG."""
    record = Record(auction=[AuctionItem(Call.from_str("1C"), True),
                             AuctionItem(PASS, False, None, None, ("!", "?!")),
                             AuctionItem(Call.from_str("1NT"), True, "12-14", None),
                             AuctionItem(PASS)], auction_dealer=Seat.N)
    text = pbn.dumps([record])
    assert "!" not in text.replace('"', "")
    assert "1C =1= Pass $1 $6 1NT =2= Pass\n" in text
    assert '[Note "1:Alert"]\n[Note "2:Alert: 12-14"]' in text
    again = one(text)
    assert [(i.note, i.nags) for i in again.auction] == [
        ("Alert", ()), (None, ("$1", "$6")), ("Alert: 12-14", ()), (None, ())]
