"""What the seat displays say, in Spanish and English.

A display line is twenty characters and nothing is ever cut to fit (``tablemodel.texts.fit``):
the lines are written short, a notice that needs it wraps onto the line above the last, and a
long text (an answer, a system card's meaning) is laid out in pages read on with a key
(``tablemodel.texts.pages``, docs/keypad.md). tests/tabled/test_seat_texts.py renders every text
with its longest arguments. Spanish is written as a Spanish club writes it, with its accents,
¿ ¡ and ñ, in the words of docs/glossary.md. The tables are ``tablemodel.texts`` tables
(``Words(es=..., en=...)``); the bridge words inside the lines (calls, contracts, seats,
vulnerability: Paso, Doblo, Redoblo, Sin Triunfo (ST), O for West) come from
``tablemodel.words``.
"""

from __future__ import annotations

from typing import Any

from tablemodel.rulings import KINDS
from tablemodel.texts import LANGUAGES, TextTable, Words, table

__all__ = ["LANGUAGES", "LAW_TEXTS", "REFUSAL_TEXTS", "TEXTS", "law_text", "refusal_text",
           "ruling", "text"]

TEXTS: TextTable[str] = table("seat display", {
    "waiting": Words(es="Esperando la ronda", en="Waiting for the"),
    "waiting2": Words(es="del árbitro", en="director's round"),
    "round": Words(es="Ronda {round}", en="Round {round}"),
    "pairs": Words(es="NS {ns}  EO {ew}", en="NS {ns}  EW {ew}"),
    # A section's table (up to 16 characters): the label goes below when the line is full.
    "round_table": Words(es="Ronda {round} Mesa {table}", en="Round {round} Table {table}"),
    "table_only": Words(es="Mesa {table}", en="Table {table}"),
    "arrow_switch": Words(es="Cambio: NS juega EO", en="Switch: NS play EW"),
    "player_number": Words(es="Su número de jugador", en="Your player number"),
    "player_done": Words(es="Jugador {number}", en="Player {number}"),
    "player_skip": Words(es="Jugador -", en="Player -"),
    # The session's register (issue 17): the player's name once the number is accepted.
    "player_named": Words(es="{number} {name}", en="{number} {name}"),
    "board_ask": Words(es="¿Tablero? OK = {board}", en="Board? OK = {board}"),
    # The header, for boards 1-999: T(ablero), Rep(arte), Vul(nerables) (docs/glossary.md).
    "board": Words(es="T{board} Rep {dealer}", en="B{board} Dlr {dealer}"),
    "vul": Words(es="Vul {vul}", en="Vul {vul}"),
    "scan_or_call": Words(es="Escanee o declare", en="Scan hand or call"),
    "scan_first": Words(es="Escanee su mano", en="Scan your hand"),
    "scanned": Words(es="Escaneadas {count}/13", en="Scanned {count}/13"),
    "your_call": Words(es="Su turno", en="Your call"),
    "turn": Words(es="Turno: {seat}", en="Turn: {seat}"),
    "contract": Words(es="{contract} por {declarer}", en="{contract} by {declarer}"),
    "your_lead": Words(es="Su salida", en="Your lead"),
    "lead_by": Words(es="Sale: {seat}", en="Lead: {seat}"),
    "dummy_turn": Words(es="Juegue del muerto", en="Play from dummy"),
    "your_card": Words(es="Su carta", en="Your card"),
    "tricks": Words(es="NS {ns} EO {ew}", en="NS {ns} EW {ew}"),
    "claim_open": Words(es="{seat} reclama {tricks}", en="{seat} claims {tricks}"),
    "claim_ask": Words(es="OK acepta UNDO no", en="OK agree UNDO no"),
    "claim_director": Words(es="Reclamación: árbitro", en="Claim: director"),
    "result": Words(es="{contract} {declarer} {tricks}", en="{contract} {declarer} {tricks}"),
    "assigned": Words(es="Asignada", en="Assigned"),
    "score": Words(es="NS {score}", en="NS {score}"),
    "confirm": Words(es="OK para confirmar", en="OK to confirm"),
    "confirmed": Words(es="Confirmado", en="Confirmed"),
    "round_over": Words(es="Fin de ronda", en="Round over"),
    # The round clock (tablemodel.roundclock), on the last line.
    "clock": Words(es="Quedan {minutes} min", en="{minutes} min left"),
    "clock_warn": Words(es="Aviso: {minutes} min", en="Warning: {minutes} min"),
    "clock_over": Words(es="Tiempo cumplido", en="Time is up"),
    "move_ns": Words(es="NS {where}", en="NS {where}"),
    "move_ew": Words(es="EO {where}", en="EW {where}"),
    "move_boards": Words(es="Tableros {where}", en="Boards {where}"),
    "stay": Words(es="se quedan", en="stay"),
    "to_table": Words(es="a mesa {table}", en="to table {table}"),
    "director_open": Words(es="Árbitro llamado", en="Director called"),
    "director_called": Words(es="¡Árbitro! ({seat})", en="Director! ({seat})"),
    "ruling": Words(es="Decisión: {kind}", en="Ruling: {kind}"),
    "replace": Words(es="Declare la correcta", en="Enter intended call"),
    "level_first": Words(es="Primero el nivel", en="Level first"),
    "enter_call": Words(es="Teclee una voz", en="Enter a call"),
    "alert_partner": Words(es="Se alerta la voz del compañero", en="Alert partner's call"),
    "claim_how": Words(es="Bazas y luego OK", en="Tricks, then OK"),
    # Law 68: the claim page (INFO): the tricks typed, then shown back to be confirmed
    "claim_page": Words(es="Reclamación: bazas", en="Claim: your tricks"),
    "claim_left": Words(es="de {left}, luego OK", en="of {left} left, OK"),
    "claim_confirm": Words(es="¿Reclama {tricks} de {left}?", en="Claim {tricks} of {left}?"),
    "claim_sure": Words(es="OK sí  UNDO no", en="OK yes  UNDO no"),
    "claim_info": Words(es="Reclamar: INFO", en="To claim: INFO"),
    "concession_void": Words(es="Concesión nula", en="Concession void"),
    "claimed": Words(es="{seat} reclama {tricks}", en="{seat} claims {tricks}"),
    "confirm_how": Words(es="OK confirma; DIR", en="OK confirms; DIR"),
    "bad_number": Words(es="Número no válido", en="Not a number"),
    "unknown_player": Words(es="No consta: {number}", en="Unknown: {number}"),
    "roster": Words(es="Lista actualizada", en="Roster updated"),
    "not_this_round": Words(es="Tablero {board}: no", en="Board {board}: no"),
    "unknown_card": Words(es="Carta desconocida", en="Card not known"),
    "no_card_now": Words(es="Ahora no hay carta", en="No card now"),
    "fouled": Words(es="¿Tablero equivocado?", en="Fouled board?"),
    # Boards dealt at the table: the seats whose 13 cards are still to be scanned ("NE").
    "scan_hands": Words(es="Falta escanear {seats}", en="Scan hands: {seats}"),
    "reader_lost": Words(es="Lector desconectado", en="Card reader lost"),
    "reader_back": Words(es="Lector conectado", en="Card reader back"),
    "journal_full": Words(es="DISCO LLENO: avise al árbitro", en="DISK FULL: call the director"),
    "law": Words(es="No permitido", en="Not allowed"),
    "auction": Words(es="Subasta", en="Auction"),
    # cards seen out of turn: penalty cards (Laws 49-52), leads out of turn (53-56, 57)
    "lead_out_of_turn": Words(es="Salida fuera de turno {seat} {card}",
                              en="Lead out of turn {seat} {card}"),
    "premature_play": Words(es="Penalizada {seat} {card}", en="Penalty card {seat} {card}"),
    "lead_wait": Words(es="Espere la opción", en="Wait for the option"),
    "lead_how": Words(es="1 acepta 2 rechaza", en="1 accept 2 refuse"),
    "faced_lead": Words(es="Fuera de turno {seat} {card}", en="Out of turn {seat} {card}"),
    "lead_options": Words(es="1 acepta 2 rechaza", en="1 accept 2 refuse"),
    "lead_options_54": Words(es="1\u00a0acepta 2\u00a0rechaza 3\u00a0muerto",
                             en="1\u00a0accept 2\u00a0refuse 3\u00a0dummy"),
    "lead_chooser": Words(es="Elige {seat}", en="{seat} chooses"),
    # Law 50A: the penalty cards on the table, by seat; a minor one in brackets
    "penalty_line": Words(es="Penaliz. {cards}", en="Penalty {cards}"),
    "penalty_lead": Words(es="1\u00a0exige 2\u00a0prohíbe 3\u00a0libre",
                          en="1\u00a0require 2\u00a0forbid 3\u00a0free"),
    "penalty_lead_wait": Words(es="Elige el carteador", en="Declarer chooses"),
    # Law 16B2: a hesitation the opponents may reserve their rights on; Law 25B: a late change
    "hesitation": Words(es="Pausa de {seat}: ALERT reserva sus derechos",
                        en="Pause by {seat}: ALERT reserves your rights"),
    "reserved": Words(es="Derechos reservados", en="Rights reserved"),
    "late_change": Words(es="Cambio: OK=sí UNDO", en="Change: OK=yes UNDO"),
    # Law 25A4: the call made over a changed call: let it stand (OK) or withdraw it (UNDO)
    "over_change": Words(es="¿Deja {call}? OK/UNDO", en="Keep {call}? OK/UNDO"),
    "withdrawn": Words(es="Retirada: otra voz", en="Withdrawn: new call"),
    # Law 58B: two cards from one hand at once; the player designates which is played
    "simultaneous": Words(es="Dos cartas {seat} {card}", en="Two cards {seat} {card}"),
    "simultaneous_pick": Words(es="Juega 1 {first} 2 {second}", en="Play 1 {first} 2 {second}"),
    # Law 58B3: after the other card was withdrawn, an opponent who played since may change
    "substitute_how": Words(es="Otra carta u OK", en="New card or OK"),
    # Law 58A: two players at once: the other card counts as played after the legal one
    "simultaneous_play": Words(es="A la vez: {seat} {card} luego",
                               en="At once: {seat} {card} later"),
    # Law 57A: declarer's option after a defender played too soon; Law 51A: which card
    "premature_options": Words(es="1\u00a0alta 2\u00a0baja 3\u00a0exige 4\u00a0prohíbe",
                               en="1\u00a0high 2\u00a0low 3\u00a0require 4\u00a0forbid"),
    "premature_suit": Words(es="Palo y luego 3 o 4", en="Suit, then 3 or 4"),
    "designate": Words(es="Juega {cards}", en="Play {cards}"),
    "designate_how": Words(es="Número de la carta", en="Number of the card"),
    # revokes (Laws 61-64): the tricks transferred, agreed on the keypad, then the director
    "revoke_agree": Words(es="Renuncio: {tricks} a {side} OK", en="Revoke: {tricks} to {side} OK"),
    "revoke_agreed": Words(es="Renuncio: {tricks} a {side}", en="Revoke: {tricks} to {side}"),
    # alerts, questions, the opponents' card, screens (docs/screens.md)
    "alert_nothing": Words(es="Nada que alertar", en="Nothing to alert"),
    "remind_alert": Words(es="¿Alerta {call}? (convenios)", en="Card: alert {call}?"),
    "tray_away": Words(es="Espere la bandeja", en="Wait for the tray"),
    "tray_other": Words(es="Bandeja: otro lado", en="Tray: other side"),
    "ask_turn": Words(es="Pregunte en su turno", en="Ask at your turn"),
    "ask_nothing": Words(es="Nada que preguntar", en="Nothing to ask"),
    "asked": Words(es="Pregunta enviada", en="Question sent"),
    "ask_page": Words(es="¿{call} de {seat}?", en="Ask: {call} by {seat}"),
    "ask_how": Words(es="OK sí  UNDO otra voz", en="OK ask  UNDO prev"),
    "card_page": Words(es="Convenios {side}: {call}", en="{side} card: {call}"),
    "card_none": Words(es="No está en su carta", en="Not on their card"),
    "card_start": Words(es="Convenios {side}", en="{side} card"),
    "question": Words(es="{asker}: ¿{call} de {seat}?", en="{asker}? {call} by {seat}"),
    "answer_how": Words(es="OK da  UNDO sigue", en="OK gives  UNDO next"),
    "answer": Words(es="{call}: {text}", en="{call}: {text}"),
    "answer_wait": Words(es="{call}: esperando", en="{call}: waiting"),
    "bad_code": Words(es="Sin respuesta {code}", en="No answer {code}"),
    "answer_first": Words(es="Conteste primero", en="Answer first"),
    "face_down": Words(es="Salida tapada: {seat}", en="Lead face down: {seat}"),
    "face_down_wait": Words(es="Salida tapada", en="Lead is face down"),
    "face_down_ok": Words(es="Salida tapada. ¿OK?", en="Lead face down. OK?"),
    "face_up_ok": Words(es="OK la descubre", en="OK to face it"),
    "questions_first": Words(es="Preguntas: espere", en="Questions: wait"),
    # Law 52B: another card where a penalty card had to be played; declarer's option
    "breach": Words(es="{seat} {card} en vez de {due}", en="{seat} {card} instead of {due}"),
    "breach_how": Words(es="1\u00a0acepta 2\u00a0rechaza", en="1\u00a0accept 2\u00a0refuse"),
    # Laws 26, 50D2(a): a lead against the restriction declarer chose
    "lead_suit": Words(es="Debe salir a {suit}", en="Must lead {suit}"),
    "lead_not_suit": Words(es="No salga a {suit}", en="No {suit} lead"),
    # Law 30B2(b): a seat that may bid but not double or redouble (a ruling's short name)
    "ruling_bids": Words(es="sin X/XX", en="no X/XX"),
    "answered": Words(es="{call}: {text}", en="{call}: {text}"),
})

