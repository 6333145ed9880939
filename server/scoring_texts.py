"""The texts of the console's scoring page and of the printed results, in Spanish and English
(registered with server.i18n)."""

from __future__ import annotations

from server.i18n import register

_TEXTS = {  # key: (Spanish, English)
    "scoring_nav": ("Puntuación", "Scoring"),
    "scoring_title": ("Penalizaciones, puntuaciones ajustadas e impresos",
                      "Penalties, adjusted scores and printouts"),
    # penalties
    "scoring_penalties": ("Penalizaciones (Leyes 90 y 91)", "Penalties (Laws 90 and 91)"),
    "scoring_penalties_help": (
        "Se restan de la puntuación del participante en la clasificación y se muestran en "
        "una columna aparte. Una penalización habitual por procedimiento es el 25 % de un top.",
        "Taken off the participant's score in the rankings and shown in a column of their "
        "own. A common procedural penalty is 25 % of a top."),
    "scoring_participant": ("Pareja o equipo", "Pair or team"),
    "scoring_law": ("Ley", "Law"),
    "scoring_law_90": ("90 · por procedimiento", "90 · procedural"),
    "scoring_law_91": ("91 · disciplinaria", "91 · disciplinary"),
    "scoring_amount": ("Cantidad", "Amount"),
    "scoring_unit": ("Unidad", "Unit"),
    "scoring_unit_mp": ("puntos de match", "matchpoints"),
    "scoring_unit_top": ("% de un top", "% of a top"),
    "scoring_unit_imps": ("IMPs", "IMPs"),
    "scoring_note": ("Motivo", "Reason"),
    "scoring_give": ("Penalizar", "Give the penalty"),
    "scoring_given": ("Penalización anotada a {participant}.",
                      "Penalty recorded against {participant}."),
    "scoring_withdraw": ("Retirar", "Withdraw"),
    "scoring_withdrawn": ("Penalización retirada.", "Penalty withdrawn."),
    "scoring_withdrawn_by": ("retirada por {by}", "withdrawn by {by}"),
    "scoring_given_by": ("Puesta por", "Given by"),
    "scoring_no_penalties": ("Ninguna penalización.", "No penalty."),
    "scoring_penalty": ("Penalización", "Penalty"),
    # the club's figures
    "scoring_rules": ("Puntuaciones artificiales (Ley 12C2)",
                      "Artificial adjusted scores (Law 12C2)"),
    "scoring_rules_help": (
        "Lo que valen A+, A= y A- en esta sesión (la Ley: 60/50/40; el club puede fijar "
        "los suyos, con media más de al menos 60 y media menos de como mucho 40). En IMPs "
        "son +3, 0 y -3.",
        "What A+, A= and A- are worth in this session (the Laws: 60/50/40; the club may set "
        "its own, average plus at least 60 and average minus at most 40). In IMPs they are "
        "+3, 0 and -3."),
    "scoring_avg_plus": ("Media más (A+) %", "Average plus (A+) %"),
    "scoring_avg": ("Media (A=) %", "Average (A=) %"),
    "scoring_avg_minus": ("Media menos (A-) %", "Average minus (A-) %"),
    "scoring_session_percent": (
        "El bando sin culpa recibe su porcentaje de la sesión si es mayor que la media más",
        "A side in no way at fault gets its session percentage when greater than average plus"),
    "scoring_save_rules": ("Guardar", "Save"),
    "scoring_rules_saved": ("Puntuaciones artificiales guardadas.",
                            "Artificial scores saved."),
    # assigned scores
    "scoring_assigned": ("Puntuación asignada, ponderada o dividida (Ley 12C1)",
                         "Assigned, weighted or split score (Law 12C1)"),
    "scoring_assigned_help": (
        "Escriba contrato, declarante y bazas: «4H S 10». Ponderada: «30% 4H S 10 + 70% 4H "
        "S 9». Dividida: una puntuación distinta para Este-Oeste.",
        "Write contract, declarer and tricks: \"4H S 10\". Weighted: \"30% 4H S 10 + 70% "
        "4H S 9\". Split: a different score for East-West."),
    "scoring_ns_score": ("Para Norte-Sur (o los dos)", "For North-South (or both)"),
    "scoring_ew_score": ("Para Este-Oeste (si es distinta)", "For East-West (if different)"),
    "scoring_assign": ("Asignar", "Assign"),
    "scoring_assigned_done": ("Mesa {table}, tablero {board}: {text}.",
                              "Table {table}, board {board}: {text}."),
    # printouts and publication
    "scoring_printouts": ("Impresos y publicación", "Printouts and publication"),
    "scoring_report_pdf": ("Resultados (PDF)", "Results pack (PDF)"),
    "scoring_hands_pdf": ("Hoja de manos (PDF)", "Hand-record sheet (PDF)"),
    "scoring_hands_pbn": ("Manos para la máquina de repartir (PBN)",
                          "Deals for the dealing machine (PBN)"),
    "scoring_site_zip": ("Sitio web estático (ZIP)", "Static website (ZIP)"),
    "scoring_in": ("en {language}", "in {language}"),
    # the printed pages
    "report_title": ("Resultados", "Results"),
    "report_hand_records_title": ("Hoja de manos", "Hand records"),
    "report_rankings": ("Clasificación final", "Final rankings"),
    "report_travellers": ("Hojas de tablero", "Travellers"),
    "report_hand_records": ("Manos, doble muerto y par",
                            "Hand records, double dummy and par"),
    "report_score_cards": ("Tarjetas de puntuación", "Score cards"),
    "report_score_card": ("Tarjeta de {pair}", "{pair}'s score card"),
    "report_board": ("Tablero {board}", "Board {board}"),
    "report_round": ("Ronda", "Round"),
    "report_side": ("Línea", "Direction"),
    "report_against": ("Contra", "Against"),
    "report_score": ("Marca", "Score"),
    "report_points": ("Puntos", "Points"),
    "report_penalties": ("Penalizaciones", "Penalties"),
    "report_penalty_line": ("{pair}: {amount} ({law}) · {note}",
                            "{pair}: {amount} ({law}) · {note}"),
    "report_seed": ("Repartidas con la semilla {seed}", "Dealt with seed {seed}"),
    "report_unscored": ("El campo aún no se puede puntuar: {reason}",
                        "The field cannot be scored yet: {reason}"),
    "report_page": ("Página", "Page"),
    "report_adjusted": ("Ajustada (Ley {law})", "Adjusted (Law {law})"),
}
register({key: {"es": es, "en": en} for key, (es, en) in _TEXTS.items()})
