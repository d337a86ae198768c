"""python -m tools bench: the JSON it prints has every figure, positive (no timing thresholds);
the scaling to a SAMD51 with given numbers; pystone fetched, pinned and checked; bad command lines.

The first test that needs pystone fetches it once for this environment (the cache is under
sys.prefix); the others read that copy.
"""

import contextlib
import hashlib
import io
import sys
import types

import pytest

from tools.lab import bench
from tools.lab.bench import ai, calibrate, command, host, imports, waits


def run_main(argv):
    """(exit status, stdout, stderr) of bench.main(argv)."""
    out = io.StringIO()
    err = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = bench.main(argv)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def report(quick_bench):
    """The quick bench's JSON (tests/conftest.py runs it once, as a process)."""
    return quick_bench


def positive_numbers(table):
    return all([number(v) and v > 0 for v in table.values()])


def number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


# -- the scaling, with given numbers ------------------------------------------------------

def test_scaling_formula():
    assert calibrate.SAMD51_PYSTONES == 1850
    # SAMD51 ms = ms here x (pystones per second here / 1,850)
    assert calibrate.samd51_ms(10, 185000) == 1000.0
    assert calibrate.samd51_ms(2.5, 74000) == 100.0
    assert calibrate.samd51_ms(0.5, 1850) == 0.5
    assert calibrate.rate([90000, 100000, 80000]) == 90000


def game(us, actions=(1, 2), steps=None):
    return {"us": list(us), "step_us": list(steps if steps is not None else us), "wait_us": list(us), "alloc": [],
            "actions": list(actions), "choice": 2, "deals": 1, "over": True}


def run_of(us, marks, steps=None):
    return {"games": [game(us, range(len(us)), steps)], "marks": marks, "pystones": [r for n, r in marks]}


def test_each_decision_scaled_by_the_pystone_runs_around_it():
    # runs before decision 0 at 92,500 and 90,000, at the second deal's start (after 2
    # decisions) at 37,000, after the last (3) at 38,000 and 36,000
    marks = [[0, 92500], [0, 90000], [2, 37000], [3, 38000], [3, 36000]]
    assert ai.decision_rates(marks, 3) == [90000, 90000, 37000]   # (92.5, 90, 37), (37, 38, 36)
    run = ai._combine([run_of([1000, 3700, 1850], marks)])
    assert run["games"][0]["samd51_ms"] == [
        1.0 * 90000 / 1850, 3.7 * 90000 / 1850, 1.85 * 37000 / 1850]
    assert run["rate_each_rep"] == [38000]                           # the median of all five


def test_each_repetition_scaled_then_the_median():
    # the runs at 92,500 pystones/s (x 50), 37,000 (x 20) and 37,000 (x 20)
    reps = [run_of([1000, 3000], [[0, 92500], [2, 92500]]),
            run_of([2000, 2000], [[0, 37000], [2, 37000]]),
            run_of([3000, 1000], [[0, 36000], [0, 38000], [2, 37000]])]
    run = ai._combine(reps)
    assert run["games"][0]["samd51_ms"] == [50.0, 40.0]       # of (50, 40, 60) and (150, 40, 20)
    assert run["games"][0]["us"] == [2000, 2000]               # the times here: medians too
    assert run["rate_each_rep"] == [92500, 37000, 37000]


