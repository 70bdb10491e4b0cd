"""Packet-level fuzzing of live SCTP transfers: the engine behind the quick slice in
``test_fuzz.py`` and the campaign script ``scripts/sctp_fuzz_campaign.py``.

One run = one two-node simulation (10 Mb/s, 5 ms) with an association carrying
``messages`` pattern messages (optionally fragmented, over lossy links, in both
directions). Every 100 ms of simulated time the engine draws packets for the victim
endpoint from what has really been sent so far (captured at the peer's IPv4 layer), all
of a kind RFC 9260 says must change nothing:

* ``replay``: a packet the peer sent, verbatim (duplicate DATA, old SACKs, HEARTBEATs,
  the INIT / COOKIE ECHO of the handshake ...);
* ``third_address`` / ``third_port``: such a packet from an address (TEST-NET-2, no
  route back) or a source port that no association has: out of the blue;
* ``cookie_copy``: the real COOKIE ECHO from a third address, alone or bundled with the
  DATA chunks of a real packet (5.2.4 via the live association: case D or a discard);
* ``init0``: INITs with tag 0 from the peer's address and port (unexpected INIT, 5.2.2),
  from a third address with the peer's port listing the peer's address, or from a
  third port;
* ``garbage``: random chunks (every type, random lengths and values) with a
  verification tag that is neither endpoint's;
* ``bad_crc``: a captured packet with flipped bytes and the old checksum.

A run has a *wrong outcome* if afterwards any message was lost, duplicated, reordered or
corrupted (in either direction), an endpoint is not ESTABLISHED, the server accepted a
second association, or an association invariant broke after an injected packet. A crash
kills the process (the campaign runs batches in subprocesses and counts them).
"""

from __future__ import annotations

import gc
import random
import struct
from dataclasses import dataclass

from tests.sctp._support import chunk, cxx, injector, make_pair, packet
from tests.sctp.test_cookie_security import _capture, _chunks, _raw

PORT = 5000
ESTABLISHED = 4
STEP = 0.1
KINDS = ("replay", "third_address", "third_port", "cookie_copy", "init0", "garbage", "bad_crc")
WEIGHTS = (25, 10, 5, 10, 15, 25, 10)


@dataclass
class RunConfig:
    seed: int
    packets: int = 2000
    messages: int = 400
    size: int = 600
    loss: float = 0.0
    bidirectional: bool = False
    victim: int = 1  # 0 = client, 1 = server
    drain: float = 15.0  # simulated seconds after the last message is sent

    @classmethod
    def draw(cls, seed: int, packets: int) -> RunConfig:
        rng = random.Random(seed)
        return cls(
            seed=seed,
            packets=packets,
            messages=rng.choice((200, 400, 800, 2000)),
            size=rng.choice((300, 600, 1400, 3000, 5000)),  # 3000+: fragmented
            loss=rng.choice((0.0, 0.0, 0.01, 0.03)),
            bidirectional=rng.random() < 0.3,
            victim=rng.randint(0, 1),
        )


def _third_address(rng) -> str:
    return f"198.51.100.{rng.randint(1, 254)}"  # TEST-NET-2: no route back


