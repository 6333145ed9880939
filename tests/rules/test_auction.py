"""The auction, law by law: what is legal, what is refused and which law refuses it."""

from __future__ import annotations

import pytest

from laws import (
    DOUBLE,
    PASS,
    REDOUBLE,
    Bid,
    Call,
    Contract,
    IllegalCallError,
    InvalidCallError,
    Seat,
    Strain,
)
from laws.auction import Auction, PassScope


def auction(dealer: str, calls: str) -> Auction:
    return Auction(Seat.from_str(dealer), [Call.from_str(c) for c in calls.split()])


# -- Call notation --------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    ("1NT", "1NT"), ("1N", "1NT"), ("1ST", "1NT"), ("7s", "7S"), ("2♥", "2H"),
    ("Pass", "Pass"), ("P", "Pass"), ("Paso", "Pass"), ("X", "X"), ("Dbl", "X"),
    ("Doblo", "X"), ("XX", "XX"), ("Rdbl", "XX"), ("Redoblo", "XX"),
])
def test_call_forms(text: str, expected: str) -> None:
    call = Call.from_str(text)
    assert str(call) == expected
    assert Call.from_str(str(call)) == call


@pytest.mark.parametrize("text", ["", "0C", "1Z", "NT", "XXX", "1 NT NT", "pas"])
def test_unreadable_calls(text: str) -> None:
    with pytest.raises(InvalidCallError):
        Call.from_str(text)


def test_strain_order_law_18e() -> None:
    assert [s.name for s in sorted(Strain)] == ["C", "D", "H", "S", "NT"]
    assert Bid(1, Strain.NT).supersedes(Bid(1, Strain.S))
    assert Bid(2, Strain.C).supersedes(Bid(1, Strain.NT))
    assert not Bid(1, Strain.S).supersedes(Bid(1, Strain.S))


@pytest.mark.parametrize("text", ["1C", "3NT", "4HX", "7NTXX", "6DX"])
def test_contract_round_trips(text: str) -> None:
    contract = Contract.from_str(text)
    assert str(contract) == text
    assert eval(repr(contract), {"Contract": Contract}) == contract


# -- Laws 17, 22: turn order and the end of the auction ---------------------------------------

@pytest.mark.parametrize(("dealer", "calls", "over", "turn"), [
    ("N", "", False, "N"),                        # Law 17B: the dealer calls first
    ("E", "1C", False, "S"),                      # Law 17C: then clockwise
    ("S", "P P P", False, "E"),
    ("S", "P P P P", True, None),                 # Law 22A1: four passes
    ("W", "1H P P P", True, None),                # Law 22A2: three passes after a bid
    ("N", "P 1S P P X P P P", True, None),
    ("N", "1S P P X", False, "N"),
    ("N", "P P P 1C P P", False, "S"),
])
def test_turn_and_end(dealer: str, calls: str, over: bool, turn: str | None) -> None:
    a = auction(dealer, calls)
    assert a.is_over is over
    assert a.turn == (None if turn is None else Seat.from_str(turn))


# -- refusals, each with its law -----------------------------------------------------------

@pytest.mark.parametrize(("dealer", "calls", "call", "seat", "law"), [
    ("N", "1S", "1H", None, "27"),                # Law 18D/27: insufficient
    ("N", "1S", "1S", None, "27"),
    ("N", "1NT P", "1S", None, "27"),
    ("N", "", "8C", None, "38"),                  # Law 38: above the level of seven
    ("N", "7NT", "8C", None, "38"),
    ("N", "", "X", None, "36"),                   # Law 19A1: nothing to double
    ("N", "1S", "XX", None, "36"),                # Law 19B1: nothing to redouble
    ("N", "1S P", "X", None, "36"),               # Law 19A1: partner's bid
    ("N", "1S X", "X", None, "36"),               # Law 19A1: already doubled
    ("N", "1S X P", "XX", None, "36"),            # Law 19B1: partner's double
    ("N", "1S X XX", "XX", None, "36"),
    ("N", "1S X XX", "X", None, "36"),
    ("N", "1S P P P", "P", None, "39"),           # Law 39: after the final pass
    ("N", "P P P P", "1C", None, "39"),
    ("N", "", "P", "E", "30"),                    # Law 30: pass out of rotation
    ("N", "1C", "1D", "W", "31"),                 # Law 31: bid out of rotation
    ("N", "1C", "X", "S", "32"),                  # Law 32: double out of rotation
])
def test_refused_calls_name_the_law(dealer: str, calls: str, call: str, seat: str | None,
                                    law: str) -> None:
    a = auction(dealer, calls)
    refused = Call.from_str(call)
    who = None if seat is None else Seat.from_str(seat)
    assert not a.is_legal(refused, who)
    with pytest.raises(IllegalCallError) as raised:
        a.make_call(refused, who)
    assert raised.value.law == law
    assert f"Law {law}" in str(raised.value)
    assert a.calls == auction(dealer, calls).calls  # nothing changed


