"""Cards seen out of turn at the table (Laws 49-57): the card at the reader or the director's
ruling first, then every option on the keypads, the state and the displays after each.

Board 1: 1NT by North, East to lead, the deal known from the assignment:
N KT8.A96.A95.7542  E Q5.KJ52.KQ874.T8  S AJ92.874.JT6.AQ3  W 7643.QT3.32.KJ96
"""

from __future__ import annotations

import pytest

from laws import Card, Seat, Suit
from laws.penalty import FacedLead, PenaltyCard
from tabled.control import SeatEntry
from tabled.seat_lines import seat_view
from tablemodel.state import Phase, TableState

from .helpers import Table, reach

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def c(text: str) -> Card:
    return Card.from_str(text)


@pytest.fixture
def lead(table: Table) -> Table:
    reach(table, Phase.LEAD)
    return table


def played(table: Table) -> list[str]:
    board = table.state.board
    assert board is not None
    return [f"{seat}:{card}" for seat, card in board.cards]


def play_of(table: Table):  # type: ignore[no-untyped-def]
    board = table.state.board
    assert board is not None and board.play is not None
    return board.play


def assert_replays(table: Table) -> None:
    """The journal rebuilds the same play: penalty cards, faced lead, declarer, cards."""
    again = TableState.replay(table.events())
    mine, theirs = play_of(table), again.board.play if again.board else None
    assert theirs is not None
    assert (theirs.penalty_cards, theirs.faced_lead, theirs.declarer, theirs.turn) == (
        mine.penalty_cards, mine.faced_lead, mine.declarer, mine.turn)


def refused_law(table: Table, card: str, seat: Seat | None = None) -> str | None:
    """The law the table names to the player whose card it is (declarer for dummy's)."""
    before = len(played(table))
    table.mark()
    table.scan(card, seat)
    assert len(played(table)) == before and "card" not in table.new_types()
    owner = play_of(table).owner(c(card))
    assert owner is not None
    notice = table.notice(play_of(table).controller(owner))
    return None if notice is None else notice.law


# -- Laws 49, 50: a penalty card entered by the director --------------------------------------

def test_the_director_enters_a_penalty_card_and_every_display_shows_it(lead: Table) -> None:
    lead.command("r-1", "ruling", {"kind": "penalty_card", "seat": "W", "card": "CJ",
                                   "major": "major"})
    assert play_of(lead).penalty_cards == [PenaltyCard(W, c("CJ"), True)]
    for seat in Seat:  # declarer's options come first: the ruling's notice covers it there
        assert "Penalty W:♣J" in lead.view(seat) or seat is N, lead.view(seat)
    assert_replays(lead)


def test_a_minor_penalty_card_is_shown_in_brackets(lead: Table) -> None:
    lead.command("r-1", "ruling", {"kind": "penalty_card", "seat": "E", "card": "D4",
                                   "major": "minor"})
    assert "Penalty E:(♦4)" in lead.view(S)
    assert refused_law(lead, "D7") == "50C"
    lead.play("DK")


def test_a_penalty_card_of_declarers_side_is_refused(lead: Table) -> None:
    lead.mark()
    lead.command("r-1", "ruling", {"kind": "penalty_card", "seat": "N", "card": "SK",
                                   "major": "major"})
    [event] = lead.new_events()
    assert event.type == "refused" and "48A" in event.data["reason"]
    assert play_of(lead).penalty_cards == []


# -- Law 50D1, 52: the major penalty card at the first legal opportunity ----------------------

def test_a_major_penalty_card_must_be_played_and_another_is_refused(lead: Table) -> None:
    lead.command("r-1", "ruling", {"kind": "penalty_card", "seat": "E", "card": "HK",
                                   "major": "major"})
    assert refused_law(lead, "D4") == "50D1"
    lead.play("HK")
    assert play_of(lead).penalty_cards == []


# -- Law 50D2: declarer's option on the keypad -------------------------------------------------

