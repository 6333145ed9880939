"""The rankings' search and pages (server.pages.rankview), in Spanish and English, for the live
page and the director's console (added to server.texts.i18n's PAGES)."""

from __future__ import annotations

from server.texts.i18n import PAGES
from tablemodel.texts import Words

PAGES.add({
    "rankings_search": Words(es="Buscar pareja o jugador", en="Find a pair or player"),
    "rankings_search_hint": Words(es="Número de pareja o nombre", en="Pair number or name"),
    "rankings_section": Words(es="Sección", en="Section"),
    "rankings_all_sections": Words(es="Todas", en="All"),
    "rankings_go": Words(es="Buscar", en="Search"),
    "rankings_clear": Words(es="Ver todas", en="Show all"),
    "rankings_count": Words(es="Parejas {first} a {last} de {matched}",
                            en="Pairs {first} to {last} of {matched}"),
    "rankings_count_filtered": Words(es="{matched} de {total} parejas coinciden",
                                     en="{matched} of {total} pairs match"),
    "rankings_none": Words(es="Ninguna pareja coincide con la búsqueda.",
                           en="No pair matches the search."),
    "rankings_page": Words(es="Página {page} de {pages}", en="Page {page} of {pages}"),
    "rankings_previous": Words(es="Anterior", en="Previous"),
    "rankings_next": Words(es="Siguiente", en="Next"),
    "rankings_pages": Words(es="Páginas de la clasificación", en="Pages of the rankings"),
    "rankings_refused": Words(es="Búsqueda no válida: {reason}", en="Search refused: {reason}"),
})
