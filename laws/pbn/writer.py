"""PBN 2.1 (Portable Bridge Notation): write records back, a game at a time.

What was read is written as it was read where the record still says it (a tag's own text, the
sections and the commentary); what the record changed is written in the standard's form.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import IO

from ..board import Deal, Vulnerability
from ..cards import Seat
from ..errors import RecordError
from ..records import Record

#: PBN 3.5.3: the suffix annotations of import format, as the NAGs export format writes.
SUFFIX_NAGS = {"!": "$1", "?": "$2", "!!": "$3", "??": "$4", "!?": "$5", "?!": "$6"}
#: The note an alerted call gets (PBN 3.5.4-3.5.5 has no alert mark: a note says it).
ALERT = "Alert"

#: The tags of the identification section, in the order PBN export format writes them.
MANDATORY_TAGS = ("Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
                  "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result")


def _escape(value: str) -> str:
    # Only backslashes that would be read as escapes are doubled, so "\2R" in a table header
    # stays as real files write it; tag values are one line.
    value = " ".join(value.splitlines())
    return re.sub(r'\\(?=[\\"]|$)', r"\\\\", value).replace('"', '\\"')


def dumps(records: Iterable[Record], *, newline: str = "\n") -> str:
    """PBN 2.1: the identification tags in the standard order, then the auction with its
    notes, the play, and the other tags as read, a blank line after each game."""
    lines = ["% PBN 2.1"]
    for record in records:
        lines.extend(_game_lines(record))
        lines.append("")
    return newline.join(lines) + newline


def dump(records: Iterable[Record], fp: IO[str], *, newline: str = "\n") -> None:
    fp.write(dumps(records, newline=newline))


def _kept(old: str | None, new: object, parse: Callable[[str], object]) -> bool:
    """Whether the tag's text already says ``new`` (so it is written as it was read)."""
    if old is None:
        return False
    try:
        return parse(old.strip()) == new
    except ValueError:
        return False


def _tag_values(record: Record) -> dict[str, str]:
    values = dict(record.tags)
    values.pop("Note", None)

    def put(name: str, new: object, parse: Callable[[str], object], text: str) -> None:
        if new is not None and not _kept(values.get(name), new, parse):
            values[name] = text

    put("Board", record.board, int, str(record.board))
    put("Dealer", record.dealer, Seat.from_str, str(record.dealer))
    put("Vulnerable", record.vulnerability, Vulnerability.from_str, str(record.vulnerability))
    if record.deal is not None:
        put("Deal", record.deal, Deal.from_pbn, record.deal.to_pbn(record.dealer or Seat.N))
    for name, raw in (("Declarer", record.declarer_tag), ("Contract", record.contract_tag),
                      ("Result", record.result_tag), ("Score", record.score_tag)):
        if raw is not None:
            values[name] = raw
    first = record.auction_dealer or (record.dealer if record.auction else None)
    if record.auction and first is None:
        raise RecordError("pbn_auction_without_seat")
    put("Auction", first, Seat.from_str, str(first))
    if record.play and record.play_leader is None:
        raise RecordError("pbn_play_without_leader")
    put("Play", record.play_leader, Seat.from_str, str(record.play_leader))
    return values


def _game_lines(record: Record) -> list[str]:
    values = _tag_values(record)
    order = [name for name in MANDATORY_TAGS if name in values]
    order += [name for name in ("Auction", "Play") if name in values]
    order += [name for name in values if name not in order]
    lines: list[str] = []
    for name in order:
        lines.append(f'[{name} "{_escape(values[name])}"]')
        if name == "Auction":
            lines.extend(_auction_lines(record))
        elif name == "Play":
            lines.extend(_play_lines(record))
        lines.extend(record.sections.get(name, []))
    for text in record.commentary:
        lines.extend(_commentary_lines(text))
    return lines


def _note_text(note: str | None, alert: bool) -> str | None:
    """The call's note: an alert says so first (the explanation after it, when given)."""
    if not alert:
        return note
    return f"{ALERT}: {note}" if note else ALERT


def _auction_lines(record: Record) -> list[str]:
    """The calls in export format: each note as ``=n=`` after its call (an alert is a note,
    PBN 3.5.4), then its other annotations as NAGs (``!`` is ``$1``, PBN 3.5.3)."""
    notes = dict(record.notes)
    next_free = max(notes, default=0) + 1
    tokens: list[str] = []
    for item in record.auction:
        ref = item.note_ref
        text = _note_text(item.note, item.alert)
        if ref is None and text is not None:
            ref, next_free = next_free, next_free + 1
        if ref is not None and text is not None:
            # An alert rewrites the call's note to say so; a note read stays as read.
            notes[ref] = text if item.alert else notes.get(ref, text)
        parts = [str(item.call)] + [f"={ref}="] * (ref is not None)
        parts += [SUFFIX_NAGS.get(nag, nag) for nag in item.nags]
        tokens.append(" ".join(parts))
    lines = [" ".join(tokens[i:i + 4]) for i in range(0, len(tokens), 4)]
    if record.auction and not record.auction_complete:
        lines.append("*")
    lines += [f'[Note "{number}:{_escape(text)}"]' for number, text in notes.items()]
    return lines


def _play_lines(record: Record) -> list[str]:
    lines: list[str] = []
    if record.play_leader is not None:
        seats = Seat.clockwise_from(record.play_leader)
        for trick in record.play:
            lines.append(" ".join(str(trick[seat]) if seat in trick else "-" for seat in seats))
        if record.play and (len(record.play) < 13 or any(len(t) < 4 for t in record.play)):
            lines.append("*")
    lines += [f'[Note "{number}:{_escape(text)}"]' for number, text in record.play_notes.items()]
    return lines


def _balanced(text: str) -> bool:
    depth = 0
    for char in text:
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def _commentary_lines(text: str) -> list[str]:
    if _balanced(text):
        return ("{" + text + "}").split("\n")
    # No brace can be escaped: unbalanced text goes out as ";" comments, one per line.
    return ["; " + line for line in text.split("\n")]