def test_limits_with_given_numbers():
    # 19 decisions of 10 ms and one of 25 ms here, at 185,000 pystones/s: x 100 on a SAMD51;
    # their longest steps 0.5 ms, and 1.5 ms in the last
    us = [10000] * 19 + [25000]
    steps = [500] * 19 + [1500]
    run = ai._combine([run_of(us, [[0, 185000], [20, 185000]], steps)])
    hard = ai.level_rules_report("hard", run, run)
    assert hard["samd51_ms"] == {"p50": 1000.0, "p95": 1000.0, "max": 2500.0}
    assert hard["decisions_over_ms"] == {"500": 20, "1000": 1, "2000": 1}
    assert hard["longest_step_samd51_ms"] == {"p50": 50.0, "p95": 50.0, "max": 150.0}
    assert hard["limits_ms"] == {"p95": 1000, "max": 2000, "step": 100}
    assert hard["passes"] is False and hard["failed"] == ["max", "step"]
    assert hard["other_boards_ms"]["rp2040"] == {"p95": 1600.0, "max": 4000.0}
    assert hard["other_boards_ms"]["esp32s3"]["p95"] == pytest.approx(1000 / 1.4, rel=0.01)
    normal = ai.level_rules_report("normal", run, run)
    assert normal["limits_ms"] == {"max": 500, "step": 100} and normal["failed"] == ["max", "step"]
    assert "other_boards_ms" not in normal
    easy = ai.level_rules_report("easy", run, run)
    assert easy["limits_ms"] == {"step": 100} and easy["failed"] == ["step"]
    short = ai._combine([run_of(us, [[0, 185000], [20, 185000]], [500] * 20)])
    assert ai.level_rules_report("easy", short, short)["passes"] is True


def test_a_decision_times_its_longest_step_between_yields_and_the_others_pondering(monkeypatch):
    clock = [0]

    def tick():                     # a clock that moves by 1 at each reading
        clock[0] += 1
        return clock[0]
    monkeypatch.setattr(ai, "ticks", tick)
    game = ai.ai_game("french", "hard", 3, 1, False)
    n = len(game["us"])
    assert n == len(game["step_us"]) == len(game["wait_us"]) == len(game["actions"]) > 40
    # a reading at the start, at each yield and at the end: every step takes 1, the other
    # seat's pondering before a decision too
    assert set(game["step_us"]) == {1}
    # hard's search of the last tricks yields every 50 nodes (900 a search to a horizon)
    assert max(game["us"]) >= 18
    # a decision reads the clock 3 times more than it yields, and us = its readings - 1; the
    # rest are one reading before the other seat's pondering and that pondering: 2 readings
    # more than it yields
    pondering = clock[0] - sum(game["us"]) - 2 * n
    assert pondering > 2 * n + 100          # hard ponders in the last tricks
    # the wait holds the pondering and the decision, so every step
    assert all(w > u and w > s for w, u, s in zip(game["wait_us"], game["us"], game["step_us"]))
    assert sum(game["wait_us"]) - sum(game["us"]) == pondering + n
    clock[0] = 0
    game = ai.ai_game("french", "normal", 3, 1, False)
    # normal does not ponder: per decision the reading before it and the two of an empty pondering
    assert clock[0] - sum(game["us"]) - len(game["us"]) == 3 * len(game["us"])


# -- pystone: fetched from the registry, pinned, cached, run unchanged ---------------------

def test_pystone_is_the_pinned_text_and_runs_under_cpython():
    text = calibrate.pystone_text()
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == calibrate.PYSTONE_SHA256
    assert "Version:        Python/1.2" in text and "from utime import clock" in text
    rates = calibrate.pystones(text, 2000, 2)
    assert len(rates) == 2 and min(rates) > 0
    assert "utime" not in sys.modules                          # the stand-in is gone again


def utime_reading(readings):
    """A utime stand-in whose clock() gives these readings in turn (seconds)."""
    it = iter(readings)
    mod = types.ModuleType("utime")
    mod.clock = lambda: next(it)
    return mod


# Per run of pystone six readings: one_run's before, pystone's own four (start, after its empty
# loop, its loop's start, its loop's end), one_run's after.
HELD_UP = [0, 0, 5, 5, 6, 6]                  # the empty loop 5 s, the loop 1 s: pystone says -4 s
NEARLY = [0, 0, 0.8, 0.8, 2, 2]               # the empty loop 0.8 of the loop's 1.2 s: too high
SOUND = [10, 10, 10.01, 10.01, 11.01, 11.01]  # the empty loop 0.01 s, the loop 1 s: 0.99 s


