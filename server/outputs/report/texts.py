"""The texts of the printouts and pages issue 31 added (the Swiss's matches, the table and
guide cards, the hand viewer), in Spanish and English, registered with server.texts.i18n."""

from __future__ import annotations

from server.texts.i18n import PAGES
from tablemodel.texts import Words

PAGES.add({
    # a Swiss's matches in the results pack and on the static site
    "report_match": Words(es="Encuentro", en="Match"),
    "report_home_team": Words(es="Local", en="Home"),
    "report_away": Words(es="Visitante", en="Away"),
    "report_imps": Words(es="IMPs (local)", en="IMPs (home)"),
})

PAGES.add({
    # table cards and guide cards (server/outputs/report/cards.py)
    "cards_title": Words(es="Tarjetas de mesa y de pareja", en="Table cards and guide cards"),
    "cards_movement": Words(es="{movement}: {tables} mesas, {rounds} rondas",
                            en="{movement}: {tables} tables, {rounds} rounds"),
    "cards_table": Words(es="Mesa {table}", en="Table {table}"),
    "cards_boards": Words(es="Tableros", en="Boards"),
    "cards_ns_next": Words(es="NS va a", en="NS go to"),
    "cards_ew_next": Words(es="EO va a", en="EW go to"),
    "cards_boards_next": Words(es="Los tableros van a", en="Boards go to"),
    "cards_to_table": Words(es="mesa {table}", en="table {table}"),
    "cards_relay_then": Words(es="atril de relevo, luego mesa {table}",
                              en="relay stand, then table {table}"),
    "cards_stays": Words(es="se queda", en="stays"),
    "cards_sit_out": Words(es="descansa", en="sits out"),
    "cards_guides": Words(es="Tarjetas de pareja", en="Guide cards"),
    "cards_guide": Words(es="Tarjeta de {pair}", en="Guide card: {pair}"),
    "cards_sits": Words(es="Juega en", en="Sits"),
    "cards_then": Words(es="Después, a", en="Then to"),
})

PAGES.add({
    # the hand viewer (server/outputs/handviewer.py) and its script (server/static/handviewer.js)
    "hands_title": Words(es="Carteo del tablero {board}", en="Play of board {board}"),
    "hands_back": Words(es="Volver", en="Back"),
    "hands_summary_link": Words(es="Bazas regaladas por pareja",
                                en="Tricks given away, by pair"),
    "hands_dealer": Words(es="Reparte {seat}", en="Dealer {seat}"),
    "hands_help": Words(
        es="La subasta y el carteo de cada mesa, baza a baza. Tras cada carta, las bazas que "
           "el bando del carteador podía hacer aún con el mejor carteo de todos (doble "
           "muerto, contando las ya hechas); una carta marcada regaló bazas.",
        en="Every table's auction and play, trick by trick. After each card, the tricks "
           "declarer's side could still take with best play by everyone (double dummy, those "
           "already won counted); a marked card gave tricks away."),
    "hands_tables": Words(es="Mesas", en="Tables"),
    "hands_table": Words(es="Mesa {table}", en="Table {table}"),
    "hands_tricks": Words(es="{n} bazas", en="{n} tricks"),
    "hands_score": Words(es="NS {score}", en="NS {score}"),
    "hands_given": Words(
        es="Bazas regaladas en el carteo: carteador {declarer}, defensa {defence}",
        en="Tricks given away in play: declarer {declarer}, defence {defence}"),
    "hands_not_analysed": Words(es="El análisis de este carteo aún no está hecho.",
                                en="This play is not analysed yet."),
    "hands_not_shown": Words(es="Este tablero aún no se ha publicado.",
                             en="This board is not released yet."),
    "hands_gave_away_n": Words(es="regaló {n} baza(s)", en="gave away {n} trick(s)"),
    "hands_trick": Words(es="Baza", en="Trick"),
    "hands_start": Words(es="Antes de la salida", en="Before the opening lead"),
    "hands_can_take": Words(es="El bando del carteador puede hacer",
                            en="Declarer's side can take"),
    "hands_gave_away": Words(es="Esta carta regaló", en="This card gave away"),
    "hands_first": Words(es="Al principio", en="To the start"),
    "hands_previous": Words(es="Carta anterior", en="Previous card"),
    "hands_next": Words(es="Carta siguiente", en="Next card"),
    "hands_last": Words(es="Al final", en="To the end"),
    "hands_lead": Words(es="salida", en="lead"),
    "hands_end": Words(es="Fin del carteo", en="End of the play"),
    "hands_summary_title": Words(es="Bazas regaladas en el carteo",
                                 en="Tricks given away in play"),
    "hands_summary_help": Words(
        es="Por pareja, en los tableros analizados: las bazas que regalaron sus cartas "
           "como carteador (y muerto) y en defensa, según el análisis a doble muerto.",
        en="By pair, over the boards analysed: the tricks its cards gave away as declarer "
           "(and dummy) and in defence, by the double-dummy analysis."),
    "hands_as_declarer": Words(es="Como carteador", en="As declarer"),
    "hands_in_defence": Words(es="En defensa", en="In defence"),
    "hands_boards_analysed": Words(es="Tableros analizados", en="Boards analysed"),
    "hands_none_yet": Words(es="Aún no hay carteos analizados.",
                            en="No play analysed yet."),
    "hands_boards": Words(es="Tableros", en="Boards"),
    "hands_link": Words(es="Carteo de cada mesa", en="Every table's play"),
})
