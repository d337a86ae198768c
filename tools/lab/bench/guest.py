"""The entry point of a guest run under MicroPython (host.run_guest writes the script)."""


def main(task):
    """Run one task; print its result as one JSON line on stdout."""
    import json
    from tools.lab.bench.common import implementation
    what = task["what"]
    if what == "speed":
        from tools.lab.bench.speed import one_repetition
        out = one_repetition(task)
    elif what == "memory":
        from tools.lab.bench.memory import memory
        out = memory(task)
    elif what == "ai_games":
        from tools.lab.bench.ai import ai_games
        out = ai_games(task)
    elif what == "ai_memory":
        from tools.lab.bench.aimem import ai_memory
        out = ai_memory(task)
    elif what == "import":
        from tools.lab.bench.imports import first_import
        out = first_import(task)
    elif what == "modules":                 # the bench's own modules import here (tests)
        for name in task["modules"]:
            __import__(name)
        out = {}
    else:
        raise ValueError("unknown task %r" % what)
    out["implementation"] = implementation()
    from tools.lab.bench.calibrate import REPEATED
    out["pystone_repeats"] = REPEATED[0]        # host.run_guest counts them
    print(json.dumps(out))
