"""What the seat displays say, in English and Spanish.

Texts are short: a display line is twenty characters. Bridge terms follow the federation's
usage: Paso, Doblo, Redoblo, Sin Triunfo (ST); the seats keep their letters N E S O(W).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .rulings import KINDS

LANGUAGES = ("en", "es")

TEXTS: dict[str, tuple[str, str]] = {
    # key: (English, Spanish)
    "waiting": ("Waiting for the", "Esperando al"),
    "waiting2": ("director's round", "director (ronda)"),
    "round": ("Round {round}", "Ronda {round}"),
    "pairs": ("NS {ns}  EW {ew}", "NS {ns}  EO {ew}"),
    "player_number": ("Your player number", "Su n. de jugador"),
    "player_done": ("Player {number}", "Jugador {number}"),
    "player_skip": ("Player -", "Jugador -"),
    "board_ask": ("Board? OK = {board}", "Tablero? OK = {board}"),
    "board": ("Bd {board} Dlr {dealer}", "Tab {board} Da {dealer}"),
    "vul": ("Vul {vul}", "Vul {vul}"),
    "scan_or_call": ("Scan hand or call", "Escanee o declare"),
    "scanned": ("Scanned {count}/13", "Escaneadas {count}/13"),
    "your_call": ("Your call", "Su turno"),
    "turn": ("Turn: {seat}", "Turno: {seat}"),
    "contract": ("{contract} by {declarer}", "{contract} por {declarer}"),
    "your_lead": ("Your lead", "Su salida"),
    "lead_by": ("Lead: {seat}", "Sale: {seat}"),
    "dummy_turn": ("Play from dummy", "Juegue del muerto"),
    "your_card": ("Your card", "Su carta"),
    "tricks": ("NS {ns} EW {ew}", "NS {ns} EO {ew}"),
    "claim_open": ("{seat} claims {tricks}", "{seat} reclama {tricks}"),
    "claim_ask": ("OK agree UNDO no", "OK acepta UNDO no"),
    "claim_director": ("Claim: director", "Reclamo: director"),
    "result": ("{contract} {declarer} {tricks}", "{contract} {declarer} {tricks}"),
    "passed_out": ("Passed out", "Todos pasan"),
    "assigned": ("Assigned", "Asignado"),
    "score": ("NS {score}", "NS {score}"),
    "confirm": ("OK to confirm", "OK para confirmar"),
    "confirmed": ("Confirmed", "Confirmado"),
    "round_over": ("Round over", "Fin de ronda"),
    "move_ns": ("NS {where}", "NS {where}"),
    "move_ew": ("EW {where}", "EO {where}"),
    "move_boards": ("Boards {where}", "Tableros {where}"),
    "stay": ("stay", "se quedan"),
    "to_table": ("to table {table}", "a mesa {table}"),
    "director_open": ("Director called", "Director llamado"),
    "director_called": ("Director! ({seat})", "Director! ({seat})"),
    "ruling": ("Ruling: {kind}", "Decision: {kind}"),
    "replace": ("Enter intended call", "Declare la correcta"),
    "level_first": ("Level first", "Primero el nivel"),
    "enter_call": ("Enter a call", "Entre una voz"),
    "alert_partner": ("Alert partner's call", "Alerte al companero"),
    "claim_how": ("Tricks, then OK", "Bazas y luego OK"),
    "claimed": ("{seat} claims {tricks}", "{seat} reclama {tricks}"),
    "confirm_how": ("OK confirms; DIR", "OK confirma; DIR"),
    "bad_number": ("Not a number", "Numero no valido"),
    "not_this_round": ("Board {board}: no", "Tablero {board}: no"),
    "unknown_card": ("Card not known", "Carta desconocida"),
    "no_card_now": ("No card now", "Ahora no hay carta"),
    "fouled": ("Fouled board? Dir", "Tablero erroneo? Dir"),
    "reader_lost": ("Card reader lost", "Lector desconectado"),
    "reader_back": ("Card reader back", "Lector conectado"),
    "journal_full": ("DISK FULL: director", "DISCO LLENO: director"),
    "law": ("Not allowed", "No permitido"),
    "auction": ("Auction", "Subasta"),
    # alerts, questions, the opponents' card, screens (docs/screens.md)
    "alert_nothing": ("Nothing to alert", "Nada que alertar"),
    "remind_alert": ("Card: alert {call}?", "Hoja: alerta {call}?"),
    "tray_away": ("Wait for the tray", "Espere la bandeja"),
    "tray_other": ("Tray: other side", "Bandeja: otro lado"),
    "ask_turn": ("Ask at your turn", "Pregunte en su turno"),
    "ask_nothing": ("Nothing to ask", "Nada que preguntar"),
    "asked": ("Question sent", "Pregunta enviada"),
    "ask_page": ("Ask: {call} by {seat}", "Pregunta: {call} de {seat}"),
    "ask_how": ("OK ask  UNDO prev", "OK pregunta UNDO ant"),
    "card_page": ("{side} card: {call}", "Hoja {side}: {call}"),
    "card_none": ("Not on their card", "No esta en su hoja"),
    "card_start": ("{side} card", "Hoja {side}"),
    "question": ("{asker}? {call} by {seat}", "{asker}? {call} de {seat}"),
    "answer_how": ("OK gives  UNDO next", "OK da  UNDO sigue"),
    "answer": ("{call}: {text}", "{call}: {text}"),
    "answer_wait": ("{call}: waiting", "{call}: esperando"),
    "bad_code": ("No answer {code}", "Sin respuesta {code}"),
    "answer_first": ("Answer first", "Conteste primero"),
    "face_down": ("Lead face down: {seat}", "Salida tapada: {seat}"),
    "face_down_wait": ("Lead is face down", "Salida tapada"),
    "face_down_ok": ("Lead face down. OK?", "Salida tapada. OK?"),
    "answered": ("{call}: {text}", "{call}: {text}"),
}

#: Why the laws refused something, by the law the engine names: short enough for a line.
LAW_TEXTS: dict[str, tuple[str, str]] = {
    "25": ("UNDO to change", "UNDO y cambie"),
    "25A": ("Too late", "Ya no cambia"),
    "25A2": ("Too late", "Ya no cambia"),
    "20F": ("At your turn", "En su turno"),
    "40B": ("Alert?", "Alerta?"),
    "27": ("Insufficient bid", "Voz insuficiente"),
    "30": ("Not your turn", "No es su turno"),
    "31": ("Not your turn", "No es su turno"),
    "32": ("Not your turn", "No es su turno"),
    "36": ("No such double", "Doblo invalido"),
    "37": ("You must pass", "Debe pasar"),
    "38": ("No such bid", "Voz imposible"),
    "39": ("Auction over", "Subasta acabada"),
    "26": ("Lead limited", "Salida limitada"),
    "44": ("Play is over", "Juego acabado"),
    "44C": ("Follow suit", "Asista al palo"),
    "45A": ("Wrong hand", "Mano equivocada"),
    "54": ("Wrong lead", "Salida fuera"),
    "55": ("Wrong lead", "Salida fuera"),
    "56": ("Wrong lead", "Salida fuera"),
    "57": ("Not its turn", "No es su turno"),
    "68": ("Bad claim", "Reclamo malo"),
    "68D": ("Play stopped", "Juego parado"),
    "69": ("No claim", "Sin reclamo"),
    "69A": ("Not yours", "No le toca"),
    "43A1(c)": ("Dummy", "Muerto"),
    "87": ("Board? Dir", "Tablero? Dir"),
}

_CALLS_ES = {"Pass": "Paso", "X": "Doblo", "XX": "Redoblo"}
_SEATS_ES = {"W": "O"}


def ruling(kind: str, language: str) -> str:
    """A ruling's short name on a seat display (tabled.rulings)."""
    found = KINDS.get(kind)
    return kind if found is None else found.short["es" if language == "es" else "en"]


def text(key: str, language: str, **args: Any) -> str:
    english, spanish = TEXTS[key]
    template = spanish if language == "es" else english
    return template.format(**args)


def law_text(law: str | None, language: str) -> str:
    english, spanish = LAW_TEXTS.get(law or "", TEXTS["law"])
    words = spanish if language == "es" else english
    return f"{words} L{law}" if law else words


def seat(name: str, language: str) -> str:
    return _SEATS_ES.get(name, name) if language == "es" else name


def call(name: str, language: str, *, short: bool = True) -> str:
    """A call as the display writes it: ``1NT`` / ``1ST``, ``Pass`` / ``Paso``."""
    if language != "es":
        return "P" if short and name == "Pass" else name
    if short:
        return {"Pass": "P"}.get(name, name.replace("NT", "ST"))
    return _CALLS_ES.get(name, name.replace("NT", "ST"))


def fill(template: Mapping[str, Any], language: str) -> dict[str, Any]:
    """Localise the seat letters among a notice's arguments."""
    return {k: seat(v, language) if k == "seat" and isinstance(v, str) else v
            for k, v in template.items()}
