"""A round at the table: players, boards, hand scans, results, the end of the round, and the
director's key in every phase."""

from __future__ import annotations

import pytest

from hardware.events import CardEvent, KeyEvent
from laws import Card, Seat
from tablemodel.state import Phase

from .conftest import MakeTable
from .helpers import DEAL, GUIDANCE, PBN, Table, number_keys, reach

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


# -- players and boards -----------------------------------------------------------------------

@pytest.mark.parametrize(("keys", "number"), [
    (["1", "2", "OK"], 12),
    (["1", "C", "D", "S", "OK"], 1890),         # C D S are the digits 8 9 0
    (["1", "2", "UNDO", "3", "OK"], 13),        # UNDO rubs out the last digit
    (["UNDO", "4", "OK"], 4),
    (["H", "NT", "5", "PASS", "OK"], 5),        # keys that are not digits are ignored
    (["7"] * 12 + ["OK"], 777_777_777),         # nine digits at most
    (["OK"], None),                             # no number: the player is not known
])
def test_player_enters_a_number(table: Table, keys: list[str], number: int | None) -> None:
    table.assign()
    table.mark()
    table.press(E, *keys)
    assert [(e.type, dict(e.data)) for e in table.new_events()] == [
        ("player", {"seat": "E", "number": number})]
    assert table.state.players == {E: number}


def test_zero_is_not_a_player_number(table: Table) -> None:
    table.assign()
    table.mark()
    table.press(E, "S", "OK")
    assert table.new_events() == []
    notice = table.notice(E)
    assert notice is not None and notice.key == "bad_number"


def test_four_players_then_a_board(table: Table) -> None:
    table.assign()
    for seat in (N, E, S):
        table.press(seat, *number_keys(5))
        assert table.phase is Phase.PLAYERS
    table.press(W, "OK")
    assert table.phase is Phase.BOARD


def test_released_and_repeated_keys_do_nothing(table: Table) -> None:
    table.assign()
    table.mark()
    table.daemon.handle(KeyEvent(N, "4", True, 0.0, repeat=True))
    table.daemon.handle(KeyEvent(N, "OK", False, 0.0))
    assert table.new_events() == []
    table.daemon.handle(KeyEvent(N, "OK", True, 0.0))
    assert table.new_events()[0].data == {"seat": "N", "number": None}


@pytest.mark.parametrize(("keys", "board", "dealer", "vul"), [
    (["OK"], 3, "S", "EW"),           # OK alone: the next board of the round
    (["4", "OK"], 4, "W", "Both"),
    (["1", "2", "OK"], 12, "W", "NS"),
])
def test_board_is_chosen_with_dealer_and_vulnerability(table: Table, keys: list[str],
                                                       board: int, dealer: str,
                                                       vul: str) -> None:
    table.assign([3, 4, 12])
    table.seat_players()
    table.mark()
    table.press(S, *keys)
    assert [(e.type, e.board, dict(e.data)) for e in table.new_events()] == [
        ("board", board, {"board": board, "dealer": dealer, "vul": vul})]
    assert table.phase is Phase.SETUP


@pytest.mark.parametrize(("board", "dealer", "vul"), [
    (1, "S", "None"), (2, "W", "EW"), (3, "N", "NS"), (4, "E", "Both"),
])
def test_the_assignment_may_set_dealer_and_vulnerability(table: Table, board: int,
                                                         dealer: str, vul: str) -> None:
    """Seed 004's partida: South deals first, then clockwise, with its own vulnerability;
    the server says so in the assignment and the table follows it, not the cycle of 16."""
    conditions = {"1": {"dealer": "S", "vul": "None"}, "2": {"dealer": "W", "vul": "EW"},
                  "3": {"dealer": "N", "vul": "NS"}, "4": {"dealer": "E", "vul": "Both"}}
    table.assign([1, 2, 3, 4], conditions=conditions)
    table.seat_players()
    table.mark()
    table.press(S, *number_keys(board), "OK")
    assert [(e.type, dict(e.data)) for e in table.new_events()] == [
        ("board", {"board": board, "dealer": dealer, "vul": vul})]
    assert table.state.board.auction.dealer is Seat.from_str(dealer)


def test_board_outside_the_round_is_refused(table: Table) -> None:
    table.assign([3, 4])
    table.seat_players()
    table.mark()
    table.press(N, "5", "OK")
    assert table.new_events() == []
    notice = table.notice(N)
    assert notice is not None and notice.key == "not_this_round"
    assert table.view(N)[3] == "Board 5: no"


