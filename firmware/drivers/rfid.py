"""What every RFID reader driver shares: its errors and ISO 14443-A's CRC.

A reader driver has ``init()`` (set the chip up; it may have lost power since) and ``scan()``,
one poll of the antenna: the UIDs of the tags in the field (``[]`` or ``[uid]``), or one of
the errors below.
"""


class ReaderError(Exception):
    """Root of the reader drivers' errors."""


class NotResponding(ReaderError):
    """The reader chip does not answer (unplugged, no power, a broken wire): ``E 201``."""


class ReadFailed(ReaderError):
    """A tag answered, but garbled (RF collision, CRC or parity error): ``E 101``."""


class Collision(ReaderError):
    """Two or more tags answered at once: two cards on the antenna, ``E 103``."""


def crc_a(data: bytes) -> bytes:
    """ISO/IEC 14443-3 CRC_A (initial 0x6363, reflected 0x8408), low byte first."""
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = (crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)
    return bytes([crc & 0xFF, crc >> 8 & 0xFF])
