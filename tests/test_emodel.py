"""The G.107 E-model against values computed by hand from the standard's formulas."""

from __future__ import annotations

import pytest

from transportlab.models.emodel import (
    EModelParameters,
    burst_ratio,
    effective_equipment_impairment,
    mos_from_r,
    rating,
    voice_rating,
)


def test_default_connection_rates_93_2():
    r = rating()
    # G.107: with all default values R = 93.2 (Ro 94.77, Is 1.41, Id 0.15, Ie,eff 0)
    assert r.R == pytest.approx(93.2, abs=0.05)
    assert r.Ro == pytest.approx(94.77, abs=0.005)
    assert r.Is == pytest.approx(1.41, abs=0.005)
    assert r.Id == pytest.approx(0.15, abs=0.005)
    assert r.Idd == 0 and r.Ie_eff == 0


@pytest.mark.parametrize(
    ("ta", "idd"),
    [
        (100.0, 0.0),
        # X = log2(Ta/100) = 1: 25 * (2**(1/6) - 3 * (1 + 3**-6)**(1/6) + 2)
        (200.0, 3.0444),
        # X = 2: 25 * (65**(1/6) - 3 * (1 + (2/3)**6)**(1/6) + 2)
        (400.0, 24.070),
    ],
)
def test_absolute_delay_impairment(ta, idd):
    assert rating(EModelParameters(Ta=ta)).Idd == pytest.approx(idd, abs=1e-3)


def test_effective_equipment_impairment_of_g711():
    # Ie,eff = Ie + (95 - Ie) Ppl / (Ppl / BurstR + Bpl); G.711 Ie = 0, Bpl 25.1 (PLC), 4.3 (none)
    assert effective_equipment_impairment(EModelParameters(Ppl=2, Bpl=25.1)) == pytest.approx(
        190 / 27.1
    )
    assert effective_equipment_impairment(
        EModelParameters(Ppl=2, Bpl=25.1, BurstR=2)
    ) == pytest.approx(190 / 26.1)
    assert voice_rating(0, 1.0, plc=False).Ie_eff == pytest.approx(95 / 5.3)
    assert voice_rating(0, 1.0, plc=True).Ie_eff == pytest.approx(95 / 26.1)


def test_loss_lowers_r_by_exactly_ie_eff():
    clean, lossy = voice_rating(0, 0.0), voice_rating(0, 3.0)
    assert clean.R - lossy.R == pytest.approx(lossy.Ie_eff)


def test_voice_rating_uses_ta_for_the_echo_path_and_twice_it_for_the_loop():
    direct = rating(EModelParameters(Ta=150, T=150, Tr=300))
    assert voice_rating(150, 0).R == pytest.approx(direct.R)
    assert voice_rating(150, 0).R < voice_rating(50, 0).R


@pytest.mark.parametrize(
    ("r", "mos"),
    [
        (-5, 1.0),
        (0, 1.0),
        (50, 1 + 0.035 * 50 + 50 * (-10) * 50 * 7e-6),
        (93.2, 1 + 0.035 * 93.2 + 93.2 * 33.2 * 6.8 * 7e-6),
        (120, 4.5),
    ],
)
def test_mos_from_r(r, mos):
    assert mos_from_r(r) == pytest.approx(mos)


def test_burst_ratio_from_a_loss_pattern():
    # lost = 1: found->lost 2 of 5 (p = .4), lost->found 2 of 4 (q = .5); BurstR = 1/(p+q)
    assert burst_ratio([0, 1, 1, 0, 0, 0, 1, 1, 0, 0]) == pytest.approx(1 / 0.9)
    assert burst_ratio([0, 1, 0, 1, 0, 1]) == pytest.approx(0.5)
    assert burst_ratio([0, 0, 0]) == 1.0
    assert burst_ratio([1, 1]) == 1.0


def test_parameters_are_checked():
    with pytest.raises(ValueError, match="STMR"):
        EModelParameters(STMR=5)
    with pytest.raises(ValueError, match="Ppl"):
        EModelParameters(Ppl=101)
    with pytest.raises(ValueError, match="Ta must be >= 0"):
        EModelParameters(Ta=-1)
    with pytest.raises(ValueError, match="unknown codec"):
        voice_rating(100, 0, codec="G.729")