def test_keys_before_the_round_only_say_wait(table: Table) -> None:
    table.press(N, "1", "OK")
    assert table.events() == []
    assert table.notice(N) is not None and table.notice(N).key == "waiting"


# -- hand scans -------------------------------------------------------------------------------

def test_scanned_hands_record_the_deal(table: Table) -> None:
    table.start([1, 2])
    table.mark()
    for seat in Seat:
        for card in sorted(DEAL[seat]):
            table.scan(card, seat)
    events = table.new_events()
    assert len(events) == 52 and {e.type for e in events} == {"hand_card"}
    assert events[0].data == {"seat": "N", "card": str(sorted(DEAL[N])[0])}
    board = table.state.board
    assert board is not None
    assert board.known == {seat: DEAL[seat] for seat in Seat}
    assert board.deal.to_pbn() == PBN
    assert table.view(E)[2] == "Scanned 13/13"


def test_one_reader_scans_the_hands_in_turn_north_first(table: Table) -> None:
    table.start([1, 2])
    for card in [*sorted(DEAL[N]), *sorted(DEAL[E])[:2]]:
        table.scan(card)
    board = table.state.board
    assert board is not None
    assert board.known == {N: DEAL[N]}
    assert len(board.scans[E]) == 2


def test_a_card_read_twice_is_scanned_once(table: Table) -> None:
    table.start([1, 2])
    table.mark()
    table.scan("SK", N)
    table.scan("SK", N)
    assert table.new_types() == ["hand_card"]


def test_a_half_scanned_hand_stays_unknown_after_the_first_call(table: Table) -> None:
    table.start([1, 2])
    for card in sorted(DEAL[N]):
        table.scan(card, N)
    table.scan("SQ", E)
    table.calls("1NT")
    board = table.state.board
    assert board is not None
    assert set(board.known) == {N}     # hands are known only whole
    assert board.scanned_owner(Card.from_str("SQ")) is E   # East may go on in the auction


def test_a_hand_may_be_scanned_during_the_auction(table: Table) -> None:
    table.start([1, 2])
    table.calls("1NT")
    table.mark()
    table.scan("SK", N)              # a hand checked on the reader during the auction
    assert [(e.type, dict(e.data)) for e in table.new_events()] == [
        ("hand_card", {"seat": "N", "card": "SK"})]


def test_no_card_after_the_board_is_played(table: Table) -> None:
    reach(table, Phase.RESULT)
    table.mark()
    table.scan("SK", N)
    assert table.new_events() == []
    assert table.notice(N) is not None and table.notice(N).key == "no_card_now"
    assert table.notice(E) is None   # said at the reader's seat only


def test_an_unknown_tag_is_reported(table: Table) -> None:
    table.start([1, 2])
    table.daemon.handle(CardEvent(None, "04a1b2c3", N, 0.0))
    assert table.notice(N) is not None and table.notice(N).key == "unknown_card"
    table.daemon.handle(CardEvent(None, "04a1b2c3", None, 0.0))   # one reader: all are told
    assert table.notice(W) is not None and table.notice(W).key == "unknown_card"


@pytest.mark.parametrize(("scans", "wrong"), [
    ([], ("SQ", N)),                       # the deal has SQ in East's hand
    ([], ("SK", E)),                       # and SK in North's
    ([("SK", N)], ("SK", E)),              # read in two hands
])
def test_card_contradicting_the_deal_calls_the_director_once(
        table: Table, scans: list[tuple[str, Seat]], wrong: tuple[str, Seat]) -> None:
    table.start([1, 2], deals={"1": PBN})
    for card, seat in scans:
        table.scan(card, seat)
    table.mark()
    table.scan(*wrong)
    events = table.new_events()
    assert [e.type for e in events] == ["director"]
    assert events[0].data["reason"] == "fouled_board"
    assert events[0].data["law"] == "87"
    assert events[0].data["seat"] == str(wrong[1])
    board = table.state.board
    assert board is not None
    assert [str(c) for c in board.scans[wrong[1]]] == [c for c, s in scans if s is wrong[1]]
    for seat in Seat:
        notice = table.notice(seat)
        assert notice is not None and notice.law == "87"
    # Another wrong card: the director is already on the way.
    table.mark()
    table.scan("D2", N)
    assert table.new_events() == []


def test_fourteenth_card_in_a_hand_is_a_fouled_board(table: Table) -> None:
    table.start([1, 2])
    for card in DEAL[N]:
        table.scan(card, N)
    table.mark()
    table.scan("SQ", N)
    assert table.new_types() == ["director"]
    assert table.new_events()[0].data["reason"] == "fouled_board"