@pytest.fixture
def west_penalty(lead: Table) -> Table:
    """West's jack of clubs is a major penalty card; East is to lead."""
    lead.command("r-1", "ruling", {"kind": "penalty_card", "seat": "W", "card": "CJ",
                                   "major": "major"})
    return lead


def test_east_waits_while_declarer_is_shown_the_options(west_penalty: Table) -> None:
    assert refused_law(west_penalty, "D4") == "50D2"
    assert west_penalty.view(N)[1:3] == ["1 require 2 forbid", "3 free"]
    # once the ruling's notice is gone, the penalty card shows below
    assert seat_view(N, west_penalty.state, SeatEntry())[1:4] == [
        "1 require 2 forbid", "3 free", "Penalty W:♣J"]
    assert west_penalty.view(E)[2] == "Declarer chooses"
    assert west_penalty.view(E)[1] == "Penalty W:♣J"


def test_declarer_requires_clubs(west_penalty: Table) -> None:
    west_penalty.mark()
    west_penalty.press(N, "1")
    [event] = west_penalty.new_events()
    assert (event.type, event.data["kind"], event.data["lead"], event.data["by"]) == (
        "option", "penalty_lead", "require", "N")
    assert play_of(west_penalty).penalty_cards == []      # picked up
    assert refused_law(west_penalty, "D4") == "50D2"      # a club is required
    west_penalty.play("C8 C3 CJ")                         # West's jack back in the hand
    assert_replays(west_penalty)


def test_declarer_forbids_clubs(west_penalty: Table) -> None:
    west_penalty.press(N, "2")
    assert play_of(west_penalty).penalty_cards == []
    assert refused_law(west_penalty, "C8") == "50D2"
    west_penalty.play("D4")


def test_declarer_leaves_the_lead_free_and_the_card_stays(west_penalty: Table) -> None:
    west_penalty.press(N, "3")
    west_penalty.play("C8 C3")
    assert play_of(west_penalty).penalty_cards == [PenaltyCard(W, c("CJ"), True)]
    west_penalty.mark()
    west_penalty.scan("C6")          # not the jack: declarer's option (Law 52B)
    assert [e.type for e in west_penalty.new_events()] == ["option", "director"]
    assert west_penalty.notice(W) is not None and west_penalty.notice(W).law == "50D1"
    west_penalty.press(N, "2")       # 52B2: the jack is played, the six is a penalty card
    assert played(west_penalty)[-1] == "W:CJ"
    assert play_of(west_penalty).penalty_cards == [PenaltyCard(W, c("C6"), True, "52B2")]
    assert_replays(west_penalty)


def test_only_declarers_keypad_chooses(west_penalty: Table) -> None:
    west_penalty.mark()
    west_penalty.press(S, "1")     # dummy: a digit of a claim, never the option
    west_penalty.press(E, "1")
    assert "option" not in west_penalty.new_types()


# -- Laws 53, 54: the opening lead faced out of turn --------------------------------------------

@pytest.fixture
def west_led(lead: Table) -> Table:
    """West, not on lead, put the D2 on the reader and faced it: the table took it as made
    face down (Law 41A) and called the director, who rules the lead faced out of turn."""
    lead.scan("D2")        # West's card: East is on lead
    assert played(lead) == [] and not play_of(lead).faced_lead
    lead.command("r-54", "ruling", {"kind": "lead_out_of_turn", "seat": "W", "card": "D2"})
    return lead


def test_the_faced_lead_is_shown_and_declarer_is_offered_the_options(west_led: Table) -> None:
    assert play_of(west_led).faced_lead == FacedLead(W, c("D2"), "54", 0)
    assert west_led.view(N)[1:3] == ["Out of turn W ♦2", "1 accept 2 refuse"]
    assert west_led.notice(N) is not None  # the ruling, over the option's second line
    assert west_led.view(E)[1:3] == ["Out of turn W ♦2", "N chooses"]
    west_led.wait(5)                                  # later than at the same time (58A)
    assert refused_law(west_led, "D4") is None        # East's lead waits for the option
    notice = west_led.notice(E)
    assert notice is not None and notice.key == "lead_wait"
    assert_replays(west_led)


