"""System cards: what a pair's calls mean, written down (Law 40A1(b), 40B2(a)).

A card is a JSON file: a name and a list of entries, each a sequence of calls, its meaning in
English and Spanish, whether the call is alertable under the general norms (the regulator's
profile may still exempt it: tablemodel.regulation), and a code the partner can type to give
that meaning as an answer to a question (Law 20F1; written answers under screens).

A sequence is written from the side that holds the card, from the first call that is not a
pass: its own calls as they are (``1NT 2C``), the opponents' in brackets (``(1H) X``). The
opponents' passes are left out, so ``1H 2H`` holds whether or not they passed in between, and
``(1H) P X`` is the reopening double. ``*`` stands for any calls, ``(*)`` for any one call of
the opponents, so ``* 4NT`` is four no trump after anything. The first
entry that matches the whole auction up to the call is its meaning: put the specific first.

The natural system of seed 004 ships as the example card (``example()``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from laws import Call, InvalidNotationError, Seat
from laws.auction import Auction
from tablemodel.texts import TextTable, Words, table

MAX_ENTRIES = 400
MAX_MEANING = 160
MIN_CODE = 10   # 0-9 are the standard answers every pair has
MAX_CODE = 9999
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")

#: Answers any pair may give by code, whatever its card (Law 20F1: "no agreement" is one),
#: in the order they are offered after the card's own meaning.
STANDARD_ANSWERS: TextTable[int] = table("answers", {
    1: Words(es="natural", en="natural"),
    0: Words(es="sin acuerdo", en="no agreement"),
    2: Words(es="artificial: vea la carta de convenios", en="artificial: see our card"),
    3: Words(es="forcing", en="forcing"),
    4: Words(es="invitativa", en="invitational"),
    5: Words(es="para jugar", en="to play"),
})


def answer_line(card: SystemCard | None, code: int, language: str) -> str:
    """An answer as the answering seat's display offers it: its code, then its text."""
    return f"{code} {answer_text(card, code, language) or ''}".rstrip()


class CardError(ValueError):
    """A system card that cannot be read: the message says where."""


@dataclass(frozen=True)
class Entry:
    code: int
    seq: tuple[str, ...]
    alert: bool
    en: str
    es: str
    penalty: bool | None = None  # a double: for penalty or not (norm 8 decides its alert)

    @property
    def sequence(self) -> str:
        return " ".join(self.seq)

    def meaning(self, language: str) -> str:
        return self.es if language == "es" else self.en


def answer_text(card: SystemCard | None, code: int, language: str) -> str | None:
    """The text of answer ``code``: a standard answer, or an entry of ``card``."""
    if code in STANDARD_ANSWERS:
        return STANDARD_ANSWERS.text(code, language)
    if card is not None:
        entry = card.by_code(code)
        if entry is not None:
            return entry.meaning(language)
    return None


def _token(token: str, where: str) -> str:
    if token in ("*", "(*)"):
        return token
    inner = token[1:-1] if token.startswith("(") and token.endswith(")") else token
    try:
        call = Call.from_str(inner)
    except (InvalidNotationError, ValueError) as error:
        raise CardError(f"{where}: {token!r} is not a call") from error
    text = str(call)
    return f"({text})" if inner is not token else text


