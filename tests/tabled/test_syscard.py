"""System cards (tablemodel.syscard) and the alert norms (tablemodel.regulation): reading a card,
finding the meaning of a call in an auction, refusing a bad card with where and why, and
the AEB norms on what must be alerted."""

from __future__ import annotations

import json
from typing import Any

import pytest

from laws import Call, Seat
from laws.auction import Auction
from tablemodel.regulation import PROFILES, Screens, alert_required, is_direct_response
from tablemodel.syscard import CardError, SystemCard, answer_text, example, tokens_for
from tablemodel.wire import Command, WireError


def auction(dealer: Seat, *calls: str) -> Auction:
    return Auction(dealer, [Call.from_str(c) for c in calls])


def meaning(*calls: str, dealer: Seat = Seat.N) -> str | None:
    bidding = auction(dealer, *calls)
    found = example().lookup(bidding, len(bidding) - 1)
    return None if found is None else found.en


# -- the example card: seed 004's natural system ----------------------------------------------

@pytest.mark.parametrize(("calls", "expected"), [
    (["1C"], "13-14 or 19-20 regular, or 13-20 with clubs: may hold two clubs"),
    (["Pass", "Pass", "1NT"], "15-18, regular"),            # passes before the opening
    (["1NT", "Pass", "2C"], "Stayman: 8+ and a four-card major; asks for opener's majors"),
    (["1NT", "Pass", "2C", "Pass", "2D"], "no four-card major, 15-16"),
    (["2C", "Pass", "2D"], "negative: under 7 high-card points and fewer than two kings"),
    (["1S", "Pass", "2S", "Pass", "4NT"], "Blackwood: how many aces?"),
    (["1S", "Pass", "2S", "Pass", "4NT", "Pass", "5H"], "two aces"),
    (["1S", "Pass", "2S", "Pass", "4NT", "Pass", "5H", "Pass", "5NT"],
     "how many kings? (after 4NT)"),
    (["1S", "Pass", "2S", "Pass", "4NT", "Pass", "5H", "Pass", "5NT", "Pass", "6D"],
     "one king"),
    (["1S", "Pass", "2S", "Pass", "5NT"], "how many of A K Q in the last suit named? "
                                          "(without 4NT)"),
    (["1NT", "Pass", "4NT"], "15-16 high-card points: slam if opener has 17-18 "
                             "(not an ace ask)"),
    (["1H", "X"], "take-out: opening values, short in their suit"),   # East's double
    (["1H", "Pass", "Pass", "X"], "reopening: take-out"),
    (["1H", "X", "XX"], "10+ points"),
    (["1H", "Pass", "1S", "Pass", "3D"], None),              # not on the card
])
def test_the_example_card_gives_each_call_its_meaning(calls: list[str],
                                                      expected: str | None) -> None:
    assert meaning(*calls) == expected


def test_sequences_are_read_from_the_callers_side() -> None:
    bidding = auction(Seat.N, "1H", "X", "XX")
    assert tokens_for(bidding, 2, Seat.S) == ("1H", "(X)", "XX")
    assert tokens_for(bidding, 1, Seat.E) == ("(1H)", "X")


def test_every_example_entry_has_both_languages_and_a_unique_code() -> None:
    card = example()
    assert len({e.code for e in card.entries}) == len(card.entries) >= 60
    assert all(e.en and e.es and e.en != "" for e in card.entries)
    assert card.by_code(30) is not None and card.by_code(30).seq == ("1NT", "2C")  # type: ignore
    assert SystemCard.from_json(card.to_json()) == card


def test_answer_texts_come_from_the_card_or_the_standard_list() -> None:
    assert answer_text(None, 0, "es") == "sin acuerdo"
    assert answer_text(example(), 30, "en", ).startswith("Stayman")
    assert answer_text(example(), 4242, "en") is None


BASE: dict[str, Any] = {"name": "Ours", "entries": [
    {"code": 10, "seq": "1C", "alert": True, "en": "two+", "es": "dos+"}]}


def broken(**entry: Any) -> dict[str, Any]:
    return {"name": "Ours", "entries": [{**BASE["entries"][0], **entry}]}


@pytest.mark.parametrize(("card", "reason"), [
    ([], "JSON object"),
    ({"name": "", "entries": BASE["entries"]}, "name"),
    ({"name": "Ours", "entries": []}, "1 to"),
    (broken(code=3), "code is a whole number"),
    (broken(code=True), "code is a whole number"),
    (broken(seq="1C 9Z"), "'9Z' is not a call"),
    (broken(seq="1C *"), "ends with the call"),
    (broken(seq="1C (X)"), "ends with the call"),
    (broken(alert="yes"), "alert is true or false"),
    (broken(en=""), "meaning is missing"),
    (broken(es="a\nb"), "one line"),
    (broken(es="x" * 161), "one line"),
    (broken(colour="red"), "unknown field"),
    ({"name": "Ours", "entries": [BASE["entries"][0], BASE["entries"][0]]}, "used twice"),
])
def test_a_bad_card_is_refused_saying_where(card: Any, reason: str) -> None:
    with pytest.raises(CardError, match=reason):
        SystemCard.from_json(card)
    with pytest.raises(CardError):
        SystemCard.loads(json.dumps(card) + "}")


