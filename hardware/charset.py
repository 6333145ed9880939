"""Text for HD44780 character LCDs: ROM A00 codes, custom glyphs, transliteration.

The common HD44780 (ROM code A00, the Japanese set) has ASCII 0x20-0x7D except that 0x5C is a
yen sign and 0x7E/0x7F are arrows, plus a few European letters in its upper half: ñ (0xEE),
ü (0xF5), ä, ö, the degree sign. It has no accented vowels, no Ñ, no ¿ ¡ and no suit symbols.

Those come from CGRAM: eight user-defined 5x8 glyphs, chosen per screen (docs/display.md).
When a screen wants more than eight, the glyphs that carry most keep their slots: the suit
symbols first (a card or a call must not change), then the accented letters and Ñ in the
order they first appear on the screen, and last the opening ¿ and ¡ (the closing ? and !
still say it). What has no slot left falls back to its plain letter, one cell for one
character, so layouts never shift: á→a, Ñ→N, ¿→?, ¡→!, ♥→H ... and anything else
unknown→?. The seat texts stay within eight a screen (tests/hardware/test_lcd.py renders
the Spanish screens of docs/players.es.md).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

CGRAM_SLOTS = 8

#: ROM A00 codes for characters outside plain ASCII (and the two ASCII it lacks).
ROM_A00: dict[str, int] = {
    "ñ": 0xEE, "ü": 0xF5, "ä": 0xE1, "ö": 0xEF, "°": 0xDF, "µ": 0xE4, "·": 0xA5,
    "→": 0x7E, "←": 0x7F, "¥": 0x5C, "÷": 0xFD, "█": 0xFF,
}

SUITS = "♣♦♥♠"
OPENING_MARKS = "¿¡"

#: 5x8 bitmaps, one byte per pixel row (bit 4 is the left column). Capitals use the bottom
#: row, which is free because the cursor is off, so that Ó is taller than ó.
GLYPHS: dict[str, bytes] = {
    "♣": bytes([0x0E, 0x0E, 0x15, 0x1F, 0x15, 0x04, 0x0E, 0x00]),
    "♦": bytes([0x04, 0x0E, 0x1F, 0x1F, 0x0E, 0x04, 0x00, 0x00]),
    "♥": bytes([0x00, 0x0A, 0x1F, 0x1F, 0x1F, 0x0E, 0x04, 0x00]),
    "♠": bytes([0x04, 0x0E, 0x1F, 0x1F, 0x1F, 0x04, 0x0E, 0x00]),
    "á": bytes([0x02, 0x04, 0x0E, 0x01, 0x0F, 0x11, 0x0F, 0x00]),
    "é": bytes([0x02, 0x04, 0x0E, 0x11, 0x1F, 0x10, 0x0E, 0x00]),
    "í": bytes([0x02, 0x04, 0x0C, 0x04, 0x04, 0x04, 0x0E, 0x00]),
    "ó": bytes([0x02, 0x04, 0x0E, 0x11, 0x11, 0x11, 0x0E, 0x00]),
    "ú": bytes([0x02, 0x04, 0x11, 0x11, 0x11, 0x13, 0x0D, 0x00]),
    "Á": bytes([0x02, 0x04, 0x0E, 0x11, 0x11, 0x1F, 0x11, 0x11]),
    "É": bytes([0x02, 0x04, 0x1F, 0x10, 0x1E, 0x10, 0x10, 0x1F]),
    "Í": bytes([0x02, 0x04, 0x0E, 0x04, 0x04, 0x04, 0x04, 0x0E]),
    "Ó": bytes([0x02, 0x04, 0x0E, 0x11, 0x11, 0x11, 0x11, 0x0E]),
    "Ú": bytes([0x02, 0x04, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E]),
    "Ñ": bytes([0x0D, 0x16, 0x00, 0x11, 0x19, 0x15, 0x13, 0x11]),
    "¿": bytes([0x04, 0x00, 0x04, 0x08, 0x10, 0x11, 0x0E, 0x00]),
    "¡": bytes([0x04, 0x00, 0x04, 0x04, 0x04, 0x04, 0x04, 0x00]),
}

_TRANSLITERATION = {
    "♣": "C", "♦": "D", "♥": "H", "♠": "S", "¿": "?", "¡": "!", "\\": "/", "~": "-",
    "«": '"', "»": '"', "“": '"', "”": '"', "‘": "'", "’": "'", "–": "-", "—": "-", "€": "E",
}


def priority(ch: str) -> int:
    """Which glyphs keep a CGRAM slot when a screen wants more than eight: suits (0), then
    letters (1), then the opening ¿ ¡ (2); lower first."""
    if ch in SUITS:
        return 0
    return 2 if ch in OPENING_MARKS else 1


def rom_code(ch: str) -> int | None:
    """The character's code in ROM A00, if it has one."""
    if " " <= ch <= "}" and ch != "\\":
        return ord(ch)
    return ROM_A00.get(ch)


def transliterate(ch: str) -> str:
    """One printable ASCII character that stands in for ``ch``."""
    if ch in _TRANSLITERATION:
        return _TRANSLITERATION[ch]
    base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
    if base and " " <= base[0] <= "}" and base[0] != "\\":
        return base[0]
    return "?"


class LcdEncoder:
    """Turns screens of text into display bytes, keeping track of what is in CGRAM.

    Glyphs stay in their slots while they are still wanted, so a row whose bytes did not
    change still shows the same characters and need not be written again.
    """

    def __init__(self, slots: int = CGRAM_SLOTS) -> None:
        self.slots: list[str | None] = [None] * slots

    def encode(self, lines: Sequence[str]) -> tuple[list[bytes], dict[int, bytes]]:
        """The bytes of each line, and the CGRAM slots to load first (slot -> bitmap)."""
        text = "".join(lines)
        wanted = sorted({ch for ch in text if rom_code(ch) is None and ch in GLYPHS},
                        key=lambda ch: (priority(ch), text.index(ch)))
        chosen = set(wanted[:len(self.slots)])
        free = [i for i, ch in enumerate(self.slots) if ch not in chosen]
        loads: dict[int, bytes] = {}
        for ch in wanted[:len(self.slots)]:
            if ch not in self.slots:
                slot = free.pop(0)
                self.slots[slot] = ch
                loads[slot] = GLYPHS[ch]
        slot_of = {ch: i for i, ch in enumerate(self.slots) if ch is not None}
        return [bytes(self._code(ch, slot_of) for ch in line) for line in lines], loads

    @staticmethod
    def _code(ch: str, slot_of: dict[str, int]) -> int:
        code = rom_code(ch)
        if code is not None:
            return code
        if ch in slot_of:
            return slot_of[ch]
        return ord(transliterate(ch))


def shown(lines: Sequence[str]) -> tuple[list[str], int]:
    """What a seat's LCD shows for ``lines`` on a fresh screen, character for character
    (a glyph without a slot as its plain letter), and how many custom characters it took."""
    encoder = LcdEncoder()
    encoded, loads = encoder.encode(list(lines))
    by_code = {code: ch for ch, code in ROM_A00.items()}
    out = []
    for data in encoded:
        text = []
        for byte in data:
            if byte < len(encoder.slots):
                text.append(encoder.slots[byte] or "?")
            elif byte in by_code and not (0x20 <= byte <= 0x7D and byte != 0x5C):
                text.append(by_code[byte])
            else:
                text.append(chr(byte))
        out.append("".join(text))
    return out, len(loads)
