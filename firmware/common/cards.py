"""Tag-to-card mapping on the board: an optional tag table, so the reader can send ``C`` lines.

Normally the card reader sends ``T <uid> <seat>`` and the Pi maps the tag to a card with its
tag table (``hardware/tags.py``), which also knows each card's deck. A reader used without
that table (a practice table, a single deck) can carry the mapping itself: ``tags.bin`` on
the board, built from the Pi's ``tags.json`` by ``python3 -m firmware.flash --tags``. It is
a sorted array of fixed 12-byte records, searched in place, because a Pico has no room to
parse the JSON of every deck of an event:

    byte 0       UID length (4 to 10)
    bytes 1-10   the UID, zero-padded
    byte 11      the card: 0-51 in deck order C2..CA, D2..DA, H2..HA, S2..SA

A tag that is not in the table is still sent as ``T``, so the Pi may know it.
"""

from firmware.common.protocol import RANKS, SUITS

RECORD = 12
UID_ROOM = 10


def card_code(index: int) -> str:
    """The card with this deck index: 0 is ``C2``, 12 ``CA``, 13 ``D2``, 51 ``SA``."""
    return SUITS[index // 13] + RANKS[index % 13]


def card_index(code: str) -> int:
    """The deck index of a card code; ``ValueError`` for anything else."""
    if len(code) != 2 or code[0] not in SUITS or code[1] not in RANKS:
        raise ValueError("not a card: %r" % code)  # noqa: UP031
    return SUITS.index(code[0]) * 13 + RANKS.index(code[1])


def _key(uid: bytes) -> bytes:
    return bytes([len(uid)]) + uid + bytes(UID_ROOM - len(uid))


class TagMap:
    """Looks tags up in the records of ``tags.bin``."""

    def __init__(self, blob: bytes) -> None:
        if len(blob) % RECORD:
            raise ValueError("a tag table is a whole number of 12-byte records")
        self._blob = blob

    def __len__(self) -> int:
        return len(self._blob) // RECORD

    def lookup(self, uid: bytes) -> "str | None":
        """The card code of a tag, or None if the table does not have it."""
        if not 4 <= len(uid) <= UID_ROOM:
            return None
        key = _key(uid)
        blob = self._blob
        low = 0
        high = len(blob) // RECORD
        while low < high:
            middle = (low + high) // 2
            start = middle * RECORD
            here = blob[start:start + RECORD - 1]
            if here == key:
                return card_code(blob[start + RECORD - 1])
            if here < key:
                low = middle + 1
            else:
                high = middle
        return None

    @staticmethod
    def build(tags: "dict[str, str]") -> bytes:
        """The records for a mapping of UID (upper-case hex) to card code, sorted."""
        records = []
        for uid_text, code in tags.items():
            uid = bytes([int(uid_text[i:i + 2], 16) for i in range(0, len(uid_text), 2)])
            if not 4 <= len(uid) <= UID_ROOM or len(uid_text) != 2 * len(uid):
                raise ValueError("a UID of 4 to 10 bytes, in hex: %r" % uid_text)  # noqa: UP031
            records.append(_key(uid) + bytes([card_index(code)]))
        records.sort()
        for i in range(1, len(records)):
            if records[i][:RECORD - 1] == records[i - 1][:RECORD - 1]:
                raise ValueError("a tag is in the table twice")
        return b"".join(records)


def load(path: str) -> "TagMap | None":
    """The tag table in file ``path``, or None if there is no such file on the board."""
    try:
        with open(path, "rb") as stream:
            return TagMap(stream.read())
    except OSError:
        return None
