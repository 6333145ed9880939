"""Cards played too soon at the table (Laws 51A, 57A, 59, 60B): the card at the reader or the
director's ruling first, then declarer's options on the keypad, the state and the displays.

Board 1: 1NT by North (South is dummy), East to lead, the deal known from the assignment:
N KT8.A96.A95.7542  E Q5.KJ52.KQ874.T8  S AJ92.874.JT6.AQ3  W 7643.QT3.32.KJ96
"""

from __future__ import annotations

import pytest

from laws import Card, Seat, Suit
from laws.penalty import PenaltyCard, PlayRestriction, PrematureOption
from tablemodel.state import Phase, TableState
from tablemodel.wire import Event

from .helpers import Table, reach

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def c(text: str) -> Card:
    return Card.from_str(text)


def play_of(table: Table):  # type: ignore[no-untyped-def]
    board = table.state.board
    assert board is not None and board.play is not None
    return board.play


def refused_law(table: Table, card: str) -> str | None:
    """The law named to the player whose card it is (declarer for dummy's)."""
    board = table.state.board
    assert board is not None
    before = len(board.cards)
    table.scan(card)
    assert len(board.cards) == before
    owner = play_of(table).owner(c(card))
    assert owner is not None
    notice = table.notice(play_of(table).controller(owner))
    return None if notice is None else notice.law


@pytest.fixture
def lead(table: Table) -> Table:
    reach(table, Phase.LEAD)
    return table


@pytest.fixture
def too_soon(lead: Table) -> Table:
    """Dummy won trick 1 and leads the S2; East plays the S5 before partner West."""
    lead.play("D4 DJ D3 D5 S2")
    lead.mark()
    lead.scan("S5")
    return lead


# -- Law 57A ------------------------------------------------------------------------------------

def test_a_card_before_partners_is_a_penalty_card_and_declarer_is_offered_the_options(
        too_soon: Table) -> None:
    assert too_soon.new_types() == ["option", "director"]
    play = play_of(too_soon)
    assert play.penalty_cards == [PenaltyCard(E, c("S5"), True, "57A")]
    assert play.premature == (W, 1)
    assert too_soon.view(N)[1:3] == ["1 high 2 low", "3 require 4 forbid"]
    assert too_soon.view(W)[2] == "Declarer chooses"
    too_soon.wait(5)                                # later than at the same time (58A)
    assert refused_law(too_soon, "S7") == "57A"     # West waits for declarer


@pytest.mark.parametrize(("keys", "option", "suit", "wrong", "right"), [
    (["1"], PrematureOption.HIGHEST, None, "S3", "S7"),
    (["2"], PrematureOption.LOWEST, None, "S7", "S3"),
    (["H", "3"], PrematureOption.REQUIRE, Suit.H, None, "S6"),   # Law 59: follow suit
    (["C", "4"], PrematureOption.FORBID, Suit.C, None, "S4"),
])
def test_declarer_chooses_on_the_keypad(too_soon: Table, keys: list[str],
                                        option: PrematureOption, suit: Suit | None,
                                        wrong: str | None, right: str) -> None:
    too_soon.mark()
    too_soon.press(N, *keys)
    [event] = too_soon.new_events()
    assert (event.type, event.data["kind"], event.data["premature"], event.data["by"]) == (
        "option", "premature_option", option.value, "N")
    assert play_of(too_soon).play_restrictions == [PlayRestriction(W, 1, option, suit)]
    if wrong is not None:
        # Law 61A: not complying, when able, with declarer's option is a revoke; corrected
        # at once (62A), the card is a major penalty card (62B1) and West plays again.
        too_soon.mark()
        too_soon.scan(wrong)
        assert [e.type for e in too_soon.new_events()] == ["option", "director"]
        assert too_soon.notice(W) is not None and too_soon.notice(W).law == "57A"
        assert PenaltyCard(W, c(wrong), True, "62B1") in play_of(too_soon).penalty_cards
    too_soon.play(right)
    again = TableState.replay(too_soon.events())
    assert again.board is not None and again.board.play is not None
    assert again.board.play.play_restrictions == play_of(too_soon).play_restrictions