@pytest.fixture
def fresh_pystone(monkeypatch):
    """pystone's text, run anew in each test (calibrate keeps a namespace per text), counting
    its repeats from 0; set(readings) gives its clock."""
    text = calibrate.pystone_text()
    monkeypatch.setattr(calibrate, "_loaded", {})
    monkeypatch.setattr(calibrate, "REPEATED", [0])

    def clock(readings):
        monkeypatch.setattr(calibrate, "_stand_in", lambda: utime_reading(readings))
    return text, clock


@pytest.mark.parametrize("unsound", [HELD_UP, NEARLY])
def test_a_run_whose_empty_loop_was_held_up_is_run_again(fresh_pystone, unsound):
    text, clock = fresh_pystone
    clock(unsound[1:5])                             # pystone's own readings, unchanged pystone
    benchtime, rate = calibrate._namespace(text)["pystones"](50)
    assert benchtime == pytest.approx(1 - 5 if unsound is HELD_UP else 1.2 - 0.8)
    assert (rate < 0) == (unsound is HELD_UP)      # what the bench took as a rate before
    calibrate._loaded.clear()
    clock(unsound + SOUND)
    assert calibrate.pystones(text, 50, 1) == [pytest.approx(50 / 0.99)]
    assert calibrate.REPEATED == [1]


def test_a_machine_too_busy_to_calibrate_stops_the_bench(fresh_pystone):
    text, clock = fresh_pystone
    clock(HELD_UP * calibrate.ATTEMPTS + SOUND)
    with pytest.raises(calibrate.CalibrationError, match="6 runs in a row were unsound"):
        calibrate.pystones(text, 50, 1)
    assert calibrate.REPEATED == [calibrate.ATTEMPTS] and calibrate.ATTEMPTS == 6
    calibrate._loaded.clear()
    clock(HELD_UP * (calibrate.ATTEMPTS - 1) + SOUND)   # sound at the last attempt
    assert calibrate.pystones(text, 50, 1) == [pytest.approx(50 / 0.99)]


def test_a_corrupted_cached_pystone_is_refused(tmp_path, monkeypatch):
    cached = tmp_path / "pystone-1.2.py"
    cached.write_text(calibrate.pystone_text().replace("LOOPS = 50000", "LOOPS = 5000"))
    monkeypatch.setattr(calibrate, "CACHE", str(cached))
    status, out, err = run_main(["--quick", "--ai-only"])
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("bench: the cached pystone") and "not the pinned pystone 1.2" in err


def test_no_registry_and_no_cache_is_one_line(tmp_path, monkeypatch):
    monkeypatch.setattr(calibrate, "CACHE", str(tmp_path / "none" / "pystone-1.2.py"))
    monkeypatch.setattr(calibrate, "PYSTONE_URL", "http://127.0.0.1:9/micropython-pystone-3.4.2-2.tar.gz")
    status, out, err = run_main(["--quick", "--ai-only"])
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "cannot fetch pystone 1.2" in err and "no copy is cached" in err
    assert not (tmp_path / "none" / "pystone-1.2.py").exists()


# -- the command line ------------------------------------------------------------------------

