"""The C++ voice gateway applications (src/voice) and their installation
(transportlab.studies.voip_cjm.voice_gateways)."""

from __future__ import annotations

import numpy as np
import pytest

from transportlab.studies.voip_cjm import parameters, scenario
from transportlab.studies.voip_cjm import voice_gateways as voice

SHORT = {"n_calls": 3, "duration": 2.0, "drain": 2.0, "topology": "trunk"}


def run(**overrides):
    return scenario.run(parameters.PARAMETERS.validate({**SHORT, **overrides}), 1, 1)


def test_talk_patterns():
    on, off = voice.talk_pattern("continuous")
    assert "Constant=1e9" in on and "Constant=0" in off
    on, off = voice.talk_pattern("talkspurts", 1.0, 1.35)
    assert on == "ns3::ExponentialRandomVariable[Mean=1.0]"
    assert off == "ns3::ExponentialRandomVariable[Mean=1.35]"
    with pytest.raises(ValueError, match="voice activity"):
        voice.talk_pattern("whisper")


def test_frame_header_round_trip_and_short_buffer():
    from transportlab import ns

    header = ns.VoiceFrameHeader()
    header.SetCall(513)
    header.SetSeq(70000)
    header.SetSendTime(ns.NanoSeconds(1234567891))
    packet = ns.Packet(158)
    packet.AddHeader(header)
    assert packet.GetSize() == 172
    back = ns.VoiceFrameHeader()
    assert packet.PeekHeader(back) == 14
    assert (back.GetCall(), back.GetSeq(), back.GetSendTime().GetNanoSeconds()) == (
        513,
        70000,
        1234567891,
    )
    # Too short to be a frame: nothing is read (and nothing asserts)
    assert ns.Packet(5).PeekHeader(ns.VoiceFrameHeader()) == 0


@pytest.mark.parametrize("protocol", ["udp", "tcp"])
def test_calls_on_one_socket_are_told_apart_and_each_sends_for_its_duration(protocol):
    raw = run(protocol=protocol, connection="shared")
    packets = raw["packets"]
    sent = packets[packets["event"] == "sent"]
    received = packets[packets["event"] == "received"]
    # 2 s of 20 ms frames per call, numbered 0..99 in every call
    assert (
        sent.groupby("flow")["seq"].agg(["count", "min", "max"]).values.tolist()
        == [[100, 0, 99]] * 3
    )
    # every frame arrives once, under the call that sent it, with the send time it carried
    merged = received.merge(sent, on=["flow", "seq"], suffixes=("", "_tx"))
    assert len(merged) == len(sent) == len(received)
    np.testing.assert_allclose(merged["sent_time"], merged["time_tx"], atol=1e-9)
    assert (merged["size"] == 172).all()


def test_one_shared_tcp_connection_carries_every_call():
    shared = run(protocol="tcp", connection="shared")
    per_call = run(protocol="tcp")
    # Packets down the receiver's link: one segment per frame (an uncongested connection
    # sends each 172-byte write at once) plus, per connection, the SYN and the handshake's
    # last ACK (the FINs come after the end of the run)
    assert (shared["packets"]["event"] == "received").sum() == 300
    assert shared["counters"]["ip_packets_to_receivers"].item() == 300 + 2
    assert per_call["counters"]["ip_packets_to_receivers"].item() == 300 + 3 * 2


def test_talkspurts_leave_silences():
    raw = run(protocol="udp", voice_activity="talkspurts", duration=10.0)
    sent = raw["packets"][raw["packets"]["event"] == "sent"]
    gaps = sent.groupby("flow")["time"].diff().dropna()
    assert len(sent) < 3 * 500  # less than continuous speech
    assert (gaps > 0.1).any()  # silences between talkspurts
    assert np.isclose(gaps.min(), 0.02)  # 20 ms frames inside a talkspurt