# -- results and the end of the round -------------------------------------------------------------

def test_four_passes_give_a_result_of_zero(table: Table) -> None:
    table.start([1, 2])
    table.mark()
    table.calls("Pass", "Pass", "Pass", "Pass")
    events = table.new_events()
    assert [e.type for e in events] == ["call"] * 4 + ["result"]
    assert dict(events[-1].data) == {"contract": "Pass", "declarer": None, "tricks": None,
                                     "score_ns": 0}
    assert table.phase is Phase.RESULT
    assert table.view(N)[1:3] == ["Passed out NS 0", "OK to confirm"]


@pytest.mark.parametrize(("first", "second", "done"), [
    (N, E, True), (S, W, True), (W, N, True),
    (N, S, False), (E, W, False), (N, N, False),
])
def test_a_player_of_each_side_confirms_the_result(table: Table, first: Seat, second: Seat,
                                                   done: bool) -> None:
    table.start([1, 2])
    table.calls("Pass", "Pass", "Pass", "Pass")
    table.mark()
    table.press(first, "OK")
    table.press(second, "OK")
    assert table.new_types() == (["confirm"] if first is second else ["confirm", "confirm"])
    assert (table.phase is Phase.BOARD) is done
    assert (1 in table.state.results) is done


def test_other_keys_at_the_result_explain_how_to_confirm(table: Table) -> None:
    table.start([1, 2])
    table.calls("Pass", "Pass", "Pass", "Pass")
    table.mark()
    table.press(E, "1")
    assert table.new_events() == []
    assert table.notice(E) is not None and table.notice(E).key == "confirm_how"
    assert table.view(E)[3] == "OK confirms; DIR"


def test_result_display_says_who_still_has_to_confirm(table: Table) -> None:
    table.start([1, 2])
    table.calls("Pass", "Pass", "Pass", "Pass")
    assert "OK to confirm" in table.view(N)
    table.press(N, "OK")
    assert "Confirmed" in table.view(S)
    assert "OK to confirm" in table.view(E)


def test_the_next_board_follows_the_last_result(table: Table) -> None:
    table.start([1, 2])
    table.calls("Pass", "Pass", "Pass", "Pass")
    table.confirm()
    assert table.phase is Phase.BOARD
    assert table.state.next_board() == 2
    assert table.view(N)[1] == "Board? OK = 2"
    table.choose_board()
    board = table.state.board
    assert board is not None and board.number == 2 and board.dealer is E


@pytest.mark.parametrize(("language", "lines"), [
    ("en", ["NS stay", "EW to table 5", "Boards to table 3"]),
    ("es", ["NS se quedan", "EO a mesa 5", "Tableros a mesa 3"]),
])
def test_round_ends_with_the_movement_on_every_display(make_table: MakeTable, language: str,
                                                       lines: list[str]) -> None:
    table = make_table(language)
    table.start([1, 2], next=GUIDANCE)
    for _ in range(2):
        table.calls("Pass", "Pass", "Pass", "Pass")
        table.confirm()
        if table.phase is Phase.BOARD:
            table.choose_board()
    assert table.phase is Phase.ROUND_END
    assert set(table.state.results) == {1, 2}
    for seat in Seat:
        assert table.view(seat)[:3] == lines
    table.mark()
    table.press(N, "OK")
    assert table.new_events() == []
    assert table.notice(N) is not None and table.notice(N).key == "round_over"


def test_round_end_without_guidance_says_the_round_is_over(table: Table) -> None:
    table.start([1])
    table.calls("Pass", "Pass", "Pass", "Pass")
    table.confirm()
    assert table.view(W)[0] == "Round over"


# -- the director (Law 9B1(a): anyone may summon the director, in any phase) --------------------

@pytest.mark.parametrize("phase", list(Phase))
def test_director_key_calls_the_director_in_every_phase(table: Table, phase: Phase) -> None:
    reach(table, phase)
    assert table.phase is phase
    table.mark()
    table.press(W, "DIR")
    events = table.new_events()
    assert [e.type for e in events] == ["director"]
    assert dict(events[0].data) == {"seat": "W", "reason": "player"}
    board = table.state.board
    assert events[0].board == (None if board is None else board.number)
    assert table.phase is phase
    for seat in Seat:
        notice = table.notice(seat)
        assert notice is not None and notice.key == "director_called" and not notice.error
    assert table.view(N)[3] == "Director! (W)"
    assert len(table.state.open_director_calls) == 1