def test_the_wire_refuses_a_conduct_it_cannot_play() -> None:
    base = {"round": 1, "ns": 1, "ew": 2, "boards": [1]}
    good = Command("a", "assign", {**base, "conduct": {
        "screens": {"north_with": "W", "tray_delay": 3}, "profile": "feb-self",
        "cards": {"EW": BASE}}})
    assert Command.from_payload(good.to_payload()) == good
    for conduct, reason in [
        ({"screens": {"north_with": "S"}}, "North sits with East or West"),
        ({"screens": {"tray_delay": -1}}, "0 to 120"),
        ({"screens": {"tray_delay": "8"}}, "tray_delay"),
        ({"profile": "acbl"}, "profile"),
        ({"cards": {"NE": BASE}}, "NS and EW"),
        ({"cards": {"NS": broken(code=1)}}, "card of NS"),
        ({"tempo": 3}, "conduct"),
    ]:
        payload = Command("a", "assign", {**base, "conduct": conduct}).to_payload()
        with pytest.raises(WireError, match=reason):
            Command.from_payload(payload)


# -- the alert norms ---------------------------------------------------------------------------

def test_norms_3_and_4_above_3nt_without_screens() -> None:
    # An artificial opening above 3NT (norm 4.1) and a direct response (4.2) are alerted.
    assert alert_required(True, auction(Seat.N, "4C"), 0, None)
    assert alert_required(True, auction(Seat.N, "2NT", "Pass", "4C"), 2, None)
    # A later artificial call above 3NT is not (norm 3), natural or not.
    bidding = auction(Seat.N, "1S", "Pass", "2S", "Pass", "4NT")
    assert not alert_required(True, bidding, 4, None)
    # Screens (B1): every artificial call, above 3NT too.
    assert alert_required(True, bidding, 4, Screens())
    # What the card does not call alertable is never asked of the player.
    assert not alert_required(False, bidding, 2, Screens())
    assert not alert_required(None, bidding, 2, None)


def test_a_direct_response_is_responders_first_call() -> None:
    bidding = auction(Seat.N, "1H", "2C", "Pass", "Pass", "4H")
    assert is_direct_response(bidding, 2)        # South's first call, a pass
    assert not is_direct_response(bidding, 3)    # West
    bidding = auction(Seat.N, "1H", "Pass", "1S", "Pass", "2H", "Pass", "4C")
    assert not is_direct_response(bidding, 6)    # South's second call


def test_who_alerts_under_each_profile() -> None:
    assert PROFILES["feb"].alerter(Seat.N, None) is Seat.S
    assert PROFILES["feb-self"].alerter(Seat.N, None) is Seat.N
    assert PROFILES["feb"].alerter(Seat.N, Screens()) is Seat.N


def test_screens_sides_and_screenmates() -> None:
    screens = Screens()
    assert [screens.screenmate(s) for s in Seat] == [Seat.E, Seat.N, Seat.W, Seat.S]
    other = Screens(Seat.W)
    assert other.screenmate(Seat.N) is Seat.W and other.name == "NW-SE"
    with pytest.raises(ValueError):
        Screens(Seat.S)


@pytest.mark.parametrize(("calls", "penalty", "alerted"), [
    (["1H", "X"], False, False),                 # take-out straight over 1H: not alerted
    (["1H", "X"], True, True),                   # penalty there: alerted (norm 8 example)
    (["1H", "Pass", "Pass", "X"], False, False),  # reopening take-out: not alerted
    (["1H", "Pass", "2H", "X"], False, True),    # take-out later on: alerted
    (["1H", "Pass", "2H", "X"], True, False),    # penalty later on: natural, not alerted
    (["1NT", "X"], False, True),                 # over 1NT it is no suit opening
])
def test_norm_8_decides_a_doubles_alert(calls: list[str], penalty: bool,
                                         alerted: bool) -> None:
    bidding = auction(Seat.N, *calls)
    for screens in (None, Screens()):
        assert alert_required(None, bidding, len(calls) - 1, screens,
                              penalty=penalty) is alerted


def test_an_artificial_opening_has_no_take_out_position() -> None:
    bidding = auction(Seat.N, "1C", "X")
    assert alert_required(None, bidding, 1, None, penalty=False, opening_natural=False)


def test_the_example_cards_doubles_say_they_are_take_out() -> None:
    found = example().lookup(auction(Seat.N, "1H", "X"), 1)
    assert found is not None and found.penalty is False
    with pytest.raises(CardError, match="for a double"):
        SystemCard.from_json(broken(penalty=True))  # 1C is no double