class _Generator:
    def __init__(self, rng, tags, ports, peer_packets, cookie_echo):
        self.rng = rng
        self.tags = tags  # (victim's own tag, the peer's tag)
        self.ports = ports  # (peer port, victim port) as the peer sends them
        self.peer_packets = peer_packets  # captured packets peer -> victim
        self.cookie_echo = cookie_echo

    def _bad_tag(self) -> int:
        while True:
            t = self.rng.getrandbits(32)
            if t and t not in self.tags:
                return t

    def draw(self):
        """(kind, raw bytes, fix checksum, source address or None = the peer's)."""
        rng = self.rng
        kind = rng.choices(KINDS, WEIGHTS)[0]
        peer = self.peer_packets
        if kind in ("replay", "third_address", "third_port", "bad_crc") and not peer:
            kind = "garbage"
        if kind == "cookie_copy" and self.cookie_echo is None:
            kind = "init0"
        if kind == "replay":
            return kind, rng.choice(peer), False, None
        if kind == "third_address":
            return kind, rng.choice(peer), False, _third_address(rng)
        if kind == "third_port":
            raw = bytearray(rng.choice(peer))
            struct.pack_into("!H", raw, 0, (self.ports[0] + rng.randint(1, 1000)) & 0xFFFF)
            return kind, bytes(raw), True, None
        if kind == "bad_crc":
            raw = bytearray(rng.choice(peer))
            for _ in range(rng.randint(1, 4)):
                raw[rng.randrange(12, len(raw)) if len(raw) > 12 else 0] ^= rng.randint(1, 255)
            return kind, bytes(raw), False, None
        if kind == "cookie_copy":
            raw = self.cookie_echo
            data = [p for p in peer if p[12] == 0]
            if data and rng.random() < 0.5:
                raw = raw + rng.choice(data)[12:]  # COOKIE ECHO + real DATA chunks
            return kind, raw, True, _third_address(rng)
        if kind == "init0":
            params = b""
            if rng.random() < 0.5:
                params += struct.pack("!HH4s", 5, 8, bytes((10, 1, 1, rng.randint(1, 2))))
            if rng.random() < 0.3:
                params += struct.pack("!HH4s", 5, 8, bytes((10, 9, rng.randint(0, 255), 1)))
            body = struct.pack(
                "!IIHHI",
                rng.getrandbits(32) or 1,
                rng.choice((0, 1500, 65536, rng.getrandbits(32))),
                rng.choice((0, 1, 10, 0xFFFF)),
                rng.choice((0, 1, 10, 0xFFFF)),
                rng.getrandbits(32),
            )
            raw = bytes(packet(self.ports[0], self.ports[1], 0, chunk(1, 0, body + params)))
            where = rng.randint(0, 2)
            if where == 0:
                return kind, raw, True, None
            if where == 1:
                return kind, raw, True, _third_address(rng)
            raw = bytearray(raw)
            struct.pack_into("!H", raw, 0, rng.randint(1, 0xFFFF))
            return kind, bytes(raw), True, None
        # garbage: 1-4 random chunks under a tag that is neither endpoint's
        chunks = []
        for _ in range(rng.randint(1, 4)):
            ctype = rng.choice(
                (
                    0,
                    1,
                    2,
                    3,
                    4,
                    5,
                    6,
                    7,
                    8,
                    9,
                    10,
                    11,
                    12,
                    13,
                    14,
                    192,
                    0x7F,
                    0xBF,
                    rng.randint(0, 255),
                )
            )
            value = rng.randbytes(rng.choice((0, 4, 8, 12, 16, 20, 28, 60, 200)))
            chunks.append(chunk(ctype, rng.randint(0, 255), value))
        raw = bytearray(packet(self.ports[0], self.ports[1], self._bad_tag(), *chunks))
        if rng.random() < 0.2 and len(raw) >= 16:
            struct.pack_into("!H", raw, 14, rng.randint(0, 0xFFFF))  # first chunk length
        if rng.random() < 0.1:
            raw = raw[: rng.randint(12, len(raw))]
        return kind, bytes(raw), True, None


