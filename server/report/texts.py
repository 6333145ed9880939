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
    "report_imps": Words(es="IMPs", en="IMPs"),
})
