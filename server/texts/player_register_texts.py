"""The texts of the console's Register page (server/pages/console_register.py), in Spanish and
English (registered with server.texts.i18n)."""

from __future__ import annotations

from server.texts.i18n import PAGES
from tablemodel.texts import Words

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
    # Why a file or an entry is refused (server/setup/player_register.py's RegisterError).
    "register_err_refused": Words(es="no se ha importado nada: {problems}",
                                  en="nothing was imported: {problems}"),
    "register_err_line": Words(es="línea {line}: {problem}", en="line {line}: {problem}"),
    "register_err_more": Words(es="y {n} filas erróneas más", en="and {n} more bad rows"),
    "register_err_number": Words(
        es="el número '{value}' no es un número de jugador (de 1 a 9 cifras, no 0)",
        en="number '{value}' is not a player number (1 to 9 digits, not 0)"),
    "register_err_header": Words(
        es="no es una fila de títulos conocida ni un jugador: los títulos son Número, Nombre "
           "(y Apellidos, si van aparte) y Licencia",
        en="neither a header row this page knows nor a player: the headings are Number, Name "
           "(and Surname, when apart) and Licence"),
    "register_err_no_number": Words(es="falta el número de jugador", en="no player number"),
    "register_err_name_empty": Words(es="el nombre está vacío", en="the name is empty"),
    "register_err_name_long": Words(
        es="el nombre tiene {n} caracteres; como mucho {limit}",
        en="the name has {n} characters; at most {limit}"),
    "register_err_name_control": Words(es="el nombre contiene un carácter de control",
                                       en="the name holds a control character"),
    "register_err_licence": Words(
        es="la licencia '{value}' tiene más de {limit} caracteres",
        en="the licence '{value}' is longer than {limit} characters"),
    "register_err_fields": Words(es="{n} campos; se esperan como mucho {expected}",
                                 en="{n} fields; at most {expected} are expected"),
    "register_err_duplicate": Words(es="el número {number} ya está en la línea {first}",
                                    en="number {number} is already on line {first}"),
    "register_err_csv": Words(es="el CSV está mal formado ({detail})",
                              en="the CSV is malformed ({detail})"),
    "register_err_no_players": Words(
        es="el fichero no contiene jugadores (número, nombre, licencia)",
        en="the file lists no players (number, name, licence)"),
    "register_err_big": Words(es="el fichero tiene {size} bytes; como mucho {limit}",
                              en="the file has {size} bytes; at most {limit}"),
    "register_err_bom": Words(
        es="el fichero empieza como UTF-8 pero el byte {at} no es UTF-8; guárdelo de nuevo "
           "como CSV UTF-8",
        en="the file starts as UTF-8 but byte {at} is not UTF-8; save it again as CSV UTF-8"),
    "register_err_encoding": Words(
        es="el byte {at} no es texto UTF-8 ni Windows-1252; guarde el fichero como CSV",
        en="byte {at} is neither UTF-8 nor Windows-1252 text; save the file as CSV"),
    "register_err_exists": Words(es="el número {number} ya está en el registro ({name})",
                                 en="number {number} is already in the register ({name})"),
    "register_err_in_session": Words(
        es="el número {number} ya está entre los jugadores de esta sesión",
        en="number {number} is already in this session's players"),
    "register_err_unknown": Words(es="el número {number} no está en el registro",
                                  en="number {number} is not in the register"),
    "register_err_too_many": Words(
        es="el registro tendría {n} jugadores; las mesas admiten como mucho {limit}",
        en="the register would hold {n} players; the tables take at most {limit}"),
    "register_err_too_big": Words(
        es="la lista de jugadores ocuparía {size} bytes; las mesas admiten como mucho {limit}",
        en="the list of players would take {size} bytes; the tables take at most {limit}"),
    "register_err_roster": Words(es="no se puede enviar la lista a las mesas: {detail}",
                                 en="the roster cannot be sent to the tables: {detail}"),
}

PAGES.add(_TEXTS)

# The club's identity, for the exports (issue 31).
PAGES.add({
    "register_club": Words(es="El club", en="The club"),
    "register_club_help": Words(
        es="El nombre del club y su número de club en la federación: van en las "
           "exportaciones USEBIO de todas las sesiones.",
        en="The club's name and its club number at the federation: they go into every "
           "session's USEBIO export."),
    "register_club_name": Words(es="Nombre del club", en="Club name"),
    "register_club_number": Words(es="Número de club (federación)",
                                  en="Club number (federation)"),
    "register_club_saved": Words(es="Club: {name}, número {number}.",
                                 en="Club: {name}, number {number}."),
})