def _meaning(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise CardError(f"{where}: the meaning is missing")
    if len(value) > MAX_MEANING or _CONTROL.search(value):
        raise CardError(f"{where}: a meaning is one line of at most {MAX_MEANING} characters")
    return value.strip()


def _match(pattern: Sequence[str], tokens: Sequence[str]) -> bool:
    @cache
    def at(p: int, t: int) -> bool:
        if p == len(pattern):
            return t == len(tokens)
        head = pattern[p]
        if head == "*":
            return at(p + 1, t) or (t < len(tokens) and at(p, t + 1))
        if t == len(tokens):
            return False
        if head == "(*)":
            return tokens[t].startswith("(") and at(p + 1, t + 1)
        return head == tokens[t] and at(p + 1, t + 1)

    return at(0, 0)


def tokens_for(auction: Auction, index: int, side_of: Seat) -> tuple[str, ...]:
    """The auction up to and including ``index`` as the card of ``side_of``'s side reads
    it: from the first call that is not a pass, the opponents' in brackets, their passes
    left out."""
    out: list[str] = []
    started = False
    for i, entry in enumerate(auction.entries[:index + 1]):
        text = str(entry.call)
        if not started and text == "Pass" and i < index:
            continue
        started = True
        ours = entry.seat.side is side_of.side
        if ours:
            out.append(text)
        elif text != "Pass" or i == index:
            out.append(f"({text})")
    return tuple(out)


@dataclass(frozen=True)
class SystemCard:
    name: str
    entries: tuple[Entry, ...]

    def by_code(self, code: int) -> Entry | None:
        return next((e for e in self.entries if e.code == code), None)

    def lookup(self, auction: Auction, index: int) -> Entry | None:
        """The entry that gives the call at ``index`` its meaning, or None: the card is
        read from the caller's side."""
        seat = auction.entries[index].seat
        tokens = tokens_for(auction, index, seat)
        return next((e for e in self.entries if _match(e.seq, tokens)), None)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "entries": [
            {"code": e.code, "seq": e.sequence, "alert": e.alert, "en": e.en, "es": e.es,
             **({} if e.penalty is None else {"penalty": e.penalty})}
            for e in self.entries]}

    @classmethod
    def from_json(cls, value: Any) -> SystemCard:
        if not isinstance(value, Mapping):
            raise CardError("a system card is a JSON object with a name and entries")
        name = value.get("name")
        if not isinstance(name, str) or not name.strip() or len(name) > 80 \
                or _CONTROL.search(name):
            raise CardError("the card's name is one line of at most 80 characters")
        raw = value.get("entries")
        if not isinstance(raw, list) or not raw or len(raw) > MAX_ENTRIES:
            raise CardError(f"a card has 1 to {MAX_ENTRIES} entries")
        entries: list[Entry] = []
        codes: set[int] = set()
        for number, item in enumerate(raw, 1):
            where = f"entry {number}"
            if not isinstance(item, Mapping):
                raise CardError(f"{where}: not an object")
            unknown = set(item) - {"code", "seq", "alert", "en", "es", "penalty"}
            if unknown:
                raise CardError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
            code = item.get("code")
            if type(code) is not int or not MIN_CODE <= code <= MAX_CODE:
                raise CardError(f"{where}: the code is a whole number {MIN_CODE}-{MAX_CODE}")
            if code in codes:
                raise CardError(f"{where}: code {code} is used twice")
            codes.add(code)
            seq = item.get("seq")
            if not isinstance(seq, str) or not seq.split() or len(seq) > 120:
                raise CardError(f"{where}: the sequence is calls separated by spaces")
            tokens = tuple(_token(t, where) for t in seq.split())
            if tokens[-1] in ("*", "(*)") or tokens[-1].startswith("("):
                raise CardError(f"{where}: a sequence ends with the call it explains")
            alert = item.get("alert", False)
            if type(alert) is not bool:
                raise CardError(f"{where}: alert is true or false")
            penalty = item.get("penalty")
            if penalty is not None and (type(penalty) is not bool or tokens[-1] != "X"):
                raise CardError(f"{where}: penalty is true or false, for a double")
            entries.append(Entry(code, tokens, alert, _meaning(item.get("en"), where),
                                 _meaning(item.get("es"), where), penalty))
        return cls(name.strip(), tuple(entries))

    @classmethod
    def loads(cls, text: str | bytes) -> SystemCard:
        try:
            return cls.from_json(json.loads(text))
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise CardError(f"not JSON: {error}") from error


@lru_cache(maxsize=1)
def example() -> SystemCard:
    """The natural system of seed 004 (tablemodel/syscards/seed004.json)."""
    text = resources.files("tablemodel").joinpath("syscards/seed004.json").read_text("utf-8")
    return SystemCard.loads(text)
