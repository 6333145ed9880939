"""What each error of the laws engine says, in English and in Spanish: one entry a code.

An error carries a stable ``code`` and its ``params`` (plain values: a seat's letter, a call, a
card, a suit's letter, a number, a text); this table gives each code its sentence in both
languages, with the params as ``{name}`` fields. ``english`` is what ``str(error)`` says (the
logs and the tests read it); the seat displays and the director's console render the params
in their own language (``tablemodel.words.message``), where a param's name says what it is:
``PARAM_KINDS``. Spanish is written as a Spanish club writes it (docs/glossary.md): voz,
baza, renuncio, salida, muerto, carteador, carta penalizada, el árbitro.

Pure data: standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

#: A param's value on the wire and in an error: plain, as JSON carries it.
Param = str | int


class Message(NamedTuple):
    en: str
    es: str


#: What a param's name says it holds (the rest are numbers or plain text): the renderer of
#: each language writes these as its bridge words (West is O, 1NT is 1ST, SQ is ♠Q).
PARAM_KINDS: Mapping[str, str] = {
    "seat": "seat", "turn": "seat", "owner": "seat", "other": "seat", "partner": "seat",
    "call": "call", "last": "call",
    "card": "card", "wanted": "card", "held": "card", "due": "card",
    "suit": "suit", "led": "suit",
    "revokes": "revokes",
}

#: The refusals: an action the Laws do not allow here (``IllegalActionError`` and its kinds),
#: which the seat displays and the director's console show.
REFUSALS: Mapping[str, Message] = {
    # -- the auction (Laws 18-39) -------------------------------------------------------
    "auction_over": Message(
        "the auction is over; {call} comes after the final pass",
        "la subasta ha terminado; {call} llega tras el último paso"),
    "change_is_not_a_call": Message(
        "{seat} has just called; a change of call is not a new call",
        "{seat} acaba de declarar; un cambio de voz no es una voz nueva"),
    "call_out_of_turn": Message(
        "{seat} called out of rotation; it is {turn}'s turn",
        "{seat} declaró fuera de turno; le toca a {turn}"),
    "may_not_double": Message(
        "{seat} may not double or redouble (Law {rule}); {call} is not allowed",
        "{seat} no puede doblar ni redoblar (Ley {rule}); no vale {call}"),
    "must_pass": Message(
        "{seat} must pass (Law {rule}); {call} is not allowed",
        "{seat} debe pasar (Ley {rule}); no vale {call}"),
    "bid_above_seven": Message(
        "{call} is a bid above the level of seven",
        "{call} es una voz por encima de siete"),
    "insufficient_bid": Message(
        "{call} is insufficient over {last}",
        "{call} es insuficiente sobre {last}"),
    "double_of_no_bid": Message(
        "a double is only of the last bid (Law 19A1)",
        "solo se dobla la última voz (Ley 19A1)"),
    "double_of_own_side": Message(
        "a double is only of an opponent's bid (Law 19A1)",
        "solo se dobla una voz contraria (Ley 19A1)"),
    "redouble_of_no_double": Message(
        "a redouble is only of the last double (Law 19B1)",
        "solo se redobla el último doblo (Ley 19B1)"),
    "redouble_of_own_side": Message(
        "a redouble is only of an opponent's double (Law 19B1)",
        "solo se redobla un doblo contrario (Ley 19B1)"),
    "change_too_late": Message(
        "{seat} cannot replace a call once partner has called over it",
        "{seat} ya no cambia: su compañero ha declarado"),
    # -- the play (Laws 41-66) ----------------------------------------------------------
    "play_stopped_disputed_claim": Message(
        "play stops while the director rules on the claim",
        "el juego para mientras el árbitro decide la reclamación"),
    "play_stopped_claim": Message(
        "play stops while the opponents answer the claim",
        "el juego para mientras los oponentes contestan la reclamación"),
    "play_over_all_tricks": Message(
        "the play is over: thirteen tricks have been played",
        "el carteo ha terminado: se han jugado las trece bazas"),
    "play_over": Message(
        "the play is over",
        "el carteo ha terminado"),
    "card_played_already": Message(
        "{card} has been played already",
        "{card} ya se ha jugado"),
    "lead_waits_for_option": Message(
        "{seat}'s lead out of turn waits for the opponents' choice",
        "la salida fuera de turno de {seat} espera la opción de los oponentes"),
    "breach_waits_for_option": Message(
        "{seat}'s {card} in place of a penalty card waits for declarer's choice",
        "la {card} de {seat} en lugar de la penalizada espera la opción del carteador"),
    "card_not_in_hand": Message(
        "{card} is not in {seat}'s hand",
        "{card} no está en la mano de {seat}"),
    "card_in_other_hand": Message(
        "{card} is in {owner}'s hand, not {seat}'s",
        "{card} está en la mano de {owner}, no en la de {seat}"),
    "lead_out_of_turn": Message(
        "{seat} led out of turn; it is {turn}'s lead",
        "{seat} salió fuera de turno; la salida es de {turn}"),
    "play_out_of_turn": Message(
        "{seat} played out of turn; it is {turn}'s turn",
        "{seat} jugó fuera de turno; le toca a {turn}"),
    "lead_before_penalty_option": Message(
        "{seat} leads once declarer has chosen the lead (penalty card)",
        "{seat} sale cuando el carteador elija (carta penalizada)"),
    "play_before_premature_option": Message(
        "{seat} plays once declarer has chosen (partner played too soon)",
        "{seat} juega cuando el carteador elija (su compañero jugó antes de tiempo)"),
    "play_designated_penalty": Message(
        "{seat} plays the penalty card declarer designates",
        "{seat} juega la carta penalizada que designe el carteador"),
    "must_follow_suit": Message(
        "{seat} must follow suit in {suit}",
        "{seat} debe asistir a {suit}"),
    "must_lead_suit": Message(
        "{seat} must lead a {suit}",
        "{seat} debe salir de {suit}"),
    "may_not_lead_suit": Message(
        "{seat} may not lead a {suit}",
        "{seat} no puede salir de {suit}"),
    "must_play_highest": Message(
        "{seat} must play the highest {suit}: {wanted}",
        "{seat} debe jugar su {suit} más alta: {wanted}"),
    "must_play_lowest": Message(
        "{seat} must play the lowest {suit}: {wanted}",
        "{seat} debe jugar su {suit} más baja: {wanted}"),
    "must_play_suit": Message(
        "{seat} must play a {suit}",
        "{seat} debe jugar {suit}"),
    "may_not_play_suit": Message(
        "{seat} may not play a {suit}",
        "{seat} no puede jugar {suit}"),
    "holds_must_follow_suit": Message(
        "{seat} holds {held}: it must follow suit in {suit}",
        "{seat} tiene {held}: debe asistir a {suit}"),
    "holds_not_highest": Message(
        "{seat} holds {held}: {card} is not the highest {suit}",
        "{seat} tiene {held}: {card} no es su {suit} más alta"),
    "holds_not_lowest": Message(
        "{seat} holds {held}: {card} is not the lowest {suit}",
        "{seat} tiene {held}: {card} no es su {suit} más baja"),
    "holds_must_play_suit": Message(
        "{seat} holds {held}: it must play a {suit}",
        "{seat} tiene {held}: debe jugar {suit}"),
    "holds_may_not_play_suit": Message(
        "{seat} holds {held}: it may not play a {suit}",
        "{seat} tiene {held}: no puede jugar {suit}"),
    "holds_must_lead_suit": Message(
        "{seat} holds {held}: it must lead a {suit}",
        "{seat} tiene {held}: debe salir de {suit}"),
    "holds_may_not_lead_suit": Message(
        "{seat} holds {held}: it may not lead a {suit}",
        "{seat} tiene {held}: no puede salir de {suit}"),
    "must_play_penalty_card": Message(
        "{seat} must play the penalty card {due}",
        "{seat} debe jugar la carta penalizada {due}"),
    "penalty_card_before_lower": Message(
        "{seat} must play the penalty card {due} before a lower {suit}",
        "{seat} debe jugar la penalizada {due} antes que un {suit} menor"),
    # -- penalty cards and the options of the rectifications (Laws 49-57) ------------------
    "no_penalty_choice": Message(
        "no defender has a choice of penalty cards to play",
        "ningún defensor tiene que elegir qué carta penalizada jugar"),
    "not_a_penalty_card_now": Message(
        "{card} is not a penalty card {seat} can play now",
        "{card} no es una carta penalizada que {seat} pueda jugar ahora"),
    "no_premature_option": Message(
        "no premature play waits for declarer's option",
        "ninguna carta jugada antes de tiempo espera la opción del carteador"),
    "name_the_suit": Message(
        "name the suit",
        "diga el palo"),
    "another_suit_than_led": Message(
        "another suit than the suit led",
        "otro palo que el de salida"),
    "not_a_defender": Message(
        "{seat} is not a defender: no penalty card",
        "{seat} no es defensor: no hay carta penalizada"),
    "penalty_card_already": Message(
        "{card} is a penalty card already",
        "{card} ya es carta penalizada"),
    "not_a_penalty_card": Message(
        "{card} is not a penalty card",
        "{card} no es carta penalizada"),
    "not_in_place_of_penalty": Message(
        "{card} is not played in place of a penalty card",
        "{card} no se jugó en lugar de una carta penalizada"),
    "no_breach_waits": Message(
        "no card played in place of a penalty card waits",
        "ninguna carta jugada en lugar de la penalizada espera"),
    "no_leader_with_penalty": Message(
        "no defender is to lead with partner's penalty card on the table",
        "ningún defensor sale con una carta penalizada de su compañero en la mesa"),
    "penalty_cards_in_two_suits": Message(
        "penalty cards in more than one suit: name the suit",
        "cartas penalizadas de más de un palo: diga el palo"),
    "no_major_penalty_in_suit": Message(
        "{partner} has no major penalty card in {suit}",
        "{partner} no tiene carta penalizada mayor de {suit}"),
    "not_a_lead_out_of_turn": Message(
        "{seat}'s card is not a lead out of turn",
        "la carta de {seat} no es una salida fuera de turno"),
    "lead_out_of_turn_waits": Message(
        "a lead out of turn already waits for a choice",
        "ya hay una salida fuera de turno esperando una opción"),
    "declarer_side_lead": Message(
        "{seat} is not a defender: the director rules",
        "{seat} no es defensor: decide el árbitro"),
    "no_lead_out_of_turn": Message(
        "no lead out of turn waits for a choice",
        "ninguna salida fuera de turno espera una opción"),
    "option_not_given": Message(
        "Law {rule} does not give the option {option}",
        "la Ley {rule} no da la opción {option}"),
    # -- claims and concessions (Laws 68-71) ----------------------------------------------
    "claim_play_over": Message(
        "the play is over",
        "el carteo ha terminado"),
    "dummy_may_not_claim": Message(
        "dummy may not claim or concede",
        "el muerto no puede reclamar ni conceder"),
    "claim_waiting": Message(
        "a claim is already waiting for the opponents",
        "ya hay una reclamación esperando a los oponentes"),
    "claim_tricks_out_of_range": Message(
        "a claim of {tricks} tricks with {left} left",
        "una reclamación de {tricks} bazas con {left} por jugar"),
    "no_claim_waiting": Message(
        "there is no claim waiting for an answer",
        "no hay reclamación esperando respuesta"),
    "claimer_answers": Message(
        "{seat} made the claim",
        "{seat} hizo la reclamación"),
    "not_asked_to_agree": Message(
        "{seat} is not asked to agree to this claim",
        "no se pide a {seat} que acepte esta reclamación"),
    "no_disputed_claim": Message(
        "there is no disputed claim",
        "no hay reclamación discutida"),
    "ruled_tricks_out_of_range": Message(
        "{tricks} tricks with {left} left",
        "{tricks} bazas con {left} por jugar"),
}

#: The faults: input that is not what it claims (notation, deals, records), or what the
#: engine cannot do or answer now (``RulesError`` and its other kinds).
FAULTS: Mapping[str, Message] = {
    "play_not_over": Message(
        "the play is not over: no final count of tricks yet",
        "el carteo no ha terminado: aún no hay recuento de bazas"),
    "auction_back_out_of_range": Message(
        "cannot take the auction back to call {length} of {count}",
        "no se puede volver a la voz {length} de {count}"),
    # -- notation: what does not parse ------------------------------------------------------
    "not_a_seat": Message("not a seat: {text!r}", "no es un puesto: {text!r}"),
    "not_a_suit": Message("not a suit: {text!r}", "no es un palo: {text!r}"),
    "not_a_rank": Message("not a rank: {text!r}", "no es una carta de un palo: {text!r}"),
    "not_a_strain": Message("not a strain: {text!r}", "no es un palo ni ST: {text!r}"),
    "card_index_out_of_range": Message(
        "card index out of range: {index}",
        "no hay carta número {index}"),
    "not_a_card": Message("not a card: {text!r}", "no es una carta: {text!r}"),
    "not_a_call": Message("not a call: {text!r}", "no es una voz: {text!r}"),
    "not_a_bid_level": Message("not a bid level: {level}", "no es un nivel de voz: {level}"),
    "contract_level": Message(
        "a contract is at levels 1 to 7, not {level}",
        "un contrato es de nivel 1 a 7, no {level}"),
    "not_a_contract": Message("not a contract: {text!r}", "no es un contrato: {text!r}"),
    "not_a_vulnerability": Message(
        "not a vulnerability: {text!r}",
        "no es una vulnerabilidad: {text!r}"),
    "board_number_low": Message(
        "a board number starts at 1, not {number}",
        "los tableros empiezan en el 1, no en el {number}"),
    # -- deals -------------------------------------------------------------------------------
    "hand_not_four_suits": Message(
        "a hand has four suits separated by dots: {text!r}",
        "una mano tiene cuatro palos separados por puntos: {text!r}"),
    "hand_bad_rank": Message(
        "not a rank {char!r} in hand {text!r}",
        "{char!r} no es una carta en la mano {text!r}"),
    "hand_card_twice": Message(
        "a card twice in hand {text!r}",
        "una carta dos veces en la mano {text!r}"),
    "hand_too_many": Message(
        "{seat} holds {count} cards",
        "{seat} tiene {count} cartas"),
    "cards_in_two_hands": Message(
        "{cards} in more than one hand",
        "{cards} en más de una mano"),
    "pbn_deal_first_seat": Message(
        "a PBN deal starts with the first seat and a colon: {text!r}",
        "un reparto PBN empieza por el primer puesto y dos puntos: {text!r}"),
    "pbn_deal_bad_seat": Message(
        "not a seat {char!r} in deal {text!r}",
        "{char!r} no es un puesto en el reparto {text!r}"),
    "pbn_deal_four_hands": Message(
        "a PBN deal has four hands: {text!r}",
        "un reparto PBN tiene cuatro manos: {text!r}"),
    "hand_not_thirteen": Message(
        "{seat} holds {count} cards, not 13",
        "{seat} tiene {count} cartas, no 13"),
    "lin_rank_before_suit": Message(
        "a rank before any suit in LIN hand {text!r}",
        "una carta antes de su palo en la mano LIN {text!r}"),
    "lin_bad_rank": Message(
        "not a rank {char!r} in LIN hand {text!r}",
        "{char!r} no es una carta en la mano LIN {text!r}"),
    "lin_card_twice": Message(
        "a card twice in LIN hand {text!r}",
        "una carta dos veces en la mano LIN {text!r}"),
    # -- records -------------------------------------------------------------------------------
    "pbn_auction_without_seat": Message(
        "an auction needs the seat of its first call (auction_dealer)",
        "una subasta necesita el puesto de su primera voz (auction_dealer)"),
    "pbn_play_without_leader": Message(
        "a play section needs the seat that led (play_leader)",
        "un carteo necesita el puesto que salió (play_leader)"),
    # -- scoring (Laws 77-78, the rubber and Chicago rules) --------------------------------------
    "not_a_scheme": Message(
        "not a scoring scheme: {text!r}",
        "no es una forma de puntuar: {text!r}"),
    "result_needs_tricks": Message(
        "a result of {contract} needs the tricks won",
        "un resultado de {contract} necesita las bazas ganadas"),
    "tricks_out_of_range": Message(
        "declarer's side wins 0 to 13 tricks, not {tricks}",
        "el carteador gana de 0 a 13 bazas, no {tricks}"),
    "result_needs_declarer": Message(
        "a result of {contract} needs its declarer and the tricks won",
        "un resultado de {contract} necesita su carteador y las bazas ganadas"),
    "contract_needs_declarer": Message(
        "a contract needs its declarer and the tricks won",
        "un contrato necesita su carteador y las bazas ganadas"),
    "honours_premium": Message(
        "honours at {strain} score {allowed}, not {premium}",
        "los honores a {strain} valen {allowed}, no {premium}"),
    "honours_not_side": Message(
        "honours are held by a side, not {text}",
        "los honores los tiene una pareja, no {text}"),
    "honours_and_deal": Message(
        "give the honours or the deal to find them in, not both",
        "dé los honores o el reparto donde buscarlos, no los dos"),
    "chicago_deal_number": Message(
        "a Chicago has deals 1 to {deals}, not {number}",
        "un Chicago tiene las manos 1 a {deals}, no {number}"),
    "chicago_over": Message(
        "the Chicago is over after four deals; start a new one",
        "el Chicago termina tras cuatro manos; empiece otro"),
    "partida_deal_number": Message(
        "a partida has deals 1 to 4, not {number}",
        "una partida tiene las manos 1 a 4, no {number}"),
    "rubber_over_start_new": Message(
        "the rubber is over; start a new one",
        "el rubber ha terminado; empiece otro"),
    "rubber_over": Message(
        "the rubber is already over",
        "el rubber ya ha terminado"),
}

#: What the table tells the director when it calls him (a director call's detail): the
#: irregularities the table saw, in the laws' terms.
DETAILS: Mapping[str, Message] = {
    "late_alert": Message(
        "{seat} alerts {other}'s {call} late",
        "{seat} alerta tarde el {call} de {other}"),
    "claim_disputed": Message(
        "{seat} disputes {other}'s claim of {tricks}",
        "{seat} no acepta la reclamación de {tricks} bazas de {other}"),
    "concession_voided": Message(
        "{seat} objects to partner {other}'s concession ({tricks} of the tricks left): void, "
        "play goes on",
        "{seat} se opone a la concesión de su compañero {other} ({tricks} de las bazas que "
        "quedan): queda anulada y sigue el juego"),
    "scanned_twice": Message(
        "{card} scanned in {owner}'s hand and in {seat}'s",
        "{card} leída en la mano de {owner} y en la de {seat}"),
    "scanned_elsewhere": Message(
        "{card} scanned in {seat}'s hand; the board has it in {owner}'s",
        "{card} leída en la mano de {seat}; el tablero la tiene en la de {owner}"),
    "scanned_not_there": Message(
        "{card} scanned in {seat}'s hand; the board does not have it there",
        "{card} leída en la mano de {seat}; el tablero no la tiene ahí"),
    "scanned_fourteenth": Message(
        "a fourteenth card ({card}) scanned in {seat}'s hand",
        "una decimocuarta carta ({card}) leída en la mano de {seat}"),
    "read_at_other_reader": Message(
        "{card} read at {seat}'s reader; the board has it in {owner}'s hand",
        "{card} leída en el lector de {seat}; el tablero la tiene en la mano de {owner}"),
    "lead_face_down_out_of_turn": Message(
        "{seat} made the opening lead ({card}) face down out of turn; it is {turn}'s lead: "
        "back to the hand",
        "{seat} hizo la salida tapada ({card}) fuera de turno; la salida es de {turn}: "
        "vuelve a la mano"),
    "change_after_pause": Message(
        "{seat} changed {call} (call {number}) after a pause; {other} may accept it (25B1) "
        "or not (25B2)",
        "{seat} cambió {call} (voz {number}) tras una pausa; {other} puede aceptar el cambio "
        "(25B1) o no (25B2)"),
    "revoke_transfer": Message(
        "board {board}: {tricks} trick(s) to declarer; revokes: {revokes}",
        "tablero {board}: {tricks} baza(s) al carteador; renuncios: {revokes}"),
    "revoke": Message(
        "{seat} revoked on trick {number} ({card})",
        "{seat} renunció en la baza {number} ({card})"),
    "revoke_when_able": Message(
        "{seat} did not comply with Law {rule} on trick {number} ({card}) when able: a revoke",
        "{seat} no cumplió la Ley {rule} en la baza {number} ({card}) pudiendo hacerlo: "
        "renuncio"),
    # a command the table refuses (tabled.control.commands)
    "no_board": Message(
        "no board on the table",
        "no hay tablero en la mesa"),
    "board_being_played": Message(
        "board {board} is being played; end the round first",
        "se está jugando el tablero {board}; termine antes la ronda"),
    "play_has_started": Message(
        "the play has started",
        "el carteo ya ha empezado"),
}

#: Every code: a refusal, a fault or a detail, never two of them.
MESSAGES: Mapping[str, Message] = {**REFUSALS, **FAULTS, **DETAILS}
if len(MESSAGES) != len(REFUSALS) + len(FAULTS) + len(DETAILS):
    raise AssertionError("a code is in two of the tables")


def text(code: str, params: Mapping[str, Param], language: str = "en") -> str:
    """``code``'s sentence in ``language`` ("es" or "en") with ``params`` as they are (the
    engine's own notation: ``str(error)``); ``KeyError`` for a code not in the table."""
    message = MESSAGES[code]
    return (message.es if language == "es" else message.en).format(**params)
