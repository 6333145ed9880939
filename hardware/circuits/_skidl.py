"""SKiDL behind one small door: import it quietly, place catalogue parts, run its ERC.

SKiDL warns on import that no KiCad symbol libraries are installed (none are needed: every
part here is defined in ``catalogue``), and by default writes log and ERC files beside the
running script. Both are turned off here, so a test or ``python3 -m hardware.build`` leaves
nothing behind but the files it was asked for.
"""

from __future__ import annotations

import io
import logging
import os
import sys
import tempfile
from typing import Any

from .catalogue import PartKind

_skidl: Any = None


def skidl() -> Any:
    """The skidl module, imported once without its import-time chatter."""
    global _skidl
    if _skidl is None:
        # Its log files are opened in the working directory at import: open them in a
        # folder of our own, then have SKiDL close and delete them.
        real, sys.stderr = sys.stderr, io.StringIO()
        here = os.getcwd()
        with tempfile.TemporaryDirectory(prefix="bidbox-skidl-") as folder:
            os.chdir(folder)
            try:
                import skidl as module  # type: ignore[import-untyped]
                from skidl.logger import stop_log_file_output  # type: ignore[import-untyped]
                stop_log_file_output(True)
            finally:
                os.chdir(here)
                chatter, sys.stderr = sys.stderr, real
        for name in ("skidl", "ERC_Logger"):
            for handler in logging.getLogger(name).handlers:
                if isinstance(handler, logging.StreamHandler) and handler.stream is chatter:
                    handler.setStream(real)
        _skidl = module
    return _skidl


def new_circuit() -> Any:
    sk = skidl()
    circuit = sk.Circuit()
    circuit.no_files = True
    return circuit


_FUNCS = {"passive": "PASSIVE", "bidir": "BIDIR", "power_out": "PWROUT",
          "power_in": "PWRIN", "no_connect": "NOCONNECT"}


def place(circuit: Any, kind: PartKind, ref: str, *, role: str = "",
          value: str | None = None) -> Any:
    """One part of ``kind`` in ``circuit``, with its reference, MPN and (optional) role."""
    sk = skidl()
    pins = [sk.Pin(num=pin.number, name=pin.name, func=getattr(sk.Pin.types, _FUNCS[pin.kind]))
            for pin in kind.pins]
    part = sk.Part(name=kind.name, tool=sk.SKIDL, dest=sk.NETLIST, pins=pins, circuit=circuit,
                   ref=ref, tag=ref, value=value or kind.value, footprint=kind.footprint,
                   description=kind.description)
    part.fields["Manufacturer"] = kind.manufacturer
    part.fields["MPN"] = kind.mpn
    if role:
        part.fields["Role"] = role
    return part


def net(circuit: Any, name: str) -> Any:
    return skidl().Net(name, circuit=circuit)


def erc(circuit: Any) -> tuple[int, int, str]:
    """Run the ERC; (errors, warnings, what it said)."""
    sk = skidl()
    logger = logging.getLogger("ERC_Logger")
    said = io.StringIO()
    capture = logging.StreamHandler(said)
    logger.addHandler(capture)
    quiet = [h for h in logger.handlers if h is not capture]
    levels = [h.level for h in quiet]
    for handler in quiet:
        handler.setLevel(logging.CRITICAL + 1)
    try:
        circuit.ERC()
    finally:
        logger.removeHandler(capture)
        for handler, level in zip(quiet, levels, strict=True):
            handler.setLevel(level)
    return sk.erc_logger.error.count, sk.erc_logger.warning.count, said.getvalue()


def kicad_netlist(circuit: Any) -> str:
    """The circuit as a KiCad netlist (s-expressions), as a board house's layout reads it."""
    sk = skidl()
    logger = logging.getLogger("skidl")
    levels = [h.level for h in logger.handlers]
    for handler in logger.handlers:
        handler.setLevel(logging.ERROR)
    try:
        return str(circuit.generate_netlist(tool=sk.KICAD8, do_backup=False, track_src=False))
    finally:
        for handler, level in zip(logger.handlers, levels, strict=True):
            handler.setLevel(level)
