"""The wire format: every event and command round-trips, every malformed payload is refused
with a WireError that says why, and only bidbox table topics parse."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tablemodel.wire import (
    COMMANDS,
    EVENTS,
    MAX_PAYLOAD,
    RULINGS,
    Command,
    Event,
    WireError,
    message_of,
    parse_topic,
    table_topic,
)

from .helpers import PBN

# -- round trips ------------------------------------------------------------------------------

ASSIGN = {"round": 2, "ns": 7, "ew": 8, "boards": [5, 6, 7], "section": "A",
          "deals": {"5": PBN}, "next": {"ns": None, "ew": "B5", "boards": 3},
          "names": {"ns": "B7", "ew": "B8"}, "dealing": "table",
          "conduct": {"screens": {"north_with": "E", "tray_delay": 8}, "profile": "feb",
                      "cards": {"NS": {"name": "Ours", "entries": [
                          {"code": 10, "seq": "1C", "alert": True, "en": "two+ clubs",
                           "es": "dos+ tréboles"}]}}}}

EVENT_DATA: dict[str, dict[str, Any]] = {
    "assign": {"cmd": "c-1", **ASSIGN},
    "player": {"seat": "N", "number": 1234},
    "board": {"board": 5, "dealer": "N", "vul": "NS"},
    "hand_card": {"seat": "E", "card": "SQ"},
    "deal": {"deal": PBN},
    "call": {"seat": "S", "call": "1NT", "alert": True},
    "change": {"seat": "S", "call": "2C"},
    "alert": {"seat": "W", "index": 0, "late": True},
    "question": {"seat": "N", "index": 1, "to": "E"},
    "answer": {"seat": "E", "question": 12, "code": 10},
    "tray": {"calls": 2},
    "card": {"seat": "W", "card": "HT", "face_down": True},
    "faced": {"seat": "N"},
    "claim": {"seat": "N", "tricks": 9},
    "claim_answer": {"seat": "E", "agree": False},
    "result": {"contract": "4HX", "declarer": "S", "tricks": 10, "score_ns": 590},
    "confirm": {"seat": "E"},
    "director": {"seat": None, "reason": "revoke", "law": "61", "detail": "W revoked",
                 "code": "revoke", "params": {"seat": "W", "number": 3, "card": "SQ"}},
    "ruling": {"cmd": "c-2", "kind": "take_back", "calls": 3, "law": "25"},
    "option": {"kind": "penalty_card", "by": "W", "seat": "W", "card": "SQ", "major": "major"},
    "roster": {"cmd": "c-4", "players": {"5001": "Begoña Ibáñez"}},
    "refused": {"cmd": "c-3", "reason": "no board on the table", "code": "no_board",
                "params": {}},
}


def test_every_event_type_has_a_sample() -> None:
    assert set(EVENT_DATA) == set(EVENTS)


@pytest.mark.parametrize("kind", sorted(EVENT_DATA))
def test_event_round_trips_through_its_payload(kind: str) -> None:
    event = Event(17, kind, 1700000000.25, 5, EVENT_DATA[kind])
    payload = event.to_payload()
    assert isinstance(payload, bytes)
    back = Event.from_payload(payload)
    assert back == event
    assert json.loads(payload)["v"] == 1


def test_event_without_board_round_trips() -> None:
    event = Event(1, "director", 3.0, None, {"seat": "N", "reason": "player"})
    assert Event.from_payload(event.to_payload()) == event


@pytest.mark.parametrize(("kind", "data"), [
    ("assign", ASSIGN),
    ("assign", {"round": 1, "ns": 0, "ew": 0, "boards": [1]}),
    ("ruling", {"kind": "score", "adjusted": "A40/60"}),
    ("ruling", {"kind": "score", "score_ns": -200, "adjusted": "assigned"}),
    ("ruling", {"kind": "lead_restriction", "seat": "W", "suit": "H", "required": False,
                "law": "26B"}),
    ("resend", {"since": 10, "until": 20}),
    ("resend", {"since": 0}),
    ("roster", {"players": {"5001": "Begoña Ibáñez", "7": "José Pérez"}}),
])
def test_command_round_trips_through_its_payload(kind: str, data: dict[str, Any]) -> None:
    command = Command("cmd-42", kind, data)
    assert Command.from_payload(command.to_payload()) == command


#: The least each ruling needs (its required fields in tablemodel.rulings, and a score's points
#: or text).
LEAST = {"take_back": {"calls": 3}, "undo_cards": {"cards": 1},
         "require_pass": {"seat": "N", "law": "31A"},
         "lead_restriction": {"seat": "W", "suit": "H", "required": True, "law": "26"},
         "score": {"adjusted": "A60/40"}, "unauthorised_information": {"side": "EW"},
         "penalty_card": {"seat": "W", "card": "SQ", "major": "major"},
         "pick_up": {"card": "SQ"}, "penalty_lead": {"lead": "require"},
         "lead_out_of_turn": {"seat": "W", "card": "D2"}, "lead_option": {"option": "dummy"},
         "revoke_transfer": {"transferred": -1}, "penalty_choice": {"card": "DK"},
         "premature_option": {"premature": "lowest"}, "change_of_call": {"change": "accept"},
         "simultaneous": {"seat": "E", "card": "D7"}, "simultaneous_choice": {"played": "first"},
         "simultaneous_play": {"seat": "E", "card": "D4"}, "substitute": {"seat": "S"},
         "defective_trick": {"seat": "E", "card": "D7"},
         "call_over_change": {"seat": "W", "lho_call": "withdraw"},
         "penalty_breach": {"seat": "W", "card": "H3"}, "breach_option": {"breach": "refuse"}}


@pytest.mark.parametrize("kind", RULINGS)
def test_a_ruling_without_what_its_kind_requires_is_refused(kind: str) -> None:
    for name in LEAST.get(kind, {}):
        if kind == "score":
            continue  # a score needs one of two: tested below
        data = {"kind": kind, **{k: v for k, v in LEAST[kind].items() if k != name}}
        with pytest.raises(WireError, match=f"needs.*{name}"):
            Command.from_payload(Command("r", "ruling", data).to_payload())


@pytest.mark.parametrize("kind", RULINGS)
def test_every_ruling_kind_is_accepted(kind: str) -> None:
    data = {"kind": kind, **LEAST.get(kind, {})}
    payload = Command("r", "ruling", data).to_payload()
    assert Command.from_payload(payload).data == data


def test_text_payload_is_read_like_bytes() -> None:
    command = Command("c", "resend", {"since": 1})
    assert Command.from_payload(command.to_payload().decode()) == command


# -- refusals ---------------------------------------------------------------------------------

def event_payload(**changes: Any) -> str:
    value: dict[str, Any] = {"v": 1, "seq": 3, "type": "call", "ts": 10.5, "board": 1,
                             "data": {"seat": "N", "call": "1NT"}}
    for name, new in changes.items():
        if new is ...:
            del value[name]
        else:
            value[name] = new
    return json.dumps(value)


def with_data(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"seat": "N", "call": "1NT"}
    for name, new in changes.items():
        if new is ...:
            del data[name]
        else:
            data[name] = new
    return data


@pytest.mark.parametrize(("payload", "reason"), [
    ("{not json", "not JSON"),
    (b"\xff\xfe{}", "not JSON"),
    ("[1, 2]", "not a JSON object"),
    ("1", "not a JSON object"),
    (event_payload(v=2), "wire version 2"),
    (event_payload(v="1"), "wire version '1'"),
    (event_payload(v=...), "wire version None"),
    (event_payload(type="bid"), "unknown type 'bid'"),
    (event_payload(type=7), "unknown type 7"),
    (event_payload(extra=1), "unknown fields ['extra']"),
    (event_payload(seq=...), "None is not an integer"),
    (event_payload(seq=0), "0 is not between 1"),
    (event_payload(seq=True), "True is not an integer"),
    (event_payload(seq=3.0), "3.0 is not an integer"),
    (event_payload(ts="now"), "ts 'now' is not a time"),
    (event_payload(ts=True), "ts True is not a time"),
    (event_payload(ts=float("nan")), "is not a time"),
    (event_payload(board=0), "0 is not between 1 and 9999"),
    (event_payload(board=True), "True is not an integer"),
    (event_payload(board="1"), "'1' is not an integer"),
    (event_payload(data=[]), "data is not an object"),
    (event_payload(data=...), "data is not an object"),
    (event_payload(data=with_data(seat=...)), "missing field 'seat'"),
    (event_payload(data=with_data(loud=True)), "unknown fields ['loud']"),
    (event_payload(data=with_data(seat="Q")), "not a seat"),
    (event_payload(data=with_data(seat=1)), "1 is not a text"),
    (event_payload(data=with_data(call="1X")), "not a call"),
    (event_payload(data=with_data(call="0C")), "not a call"),
    (event_payload(data=with_data(alert=1)), "1 is not true or false"),
    (event_payload(type="card", data={"seat": "N", "card": "S1"}), "not a card"),
    (event_payload(type="card", data={"seat": "N", "card": None}), "None is not a text"),
    (event_payload(type="claim", data={"seat": "N", "tricks": 14}), "14 is not between 0 and 13"),
    (event_payload(type="claim", data={"seat": "N", "tricks": True}), "True is not an integer"),
    (event_payload(type="claim_answer", data={"seat": "N", "agree": 1}), "not true or false"),
    (event_payload(type="alert", data={"seat": "N", "index": -1}), "-1 is not between 0"),
    (event_payload(type="director", data={"seat": None, "reason": "x" * 33}),
     "at most 32 characters"),
    (event_payload(type="ruling", data={"cmd": "c", "kind": "claim", "suit": "Z"}),
     "not a suit"),
    # a message's code and params (laws/messages.py): names, plain values, eight
    (event_payload(type="director", data={"seat": None, "reason": "revoke", "code": "Revoke"}),
     "not a message code"),
    (event_payload(type="director", data={"seat": None, "reason": "revoke", "code": 1}),
     "not a message code"),
    (event_payload(type="refused", data={"cmd": "c", "reason": "x", "params": []}),
     "not a map of at most 8 names"),
    (event_payload(type="refused", data={"cmd": "c", "reason": "x",
                                         "params": {str(i): 1 for i in range(9)}}),
     "not a map of at most 8 names"),
    (event_payload(type="refused", data={"cmd": "c", "reason": "x", "params": {"Seat": "N"}}),
     "is not a name"),
    (event_payload(type="refused", data={"cmd": "c", "reason": "x", "params": {"seat": None}}),
     "not a number or a text"),
    (event_payload(type="refused", data={"cmd": "c", "reason": "x", "params": {"seat": True}}),
     "not a number or a text"),
    (event_payload(type="refused", data={"cmd": "c", "reason": "x",
                                         "params": {"seat": [1]}}), "not a number or a text"),
    (event_payload(type="refused", data={"cmd": "c", "reason": "x",
                                         "params": {"seat": "x" * 201}}), "at most 200"),
])
def test_malformed_event_is_refused_with_a_reason(payload: str | bytes, reason: str) -> None:
    with pytest.raises(WireError) as raised:
        Event.from_payload(payload)
    assert reason in str(raised.value)


def command_payload(type: str = "assign", /, **data_changes: Any) -> str:
    data: dict[str, Any] = ({"round": 1, "ns": 1, "ew": 2, "boards": [1, 2]} if type == "assign"
                            else {})
    for name, new in data_changes.items():
        if new is ...:
            del data[name]
        else:
            data[name] = new
    return json.dumps({"v": 1, "id": "c1", "type": type, "data": data})


@pytest.mark.parametrize(("payload", "reason"), [
    ('{"v": 1, "type": "resend", "data": {"since": 0}}', "command id None"),
    ('{"v": 1, "id": "", "type": "resend", "data": {"since": 0}}', "1 to 64 characters"),
    ('{"v": 1, "id": 5, "type": "resend", "data": {"since": 0}}', "command id 5"),
    (json.dumps({"v": 1, "id": "x" * 65, "type": "resend", "data": {"since": 0}}),
     "1 to 64 characters"),
    ('{"v": 0, "id": "c", "type": "resend", "data": {"since": 0}}', "wire version 0"),
    ('{"v": 1, "id": "c", "type": "reboot", "data": {}}', "unknown type 'reboot'"),
    ('{"v": 1, "id": "c", "type": "resend", "data": {"since": 0}, "seq": 1}',
     "unknown fields ['seq']"),
    ('{"v": 1, "id": "c", "type": "resend"}', "missing field 'since'"),
    (command_payload("resend", since=-1), "-1 is not between 0"),
    (command_payload("resend", since=False), "False is not an integer"),
    (command_payload(boards=...), "missing field 'boards'"),
    (command_payload(table=3), "unknown fields ['table']"),
    (command_payload(round=True), "True is not an integer"),
    (command_payload(round="1"), "'1' is not an integer"),
    (command_payload(ns=1.5), "1.5 is not an integer"),
    (command_payload(boards=[1, 2, 1]), "a board appears twice"),
    (command_payload(boards=[]), "1 to 64 board numbers"),
    (command_payload(boards=list(range(1, 66))), "1 to 64 board numbers"),
    (command_payload(boards=[0]), "0 is not between 1 and 9999"),
    (command_payload(boards=[True]), "True is not an integer"),
    (command_payload(boards="1,2"), "1 to 64 board numbers"),
    (command_payload(deals={"one": PBN}), "is not a board number"),
    (command_payload(deals={"1": "N:AKQ"}), "deals"),
    (command_payload(deals={"1": 5}), "5 is not a text"),
    (command_payload(deals=[PBN]), "map of at most 64"),
    (command_payload("ruling", kind="take_back"), "a take_back ruling needs calls"),
    (command_payload("ruling", kind="lead_restriction", seat="W"), "needs suit"),
    (command_payload("ruling", kind="score"), "needs score_ns or adjusted"),
    ('{"v": true, "id": "c", "type": "resend", "data": {"since": 0}}', "wire version True"),
    ('{"v": 1.0, "id": "c", "type": "resend", "data": {"since": 0}}', "wire version 1.0"),
    (command_payload(conditions={"1": {"dealer": "Q", "vul": "None"}}), "conditions"),
    (command_payload(conditions={"1": {"dealer": "S", "vul": "Some"}}), "conditions"),
    (command_payload(conditions={"1": {"dealer": "S"}}), "is not {dealer, vul}"),
    (command_payload(conditions={"x": {"dealer": "S", "vul": "None"}}), "not a board number"),
    (command_payload(conditions=["S"]), "map of at most 64 boards"),
    (command_payload(next={"ns": 0}), "0 is not between 1 and 9999"),
    (command_payload(next={"north": 2}), "movement guidance"),
    (command_payload(next={"ew": 5.0}), "5.0 is not an integer"),
    (command_payload(section="x" * 17), "at most 16 characters"),
    (command_payload("ruling", kind="dance"), "unknown ruling 'dance'"),
    (command_payload("ruling"), "missing field 'kind'"),
    (command_payload("ruling", kind="take_back", calls=-1), "-1 is not between 0"),
    (command_payload("ruling", kind="take_back", calls=True), "True is not an integer"),
    (command_payload("ruling", kind="require_pass", seat="X"), "not a seat"),
    (command_payload("ruling", kind="score", score_ns=10001), "10001 is not between"),
    (command_payload("ruling", kind="undo_cards", cards=53), "53 is not between 0 and 52"),
    (command_payload("ruling", kind="claim", tricks=14), "14 is not between 0 and 13"),
    (command_payload("ruling", kind="take_back", cmd="c9"), "unknown fields ['cmd']"),
])
def test_malformed_command_is_refused_with_a_reason(payload: str, reason: str) -> None:
    with pytest.raises(WireError) as raised:
        Command.from_payload(payload)
    assert reason in str(raised.value)


def test_deal_that_is_not_a_deal_is_refused() -> None:
    # Four hands of thirteen, but the ace of spades twice.
    wrong = PBN.replace("KT8.", "AT8.", 1)
    with pytest.raises(WireError):
        Command.from_payload(command_payload(deals={"1": wrong}))


@pytest.mark.parametrize(("data", "reason"), [
    ({"deal": "N:" + " ".join([PBN[2:].split()[0], "-", "-", "-"])}, "all four hands"),
    ({"deal": PBN.replace("KT8.", "AT8.", 1)}, "more than one hand"),
])
def test_a_captured_deal_gives_four_whole_hands(data: dict[str, Any], reason: str) -> None:
    with pytest.raises(WireError, match=reason):
        Event.from_json({"v": 1, "seq": 9, "type": "deal", "ts": 1.0, "board": 1,
                         "data": data})


@pytest.mark.parametrize(("names", "reason"), [
    ({"next": {"ew": ""}}, "table's name is empty"),
    ({"next": {"ew": "B" * 30}}, "at most 16"),
    ({"names": {"north": "B1"}}, "pairs' names"),
    ({"dealing": "machine"}, "way of dealing"),
])
def test_names_and_dealing_in_an_assignment_are_checked(names: dict[str, Any],
                                                        reason: str) -> None:
    with pytest.raises(WireError, match=reason):
        Command.from_payload(command_payload(**names))


@pytest.mark.parametrize("kind", ["event", "command"])
def test_oversized_payload_is_refused_before_it_is_read(kind: str) -> None:
    # Padding inside valid JSON: only the size is wrong.
    payload = (b'{"v":1,' + b" " * MAX_PAYLOAD + b'"seq":1}')
    reader = Event.from_payload if kind == "event" else Command.from_payload
    with pytest.raises(WireError, match="over the 65536-byte limit"):
        reader(payload)


def test_payload_at_the_limit_is_read() -> None:
    head = b'{"v":1,"id":"c","type":"resend","data":{"since":0}'
    payload = head + b" " * (MAX_PAYLOAD - len(head) - 1) + b"}"
    assert len(payload) == MAX_PAYLOAD
    assert Command.from_payload(payload).data == {"since": 0}


def test_oversized_text_payload_is_refused_by_its_bytes() -> None:
    # JSON keeps the last of two equal keys: a long first "id" makes the text big.
    text = '{"v":1,"id":"' + "é" * 40000 + '","id":"c1","type":"resend","data":{"since":0}}'
    assert len(text) <= MAX_PAYLOAD < len(text.encode())
    with pytest.raises(WireError, match="limit"):
        Command.from_payload(text)


def test_deal_key_must_be_a_board_number_in_ascii_digits() -> None:
    with pytest.raises(WireError, match="board number"):
        Command.from_payload(command_payload(deals={"²": PBN}))


def test_both_ends_agree_on_every_schema_name() -> None:
    # A command's answer event carries the command's fields plus its id.
    assert set(EVENTS["ruling"].fields) - set(COMMANDS["ruling"].fields) == {"cmd"}
    assert set(EVENTS["assign"].fields) - set(COMMANDS["assign"].fields) == {"cmd"}


# -- topics -----------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["status", "events", "state", "cmd"])
def test_topic_round_trips(kind: str) -> None:
    topic = table_topic("club-42", 12, kind)
    assert topic == f"bidbox/v1/club-42/table/12/{kind}"
    assert parse_topic(topic) == ("club-42", 12, kind)


def test_table_topic_refuses_an_unknown_kind() -> None:
    with pytest.raises(ValueError, match="unknown topic kind"):
        table_topic("e", 1, "presence")


@pytest.mark.parametrize(("topic", "reason"), [
    ("bidbox/v1/e/table/1", "not a bidbox table topic"),
    ("bidbox/v1/e/table/1/events/x", "not a bidbox table topic"),
    ("bidbox/v2/e/table/1/events", "not a bidbox table topic"),
    ("other/v1/e/table/1/events", "not a bidbox table topic"),
    ("bidbox/v1/e/tables/1/events", "not a bidbox table topic"),
    ("bidbox/v1/e/table/1/presence", "not a bidbox table topic"),
    ("bidbox/v1//table/1/events", "not a bidbox table topic"),
    ("bidbox/v1/e/table/one/events", "is not a number"),
    ("bidbox/v1/e/table//events", "is not a number"),
    ("bidbox/v1/e/table/0/events", "is not positive"),
    ("bidbox/v1/e/table/-3/events", "is not positive"),
])
def test_parse_topic_refuses(topic: str, reason: str) -> None:
    with pytest.raises(WireError, match=reason):
        parse_topic(topic)


@pytest.mark.parametrize("number", [" 1", "1_0", "\u0661"])
def test_parse_topic_refuses_a_table_number_that_is_not_plain_digits(number: str) -> None:
    with pytest.raises(WireError):
        parse_topic(f"bidbox/v1/e/table/{number}/events")


# -- the retained state: one decoder, shared by the table and the server ----------------------

STATE = {"seq": 12, "ts": 1700000000.5, "phase": "auction", "round": 2, "board": 5,
         "boards_done": 1, "boards_left": 2, "director": 0, "calls": 3, "cards": 0}


def test_the_state_round_trips() -> None:
    from tablemodel.wire import state_from_payload, state_payload
    assert state_from_payload(state_payload(STATE)) == STATE


@pytest.mark.parametrize(("change", "reason"), [
    ({"hands": {"N": "AKQ"}}, "unknown fields"),     # hidden information never rides on it
    ({"phase": "dancing"}, "not one of"),
    ({"seq": -1}, "between"),
    ({"ts": "now"}, "not a time"),
    ({"board": True}, "not an integer"),
    ({"calls": 401}, "between"),
])
def test_a_state_the_table_would_not_send_is_refused(change: dict[str, Any],
                                                     reason: str) -> None:
    from tablemodel.wire import state_from_payload, state_payload
    payload = json.dumps({"v": 1, **STATE, **change})
    with pytest.raises(WireError, match=reason):
        state_from_payload(payload)
    with pytest.raises(WireError, match=reason):  # nor does the table publish it
        state_payload({**STATE, **change})


def test_the_phases_on_the_wire_are_the_tables() -> None:
    from tablemodel.state import Phase as StatePhase
    from tablemodel.wire import STATE as SCHEMA
    from tablemodel.wire import Phase
    assert StatePhase is Phase
    check, required = SCHEMA.fields["phase"]
    assert required and all(check(p.value) == p.value for p in Phase)


def test_an_event_is_decoded_into_its_type() -> None:
    from tablemodel.wire import EventType
    event = Event.from_payload(Event(3, EventType.CALL, 1.0, 1,
                                     {"seat": "N", "call": "1NT"}).to_payload())
    assert event.type is EventType.CALL
    assert set(EVENTS) == set(EventType)
    with pytest.raises(WireError, match="unknown type 'dance'"):
        Event.from_payload(json.dumps({"v": 1, "seq": 1, "type": "dance", "ts": 1.0,
                                       "board": None, "data": {}}))


def test_a_message_is_read_from_a_director_call_or_a_refusal() -> None:
    data = EVENT_DATA["director"]
    assert message_of(data) == ("revoke", {"seat": "W", "number": 3, "card": "SQ"})
    assert message_of({"seat": None, "reason": "player"}) is None  # an old journal's