@pytest.mark.parametrize("argv, said", [
    (["--rules", "nosuch"], "unknown rule set 'nosuch'"),
    (["--reps", "0"], "--reps"),
    (["--reps", "two"], "--reps"),
    (["--nosuch"], "unrecognized arguments"),
])
def test_bad_arguments_are_one_line_and_status_2(argv, said):
    status, out, err = run_main(argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("bench: ") and said in err


def test_ai_only_skips_the_engine_benchmark_and_the_waits():
    names, plan, ai_plan, pystone, waits_plan = command.parse_args(["--ai-only", "--quick"])
    assert plan is None and ai_plan["games"] == 1 and waits_plan is None
    assert set(pystone) == {"cpython", "micropython_wasm"}


def test_waits_alone_and_in_every_bench():
    names, plan, ai_plan, pystone, waits_plan = command.parse_args(["--waits"])
    assert plan is None and ai_plan is None and waits_plan == {"runs": 5}
    assert command.parse_args(["--waits", "--quick"])[4] == {"runs": 1}
    assert command.parse_args([])[4] == {"runs": 5} and command.parse_args(["--quick"])[4] == {"runs": 1}
    status, out, err = run_main(["--waits", "--ai-only"])
    assert status == 2 and out == "" and "give one" in err


def test_the_guest_side_imports_under_micropython():
    modules = ["tools.lab.bench." + m for m in ("common", "calibrate", "speed", "memory", "ai", "aimem",
                                             "imports", "guest")]
    out = host.run_guest({"what": "modules", "modules": modules}, "16m")
    assert out["implementation"]["name"] == "micropython"


def test_first_import_dependencies_from_the_source():
    deps = imports.dependencies("engine.ai.endgame")
    assert deps[:2] == ["engine", "engine.ai"]
    assert "engine.cards" in deps and "engine.rng" in deps and "engine.ai.endgame" not in deps
    deps = imports.dependencies("engine.ai.twohand")
    assert "engine.ai.player" in deps and "engine.ai.levels" in deps
    assert "engine.ai.endgame" not in deps           # imported inside a method: at play time


# -- the report ---------------------------------------------------------------------------------

def test_versions_and_date(report):
    assert report["python"]["version"].startswith("3.")
    assert report["micropython"]["name"] == "micropython"
    assert report["micropython"]["version"]
    assert report["date"][:2] == "20"


def test_calibration_block(report):
    cal = report["calibration"]
    assert cal["benchmark"] == "pystone 1.2" and cal["samd51_pystones_per_second"] == 1850
    for side in ("cpython", "micropython_wasm"):
        c = cal[side]
        assert positive_numbers(c["pystones_per_second"])
        assert c["pystones_per_second"]["min"] <= c["pystones_per_second"]["median"] <= \
            c["pystones_per_second"]["max"]
        assert c["runs"] >= c["workloads"] > 0 and c["loops_per_run"] > 0
        assert c["samd51_factor"] == pytest.approx(c["pystones_per_second"]["median"] / 1850, rel=0.01)
        assert isinstance(c["runs_repeated"], int) and c["runs_repeated"] >= 0
    assert cal["ratio_cpython_over_micropython_wasm"] > 0
    assert "cross-check" in cal["method"] and "1850" in cal["method"] and "runs_repeated" in cal["method"]


def test_speed_figures(report):
    assert report["rule_sets"] == ["french"]
    assert report["repetitions"] >= 1
    for side in ("cpython", "micropython_wasm"):
        assert set(report["deals_per_second"][side]) == {"french"}
        assert positive_numbers(report["deals_per_second"][side])
        assert positive_numbers(report["ms_per_deal"][side])
    assert report["same_games_on_both"] is True
    assert report["actions_per_deal"]["french"] > 0
    est = report["samd51_estimate"]
    assert positive_numbers(est["ms_per_deal"]) and positive_numbers(est["ms_per_deal_from_cpython"])


def test_memory_figures(report):
    mem = report["micropython_wasm"]
    assert mem["bytes_per_deal"]["french"] > 0
    # The state keeps part of what dealing allocated.
    assert 0 < mem["state_bytes"]["french"] <= mem["new_game_alloc_bytes"]["french"]
    assert "unsized_types" not in mem
    assert set(mem["method"]) == {"state_bytes", "new_game_alloc_bytes", "bytes_per_deal"}
    assert all([len(text) > 20 for text in mem["method"].values()])


def test_ai_decisions_every_level_and_rule_set(report):
    ai_report = report["ai"]
    assert ai_report["levels"] == ["easy", "normal", "hard"]
    assert ai_report["rule_sets"] == ["hoyle", "french", "binokel"]
    assert ai_report["same_games_on_both"] is True
    for level in ai_report["levels"]:
        for rules in ai_report["rule_sets"]:
            r = ai_report["decisions"][level][rules]
            assert r["decisions"] > 0
            assert 0 < r["decisions_with_choice"] <= r["decisions"]
            for key in ("samd51_ms", "samd51_ms_from_cpython", "ms"):
                table = r[key] if key != "ms" else r[key]["micropython_wasm"]
                assert 0 < table["p50"] <= table["p95"] <= table["max"]
            assert set(r["decisions_over_ms"]) == {"500", "1000", "2000"}
            steps = r["longest_step_samd51_ms"]
            # a step of the other seat's pondering is in no decision's own time, but in its wait
            waits = r["with_pondering_samd51_ms"]
            assert 0 < steps["p50"] <= steps["p95"] <= steps["max"] <= waits["max"]
            assert r["samd51_ms"]["max"] <= waits["max"]
            assert r["limits_ms"] == {"easy": {"step": 100}, "normal": {"max": 500, "step": 100},
                                      "hard": {"p95": 1000, "max": 2000, "step": 100}}[level]
            assert isinstance(r["passes"], bool) and r["passes"] == (not r["failed"])
            assert positive_numbers(dict(enumerate(r["pystones_per_second"]["micropython_wasm"])))
            assert ("other_boards_ms" in r) == (level == "hard")
            assert r["same_games_on_both"] is True
    assert ai_report["closest_to_limit"]["level"] in ("normal", "hard")
    assert ai_report["passes"] == (not ai_report["failing"])


def test_first_import_costs(report):
    first = report["ai"]["first_import"]
    assert set(first["modules"]) == set(imports.MODULES)
    for name in ("engine.ai.endgame", "engine.ai.rollout", "engine.ai.twohand", "engine.ai.binokel",
                 "engine.ai.bidding", "engine.melds", "engine.ai.player"):
        m = first["modules"][name]
        assert m["samd51_ms"] > 0 and m["micropython_wasm_ms"] > 0 and m["source_bytes"] > 0
    assert len(first["method"]) > 20


def test_ai_allocation_figures(report):
    alloc = report["ai"]["allocation"]
    eg = alloc["endgame_solver"]
    assert eg["nodes"] > 0 and number(eg["bytes_per_node"])
    assert eg["nodes_per_second_samd51_estimate"] > 0
    assert set(alloc["rollouts"]) == {"binokel", "method"}     # the two-hand levels play nothing out
    for name in ("binokel",):
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


# -- the waits a player meets -------------------------------------------------------------------

def test_a_guest_calls_the_hosts_functions(tmp_path):
    from tools import mpy
    (tmp_path / "h.py").write_text(
        "import host\nprint(host.call('twice', 'ab'))\ntry:\n    host.call('nosuch', '')\n"
        "except RuntimeError:\n    print('refused')\nprint(host.call('twice', 'x' * 40))\n")
    out = tmp_path / "out.txt"
    seen = []

    def twice(text):
        seen.append(text)
        return text * 2
    status = mpy.run("/t/h.py", stdout=str(out), dirs=((str(tmp_path), "/t"),), host={"twice": twice})
    # an answer longer than mpy.HOST_RESULT (64 bytes) is refused as an unknown name is
    assert status == 1 and out.read_text().splitlines() == ["abab", "refused"]
    assert seen == ["ab", "x" * 40]


def marks(cpu, standin_us, calls, held_up, frame, alloc, wall=None, held_up_us=0, **more):
    return dict({"cpu": cpu, "wall": cpu if wall is None else wall, "standin_us": standin_us,
                 "calls": calls, "held_up": held_up, "held_up_us": held_up_us, "frame": frame,
                 "alloc": alloc, "collections": 1, "modules": 50, "opened": 30,
                 "read_bytes": 60000, "stats": 189, "written_bytes": 512}, **more)


def guest_result(spells=0):
    """A session as the guest reports it, with round numbers; the machine's other work held
    one call into a stand-in up by 2,995 us, and more for `spells` us of the wall clock."""
    return {"t0": 1000, "wall0": 1000, "reading_us": 10, "extra_us": 2.0,
            "pystones": {"fresh": [185000, 185000], "title_end": [150000],
                         "play_start": [140000], "card_end": [130000]},
            "marks": {"start": {"alloc": 100, "modules": 30},
                      "title": marks(21010, 4000, 1000, 0, 1, 5100, offers="continue"),
                      "play": marks(50000, 5000, 1200, 0, 7, 9000),
                      "feedback": marks(50310, 5100, 1250, 0, 8, 9500),
                      "card": marks(60020, 7000, 1601, 1, 9, 19000, wall=63015 + spells,
                                    held_up_us=3000, top="Table", hand=12, ai_thinking=False)}}


def test_each_wait_less_the_stand_ins_scaled_by_the_fresh_heap_pystone():
    w = waits.windows(guest_result())
    title = w["reset_to_title"]
    # 20,000 us between the readings less one reading's 10; the stand-ins' 4,000; 1,000 calls
    # at 2 us of the wrapper's each: 14,000 us of the app's, x 100 (185,000 / 1,850)
    assert (title["us"], title["standins_us"], title["wrappers_us"]) == (14000, 4000, 2000)
    assert title["samd51_ms"] == pytest.approx(1400) and title["standins_samd51_ms"] == pytest.approx(400)
    assert title["pystones_around"] == 150000 and title["title_offers"] == "continue"
    assert (title["refreshes"], title["modules_loaded"], title["allocated_bytes"]) == (1, 20, 5000)
    play = w["play_to_first_card"]
    # 10,020 us less two readings (the feedback's was read in the midst of it): 10,000 us;
    # 401 calls, one held up: the 2,000 us of the other 400 and one more at their mean (5 us);
    # 401 x 2 us of the wrapper's: 10,000 - 2,005 - 802 = 7,193 us
    assert (play["standins_us"], play["wrappers_us"], play["us"]) == (2005, 802, 7193)
    assert play["samd51_ms"] == pytest.approx(719.3) and play["held_up_calls"] == 1
    assert play["pystones_around"] == 135000 and play["refreshes"] == 2
    # to the first refresh: 310 - 10 - 100 (stand-ins) - 50 x 2 (wrapper) = 100 us, x 100
    feedback = w["play_to_feedback"]
    assert (feedback["us"], feedback["samd51_ms"], feedback["refreshes"]) == (100, pytest.approx(10), 1)
    assert play["first_frame"] == {"top": "Table", "hand_cards": 12, "ai_thinking": False}
    later = guest_result()
    for name in ("play", "feedback", "card"):                   # a later start: the title only
        del later["marks"][name]
    assert set(waits.windows(later)) == {"reset_to_title"}


def test_the_stand_ins_time_on_a_busy_machine():
    # 5,000 us more of the wall clock in the wait than its CPU time and the call held up
    # account for: the machine ran other work in short spells, in the stand-ins' calls and in
    # the app's own code alike, so the stand-ins' wall time counts x 10,000 / 15,000
    play = waits.windows(guest_result(spells=5000))["play_to_first_card"]
    assert play["standins_us"] == pytest.approx(2005 * 2 / 3)
    assert play["us"] == pytest.approx(10000 - 2005 * 2 / 3 - 802)
    # however the wall clock ran, the stand-ins take no more than the wait's CPU time
    play = waits.windows(guest_result(spells=10 ** 9))["play_to_first_card"]
    assert 0 < play["standins_us"] < 1 and play["us"] == pytest.approx(10000 - 802, abs=1)


def test_a_wait_over_its_sessions():
    each = [waits.windows(guest_result())["play_to_first_card"] for _ in range(3)]
    each[1] = dict(each[1], samd51_ms=500.0)
    each[2] = dict(each[2], samd51_ms=900.0, bytes_read=1)
    s = waits.summary(each)
    assert s["samd51_ms"] == 719 and s["each_samd51_ms"] == [719, 500, 900] and s["sessions"] == 3
    assert s["standins_percent"] == pytest.approx(100 * 2807 / 10000, abs=0.1)
    assert s["bytes_read"] == 0 and s["differs_between_sessions"] == ["bytes_read"]


def test_the_waits_as_a_player_meets_them(report):
    w = report["waits"]
    assert w["rule_sets"] == ["hoyle", "french", "binokel"] and w["limit_ms"] == 2000 and w["runs"] == 1
    every = {"reset_to_title": w["reset_to_title"], "first_start_to_title": w["first_start_to_title"]}
    for rules in w["rule_sets"]:
        every[rules] = w["play_to_first_card"][rules]
    for name, each in every.items():
        assert set(each) == {"mpy", "py"}
        for kind in ("mpy", "py"):
            s = each[kind]
            assert s["samd51_ms"] > 0 and s["micropython_wasm_ms"] > 0 and s["standins_samd51_ms"] > 0
            assert 0 < s["standins_percent"] < 100 and s["standin_calls"] > 0
            assert positive_numbers(dict(enumerate(s["pystones_per_second"] + s["pystones_around_the_wait"])))
            assert s["files_opened"] > 0 and s["bytes_read"] > 0 and s["modules_loaded"] > 0
            # the title's frame; the title saying "Dealing..." at once, then the table's frame
            assert s["refreshes"] == (1 if name.endswith("title") else 2)
            assert s["sessions"] == (3 if name == "first_start_to_title" else 1)
            assert "differs_between_sessions" not in s
        # the same code from either kind of file, the .mpy smaller and quicker to load
        assert each["mpy"]["modules_loaded"] == each["py"]["modules_loaded"]
        assert each["mpy"]["files_opened"] == each["py"]["files_opened"]
        assert each["mpy"]["bytes_read"] < each["py"]["bytes_read"]
        assert each["mpy"]["samd51_ms"] < each["py"]["samd51_ms"], name
    for kind in ("mpy", "py"):
        later, first = w["reset_to_title"][kind], w["first_start_to_title"][kind]
        assert later["title_offers"] == "continue" and first["title_offers"] == "play"
        from tests.savesim import store
        assert first["bytes_written"] - later["bytes_written"] == store.SIZE   # the journal made
        for rules, hand in (("hoyle", 12), ("french", 12), ("binokel", 15)):
            frame = w["play_to_first_card"][rules][kind]["first_frame"]
            assert frame["hand_cards"] == hand and frame["top"] in ("Table", "Choice", "Lesson")   # Explain rules: a first game opens on its first lesson
            feedback = w["play_to_feedback"][rules][kind]
            assert feedback["refreshes"] == 1 and feedback["modules_loaded"] == 0
            # (its own part is a few ms once the stand-ins' are out: not asserted positive)
            assert feedback["samd51_ms"] < w["play_to_first_card"][rules][kind]["samd51_ms"]
    ratios = w["py_over_mpy"]
    assert ratios["reset_to_title"] == pytest.approx(
        w["reset_to_title"]["py"]["samd51_ms"] / w["reset_to_title"]["mpy"]["samd51_ms"], rel=0.01)
    assert set(ratios["play_to_first_card"]) == set(w["rule_sets"])
    assert min(waits._ratios(w)) > 1
    assert isinstance(w["mpy_under_limit"], bool) and w["pystone_runs_repeated"] >= 0
    assert w["wrapper_us_per_call"] > 0
    assert set(w["method"]) == {"waits", "guest", "standins", "not_modelled"}
    lines = waits.describe(w)
    assert len(lines) == 7 and "1 session(s)" in lines[0] and "Play -> first card, binokel" in lines[5]
