"""SIP message parsing, serialisation and Content-Length framing (C++ ns3::SipMessage,
ns3::SipStreamFramer): well-formed messages round-trip, malformed ones are rejected
without crashing, and a byte stream is cut into messages wherever the segments end."""

from __future__ import annotations

import cppyy
import pytest
from conftest import valid_invite
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def parse(ns, text: str):
    error = cppyy.gbl.std.string()
    message = ns.SipMessage.Parse(text, error)
    return (message if bool(message) else None), str(error)


def test_parse_request_fields(ns):
    message, error = parse(ns, valid_invite())
    assert message is not None, error
    assert message.IsRequest() and str(message.GetMethod()) == "INVITE"
    assert str(message.GetRequestUri()) == "sip:bob@transportlab.test"
    assert str(message.GetCallId()) == "42@10.1.1.2"
    assert str(message.GetTopViaBranch()) == "z9hG4bK0001"
    assert str(message.GetFromTag()) == "abc" and str(message.GetToTag()) == ""
    assert str(message.GetHeader("content-type")) == "application/sdp"  # case-insensitive
    assert str(message.GetBody()).startswith("v=0\r\n")


def test_serialize_round_trip_is_byte_exact(ns):
    text = valid_invite()
    message, _ = parse(ns, text)
    # Content-Length moves to the end of the header section; everything else is kept.
    again, error = parse(ns, str(message.Serialize()))
    assert again is not None, error
    assert str(again.Serialize()) == str(message.Serialize())
    assert message.GetSerializedSize() == len(text)


def test_compact_forms_and_folded_lines(ns):
    text = (
        "SIP/2.0 180 Ringing\r\n"
        "v: SIP/2.0/UDP 10.1.3.2:5060;branch=z9hG4bKa, "
        "SIP/2.0/UDP 10.1.1.2:5060;branch=z9hG4bKb\r\n"
        "f: <sip:alice@x>;tag=1\r\n"
        "t: <sip:bob@x>\r\n ;tag=2\r\n"
        "i: 7@h\r\n"
        "CSeq: 1 INVITE\r\n"
        "l: 0\r\n\r\n"
    )
    message, error = parse(ns, text)
    assert message is not None, error
    assert message.GetStatusCode() == 180 and str(message.GetMethod()) == "INVITE"
    vias = message.GetHeaders("Via")
    assert vias.size() == 2 and str(vias[1]).endswith("branch=z9hG4bKb")
    assert str(message.GetToTag()) == "2"


def test_body_beyond_content_length_is_ignored_on_datagrams(ns):
    message, error = parse(ns, valid_invite() + "trailing garbage")
    assert message is not None, error
    assert str(message.GetBody()).endswith("PCMU/8000\r\n")


@pytest.mark.parametrize(
    "mutation, reason",
    [
        (lambda t: t.replace("CSeq: 1 INVITE", "CSeq: one INVITE"), "CSeq"),
        (lambda t: t.replace("CSeq: 1 INVITE", "CSeq: 1 BYE"), "CSeq method"),
        (lambda t: t.replace("Call-ID: 42@10.1.1.2\r\n", ""), "Call-ID"),
        (lambda t: t.replace("Via: SIP/2.0/UDP", "Via: SIP/3.0/UDP"), "Via"),
        (lambda t: t.replace("From: ", "Fromm "), "header line"),
        (lambda t: t.replace("INVITE sip:bob", "INVITE bob"), "Request-URI"),
        (lambda t: t.replace("SIP/2.0\r\nVia", "SIP/2.1\r\nVia", 1), "request line"),
        (lambda t: t.replace("Max-Forwards: 70", "Max-Forwards: 7000"), "Max-Forwards"),
        (lambda t: t[: t.index("v=0") + 10], "body shorter"),
        (lambda t: t.replace("\r\n\r\n", "\r\n"), "end of header"),
        (lambda t: "", "end of header"),
        (lambda t: "SIP/2.0 99 Weird\r\n\r\n", "status"),
    ],
)
def test_malformed_messages_are_rejected_with_a_reason(ns, mutation, reason):
    message, error = parse(ns, mutation(valid_invite()))
    assert message is None
    assert reason.lower().split()[0] in error.lower()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_messages_never_crash(ns, data):
    text = valid_invite()
    position = data.draw(st.integers(0, len(text) - 1))
    action = data.draw(st.sampled_from(["replace", "delete", "insert", "truncate"]))
    junk = data.draw(st.text(st.characters(max_codepoint=127), min_size=1, max_size=8))
    if action == "replace":
        text = text[:position] + junk + text[position + len(junk) :]
    elif action == "delete":
        text = text[:position] + text[position + len(junk) :]
    elif action == "insert":
        text = text[:position] + junk + text[position:]
    else:
        text = text[:position]
    message, _ = parse(ns, text)
    if message is not None:
        # Whatever was accepted serialises to something that parses again identically.
        again, error = parse(ns, str(message.Serialize()))
        assert again is not None, error
        assert str(again.Serialize()) == str(message.Serialize())


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=600))
def test_random_bytes_never_crash(ns, blob):
    parse(ns, blob.decode("latin-1"))


def framed(ns, chunks: list[str]) -> tuple[list[str], bool]:
    framer = ns.SipStreamFramer()
    out: list[str] = []
    for chunk in chunks:
        framer.Append(chunk)
        out += [str(m) for m in framer.Extract()]
    return out, bool(framer.HasError())


def test_framer_cuts_a_stream_at_every_possible_segment_boundary(ns):
    first = valid_invite()
    second = valid_invite().replace("42@10.1.1.2", "43@10.1.1.2")
    stream = "\r\n\r\n" + first + second  # a CRLF keep-alive first
    for cut in range(1, len(stream)):
        messages, error = framed(ns, [stream[:cut], stream[cut:]])
        assert not error
        assert messages == [first, second], cut


def test_framer_delivers_nothing_before_the_body_is_complete(ns):
    text = valid_invite()
    messages, error = framed(ns, [text[:-1]])
    assert messages == [] and not error
    framer = ns.SipStreamFramer()
    framer.Append(text[:-1])
    assert framer.GetBufferedBytes() == len(text) - 1


def test_framer_byte_by_byte(ns):
    text = valid_invite() * 3
    messages, error = framed(ns, list(text))
    assert messages == [valid_invite()] * 3 and not error


@pytest.mark.parametrize(
    "stream, reason",
    [
        (valid_invite().replace("Content-Length", "X-Length"), "no content-length"),
        (valid_invite().replace("Content-Length: ", "Content-Length: x"), "content-length"),
        ("INVITE " + "a" * 20000, "header section too long"),
    ],
)
def test_framer_errors_cannot_resynchronise(ns, stream, reason):
    framer = ns.SipStreamFramer()
    framer.Append(stream)
    assert list(framer.Extract()) == []
    assert framer.HasError() and reason in str(framer.GetError()).lower()
    framer.Append(valid_invite())
    assert list(framer.Extract()) == []  # stays broken: the connection must be closed


def test_response_to_copies_the_rfc3261_header_fields(ns):
    request, _ = parse(ns, valid_invite())
    response = ns.SipMessage.CreateResponseTo(request, 180)
    assert str(response.GetReasonPhrase()) == "Ringing"
    for name in ("Via", "From", "To", "Call-ID", "CSeq"):
        assert str(response.GetHeader(name)) == str(request.GetHeader(name))
    response.SetToTag("xyz")
    assert str(response.GetToTag()) == "xyz"
    assert not response.HasHeader("Contact")