#: Why the laws refused something, by the law the engine names: short enough for a line.
LAW_TEXTS: TextTable[str] = table("seat display laws", {
    "25": Words(es="UNDO y cambie", en="UNDO to change"),
    "25A": Words(es="Ya no cambia", en="Too late"),
    "25A2": Words(es="Ya no cambia", en="Too late"),
    "25A4": Words(es="No se mantiene", en="Cannot stand"),
    "24": Words(es="No es su salida", en="Not your lead"),
    "41A": Words(es="No es su salida", en="Not your lead"),
    "30B2(b)": Words(es="Sin X ni XX", en="No X or XX"),
    "52B": Words(es="Espere opción", en="Await declarer"),
    "20F": Words(es="En su turno", en="At your turn"),
    "40B": Words(es="¿Alerta?", en="Alert?"),
    "27": Words(es="Voz insuficiente", en="Insufficient bid"),
    "30": Words(es="No es su turno", en="Not your turn"),
    "31": Words(es="No es su turno", en="Not your turn"),
    "32": Words(es="No es su turno", en="Not your turn"),
    "36": Words(es="Doblo no válido", en="No such double"),
    "37": Words(es="Debe pasar", en="You must pass"),
    "38": Words(es="Voz imposible", en="No such bid"),
    "39": Words(es="Subasta acabada", en="Auction over"),
    "26": Words(es="Salida limitada", en="Lead limited"),
    "44": Words(es="Juego acabado", en="Play is over"),
    "44C": Words(es="Asista al palo", en="Follow suit"),
    "45A": Words(es="Mano equivocada", en="Wrong hand"),
    "54": Words(es="Fuera de turno", en="Out of turn"),
    "55": Words(es="Fuera de turno", en="Out of turn"),
    "56": Words(es="Fuera de turno", en="Out of turn"),
    "57": Words(es="No es su turno", en="Not its turn"),
    "57A": Words(es="Penalizada", en="Penalty card"),
    "48A": Words(es="No penalizada", en="Not a defender"),
    "50": Words(es="No penalizada", en="No pen. card"),
    "50A": Words(es="Ya penalizada", en="Penalty already"),
    "50C": Words(es="Juegue penalizada", en="Play pen. card"),
    "50D1": Words(es="Juegue penalizada", en="Play pen. card"),
    "50D2": Words(es="Espere opción", en="Await declarer"),
    "51B2": Words(es="Diga el palo", en="Name the suit"),
    "53": Words(es="Espere opción", en="Await option"),
    "51A": Words(es="Espere opción", en="Await declarer"),
    "60B": Words(es="Penalizada", en="Penalty card"),
    "58B": Words(es="Dos cartas", en="Two cards"),
    "58B2": Words(es="No se puede", en="Not possible"),
    "58B3": Words(es="No se puede", en="Not possible"),
    "68": Words(es="Reclamación mala", en="Bad claim"),
    "68D": Words(es="Juego parado", en="Play stopped"),
    "69": Words(es="Sin reclamación", en="No claim"),
    "69A": Words(es="No le toca", en="Not yours"),
    "43A1(c)": Words(es="Muerto", en="Dummy"),
    "87": Words(es="Tablero: árbitro", en="Board: director"),
})


