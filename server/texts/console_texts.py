"""The director console's texts, in Spanish and English (added to server.texts.i18n's PAGES)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from server.texts.i18n import PAGES
from tablemodel import words as bridge
from tablemodel.rulings import KINDS as RULING_KINDS
from tablemodel.texts import Words

PAGES.add({
    "console_title": Words(es="Consola del árbitro", en="Director's console"),
    "console_nav_tables": Words(es="Mesas", en="Tables"),
    "console_nav_session": Words(es="Sesión", en="Session"),
    "console_nav_rulings": Words(es="Decisiones", en="Rulings"),
    "console_nav_results": Words(es="Resultados", en="Results"),
    "console_nav_record": Words(es="Correcciones", en="Corrections"),
    "console_live_lost": Words(es="Sin conexión en vivo; reintentando…",
                               en="Live link lost; retrying…"),
    # ingest's worker holds a batch the database refused (server/link/bus.py, ingest/trouble.py)
    "console_storage_fault": Words(
        es="Los resultados no se están guardando desde las {since}: {reason} ({detail}). "
           "{waiting} mensajes esperan; se reintenta solo y no se pierde nada.",
        en="Results not being stored since {since}: {reason} ({detail}). {waiting} messages "
           "wait; it retries by itself and nothing is lost."),
    "console_storage_disk_full": Words(es="disco lleno", en="disk full"),
    "console_storage_locked": Words(es="base de datos bloqueada por otro programa",
                                    en="database locked by another program"),
    "console_storage_read_only": Words(es="base de datos de solo lectura",
                                       en="database read-only"),
    "console_storage_unreachable": Words(es="no se alcanza la base de datos",
                                         en="database unreachable"),
    "console_storage_error": Words(es="error de la base de datos", en="database error"),
    # two devices publishing with one table's login (server/link/conflicts.py)
    "console_conflict": Words(
        es="Mesa {table}: {n} eventos llegaron con números ya guardados y otro contenido "
           "(del {first} al {last}, el último a las {at}). Dos aparatos publican como esta "
           "mesa: compruebe la mesa y elija.",
        en="Table {table}: {n} events came with the numbers of stored ones and other "
           "content ({first} to {last}, the last at {at}). Two devices publish as this "
           "table: check the table, then choose."),
    "console_conflict_keep": Words(es="Conservar los guardados", en="Keep the stored ones"),
    "console_conflict_take": Words(es="Tomar los que llegaron después",
                                   en="Take the ones that came later"),
    "console_conflict_kept": Words(es="Mesa {table}: se conservan los eventos guardados; "
                                      "{n} descartados.",
                                   en="Table {table}: the stored events stand; {n} dropped."),
    "console_conflict_taken": Words(es="Mesa {table}: {n} eventos sustituidos por los que "
                                       "llegaron después.",
                                    en="Table {table}: {n} events replaced by the ones that "
                                       "came later."),
    "console_refused": Words(es="No se ha hecho: {reason}", en="Not done: {reason}"),
    "console_not_a_number": Words(es="{what}: «{value}» no es un número",
                                  en="{what}: \"{value}\" is not a number"),
    "console_no_session": Words(es="Aún no hay sesión: prepárela primero.",
                                en="No session yet: set one up first."),
    # the tables
    "console_tables": Words(es="Mesas", en="Tables"),
    "console_table": Words(es="Mesa", en="Table"),
    "console_state": Words(es="Estado", en="State"),
    "console_online": Words(es="En línea", en="Online"),
    "console_offline": Words(es="Desconectada", en="Offline"),
    "console_phase": Words(es="Fase", en="Phase"),
    "console_round": Words(es="Ronda", en="Round"),
    "console_board": Words(es="Tablero", en="Board"),
    "console_idle": Words(es="Desde la última acción", en="Since the last action"),
    "console_events": Words(es="Eventos", en="Events"),
    "console_gap": Words(es="hueco tras el {n}", en="gap after {n}"),
    "console_open_calls": Words(es="Llamadas", en="Calls"),
    "console_no_tables": Words(es="Ninguna mesa se ha conectado aún.",
                               en="No table has connected yet."),
    # the tables grid of a large field, a page or a section at a time (server/pages/tableview.py)
    "console_tables_shown": Words(es="Mesas {first} a {last} de {total}",
                                  en="Tables {first} to {last} of {total}"),
    "console_tables_section": Words(es="Sección", en="Section"),
    "console_tables_all": Words(es="Todas", en="All"),
    "console_tables_go": Words(es="Ver", en="Show"),
    "console_tables_pages": Words(es="Páginas de mesas", en="Pages of tables"),
    "console_tables_refused": Words(es="No se puede mostrar: {reason}",
                                    en="Cannot show that: {reason}"),
    "console_phase_waiting": Words(es="Esperando", en="Waiting"),
    "console_phase_players": Words(es="Jugadores", en="Players"),
    "console_phase_board": Words(es="Tablero", en="Board"),
    "console_phase_setup": Words(es="Preparando manos", en="Setting up hands"),
    "console_phase_auction": Words(es="Subasta", en="Auction"),
    "console_phase_lead": Words(es="Salida", en="Opening lead"),
    "console_phase_play": Words(es="Carteo", en="Play"),
    "console_phase_result": Words(es="Resultado", en="Result"),
    "console_phase_round_end": Words(es="Fin de ronda", en="Round over"),
    # director calls
    "console_calls": Words(es="Llamadas al árbitro", en="Director calls"),
    "console_no_calls": Words(es="No hay llamadas pendientes.", en="No call is waiting."),
    "console_seat": Words(es="Asiento", en="Seat"),
    "console_reason": Words(es="Motivo", en="Reason"),
    "console_law": Words(es="Ley", en="Law"),
    "console_waiting": Words(es="Espera", en="Waiting"),
    "console_ack": Words(es="Voy", en="On my way"),
    "console_acked": Words(es="Atendida por {by}", en="Acknowledged by {by}"),
    "console_resolve": Words(es="Resuelta", en="Resolved"),
    "console_reason_player": Words(es="Llamada de un jugador", en="A player called"),
    "console_reason_fouled_board": Words(es="Tablero alterado", en="Fouled board"),
    "console_reason_lead_out_of_turn": Words(es="Salida fuera de turno", en="Lead out of turn"),
    "console_reason_premature_play": Words(es="Carta jugada antes de tiempo (carta penalizada)",
                                           en="Card played out of turn (penalty card)"),
    "console_reason_claim": Words(es="Reclamación", en="Claim"),
    "console_reason_revoke": Words(es="Renuncio", en="Revoke"),
    "console_reason_penalty_breach": Words(es="Otra carta en lugar de la penalizada (52B)",
                                           en="Another card instead of a penalty card (52B)"),
    "console_reason_concession": Words(es="Concesión anulada por el compañero (68B2)",
                                       en="Concession voided by partner (68B2)"),
    # set-up and the session
    "console_setup": Words(es="Preparar la sesión", en="Set up the session"),
    "console_session_title": Words(es="Título", en="Title"),
    "console_title_required": Words(es="La sesión necesita un título.",
                                    en="The session needs a title."),
    "console_movement": Words(es="Movimiento", en="Movement"),
    "console_section_summary": Words(
        es="Sección {letter}: {movement}, {pairs} parejas, {tables} mesas, {rounds} rondas",
        en="Section {letter}: {movement}, {pairs} pairs, {tables} tables, {rounds} rounds"),
    "console_section_arrow": Words(es="cambio de flecha en la ronda {rounds}",
                                   en="arrow-switch in round {rounds}"),
    "console_scope_is": Words(es="Cada tablero se puntúa {scope}.",
                              en="Each board is scored {scope}."),
    "console_participants": Words(es="Parejas, equipos o jugadores", en="Pairs, teams or players"),
    "console_boards_per_round": Words(es="Tableros por ronda", en="Boards per round"),
    "console_rounds": Words(es="Rondas", en="Rounds"),
    "console_rounds_help": Words(es="vacío: las del movimiento", en="blank: the movement's own"),
    "console_arrow_rounds": Words(es="Rondas con cambio de flecha",
                                  en="Arrow-switch rounds"),
    "console_arrow_rounds_help": Words(
        es="solo Mitchell, p. ej. «8» o «7, 8»: en esas rondas NS juega EO y hay una sola "
           "clasificación",
        en="Mitchell only, e.g. \"8\" or \"7, 8\": in those rounds NS play EW, and one "
           "ranking comes out"),
    "console_sections": Words(es="Más secciones", en="More sections"),
    "console_sections_help": Words(
        es="La sección A es el movimiento de arriba. Cada fila con parejas es otra sección "
           "(B, C...), con sus mesas y su movimiento; todas juegan los mismos tableros por "
           "ronda, desde el 1.",
        en="Section A is the movement above. Each row with pairs is one more section (B, "
           "C...), with its own tables and movement; all play the same boards per round, "
           "from board 1."),
    "console_section": Words(es="Sección", en="Section"),
    "console_section_pairs": Words(es="Parejas", en="Pairs"),
    "console_section_rounds": Words(es="Rondas", en="Rounds"),
    "console_section_arrow_rounds": Words(es="Cambio de flecha", en="Arrow-switch"),
    "console_add_section": Words(es="Añadir una sección", en="Add a section"),
    "console_section_names": Words(es="Nombres de las secciones", en="Section names"),
    "console_section_names_help": Words(
        es="separados por comas, en orden (vacío: A, B, C...); en un centro, los nombres de "
           "los clubes tal como se dieron de alta",
        en="comma-separated, in order (blank: A, B, C...); at a centre, the clubs' names as "
           "provisioned"),
    "console_section_names_count": Words(
        es="{names} nombres para {sections} secciones: uno por sección, o ninguno",
        en="{names} names for {sections} sections: one for each, or none"),
    "console_scope": Words(es="Puntuar cada tablero", en="Score each board"),
    "console_scope_section": Words(es="dentro de su sección", en="within its section"),
    "console_scope_field": Words(es="en todo el campo (Neuberg si el número de resultados "
                                    "difiere)",
                                 en="across the field (Neuberg where the number of results "
                                    "differs)"),
    "console_scoring": Words(es="Puntuación", en="Scoring"),
    "console_scoring_default": Words(es="La habitual del movimiento", en="The movement's usual"),
    "console_swiss_standings": Words(es="Suizo: clasificación en puntos de victoria",
                                     en="Swiss: standings in victory points"),
    "console_swiss_matches": Words(es="Encuentros de la ronda {round}",
                                   en="Matches of round {round}"),
    "console_swiss_team": Words(es="Equipo", en="Team"),
    "console_swiss_matches_played": Words(es="Encuentros", en="Matches"),
    "console_swiss_vp": Words(es="PV", en="VPs"),
    "console_swiss_imps": Words(es="Dif. IMPs", en="IMP diff."),
    "console_swiss_tables": Words(es="Mesas", en="Tables"),
    "console_swiss_home": Words(es="Local", en="Home"),
    "console_swiss_away": Words(es="Visitante", en="Away"),
    "console_swiss_boards": Words(es="Tableros", en="Boards"),
    "console_swiss_bye": Words(es="descansa", en="bye"),
    "console_hands": Words(es="Manos", en="Hand records"),
    "console_pbn": Words(es="Archivo PBN", en="PBN file"),
    "console_seed": Words(es="Semilla para repartir aquí", en="Seed to deal here"),
    "console_hands_help": Words(es="Suba un PBN, o reparta aquí con una semilla (vacía: al azar).",
                                en="Upload a PBN file, or deal here from a seed (blank: random)."),
    "console_dealing": Words(es="¿Quién reparte?", en="Who deals"),
    "console_dealing_server": Words(es="Las manos de aquí (PBN o semilla)",
                                    en="The hand records here (PBN or seed)"),
    "console_dealing_table": Words(es="Se barajan y reparten en la mesa",
                                   en="Boards dealt at the table"),
    "console_dealing_help": Words(
        es="En la mesa: la primera mesa que juega cada tablero lo baraja y reparte, y cada "
           "jugador escanea sus 13 cartas antes de la subasta; esas manos son las del "
           "tablero, y las mesas siguientes se comprueban con ellas (Ley 87).",
        en="At the table: the first table to play each board shuffles and deals it, and each "
           "player scans his 13 cards before the auction; those hands are the board's, and "
           "every later table is checked against them (Law 87)."),
    "console_dealt_at_table": Words(
        es="Los tableros se reparten en la mesa: la primera mesa que juega cada uno captura "
           "sus manos.",
        en="The boards are dealt at the table: the first table to play each captures its "
           "hands."),
    "console_dealing_no_hands": Words(
        es="Con los tableros repartidos en la mesa no hay PBN ni semilla: deje ambos vacíos.",
        en="Boards dealt at the table take no PBN file or seed: leave both empty."),
    "console_create": Words(es="Crear la sesión", en="Create the session"),
    "console_created_next": Words(
        es="Las mesas pasan a «{event}» en cuanto terminan el tablero que tengan; «{before}» "
           "queda en Sesiones, con sus resultados y exportaciones.",
        en="The tables move to \"{event}\" as soon as they finish the board they are on; "
           "\"{before}\" stays under Sessions, with its results and exports."),
    "console_created_meanwhile": Words(
        es="Ya se había creado la sesión «{title}»: no se ha creado otra.",
        en="The session \"{title}\" had been created already: no other was created."),
    "console_setup_next": Words(es="Preparar la sesión siguiente", en="Set up the next session"),
    "console_setup_next_help": Words(
        es="Ahora se juega «{title}» ({event}). Al crear esta, las mesas pasan a ella en "
           "cuanto terminan el tablero que tengan, sin cambiar nada en ellas; «{title}» queda "
           "en Sesiones.",
        en="\"{title}\" ({event}) runs now. Once this one is created the tables move to it "
           "as soon as they finish the board they are on, with nothing changed on them; "
           "\"{title}\" stays under Sessions."),
    "console_event": Words(es="Nombre en la red", en="Name on the network"),
    "console_event_help": Words(
        es="en blanco: {name}. Letras, cifras, «.», «_» o «-»; el de un simultáneo lo da "
           "el centro.",
        en="blank: {name}. Letters, digits, '.', '_' or '-'; a simultaneous's comes from "
           "its centre."),
    "console_vugraph_mode": Words(es="Vugraph público", en="Public vugraph"),
    "console_vugraph_mode_help": Words(
        es="«Tableros publicados»: cada tablero cuando todas las mesas lo han jugado; «En "
           "directo», con el retraso, solo para un match de dos mesas.",
        en="\"Released boards\": each board once every table has played it; \"Live\", "
           "with the delay, only for a single match of two tables."),
    "console_vugraph_released": Words(es="Tableros publicados", en="Released boards"),
    "console_vugraph_off": Words(es="Desactivado", en="Off"),
    "console_vugraph_live": Words(es="En directo (un match)", en="Live (a single match)"),
    "console_vugraph_save": Words(es="Guardar", en="Save"),
    "console_vugraph_set_released": Words(
        es="El vugraph público muestra cada tablero cuando se publican sus resultados.",
        en="The public vugraph shows each board once its results are released."),
    "console_vugraph_set_off": Words(es="El vugraph público está desactivado.",
                                     en="The public vugraph is off."),
    "console_vugraph_set_live": Words(
        es="El vugraph público muestra las mesas en directo, con el retraso.",
        en="The public vugraph shows the tables live, with the delay."),
    "console_nav_sessions": Words(es="Sesiones", en="Sessions"),
    "console_sessions": Words(es="Sesiones", en="Sessions"),
    "console_sessions_help": Words(
        es="La primera es la que se juega; las demás conservan sus resultados y "
           "exportaciones. Volver a una la hace la sesión en juego: las mesas pasan a ella "
           "entre tableros.",
        en="The first runs now; the others keep their results and exports. Running one of "
           "them again makes it the session in play: the tables move to it between boards."),
    "console_new_session": Words(es="Preparar la sesión siguiente",
                                 en="Set up the next session"),
    "console_created_at": Words(es="Creada", en="Created"),
    "console_session_results": Words(es="Resultados", en="Results"),
    "console_session_is_running": Words(es="en juego", en="running"),
    "console_session_size": Words(es="{tables} mesas, {rounds} rondas (iniciadas {started})",
                                  en="{tables} tables, {rounds} rounds ({started} started)"),
    "console_run_session": Words(es="Volver a esta sesión", en="Run this session again"),
    "console_session_running": Words(
        es="Se juega «{title}» ({event}): las mesas pasan a ella entre tableros.",
        en="\"{title}\" ({event}) runs now: the tables move to it between boards."),
    "console_no_sessions": Words(es="Aún no hay ninguna sesión.", en="No session yet."),
    "console_created": Words(es="Sesión «{title}» creada: {tables} mesas, {rounds} rondas.",
                             en="Session \"{title}\" set up: {tables} tables, {rounds} rounds."),
    "console_dealt": Words(es="Manos repartidas con la semilla {seed}.",
                           en="Deals made from seed {seed}."),
    "console_imported": Words(es="{n} manos importadas.", en="{n} deals imported."),
    "console_no_file": Words(es="no se ha elegido ningún archivo", en="no file was chosen"),
    "console_summary": Words(es="{movement}, {participants} participantes, {tables} mesas, "
                                "{rounds} rondas de {boards} tableros",
                             en="{movement}, {participants} participants, {tables} tables, "
                                "{rounds} rounds of {boards} boards"),
    "console_current_round": Words(es="Ronda en curso: {n}", en="Current round: {n}"),
    "console_not_started": Words(es="Sin empezar", en="Not started"),
    "console_start_round": Words(es="Empezar la ronda", en="Start round"),
    "console_round_sent": Words(es="Ronda {n} enviada a {tables} mesas.",
                                en="Round {n} sent to {tables} tables."),
    "console_pairing": Words(es="Emparejar a mano", en="Pair by hand"),
    "console_pairing_help": Words(
        es="Solo un suizo, si el árbitro empareja la ronda: cada encuentro local-visitante "
           "(3-8), separados por comas; con equipos impares, el que descansa solo. Se admite "
           "repetir un encuentro.",
        en="A Swiss only, when the director pairs the round: each match home-away (3-8), "
           "separated by commas; with an odd number of teams, the team with the bye alone. "
           "A rematch is allowed."),
    "console_rematches": Words(es="Encuentros repetidos, por decisión del árbitro: {matches}.",
                               en="Rematches, by the director's decision: {matches}."),
    "console_names": Words(es="Nombres", en="Names"),
    "console_number": Words(es="Nº", en="No."),
    "console_participant": Words(es="Participante", en="Participant"),
    "console_save_names": Words(es="Guardar los nombres", en="Save the names"),
    "console_names_saved": Words(es="Nombres guardados.", en="Names saved."),
    "console_deals_count": Words(es="{n} de {total} tableros tienen mano.",
                                 en="{n} of {total} boards have a deal."),
    "console_deals_captured": Words(
        es="Los tableros se reparten en la mesa: cada mano es la que escaneó la primera mesa "
           "que jugó el tablero.",
        en="The boards are dealt at the table: each deal is the one the first table to play "
           "the board scanned."),
    "console_upload": Words(es="Subir", en="Upload"),
})

# The rulings' texts that are not the kinds' own (tablemodel/rulings.py words those).
PAGES.add({
    "console_rulings": Words(es="Decisiones del árbitro", en="Director's rulings"),
    "console_kind": Words(es="Decisión", en="Ruling"),
    "console_unknown_ruling": Words(es="decisión desconocida «{kind}»",
                                       en="unknown ruling \"{kind}\""),
    "console_call": Words(es="Llamada", en="Call"),
    "console_suit_S": Words(es="Picas", en="Spades"),
    "console_suit_H": Words(es="Corazones", en="Hearts"),
    "console_suit_D": Words(es="Diamantes", en="Diamonds"),
    "console_suit_C": Words(es="Tréboles", en="Clubs"),
    "console_note": Words(es="Motivo", en="Reason"),
    "console_board_help": Words(es="vacío: el que está en la mesa",
                                   en="blank: the one on the table"),
    "console_send": Words(es="Enviar a la mesa", en="Send to the table"),
    "console_ruling_queued": Words(es="{kind}: enviada a la mesa {table}.",
                                      en="{kind}: sent to table {table}."),
    "console_laws": Words(es="Leyes {laws}", en="Laws {laws}"),
    "console_law_one": Words(es="Ley {laws}", en="Law {laws}"),
    "console_tricks": Words(es="Bazas", en="Tricks"),
    "console_adjusted": Words(es="Ajustado (A60/40)", en="Adjusted (A60/40)"),
    "console_score_ns": Words(es="Marca NS asignada", en="Assigned NS score"),
    "console_kind_result": Words(es="Resultado corregido", en="Result corrected"),
})

PAGES.add({
    # the record
    "console_record": Words(es="Registro de decisiones y correcciones",
                            en="Rulings and corrections"),
    "console_no_record": Words(es="Ninguna decisión ni corrección aún.",
                               en="No ruling or correction yet."),
    "console_when": Words(es="Hora", en="When"),
    "console_who": Words(es="Árbitro", en="Director"),
    "console_what": Words(es="Qué", en="What"),
    "console_answer": Words(es="Respuesta de la mesa", en="The table's answer"),
    "console_answer_ruling": Words(es="Aplicada", en="Applied"),
    "console_answer_refused": Words(es="Rechazada: {reason}", en="Refused: {reason}"),
    "console_answer_table": Words(es="Elegido en la mesa", en="Chosen at the table"),
    "console_answer_sent": Words(es="Enviada, sin respuesta", en="Sent, no answer yet"),
    "console_answer_queued": Words(es="En cola", en="Queued"),
    "console_before": Words(es="antes", en="before"),
    "console_after": Words(es="después", en="after"),
    # results
    "console_results": Words(es="Resultados", en="Results"),
    "console_contract": Words(es="Contrato", en="Contract"),
    "console_contract_example": Words(es="4HX, 3ST, Paso", en="4HX, 3NT, Pass"),
    # Law 12C1: the score the director assigns; the field also takes the wire's "assigned"
    "console_adjusted_example": Words(es="A60/40, asignada", en="A60/40, assigned"),
    "console_assigned_word": Words(es="asignada", en="assigned"),
    "console_declarer": Words(es="Carteador", en="Declarer"),
    "console_score": Words(es="Marca NS", en="NS score"),
    "console_no_results": Words(es="Ningún resultado aún.", en="No result yet."),
    "console_corrected_by": Words(es="corregido por {by}", en="corrected by {by}"),
    "console_table_said": Words(es="la mesa dijo {score}", en="the table said {score}"),
    "console_transferred": Words(es="renuncio: {tricks} bazas transferidas al carteador "
                                 "(Ley 64)", en="revoke: {tricks} tricks transferred to "
                                 "declarer (Law 64)"),
    "console_unscored": Words(es="sin puntuar: corríjalo", en="not scored: correct it"),
    "console_missing": Words(es="Tableros sin resultado", en="Boards without a result"),
    "console_none": Words(es="Ninguno.", en="None."),
    "console_late": Words(es="Juego tardío: tableros sin publicar",
                          en="Late play: boards not released"),
    "console_late_help": Words(es="Tableros que todas sus mesas ya debían haber jugado.",
                               en="Boards every table should have played by now."),
    "console_release": Words(es="Publicar", en="Release"),
    "console_released": Words(es="Tablero {board} publicado.", en="Board {board} released."),
    "console_no_board": Words(es="el tablero {board} no se juega en la sesión",
                              en="board {board} is not played in this session"),
    "console_played_of": Words(es="{done} de {scheduled} mesas", en="{done} of {scheduled} tables"),
    "console_waiting_for": Words(es="falta: mesa {tables}", en="waiting for table {tables}"),
    "console_rankings": Words(es="Clasificación", en="Rankings"),
    "console_rank": Words(es="Puesto", en="Rank"),
    "console_group": Words(es="Línea", en="Line"),
    "console_boards_played": Words(es="Tableros", en="Boards"),
    "console_total": Words(es="Total", en="Total"),
    "console_percent": Words(es="%", en="%"),
    "console_no_rankings": Words(es="Aún no hay clasificación.", en="No rankings yet."),
    "console_correct": Words(es="Corregir un resultado", en="Correct a result"),
    "console_correct_help": Words(
        es="La marca se calcula con las leyes; solo una marca asignada (Ley 12C1) se toma tal "
           "cual, y una artificial (A60/40, Ley 12C2) no lleva puntos.",
        en="The score comes from the laws; only an assigned score (Law 12C1) is taken as typed, "
           "and an artificial one (A60/40, Law 12C2) has no points."),
    "console_save_correction": Words(es="Guardar la corrección", en="Save the correction"),
    "console_corrected": Words(es="Mesa {table}, tablero {board}: {score}.",
                               en="Table {table}, board {board}: {score}."),
    "console_exports": Words(es="Exportar", en="Export"),
    # conduct: screens, the tray, the alert profile
    "console_conduct": Words(es="Desarrollo del juego", en="How the tables play"),
    "console_screens": Words(es="Pantallas", en="Screens"),
    "console_screens_none": Words(es="Sin pantallas", en="No screens"),
    "console_screens_NE-SW": Words(es="Pantallas: Norte-Este / Sur-Oeste",
                                   en="Screens: North-East / South-West"),
    "console_screens_NW-SE": Words(es="Pantallas: Norte-Oeste / Sur-Este",
                                   en="Screens: North-West / South-East"),
    "console_tray_delay": Words(es="Retraso de la bandeja (s)", en="Tray delay (s)"),
    "console_tray_delay_help": Words(
        es="la bandeja no cruza antes: el otro lado no aprende del tempo",
        en="the tray never crosses sooner: no tempo reaches the other side"),
    "console_tray_delay_is": Words(es="bandeja: {seconds} s como mínimo",
                                   en="tray: at least {seconds} s"),
    "console_profile": Words(es="Normas de alerta", en="Alert norms"),
    "console_profile_feb": Words(es="AEB: alerta el compañero", en="AEB norms: partner alerts"),
    "console_profile_feb-self": Words(es="AEB: cada jugador alerta sus voces",
                                      en="AEB norms: each player alerts their own calls"),
    # system cards
    "console_cards": Words(es="Cartas de convenios", en="System cards"),
    "console_cards_help": Words(
        es="Cada pareja puede tener su carta de convenios (un archivo JSON); va a las mesas "
           "donde se sienta, "
           "con la ronda.",
        en="Each pair may have its card (a JSON file); it goes to the tables where the pair sits, "
           "with the round."),
    "console_cards_individual": Words(
        es="En un individual no hay parejas fijas: no se envían cartas de convenios.",
        en="An individual has no fixed pairs: no system cards are sent."),
    "console_card": Words(es="Carta de convenios", en="System card"),
    "console_no_card": Words(es="sin carta", en="no card"),
    "console_card_file": Words(es="Archivo de la carta (JSON)", en="Card file (JSON)"),
    "console_give_example": Words(es="Dar la carta de ejemplo", en="Give the example card"),
    "console_remove_card": Words(es="Quitar", en="Remove"),
    "console_card_loaded": Words(es="Carta de convenios «{name}» cargada para el participante "
                                    "{participant}.",
                                 en="Card \"{name}\" loaded for participant {participant}."),
    "console_card_removed": Words(es="Carta de convenios del participante {participant} "
                                     "quitada.",
                                  en="Participant {participant}'s card removed."),
    "console_card_loaded_by": Words(es="cargada por {by} a las {when}",
                                    en="loaded by {by} at {when}"),
    "console_card_code": Words(es="Código", en="Code"),
    "console_card_sequence": Words(es="Secuencia", en="Sequence"),
    "console_card_alert": Words(es="Alerta", en="Alert"),
    "console_card_meaning": Words(es="Significado", en="Meaning"),
    # the director's vugraph
    "console_vugraph": Words(es="Vugraph", en="Vugraph"),
    "console_vugraph_title": Words(es="Vugraph del árbitro · Mesa {table}",
                                   en="Director's vugraph · Table {table}"),
    "console_vugraph_help": Words(
        es="Todo, al momento: manos, alertas y explicaciones de los dos "
           "lados de la pantalla.",
        en="Everything, as it happens: hands, alerts and explanations from "
           "both sides of the screen."),
    "console_vugraph_public": Words(es="El vugraph público (con retraso)",
                                    en="The public vugraph (delayed)"),
})


# The first board of a session (issue 31): a session that plays boards 25-48 of a set.
PAGES.add({
    "console_first_board": Words(es="Primer tablero", en="First board"),
    "console_first_board_help": Words(es="los tableros se numeran desde aquí",
                                      en="the boards are numbered from here"),
})

# The console's page structure (issue 34): each page's name, the menus' names.
PAGES.add({
    "console_index_title": Words(es="Mesas y llamadas", en="Tables and calls"),
    "console_nav": Words(es="Consola", en="Console"),
    "console_in_page": Words(es="En esta página", en="On this page"),
    "console_results_grid": Words(es="Resultados por tablero y mesa",
                                  en="Results by board and table"),
    "console_grid_section": Words(
        es="Sección {section}: {tables} mesas. Las demás secciones:",
        en="Section {section}: {tables} tables. The other sections:"),
    "console_grid_tables": Words(es="Mesas {first} a {last} de {total}",
                                 en="Tables {first} to {last} of {total}"),
    "console_grid_pages": Words(es="Páginas de la cuadrícula", en="Pages of the grid"),
    "console_pair_names": Words(es="Nombres de {participant}", en="Names of {participant}"),
    "console_actions": Words(es="Acciones", en="Actions"),
    "console_member_or_visitor": Words(es="Socio o visitante", en="Member or visitor"),
})

# The room's screen, as the director picks it (server/pages/room.py).
PAGES.add({
    "console_room_help": Words(
        es="Lo que muestra la pantalla de la sala va en su dirección: elija y ábrala en el "
           "navegador de la pantalla (o guarde la dirección como favorito). Cada pantalla "
           "pasa sola a la siguiente; las flechas del teclado las pasan a mano y la barra "
           "espaciadora las detiene.",
        en="What the room screen shows is in its address: choose, and open it in the "
           "screen's browser (or bookmark the address). Each screen turns to the next by "
           "itself; the arrow keys turn them by hand and the space bar pauses them."),
    "console_room_show": Words(es="Qué muestra, en este orden", en="What it shows, in this order"),
    "console_room_boards": Words(es="Los tableros terminados, los últimos primero",
                                 en="The finished boards, the newest first"),
    "console_room_rankings": Words(es="La clasificación", en="The rankings"),
    "console_room_progress": Words(es="Cómo va cada mesa", en="Each table's progress"),
    "console_room_boards_help": Words(es="cuántos de los últimos (en blanco: todos)",
                                      en="how many of the newest (blank: all)"),
    "console_room_open": Words(es="Abrir la pantalla de la sala", en="Open the room screen"),
})


# What a table's director call says (its ``detail``), and why it refused a command: the table
# sends the laws engine's message (a code and its params, laws/messages.py), which the
# console says in its own language (``table_message``). A record without one (an old
# journal's) has only the English sentence: these patterns read the ones the tables sent
# before, with the parts that vary; a sentence not listed here shows as it came.
_SEAT = "(?P<{}>[NESW])"
_TABLE_MESSAGES: tuple[tuple[re.Pattern[str], Words], ...] = tuple(
    (re.compile(pattern.format(seat=_SEAT.format("seat"), other=_SEAT.format("other"))), words)
    for pattern, words in (
        (r"{seat} led out of turn; it is {other}'s lead",
         Words(es="{seat} salió fuera de turno; la salida es de {other}",
               en="{seat} led out of turn; it is {other}'s lead")),
        (r"{seat} played out of turn; it is {other}'s turn",
         Words(es="{seat} jugó fuera de turno; le toca a {other}",
               en="{seat} played out of turn; it is {other}'s turn")),
        (r"{seat} alerts {other}'s (?P<call>\S+) late",
         Words(es="{seat} alerta tarde el {call} de {other}",
               en="{seat} alerts {other}'s {call} late")),
        (r"{seat} disputes {other}'s claim of (?P<tricks>\d+)",
         Words(es="{seat} no acepta la reclamación de {tricks} bazas de {other}",
               en="{seat} disputes {other}'s claim of {tricks}")),
        (r"(?P<card>[SHDC][2-9TJQKA]) scanned in {seat}'s hand and in {other}'s",
         Words(es="{card} leída en la mano de {seat} y en la de {other}",
               en="{card} scanned in {seat}'s hand and in {other}'s")),
        (r"(?P<card>[SHDC][2-9TJQKA]) scanned in {seat}'s hand; the board has it in {other}'s",
         Words(es="{card} leída en la mano de {seat}; el tablero la tiene en la de {other}",
               en="{card} scanned in {seat}'s hand; the board has it in {other}'s")),
        (r"(?P<card>[SHDC][2-9TJQKA]) scanned in {seat}'s hand; the board does not have it "
         r"there",
         Words(es="{card} leída en la mano de {seat}; el tablero no la tiene ahí",
               en="{card} scanned in {seat}'s hand; the board does not have it there")),
        (r"a fourteenth card \((?P<card>[SHDC][2-9TJQKA])\) scanned in {seat}'s hand",
         Words(es="una decimocuarta carta ({card}) leída en la mano de {seat}",
               en="a fourteenth card ({card}) scanned in {seat}'s hand")),
        (r"{seat} changed (?P<call>\S+) \(call (?P<number>\d+)\) after a pause; {other} may "
         r"accept it \(25B1\) or not \(25B2\)",
         Words(es="{seat} cambió {call} (voz {number}) tras una pausa; {other} puede "
                  "aceptar el cambio (25B1) o no (25B2)",
               en="{seat} changed {call} (call {number}) after a pause; {other} may accept "
                  "it (25B1) or not (25B2)")),
        (r"board (?P<board>\d+): revoke, (?P<tricks>[+-]\d+) trick\(s\) to declarer",
         Words(es="tablero {board}: renuncio, {tricks} baza(s) al carteador",
               en="board {board}: revoke, {tricks} trick(s) to declarer")),
        (r"{seat} revoked on trick (?P<number>\d+) \((?P<card>[SHDC][2-9TJQKA])\)",
         Words(es="{seat} renunció en la baza {number} ({card})",
               en="{seat} revoked on trick {number} ({card})")),
        (r"{seat} did not comply with Law (?P<law>\S+) on trick (?P<number>\d+) "
         r"\((?P<card>[SHDC][2-9TJQKA])\) when able: a revoke",
         Words(es="{seat} no cumplió la Ley {law} en la baza {number} ({card}) pudiendo "
                  "hacerlo: renuncio",
               en="{seat} did not comply with Law {law} on trick {number} ({card}) when "
                  "able: a revoke")),
        # the server's own call: a table's hands differ from the deal captured first (87)
        (r"the hands of (?P<seats>[NESW](?: [NESW])*) differ from the deal captured first",
         Words(es="las manos de {seats} no son las del reparto leído primero",
               en="the hands of {seats} differ from the deal captured first")),
        # A table's refusal of a command (tabled.control.commands), shown on the record
        (r"no board on the table",
         Words(es="no hay tablero en la mesa", en="no board on the table")),
        (r"board (?P<board>\d*) is being played; end the round first",
         Words(es="se está jugando el tablero {board}; termine antes la ronda",
               en="board {board} is being played; end the round first")),
        (r"(?P<kind>[a-z_]+): the play has started",
         Words(es="{kind}: el carteo ya ha empezado", en="{kind}: the play has started")),
        (r"(?P<kind>[a-z_]+): (?P<reason>.+)",
         Words(es="{kind}: {reason}", en="{kind}: {reason}")),
    ))


def table_message(text: str, language: str,
                  message: tuple[str, Mapping[str, Any]] | None = None) -> str:
    """A table's message (a director call's detail, a command's refusal) in ``language``:
    from its code and params when it came with them (``message``), a ruling refused named
    first; else its English sentence read back (an old record). Seats as the language
    writes them (West is O in Spanish), cards and calls with their suit's symbol."""
    if message is not None:
        code, params = message
        said = bridge.message(code, params, language)
        if said is not None:
            ruling = RULING_KINDS.get(str(params.get("ruling", "")))
            return said if ruling is None else f"{ruling.words[language]}: {said}"
    for pattern, words in _TABLE_MESSAGES:
        found = pattern.fullmatch(text)
        if found is None:
            continue
        parts = dict(found.groupdict())
        for name in ("seat", "other"):
            if name in parts:
                parts[name] = bridge.seat_letter(parts[name], language)
        if "seats" in parts:
            parts["seats"] = " ".join(bridge.seat_letter(s, language)
                                      for s in parts["seats"].split())
        if "card" in parts:
            parts["card"] = bridge.plain(bridge.card_pieces(parts["card"], language))
        if "call" in parts:
            parts["call"] = bridge.plain(bridge.call_pieces(parts["call"], language))
        if "kind" in parts:  # a ruling's kind, by its name in the language
            ruling = RULING_KINDS.get(parts["kind"])
            if ruling is None:
                continue
            parts["kind"] = ruling.words[language]
        return words[language].format(**parts)
    return text
