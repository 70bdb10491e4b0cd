"""Shared helpers of the SIP model tests (C++ behaviour driven from pytest)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def ns():
    from transportlab import ns as namespace  # noqa: PLC0415

    return namespace


def valid_invite() -> str:
    """A complete INVITE as a softphone would send it (with an SDP body)."""
    body = (
        "v=0\r\no=alice 1 1 IN IP4 10.1.1.2\r\ns=-\r\nc=IN IP4 10.1.1.2\r\nt=0 0\r\n"
        "m=audio 40000 RTP/AVP 0\r\na=rtpmap:0 PCMU/8000\r\n"
    )
    return (
        "INVITE sip:bob@transportlab.test SIP/2.0\r\n"
        "Via: SIP/2.0/UDP 10.1.1.2:5060;branch=z9hG4bK0001\r\n"
        "Max-Forwards: 70\r\n"
        "To: <sip:bob@transportlab.test>\r\n"
        'From: "alice" <sip:alice@transportlab.test>;tag=abc\r\n'
        "Call-ID: 42@10.1.1.2\r\n"
        "CSeq: 1 INVITE\r\n"
        "Contact: <sip:alice@10.1.1.2:5060;transport=udp>\r\n"
        "Content-Type: application/sdp\r\n"
        f"Content-Length: {len(body)}\r\n"
        "\r\n" + body
    )