@pytest.mark.parametrize(("dealer", "calls", "call"), [
    ("N", "1S", "X"),                              # Law 19A1: the opponent's bid
    ("N", "1S P P", "X"),                          # only passes between
    ("N", "1S X", "XX"),                           # Law 19B1
    ("N", "1S X P P", "XX"),
    ("N", "1S X", "2C"),                           # Law 19C: a bid supersedes a double
    ("N", "6NT", "7C"),
])
def test_legal_calls(dealer: str, calls: str, call: str) -> None:
    a = auction(dealer, calls)
    assert a.is_legal(Call.from_str(call))
    assert Call.from_str(call) in set(a.legal_calls())


def test_legal_calls_at_the_start_and_at_seven_notrump() -> None:
    assert len(list(auction("N", "").legal_calls())) == 36  # pass and 35 bids
    top = list(auction("N", "7NT").legal_calls())
    assert top == [PASS, DOUBLE]
    assert list(auction("N", "7NT X").legal_calls()) == [PASS, REDOUBLE]
    assert list(auction("N", "1C P P P").legal_calls()) == []


# -- the contract, declarer, dummy and opening leader -----------------------------------------

@pytest.mark.parametrize(("dealer", "calls", "contract", "declarer"), [
    # Seed 000: N 1S, S 1NT, N 2H, S 3H, N 4H: North named hearts first.
    ("N", "1S P 1NT P 2H P 3H P 4H P P P", "4H", "N"),
    # Seed 003: South named spades first, North bid 2S: South declares.
    ("N", "1C P 1S P 2S P P P", "2S", "S"),
    ("E", "1H 1S X 2S P P 3H P P P", "3H", "E"),
    ("N", "1S X P P", None, None),               # not over yet
    ("N", "1S X P P P", "1SX", "N"),
    ("N", "1S X XX P P P", "1SXX", "N"),
    ("N", "1S X 2C P P P", "2C", "S"),           # Law 19C: the double is superseded
    ("W", "P P P P", None, None),
])
def test_contract_and_declarer(dealer: str, calls: str, contract: str | None,
                               declarer: str | None) -> None:
    a = auction(dealer, calls)
    assert (None if a.contract is None else str(a.contract)) == contract
    assert a.declarer == (None if declarer is None else Seat.from_str(declarer))
    if a.declarer is not None:
        assert a.dummy is a.declarer.partner
        assert a.opening_leader is a.declarer.lho  # Law 41A


def test_passed_out() -> None:
    a = auction("S", "P P P P")
    assert a.is_passed_out and a.contract is None and a.opening_leader is None


# -- alerts and explanations -------------------------------------------------------------------

def test_alert_and_explanation_attach_to_a_call() -> None:
    a = auction("N", "1C")
    a.make_call(Call.from_str("P"))
    a.make_call(Call.from_str("1D"), alert=True)
    a.annotate(0, alert=True, explanation="2+ clubs")
    assert [e.alert for e in a.entries] == [True, False, True]
    assert a.entries[0].explanation == "2+ clubs"
    assert str(a.entries[2]) == "S:1D!"


# -- Law 25A: an unintended call ---------------------------------------------------------------

def test_law_25a_replace_before_partner_calls_withdraws_lho_call() -> None:
    a = auction("N", "1C 1S")          # N 1C, E 1S; N meant 1D
    removed = a.replace_call(Seat.N, Call.from_str("1D"))
    assert [str(e.call) for e in removed] == ["1C", "1S"]   # Law 25A4: E's call withdrawn
    assert [str(c) for c in a.calls] == ["1D"]
    assert a.turn is Seat.E


def test_law_25a_no_replacement_after_partner_called() -> None:
    a = auction("N", "1C P 1H")
    with pytest.raises(IllegalCallError) as raised:
        a.replace_call(Seat.N, Call.from_str("1D"))
    assert raised.value.law == "25A2"
    assert a.can_replace(Seat.N) is None
    assert a.can_replace(Seat.S) == 2


