"""Bytes a game state keeps and a random deal allocates, under MicroPython with collection off.

- bytes_per_deal: mem_alloc() growth over playing the random deals (speed.py), per deal.
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

Everything above the "host only" line runs under MicroPython (ai.py and
aimem.py size the AI's seats with retained_bytes() too).
"""

import sys

from engine.rules import new_game
from tools.lab.bench.common import alloc
from tools.lab.bench.speed import SETS, fresh_deals, play_deal

_SMALL_INT = 0x40000000   # ints from here up are heap objects on the boards


# -- MicroPython, collection off ------------------------------------------------------

class _Blank:
    pass


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


def new_cache():
    """Sizes of fresh objects by kind and length, measured once each."""
    cache = {"base": 0}
    cache["base"] = alloc(lambda: None)
    return cache


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
            cache[key] = alloc(fn) - cache["base"]
        total += cache[key]
        stack.extend(_children(o))
    return total, unsized


def memory(task):
    """Bytes per random deal, bytes of new_game(), bytes a fresh state keeps."""
    names = task["names"]
    count = task["count"]
    for name in names:          # import the rule sets before anything is measured
        fresh_deals(name, 1)
    shared = shared_ids()
    cache = new_cache()
    out = {"bytes_per_deal": {}, "new_game_alloc_bytes": {}, "state_bytes": {}, "unsized": []}
    for name in names:
        rules, options = SETS[name]
        out["new_game_alloc_bytes"][name] = alloc(lambda: new_game(rules, 1, options)) - cache["base"]
        state = new_game(rules, 1, options)
        out["state_bytes"][name], unsized = retained_bytes(state, shared, cache)
        out["unsized"].extend(unsized)
        deals = fresh_deals(name, count)
        grew = alloc(lambda: _play_all(deals)) - cache["base"]
        out["bytes_per_deal"][name] = grew // count
    return out


def _play_all(deals):
    for state, rng in deals:
        play_deal(state, rng)


# -- host only (CPython) ----------------------------------------------------------

MEMORY_HEAP = "16m"           # small: mem_alloc() scans the whole heap, ~1.5 ms per MB

METHODS = {
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


def measure_memory(names, plan):
    from tools.lab.bench.host import run_guest, say
    say("MicroPython (wasm): memory, %d deals per rule set" % plan["mem_count"])
    return run_guest({"what": "memory", "names": list(names), "count": plan["mem_count"]}, MEMORY_HEAP)


def memory_report(names, plan, mem):
    from tools.lab.bench.host import per_set
    out = {
        "heap": MEMORY_HEAP,
        "collection": "off (gc.disable())",
        "deals_measured": plan["mem_count"],
        "state_bytes": per_set(names, lambda n: mem["state_bytes"][n]),
        "new_game_alloc_bytes": per_set(names, lambda n: mem["new_game_alloc_bytes"][n]),
        "bytes_per_deal": per_set(names, lambda n: mem["bytes_per_deal"][n]),
        "method": dict(METHODS),
    }
    if mem["unsized"]:
        out["unsized_types"] = sorted(set(mem["unsized"]))
    return out
