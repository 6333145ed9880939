"""Law 58, simultaneous leads or plays, at the table: the cards at the readers with their
times first, then what each player may do on the keypad, the state and the displays.

58A: a lead or play made at the same time as another player's legal lead or play counts as
made after it. With a reader at each seat, one card is read first; when that one was another
player's, out of turn, and the legal card of the hand on turn follows at its own reader within
the profile's tempo (1.5 s by default, tablemodel.regulation), the legal card is played and the
other is judged as played after it: in turn now, it is simply played; still out of turn, it
is what a card out of turn is (a defender's: a major penalty card, Laws 50B and 57A; a lead
out of turn: Laws 53-56). One reader for the table reads cards one after the other however
they were played: the director rules 58A then.

Board 1: 1NT by North (South is dummy), East to lead, the deal known from the assignment:
N KT8.A96.A95.7542  E Q5.KJ52.KQ874.T8  S AJ92.874.JT6.AQ3  W 7643.QT3.32.KJ96
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from laws import Card, Seat
from laws.penalty import FacedLead, PenaltyCard
from laws.play import Play
from tabled.daemon import TableDaemon
from tabled.journal import Journal
from tablemodel.state import Phase, TableState
from tests.clock import Clock

from .helpers import Table, reach

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def c(text: str) -> Card:
    return Card.from_str(text)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def lead(tmp_path: Path, clock: Clock) -> Iterator[Table]:
    """1NT by North, East to lead, at second 1000 of the table's clock."""
    journal = Journal(tmp_path / "journal.db")
    table = Table(TableDaemon(journal, language="en", clock=clock))
    reach(table, Phase.LEAD)
    yield table
    journal.close()


def play_of(table: Table) -> Play:
    board = table.state.board
    assert board is not None and board.play is not None
    return board.play


def played(table: Table) -> list[tuple[Seat, Card]]:
    board = table.state.board
    assert board is not None
    return board.cards


def same_when_replayed(table: Table) -> None:
    again = TableState.replay(table.events())
    board, now = again.board, table.state.board
    assert board is not None and now is not None and board.play is not None
    assert board.cards == now.cards
    assert board.play.penalty_cards == play_of(table).penalty_cards
    assert board.play.faced_lead == play_of(table).faced_lead


# -- 58A: a lead and a lead out of turn at the same time ------------------------------------------

@pytest.fixture
def both_led(lead: Table, clock: Clock) -> Table:
    """Dummy (South) won the first trick and leads the S2; at the same moment East faces the
    H2: the reader takes the H2 first (a lead out of turn, 56), the S2 half a second later.
    (An opening lead is made face down, Law 41A: a card of the other defender then was seen
    by nobody, and nothing was played at the same time.)"""
    lead.play("D4 DJ D3 D5")
    clock.now = 1100
    lead.scan("H2", E)
    assert play_of(lead).faced_lead == FacedLead(E, c("H2"), "56", 1)
    lead.mark()
    clock.now = 1100.5
    lead.scan("S2", S)
    return lead


def test_the_legal_lead_stands_and_the_other_card_counts_after_it(both_led: Table) -> None:
    [event] = both_led.new_events()
    assert (event.type, dict(event.data)) == ("option", {
        "kind": "simultaneous_play", "seat": "S", "card": "S2", "by": None})
    assert played(both_led)[-1] == (S, c("S2"))
    play = play_of(both_led)
    assert play.faced_lead is None
    # East's H2, after dummy's lead and before West has played: a card played too soon, a
    # major penalty card, with declarer's option for West (Law 57A).
    assert play.penalty_cards == [PenaltyCard(E, c("H2"), True, "57A")]
    assert play.premature == (W, 1)
    notice = both_led.notice(N)
    assert notice is not None and (notice.key, notice.law) == ("simultaneous_play", "58A")
    assert both_led.view(N)[3] == "At once: E ♥2 later"
    same_when_replayed(both_led)


def test_after_the_simultaneous_lead_the_play_goes_on_with_the_penalty_card(
        both_led: Table) -> None:
    both_led.press(N, "2")                   # 57A2: West plays the lowest spade
    both_led.play("S3 SK S5")                # East follows suit; the H2 waits its chance
    assert play_of(both_led).penalty_cards == [PenaltyCard(E, c("H2"), True, "57A")]
    assert play_of(both_led).turn is N


# -- 58A: the card counted after the legal one is in turn then: no irregularity left -------------

def test_a_card_that_comes_next_in_turn_is_simply_played(lead: Table, clock: Clock) -> None:
    lead.play("D4 DJ D3 D5")                 # dummy wins and is to lead
    clock.now = 1200
    lead.scan("S3", W)                       # West's card first: a lead out of turn (56)
    assert play_of(lead).faced_lead == FacedLead(W, c("S3"), "56", 1)
    lead.mark()
    clock.now = 1201
    lead.scan("S2", S)                       # dummy's S2, led with it
    assert [e.type for e in lead.new_events()] == ["option"]
    assert played(lead)[-2:] == [(S, c("S2")), (W, c("S3"))]
    assert play_of(lead).faced_lead is None and play_of(lead).penalty_cards == []
    assert play_of(lead).turn is N
    same_when_replayed(lead)


