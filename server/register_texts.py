"""The texts of the console's Register page (server/console_register.py), in Spanish and
English (registered with server.i18n)."""

from __future__ import annotations

from server.i18n import PAGES
from tabled.texts import Words

_TEXTS: dict[str, Words] = {
    "register_nav": Words(es="Registro", en="Register"),
    "register_title": Words(es="Registro de jugadores", en="Player register"),
    "register_help": Words(
        es="Los jugadores teclean su número en la mesa; la mesa rechaza un número que no "
           "está en el registro de la sesión. Una sesión copia el registro al crearse: "
           "cambiarlo después no cambia la sesión, salvo un visitante añadido aquí mientras "
           "se juega, que llega a las mesas en el acto.",
        en="Players type their numbers at the table; the table refuses a number that is not "
           "in the session's register. A session copies the register when it is created: "
           "changing it later does not change the session, except a visitor added here "
           "while it is played, who reaches the tables at once."),
    "register_import": Words(es="Importar socios (CSV)", en="Import members (CSV)"),
    "register_import_help": Words(
        es="Columnas: número, nombre, licencia federativa; separadas por «,» o «;»; con o "
           "sin fila de cabecera; UTF-8 o Windows-1252 (CSV de Excel). Si alguna fila está "
           "mal no se importa nada y se dice qué línea.",
        en="Columns: number, name, federation licence; separated by “,” or “;”; with or "
           "without a header row; UTF-8 or Windows-1252 (Excel's CSV). If any row is bad "
           "nothing is imported and its line is named."),
    "register_file": Words(es="Fichero CSV", en="CSV file"),
    "register_upload": Words(es="Importar", en="Import"),
    "register_imported": Words(
        es="Registro importado: {added} nuevos, {updated} actualizados.",
        en="Register imported: {added} new, {updated} updated."),
    "register_no_file": Words(es="no se eligió ningún fichero", en="no file was chosen"),
    "register_members": Words(es="Jugadores ({n})", en="Players ({n})"),
    "register_empty": Words(es="El registro está vacío: las mesas aceptan cualquier número.",
                            en="The register is empty: the tables take any number."),
    "register_number": Words(es="Número", en="Number"),
    "register_name": Words(es="Nombre", en="Name"),
    "register_licence": Words(es="Licencia", en="Licence"),
    "register_visitor": Words(es="Visitante", en="Visitor"),
    "register_member": Words(es="Socio", en="Member"),
    "register_save": Words(es="Guardar", en="Save"),
    "register_saved": Words(es="Jugador {number} guardado.", en="Player {number} saved."),
    "register_add_visitor": Words(es="Añadir un visitante", en="Add a visitor"),
    "register_add": Words(es="Añadir", en="Add"),
    "register_visitor_added": Words(
        es="Visitante {number} ({name}) añadido.",
        en="Visitor {number} ({name}) added."),
    "register_visitor_sent": Words(
        es="Visitante {number} ({name}) añadido y enviado a {tables} mesas.",
        en="Visitor {number} ({name}) added and sent to {tables} tables."),
    "register_session": Words(
        es="La sesión en curso tiene {n} jugadores en su copia del registro.",
        en="The running session has {n} players in its copy of the register."),
    "register_session_none": Words(
        es="La sesión en curso se creó sin registro: sus mesas aceptan cualquier número.",
        en="The running session was created with no register: its tables take any number."),
    "register_seated": Words(es="Jugadores en las mesas", en="Players at the tables"),
    "register_table": Words(es="Mesa", en="Table"),
    "register_no_seated": Words(es="Nadie se ha sentado todavía.",
                                en="Nobody has sat down yet."),
    "register_unknown": Words(es="no está en el registro", en="not in the register"),
}

PAGES.add(_TEXTS)
