"""The texts of the printouts and pages issue 31 added (the Swiss's matches, the table and
guide cards, the hand viewer), in Spanish and English, registered with server.i18n."""

from __future__ import annotations

from server.i18n import PAGES
from tabled.texts import Words

PAGES.add({
    # a Swiss's matches in the results pack and on the static site
    "report_match": Words(es="Encuentro", en="Match"),
    "report_home": Words(es="Local", en="Home"),
    "report_away": Words(es="Visitante", en="Away"),
    "report_imps": Words(es="IMPs (local)", en="IMPs (home)"),
})

PAGES.add({
    # table cards and guide cards (server/report/cards.py)
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
