"""transportlab.engine.params (declared, validated parameters) and the study registry."""

from __future__ import annotations

import pytest

from transportlab import studies
from transportlab.engine.params import Param, ParameterError, ParameterSpace


def space() -> ParameterSpace:
    return ParameterSpace(
        Param("protocol", "tcp", str, "transport", choices=("tcp", "udp", "sctp")),
        Param("rate", 1.0, float, "link rate", minimum=0, exclusive_minimum=True, unit="Mb/s"),
        Param("flows", 5, int, "number of flows", minimum=1, maximum=50, quick=2),
        Param("trace", False, bool, "write pcap traces"),
        Param("intervals", [1.0, 5.0], list, "reporting intervals", element_kind=float,
              minimum=0, exclusive_minimum=True),
        Param("start", 0.0, float, "start time", minimum=0),
        Param("stop", 10.0, float, "stop time", minimum=0, quick=2.0),
        consistency=[lambda v: None if v["start"] < v["stop"] else "start must be < stop"],
    )  # fmt: skip


def test_defaults_and_quick_values():
    assert space().defaults() == {
        "protocol": "tcp", "rate": 1.0, "flows": 5, "trace": False,
        "intervals": [1.0, 5.0], "start": 0.0, "stop": 10.0,
    }  # fmt: skip
    quick = space().defaults(quick=True)
    assert (quick["flows"], quick["stop"], quick["rate"]) == (2, 2.0, 1.0)


def test_validate_completes_with_defaults_and_converts_ints_to_floats():
    values = space().validate({"rate": 2, "intervals": (1, 2.5)})
    assert values["rate"] == 2.0 and isinstance(values["rate"], float)
    assert values["intervals"] == [1.0, 2.5] and all(
        isinstance(v, float) for v in values["intervals"]
    )
    assert values["flows"] == 5
    assert space().validate({}, quick=True)["flows"] == 2
    assert space().validate({"flows": 7}, quick=True)["flows"] == 7  # explicit beats quick


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"protocol": "quic"}, "protocol: 'quic' is not one of ['tcp', 'udp', 'sctp']"),
        ({"rate": 0}, "rate: 0.0 must be > 0"),
        ({"rate": "fast"}, "rate: expected float, got str 'fast'"),
        ({"rate": True}, "rate: expected float, got bool True"),
        ({"flows": 2.5}, "flows: expected int, got float 2.5"),
        ({"flows": 51}, "flows: 51 must be <= 50"),
        ({"flows": 0}, "flows: 0 must be >= 1"),
        ({"trace": 1}, "trace: expected bool, got int 1"),
        ({"intervals": [1.0, -1.0]}, "intervals: -1.0 must be > 0"),
        ({"intervals": [1.0, "x"]}, "intervals: expected a list of float, got element 'x'"),
        ({"intervals": 3.0}, "intervals: expected list, got float 3.0"),
        ({"flws": 3}, "unknown parameter 'flws' (did you mean 'flows'?)"),
        ({"zzz": 3}, "unknown parameter 'zzz'"),
        ({"start": 5.0, "stop": 4.0}, "start must be < stop"),
    ],
)
def test_each_kind_of_bad_value_has_a_clear_message(values, message):
    with pytest.raises(ParameterError) as error:
        space().validate(values)
    assert message in str(error.value)


def test_every_problem_is_reported_at_once():
    with pytest.raises(ParameterError) as error:
        space().validate({"rate": -1, "flows": "many", "protocl": "tcp"})
    lines = str(error.value).splitlines()
    assert lines[0] == "invalid parameters:"
    assert len(lines) == 4
    assert any("protocl" in line and "did you mean 'protocol'" in line for line in lines)


def test_consistency_rules_run_only_when_each_value_is_valid():
    with pytest.raises(ParameterError) as error:
        space().validate({"start": -1.0, "stop": -2.0})
    assert "start must be < stop" not in str(error.value)


def test_quick_consistency_is_checked_with_quick_values():
    with pytest.raises(ParameterError, match="start must be < stop"):
        space().validate({"start": 5.0}, quick=True)  # quick stop is 2.0
    assert space().validate({"start": 5.0})["start"] == 5.0


def test_a_check_function_adds_its_own_rule():
    even = ParameterSpace(
        Param("n", 2, int, "an even number", check=lambda v: None if v % 2 == 0 else "odd")
    )
    assert even.validate({"n": 4})["n"] == 4
    with pytest.raises(ParameterError, match="n: odd"):
        even.validate({"n": 3})


def test_invalid_declarations_fail_at_definition():
    with pytest.raises(ValueError, match="default of 'x' is invalid"):
        Param("x", -1, int, "help", minimum=0)
    with pytest.raises(ValueError, match="quick value of 'x' is invalid"):
        Param("x", 1, int, "help", minimum=0, quick=-5)
    with pytest.raises(ValueError, match="duplicate parameter names"):
        ParameterSpace(Param("x", 1, int, "a"), Param("x", 2, int, "b"))


def test_describe_lists_every_parameter():
    table = space().describe()
    assert list(table.columns) == ["name", "type", "default", "quick", "unit", "allowed", "help"]
    rows = table.set_index("name")
    assert rows.loc["protocol", "allowed"] == "tcp | udp | sctp"
    assert rows.loc["rate", "allowed"] == "> 0"
    assert rows.loc["flows", "allowed"] == ">= 1, <= 50"
    assert (rows.loc["flows", "quick"], rows.loc["rate", "quick"]) == (2, 1.0)
    assert rows.loc["rate", "unit"] == "Mb/s"
    assert rows.loc["trace", "type"] == "bool"


def test_membership_and_iteration():
    s = space()
    assert "rate" in s and "nope" not in s
    assert [p.name for p in s][:2] == ["protocol", "rate"]


def test_study_registry_discovers_the_example_and_names_unknown_studies():
    registry = studies.all_studies()
    assert "bottleneck_example" in registry
    study = studies.get("bottleneck_example")
    assert study.notebook == "00_bottleneck_example.ipynb"
    assert callable(study.run) and study.run.__module__.startswith("transportlab.")
    assert callable(study.analyse) and study.reproduction.experiments
    with pytest.raises(KeyError, match="unknown study 'nope'; known studies: .*bottleneck_example"):
        studies.get("nope")


def test_every_registered_study_validates_its_own_defaults():
    for study in studies.all_studies().values():
        assert study.parameters.validate({}) == study.parameters.defaults()
        assert study.parameters.validate({}, quick=True) == study.parameters.defaults(quick=True)