def test_a_suit_option_needs_the_suit_first(too_soon: Table) -> None:
    too_soon.mark()
    too_soon.press(N, "3")
    assert too_soon.new_events() == []
    notice = too_soon.notice(N)
    assert notice is not None and notice.key == "premature_suit"


def test_the_director_gives_the_option_from_the_console(too_soon: Table) -> None:
    too_soon.command("r-1", "ruling", {"kind": "premature_option", "premature": "lowest"})
    assert play_of(too_soon).premature is None
    too_soon.play("S3")


# -- Law 51A ------------------------------------------------------------------------------------

@pytest.fixture
def two_penalty_cards(lead: Table) -> Table:
    for ident, card in (("r-1", "DK"), ("r-2", "DQ")):
        lead.command(ident, "ruling", {"kind": "penalty_card", "seat": "E", "card": card,
                                       "major": "major"})
    return lead


def test_declarer_designates_which_penalty_card_on_the_keypad(
        two_penalty_cards: Table) -> None:
    table = two_penalty_cards
    assert table.view(N)[2] == "Play 1 ♦K 2 ♦Q"
    assert table.view(E)[2] == "Declarer chooses"
    assert refused_law(table, "DK") == "51A"
    table.mark()
    table.press(N, "2")
    [event] = table.new_events()
    assert (event.data["kind"], event.data["card"]) == ("penalty_choice", "DQ")
    assert refused_law(table, "DK") == "51A"
    table.play("DQ")
    assert play_of(table).penalty_cards == [PenaltyCard(E, c("DK"), True)]


def test_a_number_beyond_the_cards_is_explained(two_penalty_cards: Table) -> None:
    two_penalty_cards.mark()
    two_penalty_cards.press(N, "3")
    assert two_penalty_cards.new_events() == []
    notice = two_penalty_cards.notice(N)
    assert notice is not None and notice.key == "designate_how"


def test_the_director_designates_from_the_console(two_penalty_cards: Table) -> None:
    two_penalty_cards.command("r-3", "ruling", {"kind": "penalty_choice", "card": "DK"})
    two_penalty_cards.play("DK")


# -- Law 60B ------------------------------------------------------------------------------------

def test_a_defenders_card_before_declarer_leads_from_the_right_hand(lead: Table) -> None:
    lead.play("D4 DJ D3 D5")   # dummy (South) won
    lead.scan("D9")            # North leads from his own hand (Law 55)
    lead.press(W, "2")         # refused: back to the hand (55B)
    lead.mark()
    lead.scan("H3")            # West plays before declarer leads from dummy
    assert lead.new_types() == ["option", "director"]
    assert play_of(lead).penalty_cards == [PenaltyCard(W, c("H3"), True, "60B")]
    lead.play("S2 S3")         # South leads; West follows, the heart waits (50D1)


# -- Law 58B: two cards from one hand at once ----------------------------------------------------

@pytest.fixture
def two_cards(lead: Table) -> Table:
    """East leads the D4 and the D7 comes out with it: the reader takes both."""
    lead.play("D4")
    lead.mark()
    lead.scan("D7")
    return lead


def test_a_second_card_from_the_hand_that_just_played_waits_for_its_designation(
        two_cards: Table) -> None:
    [event] = two_cards.new_events()
    assert dict(event.data) == {"kind": "simultaneous", "seat": "E", "card": "D7", "by": None}
    assert Event.from_payload(event.to_payload()) == event  # the server takes it as it is
    assert two_cards.view(E)[2] == "Play 1 ♦4 2 ♦7"
    assert two_cards.view(N)[2] == "E chooses"
    assert refused_law(two_cards, "D6") is None    # nobody plays meanwhile


