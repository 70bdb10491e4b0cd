"""Voice calls in ns-3: transportlab's voice gateway applications (C++, ``src/voice``).

``ns3::VoiceTrunkSource`` sends one or more one-way calls (one message per frame,
carrying the call, a sequence number and the send time in a 14-byte
``VoiceFrameHeader``) over one socket; ``ns3::VoiceTrunkSink`` accepts them on a
port and records every frame it delivers. Both report to a
:class:`~transportlab.ns3.recording.PacketRecorder` (``flow`` = call, ``seq`` = frame).

This module only installs them. It is part of the simulation (and of the sweep
cache key of the studies that use it); what is done with the recorded frames
(playout, loss, jitter, R and MOS) is in :mod:`transportlab.studies.voip_cjm.voice_quality`.
"""

from __future__ import annotations

__all__ = ["install_sink", "install_source", "talk_pattern"]

#: On time of continuous speech: far longer than any run.
_ALWAYS_ON = "ns3::ConstantRandomVariable[Constant=1e9]"
_NEVER_OFF = "ns3::ConstantRandomVariable[Constant=0]"


def talk_pattern(
    activity: str, talkspurt_mean_s: float = 1.0, silence_mean_s: float = 1.35
) -> tuple[str, str]:
    """On and off time random variables (ns-3 attribute strings) of a speaker.

    ``continuous``: always on (no silence suppression); ``talkspurts``:
    exponential talkspurts and silences with the given means.
    """
    if activity == "continuous":
        return _ALWAYS_ON, _NEVER_OFF
    if activity == "talkspurts":
        return (
            f"ns3::ExponentialRandomVariable[Mean={talkspurt_mean_s}]",
            f"ns3::ExponentialRandomVariable[Mean={silence_mean_s}]",
        )
    raise ValueError(f"voice activity must be 'continuous' or 'talkspurts', got {activity!r}")


def install_sink(ns, node, factory, port: int, frame_size: int, recorder, stop_s: float):
    """A VoiceTrunkSink on ``node`` accepting every call sent to ``port``, from 0 s to ``stop_s``.

    ``factory`` is the socket factory's TypeId; ``frame_size`` the message size (a
    stream transport delivers bytes, the sink cuts them into messages).
    """
    sink = ns.CreateObject[ns.VoiceTrunkSink]()
    local = ns.InetSocketAddress(ns.Ipv4Address.GetAny(), port).ConvertTo()
    sink.SetAttribute("Local", ns.AddressValue(local))
    sink.SetAttribute("Protocol", ns.TypeIdValue(factory))
    sink.SetAttribute("FrameSize", ns.UintegerValue(frame_size))
    sink.SetAttribute("Recorder", ns.PointerValue(recorder.native))
    node.AddApplication(sink)
    sink.SetStartTime(ns.Seconds(0.0))
    sink.SetStopTime(ns.Seconds(stop_s))
    return sink


def install_source(
    ns,
    node,
    remote,
    factory,
    *,
    calls: int,
    first_call: int,
    payload: int,
    frame_ms: float,
    start_s: float,
    start_spread_s: float,
    call_duration_s: float,
    stop_s: float,
    talk: tuple[str, str],
    recorder,
    sctp_stream_per_call: bool = False,
    sctp_unordered: bool = False,
    sctp_lifetime_s: float = 0.0,
):
    """A VoiceTrunkSource on ``node`` sending calls ``first_call`` .. ``first_call + calls - 1``.

    Every call sends a ``payload``-byte message every ``frame_ms`` to ``remote``
    over one socket (``factory``), starting at a uniform random time within
    ``start_spread_s`` after the application starts (``start_s``, plus connection
    set-up), for ``call_duration_s`` of voice; ``talk`` = (on, off) from
    :func:`talk_pattern`. SCTP only: a stream per call, unordered delivery,
    PR-SCTP lifetime (0 = reliable).
    """
    on, off = talk
    source = ns.CreateObject[ns.VoiceTrunkSource]()
    # Set in this order since the first version: keep it (results stay bit-identical).
    for name, value in (
        ("Remote", ns.AddressValue(remote)),
        ("Protocol", ns.TypeIdValue(factory)),
        ("Calls", ns.UintegerValue(calls)),
        ("FirstCall", ns.UintegerValue(first_call)),
        ("PayloadSize", ns.UintegerValue(payload)),
        ("FrameInterval", ns.TimeValue(ns.MicroSeconds(round(frame_ms * 1000)))),
        ("StartSpread", ns.TimeValue(ns.Seconds(start_spread_s))),
        ("CallDuration", ns.TimeValue(ns.Seconds(call_duration_s))),
        ("OnTime", ns.StringValue(on)),
        ("OffTime", ns.StringValue(off)),
        ("Recorder", ns.PointerValue(recorder.native)),
        ("SctpStreamPerCall", ns.BooleanValue(sctp_stream_per_call)),
        ("SctpUnordered", ns.BooleanValue(sctp_unordered)),
        ("SctpLifetime", ns.TimeValue(ns.Seconds(sctp_lifetime_s))),
    ):
        source.SetAttribute(name, value)
    node.AddApplication(source)
    source.SetStartTime(ns.Seconds(start_s))
    source.SetStopTime(ns.Seconds(stop_s))
    return source
