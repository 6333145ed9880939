"""The texts of the console's scoring page and of the printed results, in Spanish and English
(registered with server.texts.i18n)."""

from __future__ import annotations

from server.texts.i18n import PAGES
from tablemodel.texts import Words

_TEXTS: dict[str, Words] = {
    "scoring_nav": Words(es="Puntuación", en="Scoring"),
    "scoring_title": Words(
        es="Penalizaciones, puntuaciones ajustadas e impresos",
        en="Penalties, adjusted scores and printouts"),
    "scoring_penalties": Words(
        es="Penalizaciones (Leyes 90 y 91)",
        en="Penalties (Laws 90 and 91)"),
    "scoring_penalties_help": Words(
        es="Se restan de la puntuación del participante en la clasificación y se muestran en "
           "una columna aparte. Una penalización habitual por procedimiento es el 25 % de un "
           "top.",
        en="Taken off the participant's score in the rankings and shown in a column of their "
           "own. A common procedural penalty is 25 % of a top."),
    "scoring_participant": Words(es="Pareja o equipo", en="Pair or team"),
    "scoring_law": Words(es="Ley", en="Law"),
    "scoring_law_90": Words(es="90 · por procedimiento", en="90 · procedural"),
    "scoring_law_91": Words(es="91 · disciplinaria", en="91 · disciplinary"),
    "scoring_amount": Words(es="Cantidad", en="Amount"),
    "scoring_unit": Words(es="Unidad", en="Unit"),
    "scoring_unit_mp": Words(es="puntos de match", en="matchpoints"),
    "scoring_unit_top": Words(es="% de un top", en="% of a top"),
    "scoring_unit_imps": Words(es="IMPs", en="IMPs"),
    "scoring_unit_vp": Words(es="puntos de victoria", en="victory points"),
    "scoring_note": Words(es="Motivo", en="Reason"),
    "scoring_give": Words(es="Penalizar", en="Give the penalty"),
    "scoring_given": Words(
        es="Penalización anotada a {participant}.",
        en="Penalty recorded against {participant}."),
    "scoring_withdraw": Words(es="Retirar", en="Withdraw"),
    "scoring_withdrawn": Words(es="Penalización retirada.", en="Penalty withdrawn."),
    "scoring_withdrawn_by": Words(es="retirada por {by}", en="withdrawn by {by}"),
    "scoring_given_by": Words(es="Puesta por", en="Given by"),
    "scoring_no_penalties": Words(es="Ninguna penalización.", en="No penalty."),
    "scoring_penalty": Words(es="Penalización", en="Penalty"),
    "scoring_rules": Words(
        es="Puntuaciones artificiales (Ley 12C2)",
        en="Artificial adjusted scores (Law 12C2)"),
    "scoring_rules_help": Words(
        es="Lo que valen A+, A= y A- en esta sesión (la Ley: 60/50/40; el club puede fijar "
           "los suyos, con media más de al menos 60 y media menos de como mucho 40). En IMPs "
           "son +3, 0 y -3.",
        en="What A+, A= and A- are worth in this session (the Laws: 60/50/40; the club may "
           "set its own, average plus at least 60 and average minus at most 40). In IMPs they"
           " are +3, 0 and -3."),
    "scoring_avg_plus": Words(es="Media más (A+) %", en="Average plus (A+) %"),
    "scoring_avg": Words(es="Media (A=) %", en="Average (A=) %"),
    "scoring_avg_minus": Words(es="Media menos (A-) %", en="Average minus (A-) %"),
    "scoring_session_percent": Words(
        es="El bando sin culpa recibe su porcentaje de la sesión si es mayor que la media más",
        en="A side in no way at fault gets its session percentage when greater than average plus"),
    "scoring_save_rules": Words(es="Guardar", en="Save"),
    "scoring_rules_saved": Words(
        es="Puntuaciones artificiales guardadas.",
        en="Artificial scores saved."),
    "scoring_assigned": Words(
        es="Puntuación asignada, ponderada o dividida (Ley 12C1)",
        en="Assigned, weighted or split score (Law 12C1)"),
    "scoring_assigned_help": Words(
        es="Escriba contrato, carteador y bazas: «4H S 10». Ponderada: «30% 4H S 10 + 70% 4H"
           " S 9». Dividida: una puntuación distinta para Este-Oeste.",
        en="Write contract, declarer and tricks: \"4H S 10\". Weighted: \"30% 4H S 10 + 70% 4H S"
           " 9\". Split: a different score for East-West."),
    "scoring_ns_score": Words(es="Para Norte-Sur (o los dos)", en="For North-South (or both)"),
    "scoring_ew_score": Words(
        es="Para Este-Oeste (si es distinta)",
        en="For East-West (if different)"),
    "scoring_assign": Words(es="Asignar", en="Assign"),
    "scoring_assigned_done": Words(
        es="Mesa {table}, tablero {board}: {text}.",
        en="Table {table}, board {board}: {text}."),
    "scoring_printouts": Words(es="Impresos y publicación", en="Printouts and publication"),
    "scoring_report_pdf": Words(es="Resultados (PDF)", en="Results pack (PDF)"),
    "scoring_hands_pdf": Words(es="Hoja de manos (PDF)", en="Hand-record sheet (PDF)"),
    "scoring_cards_pdf": Words(es="Tarjetas de mesa y de pareja (PDF)",
                               en="Table cards and guide cards (PDF)"),
    "scoring_site_zip": Words(es="Sitio web estático (ZIP)", en="Static website (ZIP)"),
    "scoring_in": Words(es="en {language}", en="in {language}"),
    "scoring_language_es": Words(es="español", en="Spanish"),
    "scoring_language_en": Words(es="inglés", en="English"),
    "scoring_assigned_kind": Words(es="Tipo", en="Kind"),
    "scoring_assigned_score": Words(es="Marca", en="Score"),
    "scoring_assigned_weighted": Words(es="ponderada (12C1c)", en="weighted (12C1(c))"),
    "scoring_assigned_split": Words(es="distinta para cada línea (12C1d)",
                                    en="split (12C1(d))"),
    "scoring_assigned_assigned": Words(es="asignada (12C1b)", en="assigned (12C1(b))"),
    "report_title": Words(es="Resultados", en="Results"),
    "report_hand_records_title": Words(es="Hoja de manos", en="Hand records"),
    "report_rankings": Words(es="Clasificación final", en="Final rankings"),
    "report_travellers": Words(es="Planillas de los tableros", en="Travellers"),
    "report_hand_records": Words(
        es="Manos, doble muerto y par",
        en="Hand records, double dummy and par"),
    "report_score_cards": Words(es="Tarjetas de puntuación", en="Score cards"),
    "report_score_card": Words(es="Tarjeta de {pair}", en="{pair}'s score card"),
    "report_board": Words(es="Tablero {board}", en="Board {board}"),
    "report_round": Words(es="Ronda", en="Round"),
    "report_side": Words(es="Línea", en="Direction"),
    "report_against": Words(es="Contra", en="Against"),
    "report_score": Words(es="Marca", en="Score"),
    "report_points": Words(es="Puntos", en="Points"),
    "report_penalties": Words(es="Penalizaciones", en="Penalties"),
    "report_penalty_line": Words(
        es="{pair}: {amount} ({law}) · {note}",
        en="{pair}: {amount} ({law}) · {note}"),
    "report_seed": Words(es="Repartidas con la semilla {seed}", en="Dealt with seed {seed}"),
    "report_unscored": Words(
        es="El campo aún no se puede puntuar: {reason}",
        en="The field cannot be scored yet: {reason}"),
    "report_page": Words(es="Página", en="Page"),
    "report_adjusted": Words(es="Ajustada (Ley {law})", en="Adjusted (Law {law})"),
}
PAGES.add(_TEXTS)