#: The laws engine's refusals (laws/messages.py REFUSALS), by code, as a seat display
#: says them: the engine's sentence is for the console; here it is short enough for the two
#: last lines with the law's number (``refusal_text``). The fields are the code's params,
#: written as the display writes them (``tablemodel.words.message``'s rules: O for West, ♠Q).
REFUSAL_TEXTS: TextTable[str] = table("seat display refusals", {
    # the auction
    "auction_over": Words(es="Subasta acabada", en="Auction over"),
    "change_is_not_a_call": Words(es="UNDO y cambie", en="UNDO to change"),
    "call_out_of_turn": Words(es="Le toca a {turn}", en="It is {turn}'s turn"),
    "may_not_double": Words(es="Sin X ni XX", en="No X or XX"),
    "must_pass": Words(es="Debe pasar", en="You must pass"),
    "bid_above_seven": Words(es="{call}: voz imposible", en="{call}: no such bid"),
    "insufficient_bid": Words(es="Insuficiente: {call}", en="Insufficient: {call}"),
    "double_of_no_bid": Words(es="Doblo no válido", en="No such double"),
    "double_of_own_side": Words(es="Doblo no válido", en="No such double"),
    "redouble_of_no_double": Words(es="Redoblo no válido", en="No such redouble"),
    "redouble_of_own_side": Words(es="Redoblo no válido", en="No such redouble"),
    "change_too_late": Words(es="Ya no cambia", en="Too late"),
    # the play
    "play_stopped_disputed_claim": Words(es="Juego parado: árbitro",
                                         en="Play stopped: director"),
    "play_stopped_claim": Words(es="Juego parado: reclamación", en="Play stopped: claim"),
    "play_over_all_tricks": Words(es="Carteo acabado", en="Play is over"),
    "play_over": Words(es="Carteo acabado", en="Play is over"),
    "card_played_already": Words(es="{card} ya jugada", en="{card} was played"),
    "lead_waits_for_option": Words(es="Salida de {seat}: espere opción",
                                   en="{seat}'s lead: await option"),
    "breach_waits_for_option": Words(es="Espere al carteador", en="Await declarer"),
    "card_not_in_hand": Words(es="{card} no es de la mano {seat}",
                              en="{card} not in {seat}'s hand"),
    "card_in_other_hand": Words(es="{card} es de {owner}, no de {seat}",
                                en="{card} is {owner}'s, not {seat}'s"),
    "lead_out_of_turn": Words(es="Sale {turn}", en="It is {turn}'s lead"),
    "play_out_of_turn": Words(es="Le toca a {turn}", en="It is {turn}'s turn"),
    "lead_before_penalty_option": Words(es="Espere opción", en="Await declarer"),
    "play_before_premature_option": Words(es="Espere al carteador", en="Await declarer"),
    "play_designated_penalty": Words(es="El carteador designa", en="Declarer designates"),
    "must_follow_suit": Words(es="Asista a {suit}", en="Follow suit: {suit}"),
    "must_lead_suit": Words(es="Debe salir a {suit}", en="Must lead {suit}"),
    "may_not_lead_suit": Words(es="No salga a {suit}", en="No {suit} lead"),
    "must_play_highest": Words(es="Juegue {wanted}, la más alta", en="Play {wanted}, the highest"),
    "must_play_lowest": Words(es="Juegue {wanted}, la más baja", en="Play {wanted}, the lowest"),
    "must_play_suit": Words(es="Juegue {suit}", en="Play a {suit}"),
    "may_not_play_suit": Words(es="No juegue {suit}", en="Do not play a {suit}"),
    "holds_must_follow_suit": Words(es="{seat} tiene {held}: asista",
                                    en="{seat} holds {held}: follow"),
    "holds_not_highest": Words(es="{seat} tiene {held}, más alta",
                               en="{seat} holds {held}, higher"),
    "holds_not_lowest": Words(es="{seat} tiene {held}, más baja", en="{seat} holds {held}, lower"),
    "holds_must_play_suit": Words(es="{seat} tiene {held}: juegue {suit}",
                                  en="{seat} holds {held}: play {suit}"),
    "holds_may_not_play_suit": Words(es="{seat} tiene {held}: no {suit}",
                                     en="{seat} holds {held}: no {suit}"),
    "holds_must_lead_suit": Words(es="{seat} tiene {held}: salga a {suit}",
                                  en="{seat} holds {held}: lead {suit}"),
    "holds_may_not_lead_suit": Words(es="{seat} tiene {held}: no salga a {suit}",
                                     en="{seat} holds {held}: no {suit} lead"),
    "must_play_penalty_card": Words(es="Juegue la penalizada {due}", en="Penalty {due} due"),
    "penalty_card_before_lower": Words(es="Antes la penalizada {due}", en="Penalty {due} first"),
    # penalty cards and the options
    "no_penalty_choice": Words(es="Sin penalizadas que elegir", en="No penalty card to choose"),
    "not_a_penalty_card_now": Words(es="{card}: no penalizada ahora",
                                    en="{card}: not playable now"),
    "no_premature_option": Words(es="Sin opción pendiente", en="No option waits"),
    "name_the_suit": Words(es="Diga el palo", en="Name the suit"),
    "another_suit_than_led": Words(es="Otro palo que el salido", en="Another suit than led"),
    "not_a_defender": Words(es="{seat} no defiende: no penalizada", en="{seat} is no defender"),
    "penalty_card_already": Words(es="{card} ya penalizada", en="{card} penalty already"),
    "not_a_penalty_card": Words(es="{card} no penalizada", en="{card} no penalty card"),
    "not_in_place_of_penalty": Words(es="{card} no sustituye a penalizada",
                                     en="{card}: no penalty due"),
    "no_breach_waits": Words(es="Ninguna carta espera", en="No card waits"),
    "no_leader_with_penalty": Words(es="Nadie sale con penalizada", en="No lead with penalty"),
    "penalty_cards_in_two_suits": Words(es="Diga el palo", en="Name the suit"),
    "no_major_penalty_in_suit": Words(es="{partner} sin penalizada mayor de {suit}",
                                      en="{partner}: no major penalty {suit}"),
    "not_a_lead_out_of_turn": Words(es="No es salida fuera de turno", en="No lead out of turn"),
    "lead_out_of_turn_waits": Words(es="Espere opción", en="Await option"),
    "declarer_side_lead": Words(es="No defiende: árbitro", en="Not a defender: director"),
    "no_lead_out_of_turn": Words(es="Sin salida fuera de turno", en="No lead out of turn"),
    "option_not_given": Words(es="Opción no válida", en="No such option"),
    # claims
    "claim_play_over": Words(es="Carteo acabado", en="Play is over"),
    "dummy_may_not_claim": Words(es="El muerto no reclama", en="Dummy may not claim"),
    "claim_waiting": Words(es="Reclamación pendiente", en="A claim waits"),
    "claim_tricks_out_of_range": Words(es="Quedan {left} bazas", en="{left} tricks left"),
    "no_claim_waiting": Words(es="Sin reclamación", en="No claim"),
    "claimer_answers": Words(es="{seat} reclamó", en="{seat} claimed"),
    "not_asked_to_agree": Words(es="No le toca contestar", en="Not yours to answer"),
    "no_disputed_claim": Words(es="Sin reclamación discutida", en="No disputed claim"),
    "ruled_tricks_out_of_range": Words(es="{tricks} bazas: quedan {left}",
                                       en="{tricks} tricks: {left} left"),
})


def ruling(kind: str, language: str, *, bids_allowed: bool = False) -> str:
    """A ruling's short name on a seat display (tablemodel.rulings); a seat that must pass but
    may bid (Law 30B2(b)) is told it may not double or redouble."""
    if kind == "require_pass" and bids_allowed:
        return text("ruling_bids", language)
    found = KINDS.get(kind)
    return kind if found is None else found.short["es" if language == "es" else "en"]


def text(key: str, language: str, **args: Any) -> str:
    return TEXTS.text(key, language, **args)


def refusal_text(code: str, law: str | None, language: str, **shown: Any) -> str | None:
    """A coded refusal on a seat display, with its law: ``Asista a ♥ L44C``; ``shown`` are
    its params as the display writes them. None for a code without a seat text (a newer
    engine's): the law's own text says it then."""
    found = REFUSAL_TEXTS.get(code)
    if found is None:
        return None
    words = found[language].format(**shown)
    return f"{words} L{law}" if law else words


def law_text(law: str | None, language: str) -> str:
    words = LAW_TEXTS.get(law or "", TEXTS["law"])[language]
    return f"{words} L{law}" if law else words