# -- 58A: a defender's card too soon and partner's legal card at once ----------------------------

@pytest.fixture
def spade_lead(lead: Table, clock: Clock) -> Table:
    lead.play("D4 DJ D3 D5 S2")              # dummy leads the S2; West is to play
    clock.now = 1300
    lead.scan("S5", E)                       # East's S5 first: a premature play (57A)
    assert play_of(lead).premature == (W, 1)
    lead.mark()
    return lead


def test_partners_legal_card_read_with_it_takes_the_premature_play_away(
        spade_lead: Table, clock: Clock) -> None:
    clock.now = 1301.2
    spade_lead.scan("S3", W)                 # West's S3 with it
    play = play_of(spade_lead)
    assert played(spade_lead)[-1] == (W, c("S3"))
    assert play.premature is None and play.play_restrictions == []
    # East's S5 now comes after West's card and before North's: out of turn after partner
    # has played: a major penalty card (50B), no option for declarer (57A is gone).
    assert play.penalty_cards == [PenaltyCard(E, c("S5"), True, "50B")]
    assert play.turn is N
    same_when_replayed(spade_lead)


def test_a_legal_card_read_later_waits_for_declarers_option(spade_lead: Table,
                                                            clock: Clock) -> None:
    clock.now = 1302                         # past the profile's 1.5 s: not at the same time
    spade_lead.scan("S3", W)
    assert spade_lead.new_types() == []
    assert play_of(spade_lead).premature == (W, 1)


def test_declarers_option_chosen_first_leaves_nothing_to_undo(spade_lead: Table,
                                                               clock: Clock) -> None:
    spade_lead.press(N, "1")                 # 57A1 chosen at once
    clock.now = 1300.5
    spade_lead.scan("S3", W)                 # not the highest spade: a revoke, corrected
    assert played(spade_lead)[-1] == (S, c("S2"))
    assert play_of(spade_lead).penalty_cards == [PenaltyCard(E, c("S5"), True, "57A"),
                                                 PenaltyCard(W, c("S3"), True, "62B1")]


def test_one_reader_for_the_table_cannot_tell_cards_played_at_once(lead: Table,
                                                                   clock: Clock) -> None:
    """One reader reads cards one after the other whenever they were played: the cards stay
    as the table took them, and the director rules 58A if called."""
    lead.play("D4 DJ D3 D5 S2")
    clock.now = 1300
    lead.scan("S5")                          # the known hands say it is East's
    lead.mark()
    clock.now = 1300.3
    lead.scan("S3")                          # West's, at once: it waits for declarer (57A)
    assert lead.new_types() == []
    assert play_of(lead).premature == (W, 1)


def test_the_director_rules_it_from_the_console(spade_lead: Table, clock: Clock) -> None:
    clock.now = 1350                         # the director, called, finds it was at once
    spade_lead.command("r-1", "ruling", {"kind": "simultaneous_play", "seat": "W",
                                         "card": "S3"})
    assert played(spade_lead)[-1] == (W, c("S3"))
    assert play_of(spade_lead).penalty_cards == [PenaltyCard(E, c("S5"), True, "50B")]
    same_when_replayed(spade_lead)


def test_a_ruling_with_no_card_kept_out_of_turn_is_refused(lead: Table) -> None:
    lead.play("D4")
    lead.mark()
    lead.command("r-1", "ruling", {"kind": "simultaneous_play", "seat": "S", "card": "DJ"})
    assert lead.new_types() == ["refused"]
    assert "no card of another player seen out of turn" in lead.new_events()[0].data["reason"]
    assert played(lead) == [(E, c("D4"))]


# -- 58B1-3: two cards from one hand found after the next player has played ----------------------

@pytest.fixture
def two_found(lead: Table, clock: Clock) -> Table:
    """East leads the D4 with the D7 stuck to it, face up; the reader took the D4 alone, and
    dummy (South) has played the DJ when the director, called, finds the D7 (Law 58B)."""
    lead.play("D4")
    clock.now = 1010
    lead.play("DJ")
    lead.command("r-1", "ruling", {"kind": "simultaneous", "seat": "E", "card": "D7"})
    board = lead.state.board
    assert board is not None and board.simultaneous == (E, c("D4"), c("D7"))
    return lead


def test_the_offender_designates_and_the_opponent_who_played_since_may_change(
        two_found: Table) -> None:
    assert two_found.view(E)[2] == "Play 1 ♦4 2 ♦7"
    two_found.press(E, "2")                       # 58B2: East plays the D7
    board = two_found.state.board
    assert board is not None
    assert played(two_found) == [(E, c("D7")), (S, c("DJ"))]
    assert play_of(two_found).penalty_cards == [PenaltyCard(E, c("D4"), False, "58B2")]
    # 58B3: dummy played after East's card: declarer may take the DJ back.
    assert board.may_substitute == [S]
    assert two_found.view(N)[2] == "New card or OK"
    assert two_found.view(W)[2] == "S chooses"
    two_found.scan("D3")                          # West's card waits
    assert len(played(two_found)) == 2
    two_found.mark()
    two_found.scan("D6")                          # declarer changes dummy's DJ for the D6
    [event] = two_found.new_events()
    assert dict(event.data) == {"kind": "substitute", "seat": "S", "card": "D6", "by": "N"}
    assert played(two_found) == [(E, c("D7")), (S, c("D6"))]
    assert board.may_substitute == [] and play_of(two_found).turn is W
    same_when_replayed(two_found)


