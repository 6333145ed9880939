"""The round clock's texts on the console, in Spanish and English (added to PAGES); the
live page's are in server/texts/display_texts.py, the seat displays' in tabled/i18n.py."""

from __future__ import annotations

from server.texts.i18n import PAGES
from tablemodel.texts import Words

PAGES.add({
    "console_clock": Words(es="Reloj de la ronda", en="Round clock"),
    "console_clock_none": Words(es="La ronda actual no tiene reloj.",
                                en="The current round has no clock."),
    "console_clock_setting": Words(
        es="Cada ronda: {minutes} min, aviso {warning} min antes del final.",
        en="Every round: {minutes} min, warning {warning} min before the end."),
    "console_clock_no_setting": Words(es="Las rondas no tienen duración fijada.",
                                      en="The rounds have no length set."),
    "console_clock_set": Words(es="Fijar la duración", en="Set the length"),
    "console_clock_round_help": Words(es="en blanco: todas las rondas",
                                      en="blank: every round"),
    "console_round_minutes": Words(es="Duración de la ronda (min)",
                                   en="Round length (min)"),
    "console_round_minutes_help": Words(es="en blanco: sin reloj", en="blank: no clock"),
    "console_warning_minutes": Words(es="Aviso (min antes del final)",
                                     en="Warning (min before the end)"),
    "console_clock_saved": Words(es="Duración guardada.", en="Length saved."),
    "console_clock_extend": Words(es="Prorrogar la ronda", en="Extend the round"),
    "console_clock_extend_minutes": Words(es="Minutos más", en="More minutes"),
    "console_clock_extended": Words(es="Ronda {round} prorrogada: termina a las {time}.",
                                    en="Round {round} extended: it ends at {time}."),
    "console_clock_ends": Words(es="termina a las {time}", en="ends at {time}"),
    "console_clock_late": Words(es="Mesas con retraso", en="Late tables"),
    "console_clock_late_help": Words(
        es="Mesas que seguían jugando al acabar el tiempo de la ronda (Ley 90: "
           "penalización de procedimiento, a juicio del árbitro).",
        en="Tables still playing when the round's time ran out (Law 90: a procedural "
           "penalty, at the director's discretion)."),
    "console_clock_late_playing": Words(
        es="Mesa {table}: sigue jugando, {left} tablero(s) por terminar, {minutes} min "
           "pasado el final",
        en="Table {table}: still playing, {left} board(s) to finish, {minutes} min past "
           "the end"),
    "console_clock_late_finished": Words(
        es="Mesa {table}: terminó {minutes} min después del final",
        en="Table {table}: finished {minutes} min after the end"),
})