@pytest.mark.parametrize(("key", "played", "penalty"), [("1", "D4", "D7"), ("2", "D7", "D4")])
def test_the_defender_designates_and_the_other_card_is_a_penalty_card(
        two_cards: Table, key: str, played: str, penalty: str) -> None:
    two_cards.press(N, key)                          # not North's to say
    assert two_cards.state.board is not None and two_cards.state.board.simultaneous
    two_cards.press(E, key)
    board = two_cards.state.board
    assert board is not None and board.simultaneous is None
    assert board.cards == [(E, c(played))]
    # Law 58B2, 50B: a card below an honour shown inadvertently is a minor penalty card.
    assert play_of(two_cards).penalty_cards == [PenaltyCard(E, c(penalty), False, "58B2")]
    again = TableState.replay(two_cards.events())
    assert again.board is not None and again.board.cards == board.cards


def test_declarers_second_card_goes_back_to_the_hand(lead: Table) -> None:
    lead.play("D4 DJ D3 D5 S2")   # dummy leads the S2 ... and the S9 comes with it
    lead.scan("S9")
    lead.press(N, "2")            # declarer plays dummy's cards: designates the S9
    board = lead.state.board
    assert board is not None and board.cards[-1] == (S, c("S9"))
    assert play_of(lead).penalty_cards == []


# -- Laws 57A, 59, 61A with the hands unknown: each card read at its seat's reader -------------

@pytest.fixture
def blind(table: Table) -> Table:
    """Board 1 with no deal: the hands are not scanned, so the play knows none of them. The
    same cards as above: dummy leads the S2 on trick 2 and East's S5 comes too soon."""
    table.start([1, 2])
    table.calls("1NT", "Pass", "Pass", "Pass")
    for seat, card in ((E, "D4"), (S, "DJ"), (W, "D3"), (N, "D5"), (S, "S2")):
        table.scan(card, seat)
        if table.state.board is not None and table.state.board.face_down:
            table.face_lead()
    table.mark()
    table.scan("S5", E)               # at East's reader: East's card, before West's
    return table


def test_blind_a_card_too_soon_is_still_a_penalty_card_with_declarers_options(
        blind: Table) -> None:
    assert blind.new_types() == ["option", "director"]
    assert play_of(blind).premature == (W, 1)
    assert blind.view(N)[1:3] == ["1 high 2 low", "3 require 4 forbid"]


def test_blind_the_option_is_kept_until_the_hand_shows_it_was_not_complied_with(
        blind: Table) -> None:
    blind.press(N, "1")               # 57A1: West's highest spade
    blind.scan("S3", W)               # the table cannot know West's spades: accepted
    assert play_of(blind).current.card_of(W) == c("S3")
    for seat, card in ((N, "SK"), (E, "S5"), (N, "ST"), (E, "SQ"), (S, "SA")):
        blind.scan(card, seat)
    blind.mark()
    blind.scan("S7", W)               # a higher spade: West held it on trick 2 (Law 61A)
    director = [e.data for e in blind.new_events() if e.type == "director"]
    assert [(d["reason"], d["law"]) for d in director] == [("revoke", "61A")]
    assert "57A" in director[0]["detail"]
    [revoke] = play_of(blind).revokes
    assert (revoke.seat, revoke.trick, revoke.law, revoke.established) == (W, 1, "57A", True)
    again = TableState.replay(blind.events())
    assert again.board is not None and again.board.play is not None
    assert [(r.seat, r.law) for r in again.board.play.revokes] == [(W, "57A")]


def test_blind_a_card_seen_in_the_hand_is_refused_with_the_law(blind: Table) -> None:
    blind.command("r-1", "ruling", {"kind": "penalty_card", "seat": "W", "card": "S7",
                                    "major": "minor"})
    blind.press(N, "1")               # 57A1, and West's S7 lies face up
    board = blind.state.board
    assert board is not None
    blind.scan("S3", W)
    assert len(board.cards) == 5      # not played: the S7 is higher (a revoke, corrected)
    notice = blind.notice(W)
    assert notice is not None and notice.law == "57A"
    assert PenaltyCard(W, c("S3"), True, "62B1") in play_of(blind).penalty_cards
    blind.scan("S7", W)
    assert play_of(blind).current.card_of(W) == c("S7")