def run_once(config: RunConfig) -> dict:
    """One fuzzed transfer; returns counts and whether the outcome was right."""
    from transportlab.ns3.simulation import simulation

    rng = random.Random(config.seed * 7919 + 1)
    counts = dict.fromkeys(KINDS, 0)
    with simulation(seed=1 + config.seed % 1000, run=1 + config.seed // 1000) as ns:
        c = cxx()
        pair = make_pair("10Mbps", "5ms")
        if config.loss:
            for k in range(2):
                em = ns.CreateObject[ns.RateErrorModel]()
                em.SetAttribute("ErrorRate", ns.DoubleValue(config.loss))
                em.SetAttribute("ErrorUnit", ns.StringValue("ERROR_UNIT_PACKET"))
                pair.devices.Get(k).SetAttribute("ReceiveErrorModel", ns.PointerValue(em))
        # Send buffers hold the whole transfer: a message is never refused because a
        # slow (lossy) transfer filled the buffer, so every seed 0..n-1 must arrive.
        big = ns.UintegerValue(32 << 20)
        server = pair.socket(1)
        server.SetAttribute("SndBufSize", big)
        server.Bind(ns.InetSocketAddress(ns.Ipv4Address.GetAny(), PORT).ConvertTo())
        collector = c.Collector()
        collector.Listen(server)
        client = pair.socket(0)
        client.SetAttribute("SndBufSize", big)
        sender = c.Sender()
        sender.socket = client
        sender.ConnectAt(0.05, pair.endpoint(1, PORT))
        gap = max(0.002, config.size * 8 / 4e6)  # about 4 Mb/s of messages
        for i in range(config.messages):
            sender.At(0.3 + gap * i, config.size, 0, False, i)
        send_end = 0.3 + gap * config.messages
        capture = _capture()
        capture.Attach(pair.nodes.Get(1 - config.victim))  # what the peer sends
        inj = injector(pair, config.victim)
        victim_ip = pair.address(config.victim)
        peer_ip = pair.address(1 - config.victim)
        reverse = back = None
        peer_packets: list[bytes] = []
        cookie_echo = None
        seen = 0
        t = 0.0
        n_steps = max(1, int(send_end / STEP))
        per_step = config.packets // n_steps
        extra = config.packets - per_step * n_steps
        injected = 0
        gen = None
        step = 0
        while t < send_end + config.drain:
            t = round(t + STEP, 6)
            ns.Simulator.Stop(ns.Seconds(t) - ns.Simulator.Now())
            ns.Simulator.Run()
            if not collector.accepted.size():
                continue
            if gen is None:
                accepted = ns.DynamicCast[ns.SctpSocket](collector.accepted[0])
                me = (client, accepted)[config.victim]
                tags = (int(me.GetLocalVerificationTag()), int(me.GetPeerVerificationTag()))
                ports = (int(me.GetPeerPort()), int(me.GetLocalPort()))
                inj.Watch(client)
                inj.Watch(accepted)
                if config.bidirectional:
                    back = c.Collector()
                    back.Attach(client)
                    reverse = c.Sender()
                    reverse.socket = accepted
                    for i in range(config.messages // 2):
                        reverse.At(t + 0.1 + 2 * gap * i, config.size, 0, False, 100000 + i)
                gen = _Generator(rng, tags, ports, peer_packets, None)
            while seen < int(capture.Count()):
                raw = _raw(capture, seen)
                seen += 1
                kinds = [k for k, _f, _v in _chunks(raw)]
                if raw[:4] == struct.pack("!HH", *gen.ports) and kinds:
                    if len(peer_packets) < 400 or rng.random() < 0.05:
                        peer_packets.append(raw)
                    if kinds[0] == 10 and config.victim == 1:
                        gen.cookie_echo = cookie_echo = raw
            if step < n_steps and t < send_end + STEP:
                quota = per_step + (extra if step == n_steps - 1 else 0)
                for k in range(quota):
                    kind, raw, fix, source = gen.draw()
                    counts[kind] += 1
                    src = ns.Ipv4Address(source) if source else peer_ip
                    buffer = bytearray(raw) if raw else bytearray(1)
                    at = ns.Seconds(t + STEP * k / max(1, quota))
                    inj.Schedule(at, buffer, len(raw), src, victim_ip, fix)
                    injected += 1
                step += 1
            done = int(collector.Count()) >= config.messages and (
                back is None or int(back.Count()) >= config.messages // 2
            )
            if done and step >= n_steps and t > send_end + 1.0:
                break
        accepted = ns.DynamicCast[ns.SctpSocket](collector.accepted[0]) if gen else None
        problems = []
        if gen is None:
            problems.append("no association")
        else:
            refused = int(sender.failed) + (int(reverse.failed) if reverse else 0)
            if refused:
                problems.append(f"engine: {refused} sends refused")
            if int(collector.Count()) != config.messages:
                problems.append(f"forward: {int(collector.Count())} of {config.messages}")
            elif not all(collector.Matches(i, i) for i in range(config.messages)):
                problems.append("forward: wrong content or order")
            if back is not None:
                n_back = config.messages // 2
                if int(back.Count()) != n_back:
                    problems.append(f"reverse: {int(back.Count())} of {n_back}")
                elif not all(back.Matches(i, 100000 + i) for i in range(n_back)):
                    problems.append("reverse: wrong content or order")
            states = (int(client.GetState()), int(accepted.GetState()))
            if states != (ESTABLISHED, ESTABLISHED):
                problems.append(f"states {states}")
            if int(collector.accepted.size()) != 1:
                problems.append(f"{int(collector.accepted.size())} associations accepted")
            violation = str(inj.GetFirstViolation())
            if violation:
                problems.append(violation)
            if int(inj.GetInjectedCount()) != injected:
                problems.append(f"injected {int(inj.GetInjectedCount())} of {injected}")
        stats = {}
        if gen is not None:
            for name, sock in (("client", client), ("server", accepted)):
                stats[name] = {
                    "state": int(sock.GetState()),
                    "next_tsn": int(sock.GetNextTsn()),
                    "cum_acked": int(sock.GetCumulativeTsnAcked()),
                    "cum_received": int(sock.GetCumulativeTsnReceived()),
                    "peer_rwnd": int(sock.GetPeerRwnd()),
                    "timeouts": int(sock.GetTimeoutCount()),
                    "tags": (
                        int(sock.GetLocalVerificationTag()),
                        int(sock.GetPeerVerificationTag()),
                    ),
                    "restarts": int(sock.GetRestartCount()),
                }
        result = {
            "seed": config.seed,
            "stats": stats,
            "config": config.__dict__,
            "packets": int(inj.GetInjectedCount()),
            "kinds": counts,
            "problems": problems,
            "cookie_echo_seen": cookie_echo is not None,
        }
        del pair, server, client, collector, sender, capture, inj, accepted
        del reverse, back, gen
    gc.collect()
    return result
