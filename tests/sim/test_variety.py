"""Simulated players' variety: a table's auction may depart from the bots' own (passed out,
or the final contract doubled), so a field of simulated tables has results to rank."""

from __future__ import annotations

import random

from laws import Deal
from laws.calls import DOUBLE, PASS
from server.setup.session import dealt
from sim.players.players import script, varied


def test_no_variety_keeps_the_bots_auction() -> None:
    deal = Deal.from_pbn(dealt(3, 1))
    calls = script(1, deal).calls
    assert all(varied(calls, random.Random(seed), 0.0) is None for seed in range(50))


def test_a_varied_auction_is_legal_and_played_out() -> None:
    seen = set()
    for board in range(1, 9):
        deal = Deal.from_pbn(dealt(3, board))
        calls = script(board, deal).calls
        for seed in range(6):
            other = varied(calls, random.Random(f"{seed}:{board}"), 1.0)
            if other is None:
                continue
            played = script(board, deal, calls=other)  # an illegal auction raises here
            tail = [item.call for item in other[-4:]]
            kind = "passed" if all(c == PASS for c in (i.call for i in other)) else "doubled"
            if kind == "doubled":
                assert tail == [DOUBLE, PASS, PASS, PASS]
                assert played.cards, "a doubled contract is played"
            seen.add(kind)
    assert seen == {"passed", "doubled"}