def test_the_opponent_keeps_its_card_with_ok(two_found: Table) -> None:
    two_found.press(E, "1")                       # 58B2: the D4 stays played
    two_found.press(W, "OK")                      # not West's choice
    board = two_found.state.board
    assert board is not None and board.may_substitute == [S]
    two_found.press(N, "OK")
    assert board.may_substitute == []
    assert played(two_found) == [(E, c("D4")), (S, c("DJ"))]
    assert play_of(two_found).penalty_cards == [PenaltyCard(E, c("D7"), False, "58B2")]
    two_found.play("D3")


def test_a_substitute_the_laws_refuse_is_explained(two_found: Table) -> None:
    two_found.press(E, "2")
    two_found.mark()
    two_found.scan("S2")                          # dummy holds diamonds: must follow (44C)
    assert two_found.new_types() == []
    notice = two_found.notice(N)
    assert notice is not None and notice.law == "58B3"
    assert played(two_found)[-1] == (S, c("DJ"))


@pytest.mark.parametrize(("played_text", "card"), [("first_only", "D4"),
                                                   ("second_only", "D7")])
def test_only_one_face_seen_the_other_card_goes_back(two_found: Table, played_text: str,
                                                     card: str) -> None:
    """58B1, the director's finding: only one card's face was visible: it is played, the
    other goes back to the hand with no rectification (no penalty card, no change)."""
    two_found.command("r-2", "ruling", {"kind": "simultaneous_choice", "played": played_text})
    board = two_found.state.board
    assert board is not None and board.simultaneous is None and board.may_substitute == []
    assert played(two_found) == [(E, c(card)), (S, c("DJ"))]
    assert play_of(two_found).penalty_cards == []


# -- 58B4, 67B2: found after both sides have played to the next trick ------------------------------

@pytest.fixture
def next_trick(lead: Table) -> Table:
    lead.play("D4 DJ D3 D5 S2 S3")               # both sides have played to trick 2
    lead.mark()
    return lead


def test_too_late_for_58b_the_director_is_told_law_67(next_trick: Table) -> None:
    next_trick.command("r-1", "ruling", {"kind": "simultaneous", "seat": "E", "card": "D7"})
    [event] = next_trick.new_events()
    assert event.type == "refused" and "58B4" in event.data["reason"]
    assert "defective_trick" in event.data["reason"]
    board = next_trick.state.board
    assert board is not None and board.simultaneous is None


def test_the_extra_card_goes_back_to_the_hand(next_trick: Table) -> None:
    """Law 67B2: the card faced (the D4 the table recorded) stays; the extra D7, which the
    director had first made a penalty card, goes back to East's hand; it is recorded."""
    next_trick.command("r-1", "ruling", {"kind": "penalty_card", "seat": "E", "card": "D7",
                                         "major": "minor"})
    next_trick.command("r-2", "ruling", {"kind": "defective_trick", "seat": "E",
                                         "card": "D7"})
    assert play_of(next_trick).penalty_cards == []
    assert played(next_trick)[0] == (E, c("D4"))
    board = next_trick.state.board
    assert board is not None
    assert [(r.kind, dict(r.data)) for r in board.records] == [
        ("defective_trick", {"seat": "E", "card": "D7"})]
    same_when_replayed(next_trick)


def test_the_card_played_is_not_the_extra_card(next_trick: Table) -> None:
    next_trick.command("r-1", "ruling", {"kind": "defective_trick", "seat": "E",
                                         "card": "D4"})
    [event] = next_trick.new_events()
    assert event.type == "refused" and "name the extra card" in event.data["reason"]


def test_a_designation_that_changes_the_suit_led_sends_the_later_cards_back(
        lead: Table) -> None:
    """East led the D4 with the HK stuck to it; dummy followed with the DJ before anyone saw
    the HK. East designates the HK: a heart is led, dummy's DJ no longer follows suit (South
    holds hearts), so it goes back to the hand and dummy plays again."""
    lead.play("D4 DJ")
    lead.command("r-1", "ruling", {"kind": "simultaneous", "seat": "E", "card": "HK"})
    lead.press(E, "2")
    board = lead.state.board
    assert board is not None and board.simultaneous is None
    assert played(lead) == [(E, c("HK"))]
    assert board.may_substitute == []
    assert play_of(lead).penalty_cards == [PenaltyCard(E, c("D4"), False, "58B2")]
    lead.play("H4")
    same_when_replayed(lead)
