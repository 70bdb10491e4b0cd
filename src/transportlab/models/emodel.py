"""The ITU-T G.107 E-model: transmission rating R and MOS for a voice connection.

``R = Ro - Is - Id - Ie_eff + A`` (G.107 section 7), with the standard's
default values for everything a packet network does not change (loudness
ratings, sidetone, noise, echo loss). What the network and the playout buffer
change is the delay (``Ta`` one-way mouth-to-ear, ``T`` mean one-way delay of
the echo path, ``Tr`` round-trip delay of the 4-wire loop) and the packet loss
``Ppl`` (network loss plus late loss at the playout point) with its burstiness
``BurstR``. With all defaults, R = 93.2 (G.107).

Codec impairment ``Ie`` and packet-loss robustness ``Bpl`` come from ITU-T
G.113 Appendix I (Table I.3): G.711 has Ie = 0; Bpl = 25.1 with the packet loss
concealment of G.711 Appendix I and 4.3 without concealment (both measured
with 10 ms packets, the only packet size G.113 lists for G.711).

Scope: the narrowband E-model with the default delay sensitivity (sT = 1,
mT = 100 ms); sidetone masking ratings STMR between 9 and 20 dB (the range in
which G.107 needs no special-case formulas).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace

import numpy as np


@dataclass(frozen=True)
class Codec:
    """Codec constants for the E-model (G.113 Appendix I)."""

    name: str
    ie: float
    bpl_with_plc: float
    bpl_without_plc: float
    lookahead_ms: float = 0.0


CODECS: dict[str, Codec] = {
    "G.711": Codec("G.711", ie=0.0, bpl_with_plc=25.1, bpl_without_plc=4.3, lookahead_ms=0.0),
}


@dataclass(frozen=True)
class EModelParameters:
    """Input parameters of G.107 with the default values of its Table 3."""

    SLR: float = 8.0  # send loudness rating (dB)
    RLR: float = 2.0  # receive loudness rating (dB)
    STMR: float = 15.0  # sidetone masking rating (dB)
    LSTR: float = 18.0  # listener sidetone rating (dB)
    Ds: float = 3.0  # D-value of telephone, send side
    Dr: float = 3.0  # D-value of telephone, receive side
    TELR: float = 65.0  # talker echo loudness rating (dB)
    WEPL: float = 110.0  # weighted echo path loss (dB)
    T: float = 0.0  # mean one-way delay of the echo path (ms)
    Tr: float = 0.0  # round-trip delay in a 4-wire loop (ms)
    Ta: float = 0.0  # absolute (mouth-to-ear) delay (ms)
    qdu: float = 1.0  # number of quantization distortion units
    Ie: float = 0.0  # equipment impairment factor
    Bpl: float = 1.0  # packet-loss robustness factor
    Ppl: float = 0.0  # random packet-loss probability (%)
    BurstR: float = 1.0  # burst ratio
    Nc: float = -70.0  # circuit noise referred to 0 dBr-point (dBm0p)
    Nfor: float = -64.0  # noise floor at the receive side (dBmp)
    Ps: float = 35.0  # room noise at the send side (dB(A))
    Pr: float = 35.0  # room noise at the receive side (dB(A))
    A: float = 0.0  # advantage factor

    def __post_init__(self) -> None:
        problems = []
        if not 9.0 <= self.STMR <= 20.0:
            problems.append(f"STMR = {self.STMR} dB is outside 9..20 dB (not implemented)")
        for name in ("T", "Tr", "Ta", "Ppl"):
            if getattr(self, name) < 0:
                problems.append(f"{name} must be >= 0, got {getattr(self, name)}")
        if self.Ppl > 100:
            problems.append(f"Ppl is a percentage <= 100, got {self.Ppl}")
        if self.Bpl <= 0:
            problems.append(f"Bpl must be > 0, got {self.Bpl}")
        if self.BurstR <= 0:
            problems.append(f"BurstR must be > 0, got {self.BurstR}")
        if self.qdu < 1:
            problems.append(f"qdu must be >= 1, got {self.qdu}")
        if problems:
            raise ValueError("; ".join(problems))


@dataclass(frozen=True)
class Rating:
    """The result of the E-model: R, its terms, and the estimated MOS (G.107 Annex B)."""

    R: float
    Ro: float
    Is: float
    Id: float
    Idte: float
    Idle: float
    Idd: float
    Ie_eff: float
    A: float
    MOS: float

    def as_dict(self) -> dict[str, float]:
        return asdict(self)


def _log10(x: float) -> float:
    return math.log10(x)


def total_noise(p: EModelParameters) -> float:
    """Total noise power No (dBm0p), the power sum of circuit, room and floor noise."""
    olr = p.SLR + p.RLR
    nos = p.Ps - p.SLR - p.Ds - 100 + 0.004 * (p.Ps - olr - p.Ds - 14) ** 2
    pre = p.Pr + 10 * _log10(1 + 10 ** ((10 - p.LSTR) / 10))
    nor = p.RLR - 121 + pre + 0.008 * (pre - 35) ** 2
    nfo = p.Nfor + p.RLR
    return 10 * _log10(10 ** (p.Nc / 10) + 10 ** (nos / 10) + 10 ** (nor / 10) + 10 ** (nfo / 10))


def basic_signal_to_noise(p: EModelParameters) -> float:
    """Ro = 15 - 1.5 (SLR + No)."""
    return 15 - 1.5 * (p.SLR + total_noise(p))


def simultaneous_impairment(p: EModelParameters, ro: float) -> float:
    """Is = Iolr + Ist + Iq."""
    no = total_noise(p)
    olr = p.SLR + p.RLR
    xolr = olr + 0.2 * (64 + no - p.RLR)
    iolr = 20 * ((1 + (xolr / 8) ** 8) ** (1 / 8) - xolr / 8)
    stmr_o = -10 * _log10(10 ** (-p.STMR / 10) + math.exp(-p.T / 4) * 10 ** (-p.TELR / 10))
    ist = (
        12 * (1 + ((stmr_o - 13) / 6) ** 8) ** (1 / 8)
        - 28 * (1 + ((stmr_o + 1) / 19.4) ** 35) ** (1 / 35)
        - 13 * (1 + ((stmr_o - 3) / 33) ** 13) ** (1 / 13)
        + 29
    )
    q = 37 - 15 * _log10(p.qdu)
    g = 1.07 + 0.258 * q + 0.0602 * q**2
    y = (ro - 100) / 15 + 46 / 8.4 - g / 9
    z = 46 / 30 - g / 40
    iq = 15 * _log10(1 + 10**y + 10**z)
    return iolr + ist + iq


def delay_impairments(p: EModelParameters, ro: float) -> tuple[float, float, float]:
    """(Idte, Idle, Idd): talker echo, listener echo and absolute delay impairments."""
    no = total_noise(p)
    roe = -1.5 * (no - p.RLR)
    terv = p.TELR - 40 * _log10((1 + p.T / 10) / (1 + p.T / 150)) + 6 * math.exp(-0.3 * p.T**2)
    re = 80 + 2.5 * (terv - 14)
    idte = ((roe - re) / 2 + math.sqrt((roe - re) ** 2 / 4 + 100) - 1) * (1 - math.exp(-p.T))
    rle = 10.5 * (p.WEPL + 7) * (p.Tr + 1) ** -0.25
    idle = (ro - rle) / 2 + math.sqrt((ro - rle) ** 2 / 4 + 169)
    if p.Ta <= 100:
        idd = 0.0
    else:
        x = _log10(p.Ta / 100) / _log10(2)
        idd = 25 * ((1 + x**6) ** (1 / 6) - 3 * (1 + (x / 3) ** 6) ** (1 / 6) + 2)
    return idte, idle, idd


def effective_equipment_impairment(p: EModelParameters) -> float:
    """Ie,eff = Ie + (95 - Ie) * Ppl / (Ppl / BurstR + Bpl)."""
    return p.Ie + (95 - p.Ie) * p.Ppl / (p.Ppl / p.BurstR + p.Bpl)


def mos_from_r(r: float) -> float:
    """Estimated conversational MOS from R (G.107 Annex B)."""
    if r < 0:
        return 1.0
    if r > 100:
        return 4.5
    return 1 + 0.035 * r + r * (r - 60) * (100 - r) * 7e-6


def rating(p: EModelParameters | None = None) -> Rating:
    """The transmission rating R of a connection described by ``p``."""
    p = p or EModelParameters()
    ro = basic_signal_to_noise(p)
    is_ = simultaneous_impairment(p, ro)
    idte, idle, idd = delay_impairments(p, ro)
    id_ = idte + idle + idd
    ie_eff = effective_equipment_impairment(p)
    r = ro - is_ - id_ - ie_eff + p.A
    return Rating(
        R=r,
        Ro=ro,
        Is=is_,
        Id=id_,
        Idte=idte,
        Idle=idle,
        Idd=idd,
        Ie_eff=ie_eff,
        A=p.A,
        MOS=mos_from_r(r),
    )


def burst_ratio(lost: Sequence[bool] | np.ndarray) -> float:
    """BurstR of a loss pattern (G.107 definition via a two-state Markov model).

    ``BurstR = 1 / (p + q)`` with p the probability that a packet is lost after
    one that was not, q the probability that a packet is not lost after one that
    was. 1 for random loss, > 1 for bursty loss. Without any transition (no loss,
    or everything lost) the pattern carries no burstiness information and 1 is
    returned.
    """
    lost = np.asarray(lost, dtype=bool)
    if len(lost) < 2:
        return 1.0
    before, after = lost[:-1], lost[1:]
    n_found, n_lost = int((~before).sum()), int(before.sum())
    if n_found == 0 or n_lost == 0:
        return 1.0
    p = float((~before & after).sum()) / n_found
    q = float((before & ~after).sum()) / n_lost
    if p + q == 0:
        return 1.0
    return 1.0 / (p + q)


def voice_rating(
    mouth_to_ear_ms: float,
    loss_percent: float,
    burst: float = 1.0,
    codec: str = "G.711",
    plc: bool = True,
    base: EModelParameters | None = None,
) -> Rating:
    """R and MOS of a VoIP call with the given one-way delay and packet loss.

    ``mouth_to_ear_ms`` is Ta; the echo path and 4-wire loop follow it as in an
    end-to-end packet connection (T = Ta, Tr = 2 Ta). ``loss_percent`` is Ppl
    (network plus late loss), ``burst`` its BurstR. Other parameters are the
    defaults of G.107 (or those of ``base``).
    """
    if codec not in CODECS:
        raise ValueError(f"unknown codec {codec!r}; known: {sorted(CODECS)}")
    c = CODECS[codec]
    base = base or EModelParameters()
    p = replace(
        base,
        Ta=float(mouth_to_ear_ms),
        T=float(mouth_to_ear_ms),
        Tr=2.0 * float(mouth_to_ear_ms),
        Ie=c.ie,
        Bpl=c.bpl_with_plc if plc else c.bpl_without_plc,
        Ppl=float(loss_percent),
        BurstR=float(burst),
    )
    return rating(p)
