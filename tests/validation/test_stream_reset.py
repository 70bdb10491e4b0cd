"""Stream reset mid-transfer (RFC 6525) against usrsctp, both directions: 100 messages of
1000 bytes alternate over streams 0 and 1 on a 10 Mb/s, 10 ms link, and stream 1 is reset
after 40 of them, either by the sender (an Outgoing SSN Reset Request, 5.1.2) or at the
receiver's request (an Incoming SSN Reset Request answered by the sender's outgoing one,
5.1.3 / 5.2.3). usrsctp-oracle runs it between two usrsctp endpoints, the SCTP model
between two ns-3 nodes; the SSNs the receiving application sees must be the same.

What differs, by design of each, is reported, not asserted:

* usrsctp refuses ``sendv`` on a stream whose reset is pending (EAGAIN) and its writer
  waits there; the model queues those messages and sends them once the reset is
  performed (RFC 6525 5.1.2 requires only that no new data goes out on the stream before
  then, RFC 6458 8.3.2 leaves the rest to the implementation), so stream 0 keeps flowing.
* Both endpoints send the request only once the stream's queued data has TSNs; the
  times then differ with each stack's congestion control (the usrsctp differences the
  sctp_validation study names for RFC 9260 section 7).
"""

from __future__ import annotations

import gc
import subprocess
from io import StringIO

import pandas as pd
import pytest

from tests.sctp._support import make_pair
from tests.sctp.test_stream_reconfig import _helpers
from tests.sctp.test_streams import setup as setup_pair
from tests.validation.conftest import needs_oracle
from transportlab.ns3.simulation import run_until, simulation
from transportlab.studies.sctp_validation import stacks

MESSAGES = 100
RESET_AFTER = 40
STREAM = 1
SIZE = 1000


def expected_ssns(stream: int) -> list[int]:
    """SSNs of ``stream`` at the receiver: numbered from 0 again after the reset."""
    before = [i for i in range(RESET_AFTER) if i % 2 == stream]
    after = [i for i in range(RESET_AFTER, MESSAGES) if i % 2 == stream]
    if stream != STREAM:
        return list(range(len(before) + len(after)))
    return list(range(len(before))) + list(range(len(after)))


def run_usrsctp(direction: int) -> dict:
    out = subprocess.run(
        [
            str(stacks.oracle_path()),
            f"message_size={SIZE}",
            f"total_bytes={SIZE * MESSAGES}",
            "streams=2",
            f"reset_dir={direction}",
            f"reset_after={RESET_AFTER}",
            f"reset_stream={STREAM}",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    t = pd.read_csv(StringIO(out), keep_default_na=False)
    ssn = t[t.event == "deliver_ssn"]
    events = t[t.event.isin(["reset_request", "reset_event"])]
    return {
        "ssns": {s: [int(v) for v in ssn[ssn.kind == str(s)].value] for s in (0, 1)},
        "events": [(r.event, r.dir, int(r.value)) for r in events.itertuples()],
        "request_s": float(events[events.event == "reset_request"].time_ns.iloc[0]) / 1e9,
        "done_s": float(events[events.event == "reset_event"].time_ns.iloc[-1]) / 1e9,
        "last_delivery_s": float(ssn.time_ns.iloc[-1]) / 1e9,
    }


def run_model(direction: int) -> dict:
    import cppyy

    h = _helpers()
    with simulation(seed=1, run=1) as ns:
        pair = make_pair("10Mbps", "10ms")
        server, client, collector, sender = setup_pair(ns, pair, n_streams=2)
        for sock in (client, server):
            sock.SetAttribute("ReconfigSupported", ns.BooleanValue(True))
        client_log, server_log = h.Log(), h.Log()
        client_log.Attach(client)
        streams = cppyy.gbl.std.vector["unsigned short"]([STREAM])
        for i in range(RESET_AFTER):
            sender.At(0.5, SIZE, i % 2, False, i)
        if direction == 1:
            h.ResetAt(0.5, client, streams, True, False)
            rest_at = 0.5
        else:
            rest_at = 3.0  # the usrsctp writer waits for its reset event likewise
        for i in range(RESET_AFTER, MESSAGES):
            sender.At(rest_at, SIZE, i % 2, False, i)
        if direction == 2:
            run_until(2.0)  # every one of the first 40 messages has arrived
            assert int(collector.Count()) == RESET_AFTER
            accepted = ns.DynamicCast[ns.SctpSocket](collector.accepted[0])
            server_log.Attach(accepted)
            h.ResetAt(2.0, accepted, streams, False, True)
        run_until(6.0)
        sids, ssns = list(collector.sids), list(collector.ssns)
        result = {
            "ssns": {
                s: [int(n) for k, n in zip(sids, ssns, strict=True) if k == s] for s in (0, 1)
            },
            "client": [str(line) for line in client_log.lines],
            "server": [str(line) for line in server_log.lines],
            "delivered": int(collector.Count()),
            "request_s": float(client_log.times[0] if direction == 1 else server_log.times[0]),
            "done_s": float(list(client_log.times)[-1]),
            "last_delivery_s": float(list(collector.times)[-1]),
        }
        del pair, server, client, collector, sender, client_log, server_log
    gc.collect()
    return result


@needs_oracle
@pytest.mark.parametrize("direction", [1, 2], ids=["outgoing", "incoming"])
def test_stream_reset_mid_transfer_agrees_with_usrsctp(direction):
    reference = run_usrsctp(direction)
    model = run_model(direction)
    # usrsctp: the request was accepted and both ends report the reset (incoming SSNs at
    # the server, flag 0x0001; outgoing at the client, 0x0002).
    requester = "fwd" if direction == 1 else "rev"
    assert ("reset_request", requester, 0) in reference["events"]
    assert ("reset_event", "rev", 0x0001) in reference["events"]
    assert ("reset_event", "fwd", 0x0002) in reference["events"]
    for stream in (0, 1):
        assert reference["ssns"][stream] == expected_ssns(stream), f"usrsctp stream {stream}"
        assert model["ssns"][stream] == reference["ssns"][stream], f"model stream {stream}"
    assert model["delivered"] == MESSAGES
    for name, run in (("usrsctp", reference), ("model", model)):
        print(
            f"{name}: reset requested {run['request_s']:.4f} s, done {run['done_s']:.4f} s, "
            f"last message {run['last_delivery_s']:.4f} s"
        )
    # The model's outgoing request was performed; in the incoming direction it answered
    # the server's request (5.2.3) and the server saw that as the answer.
    assert "RESPONSE_RECEIVED 13 1" in model["client"]
    if direction == 2:
        assert "REQUEST_RECEIVED 14 1" in model["client"]
        assert "RESPONSE_RECEIVED 14 1" in model["server"]