def test_declarer_accepts_the_lead(west_led: Table) -> None:
    west_led.press(N, "1")     # Law 53A, 54B1
    assert played(west_led) == ["W:D2"]
    west_led.play("D5 D4 DT")
    assert play_of(west_led).declarer is N
    assert_replays(west_led)


def test_the_next_hand_playing_accepts_the_lead(west_led: Table) -> None:
    west_led.mark()
    west_led.scan("D5")        # Law 53A: declarer plays to it
    assert west_led.new_types() == ["option", "card"]
    assert played(west_led) == ["W:D2", "N:D5"]


def test_declarer_becomes_dummy_and_the_result_is_souths(west_led: Table) -> None:
    west_led.press(N, "3")     # Law 54A: North spreads his hand
    play = play_of(west_led)
    assert (play.declarer, play.dummy, played(west_led)) == (S, N, ["W:D2"])
    assert_replays(west_led)
    west_led.play_out()
    board = west_led.state.board
    assert board is not None and board.result is not None
    assert board.result.declarer is S


def test_declarer_refuses_the_lead_it_becomes_a_major_penalty_card(west_led: Table) -> None:
    west_led.press(N, "2")     # Laws 54D, 56
    play = play_of(west_led)
    assert play.penalty_cards == [PenaltyCard(W, c("D2"), True, "56")]
    assert play.faced_lead is None and play.penalty_lead_pending is E
    west_led.press(N, "3")     # Law 50D2(b): East leads freely, the two stays
    west_led.play("H2 H4 H3")   # West follows in hearts; the two of diamonds waits
    assert play_of(west_led).penalty_cards_of(W) == [PenaltyCard(W, c("D2"), True, "56")]
    assert_replays(west_led)


def test_a_defender_cannot_choose_for_declarer(west_led: Table) -> None:
    west_led.mark()
    west_led.press(E, "1")
    assert west_led.new_types() == []
    notice = west_led.notice(E)
    assert notice is not None and notice.key == "lead_wait"


# -- Law 55: declarer leads from the wrong hand; the defenders choose -------------------------

def test_declarers_wrong_hand_lead_is_refused_by_a_defender(lead: Table) -> None:
    lead.play("D4 DJ D3 D5")   # dummy (South) won
    lead.scan("D9")            # North leads from his own hand
    assert play_of(lead).lead_choosers() == {E, W}
    lead.press(W, "2")         # Law 55B: back to the hand, no penalty card
    play = play_of(lead)
    assert play.faced_lead is None and play.penalty_cards == [] and play.turn is S


# -- Law 57A: a defender's card played before partner -------------------------------------------

def test_a_defenders_premature_card_becomes_a_major_penalty_card(lead: Table) -> None:
    lead.play("D4")            # South (dummy) to play
    lead.mark()
    lead.scan("H3")            # West plays before dummy: partner East has played: 50B
    types = lead.new_types()
    assert types == ["option", "director"]
    assert play_of(lead).penalty_cards == [PenaltyCard(W, c("H3"), True, "50B")]
    lead.play("D6 D3")          # West follows in diamonds; the heart waits (Law 50D1)
    assert play_of(lead).penalty_cards_of(W) == [PenaltyCard(W, c("H3"), True, "50B")]


# -- the director applies every option from the console too --------------------------------------

def test_the_director_rules_the_options(lead: Table) -> None:
    lead.command("r-1", "ruling", {"kind": "lead_out_of_turn", "seat": "W", "card": "D2"})
    assert play_of(lead).faced_lead is not None
    lead.command("r-2", "ruling", {"kind": "lead_option", "option": "refuse"})
    lead.command("r-3", "ruling", {"kind": "penalty_lead", "lead": "require",
                                   "suit": "D"})
    play = play_of(lead)
    assert play.penalty_cards == [] and play.lead_restrictions[-1].suit is Suit.D
    lead.play("D4")
    lead.command("r-4", "ruling", {"kind": "undo_cards", "cards": 1})
    assert played(lead) == [] and play_of(lead).penalty_cards == []
    assert_replays(lead)