def test_law_25a_replacement_must_itself_be_legal() -> None:
    a = auction("N", "1H P 2C")        # S meant something else; it must still be sufficient
    with pytest.raises(IllegalCallError) as raised:
        a.replace_call(Seat.S, Call.from_str("1C"))
    assert raised.value.law == "27"
    assert [str(c) for c in a.calls] == ["1H", "Pass", "2C"]


def test_law_25a3_after_the_auction_ended() -> None:
    a = auction("N", "1H P P P")       # E passed, S passed unintentionally, W ended it
    a.replace_call(Seat.S, Call.from_str("2H"))
    assert not a.is_over and a.turn is Seat.W
    assert [str(c) for c in a.calls] == ["1H", "Pass", "2H"]


# -- rectifications as data --------------------------------------------------------------------

@pytest.mark.parametrize("law", ["27B2", "30B2a", "31", "32", "36B2", "37"])
def test_seat_that_must_pass_for_the_rest_of_the_auction(law: str) -> None:
    a = auction("N", "1C")
    a.require_pass(Seat.W, law)
    a.make_call(Call.from_str("1H"))                        # E
    a.make_call(Call.from_str("1S"))                        # S
    assert list(a.legal_calls()) == [PASS]                  # W
    with pytest.raises(IllegalCallError) as raised:
        a.make_call(Call.from_str("2H"))
    assert raised.value.law == "37" and law in str(raised.value)
    a.make_call(PASS)
    for call in "2C 2H 2S".split():
        a.make_call(Call.from_str(call))
    assert not a.is_legal(Call.from_str("3H"))              # still at W's next turn
    assert a.is_legal(PASS)


def test_pass_obligation_for_one_turn_only() -> None:
    a = auction("N", "1C")
    a.require_pass(Seat.W, "30A", PassScope.NEXT_TURN)
    for call in "1H 1S P 2C P 2S".split():
        a.make_call(Call.from_str(call))
    assert a.turn is Seat.W and a.is_legal(Call.from_str("3H"))


def test_law_28a_call_over_a_seat_that_must_pass_is_in_rotation() -> None:
    a = auction("N", "1C")
    a.require_pass(Seat.E, "31")
    a.make_call(Call.from_str("1H"), Seat.S)                # E's turn, E must pass
    assert [str(e) for e in a.entries] == ["N:1C", "E:Pass", "S:1H"]


@pytest.mark.parametrize(("calls", "keep", "turn"), [
    ("1C P P X", 3, "W"),       # Law 36A: an inadmissible double and all after it cancelled
    ("1C P 1H", 1, "E"),
    ("1C P P P", 3, "W"),       # Law 17E2: a pass out of rotation ended it; back to W
])
def test_take_back_to_a_call(calls: str, keep: int, turn: str) -> None:
    a = auction("N", calls)
    removed = a.take_back(keep)
    assert len(removed) == len(calls.split()) - keep
    assert len(a) == keep and a.turn is Seat.from_str(turn)


def test_take_back_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError):
        auction("N", "1C").take_back(5)


def test_a_second_call_by_the_same_player_is_a_change_of_call_law_25() -> None:
    a = auction("N", "1C")
    with pytest.raises(IllegalCallError) as raised:
        a.make_call(Call.from_str("1D"), Seat.N)
    assert raised.value.law == "25"


def test_law_25a_lho_may_keep_their_call() -> None:
    a = auction("N", "1C 1S")
    removed = a.replace_call(Seat.N, Call.from_str("1D"), lho_withdraws=False)
    assert [str(e.call) for e in removed] == ["1C"]
    assert [str(c) for c in a.calls] == ["1D", "1S"]
    b = auction("N", "1C 1D")            # 1D is no longer sufficient over 1H
    with pytest.raises(IllegalCallError) as raised:
        b.replace_call(Seat.N, Call.from_str("1H"), lho_withdraws=False)
    assert raised.value.law == "27" and [str(c) for c in b.calls] == ["1C", "1D"]


def test_law_30b2b_partner_may_bid_but_not_double() -> None:
    a = auction("N", "1C")
    a.require_pass(Seat.W, "30B2(b)", PassScope.NEXT_TURN, bids_allowed=True)
    a.make_call(Call.from_str("1H"))
    a.make_call(PASS)
    assert not a.is_legal(DOUBLE)
    assert a.is_legal(Call.from_str("2D"))
    assert DOUBLE not in set(a.legal_calls()) and Call.from_str("1S") in set(a.legal_calls())
