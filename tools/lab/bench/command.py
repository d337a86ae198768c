"""python -m tools bench: the command line and the JSON report (CPython only)."""

import json
import sys
import time

from tools import cli
from tools.lab.bench import ai, aimem, calibrate, imports, memory, speed, waits
from tools.lab.bench.host import PYSTONE_REPEATS, BenchError, check_micropython, say

# pystone passes per run, and runs before and after each timed workload and at the start of
# each deal of the AI's games, per interpreter: 15 to 80 ms a run here, a few seconds in all
# (pystone allocates 64 bytes a pass under MicroPython with collection off: the guests'
# heaps hold that too).
PYSTONE_FULL = {"cpython": {"loops": 10000, "before": 2, "after": 2, "per_deal": 1},
                "micropython_wasm": {"loops": 3000, "before": 2, "after": 2, "per_deal": 1}}
PYSTONE_QUICK = {"cpython": {"loops": 5000, "before": 1, "after": 1, "per_deal": 1},
                 "micropython_wasm": {"loops": 1500, "before": 1, "after": 1, "per_deal": 1}}


def build_parser():
    p = cli.Parser("bench", "Engine speed and memory under CPython and MicroPython, and the AI's "
                            "time per decision on a SAMD51, as JSON.")
    p.add_argument("--quick", action="store_true", help="few short repetitions (for tests)")
    p.add_argument("--rules", action="append", metavar="R",
                   help="rule sets of the engine benchmark, comma-separated or repeated: %s "
                        "(default all; the AI part always plays %s)"
                        % (", ".join(speed.ORDER), ", ".join(ai.AI_RULES)))
    p.add_argument("--reps", type=cli.positive_int, help="repetitions of the engine benchmark (default 7, "
                                                         "quick 2)")
    p.add_argument("--ai-only", action="store_true", help="only the AI's figures (the \"ai\" key)")
    p.add_argument("--waits", action="store_true", help="only the waits a player meets on a SAMD51: "
                                                        "reset to title, Play to first card (the "
                                                        "\"waits\" key)")
    return p


def parse_args(argv):
    """(engine rule sets, engine plan or None with --ai-only, AI plan or None with --waits,
    pystone plan, waits plan or None with --ai-only)."""
    opts = build_parser().parse_args(argv)
    if opts.waits and opts.ai_only:
        raise cli.UsageError("--waits and --ai-only each choose one part: give one")
    names = []
    for item in opts.rules or [",".join(speed.ORDER)]:
        for name in item.split(","):
            if name not in speed.SETS:
                raise cli.UsageError("unknown rule set %r (choose from %s)" % (name, ", ".join(speed.ORDER)))
            if name not in names:
                names.append(name)
    plan = dict(speed.QUICK if opts.quick else speed.FULL)
    if opts.reps is not None:
        plan["reps"] = opts.reps
    ai_plan = dict(ai.AI_QUICK, quick=True) if opts.quick else dict(ai.AI_FULL)
    pystone = PYSTONE_QUICK if opts.quick else PYSTONE_FULL
    waits_plan = dict(waits.WAITS_QUICK if opts.quick else waits.WAITS_FULL)
    if opts.waits:
        return names, None, None, pystone, waits_plan
    return names, (None if opts.ai_only else plan), ai_plan, pystone, (None if opts.ai_only else waits_plan)


def _header(impl):
    import datetime
    import platform
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "python": {"implementation": platform.python_implementation(),
                   "version": platform.python_version()},
        "micropython": impl,
    }


def _calibration(pystone, pairs, runs, firsts, mem):
    """The "calibration" block over every pystone run of the bench, per interpreter."""
    c = []
    m = []
    for cpy, mpy in pairs or ():
        c.append(cpy["pystones"])
        m.append(mpy["pystones"])
    for cpy, mpy in runs.values():
        c.extend(cpy["pystones_each_rep"])
        m.extend(mpy["pystones_each_rep"])
    for each in firsts.values():
        m.extend([r["pystones"] for r in each])
    m.append(mem["endgame"]["pystones"])
    return calibrate.report(c, m, {side: pystone[side]["loops"] for side in pystone},
                            {"cpython": calibrate.REPEATED[0], "micropython_wasm": PYSTONE_REPEATS[0]})


def ai_report(plan, runs, firsts, mem):
    out = ai.timing_report(plan, runs)
    out["first_import"] = imports.report(plan, firsts)
    out["allocation"] = aimem.allocation_report(plan, runs, mem)
    out["working_memory"] = aimem.working_memory_report(runs, mem)
    out["method"] = {"timing": ai.METHOD + "; this run: %d game(s) per level and rule set, at most %d "
                     "deals each, played %d time(s)%s" % (
                         plan["games"], plan["max_deals"], plan["timing_reps"],
                         " (--quick)" if plan.get("quick") else "")}
    return out


def measure(names, plan, ai_plan, pystone):
    """Everything, in order; (speed pairs or None, memory or None, AI runs, first imports,
    AI memory)."""
    pairs = mem = None
    if plan is not None:
        pairs = speed.timing(names, plan, pystone)
        mem = memory.measure_memory(names, plan)
    runs = ai.ai_timing(ai_plan, pystone)
    firsts = imports.measure(ai_plan, pystone["micropython_wasm"])
    ai_mem = aimem.ai_measure_memory(ai_plan, pystone["micropython_wasm"])
    return pairs, mem, runs, firsts, ai_mem


def waits_report(waits_plan, pystone):
    """(the "waits" block, measured; the guests' implementation); its summary on stderr."""
    found = waits.measure(waits_plan, pystone["micropython_wasm"])
    out = waits.report(waits_plan, found)
    for line in waits.describe(out):
        say(line)
    return out, found[waits.KINDS[0]][waits.RULE_SETS[0]][0]["implementation"]


@cli.command("bench")
def main(argv):
    names, plan, ai_plan, pystone, waits_plan = parse_args(argv)
    started = time.time()
    try:
        text = calibrate.pystone_text()
        check_micropython()
        pystone = {side: dict(p, text=text) for side, p in pystone.items()}
        if ai_plan is None:                          # --waits
            found_waits, impl = waits_report(waits_plan, pystone)
            report = _header(impl)
            report["waits"] = found_waits
            print(json.dumps(report, indent=2))
            say("done in %.0f s" % (time.time() - started))
            return 0
        pairs, mem, runs, firsts, ai_mem = measure(names, plan, ai_plan, pystone)
        found_waits = waits_report(waits_plan, pystone)[0] if waits_plan is not None else None
    except (BenchError, calibrate.PystoneError, calibrate.CalibrationError) as e:
        sys.stderr.write("bench: %s\n" % e)
        return 1
    impl = runs[(ai.AI_LEVELS[0], ai.AI_RULES[0])][1]["implementation"]
    report = _header(impl)
    report["calibration"] = _calibration(pystone, pairs, runs, firsts, ai_mem)
    if plan is not None:
        report["rule_sets"] = list(names)
        report.update(speed.speed_report(names, plan, pairs))
        report["micropython_wasm"] = memory.memory_report(names, plan, mem)
        report["method"] = {"timing": speed.METHOD}
        if not report["same_games_on_both"]:
            say("warning: the two interpreters played different games (action counts differ)")
    report["ai"] = ai_report(ai_plan, runs, firsts, ai_mem)
    if found_waits is not None:
        report["waits"] = found_waits
    if not report["ai"]["same_games_on_both"]:
        say("warning: the AI played different games on the two interpreters (did engine/ai change "
            "during the run?)")
    print(json.dumps(report, indent=2))
    say("done in %.0f s" % (time.time() - started))
    return 0
