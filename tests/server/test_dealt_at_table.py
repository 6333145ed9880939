"""Boards dealt at the table (issue 32) on the server: the set-up takes no hand records with
it; the first deal a table sends for a board is its hand record, and the hand record
printouts, the results pack, the static site and the PBN export carry it; a later table's
other hands call the director; a deal for a board the table does not play is refused."""

from __future__ import annotations

import io
import re
import time
import zipfile
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import select

from laws import Deal
from server.link import director_calls as rulings
from server.link.rounds import create_session, start_round
from server.outputs import publish, report
from server.outputs.exports import pbn
from server.outputs.handrecords import HandRecordError, of_session
from server.outputs.report.data import hand_records
from server.scoring.analysis import analyse
from server.setup.session import SessionError, deals_of, import_deals, stored_analysis
from server.storage import schema as s
from sim.players.deals import deal
from tablemodel.wire import Event, table_topic
from tests.server.conftest import EVENT, make_app, services


def send(app: Flask, table: int, seq: int, board: int, dealt: Deal) -> object:
    return services(app).ingest(table_topic(EVENT, table, "events"), Event(
        seq, "deal", time.time(), board, {"deal": dealt.to_pbn()}).to_payload())


def test_a_session_dealt_at_the_table_keeps_the_first_tables_deals(app: Flask) -> None:
    db = services(app).db
    with pytest.raises(SessionError, match="no PBN file or seed"):
        create_session(db, event="x", title="x", kind="mitchell", participants=8,
                       boards_per_round=2, seed=4, dealing="table")
    with pytest.raises(SessionError, match="dealing 'machine'"):
        create_session(db, event="x", title="x", kind="mitchell", participants=8,
                       boards_per_round=2, dealing="machine")
    session = create_session(db, event=EVENT, title="Martes", kind="mitchell",
                             participants=8, boards_per_round=2, dealing="table")
    assert session.dealt_at_table and deals_of(db, session) == {}
    with pytest.raises(HandRecordError, match="no table has captured"):
        of_session(db, session)
    with pytest.raises(SessionError, match="dealt at the table"):
        import_deals(db, session, "[Board \"1\"]\n[Deal \"" + deal(1, 1).to_pbn() + "\"]\n")
    for number in range(1, session.rounds + 1):
        start_round(db, session, number)
    with db.read() as conn:
        sent = conn.execute(select(s.commands.c.data)).scalars().all()
    assert sent and all('"dealing": "table"' in data and '"deals"' not in data
                        for data in sent)

    dealt = {board: deal(40 + board, board) for board in session.plan.boards()}
    firsts = {board: session.plan.schedule(board)[0].table for board in dealt}
    # A table the movement never gives board 1 (here: one the session has not).
    assert send(app, session.tables + 1, 1, 1, dealt[1]).rejected
    for seq, (board, hands) in enumerate(sorted(dealt.items()), start=1):
        outcome = send(app, firsts[board], 100 + seq, board, hands)
        assert not outcome.rejected, outcome.rejected
    stored = deals_of(db, session)
    assert {b: Deal.from_pbn(p).hands for b, p in stored.items()} == \
        {b: d.hands for b, d in dealt.items()}
    second = session.plan.schedule(1)[1].table
    send(app, second, 7, 1, dealt[1])  # the same hands at a later table: nothing to say
    send(app, second, 8, 1, deal(99, 1))  # other hands: the director is called there
    calls = rulings.calls(db, EVENT)
    assert [(c.table, c.reason, c.law) for c in calls] == [(second, "fouled_board", "87")]
    assert Deal.from_pbn(deals_of(db, session)[1]).hands == dealt[1].hands

    for board in dealt:  # every board played everywhere: every board released
        for seating in session.plan.schedule(board):
            rulings.correct_result(db, session, seating.table, board, contract="3NT",
                                   declarer="N", tricks=9, adjusted=None, score_ns=None,
                                   by="director", note="entered")
    records = hand_records(db, session)
    assert {b: {seat: set(r.hands[str(seat)].values()) for seat in dealt[b].hands}
            for b, r in records.items()} == {
        b: {seat: set(_ranks(d, seat).values()) for seat in d.hands} for b, d in dealt.items()}
    site = zipfile.ZipFile(io.BytesIO(publish.site_zip(db, session)))
    for exported in (pbn(db, session), site.read(f"{EVENT}/results.pbn").decode()):
        games = {(int(board), Deal.from_pbn(text).to_pbn()) for board, text in re.findall(
            r'\[Board "(\d+)"\](?:\n\[[^\]]*\])*?\n\[Deal "([^"]+)"\]', exported)}
        assert games == {(b, d.to_pbn()) for b, d in dealt.items()}
    board_page = site.read(f"{EVENT}/en/board-3.html").decode()
    north = _ranks(dealt[3], next(iter(dealt[3].hands)))
    assert all(ranks in board_page for ranks in north.values() if ranks)
    pack = report.results_html(db, session, "en")
    assert all(ranks in pack for ranks in north.values() if ranks)


def _ranks(dealt: Deal, seat: object) -> dict[str, str]:
    """A hand's ranks by suit letter as the hand records print them ("A K 10 2")."""
    text = dealt.to_pbn(seat).split(":")[1].split()[0]  # type: ignore[arg-type]
    return {suit: " ".join("10" if rank == "T" else rank for rank in ranks)
            for suit, ranks in zip("SHDC", text.split("."), strict=True)}


def test_a_captured_deal_gets_its_double_dummy_table_and_par_once_released(
        tmp_path: Path) -> None:
    pytest.importorskip("endplay")
    app = make_app(str(tmp_path / "bidbox.db"), ANALYSIS=True)
    try:
        db = services(app).db
        session = create_session(db, event=EVENT, title="Martes", kind="mitchell",
                                 participants=6, boards_per_round=1, dealing="table")
        for number in range(1, session.rounds + 1):
            start_round(db, session, number)
        dealt = deal(5, 1)
        schedule = session.plan.schedule(1)
        assert not send(app, schedule[0].table, 1, 1, dealt).rejected
        hub = services(app).hub
        seen = hub.version
        for seating in schedule:  # the board released once every table has played it
            rulings.correct_result(db, session, seating.table, 1, contract="3NT",
                                   declarer="N", tricks=9, adjusted=None, score_ns=None,
                                   by="director", note="entered")
        hub.notify({"results"})
        deadline = time.monotonic() + 60
        while stored_analysis(db, session, 1)[0] is None:
            left = deadline - time.monotonic()
            assert left > 0, "the captured deal was never analysed"
            seen = hub.wait(seen, left).version
        expected = analyse(dealt.to_pbn(), 1)
        page = app.test_client().get("/board/1?lang=en").get_data(as_text=True)
        assert f"NS {expected.par_score:+d}:" in page
    finally:
        services(app).close()
