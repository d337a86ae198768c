"""Engine speed and memory under CPython and MicroPython (WASI build), as JSON.

    python -m tools bench [--quick] [--rules hoyle,french] [--reps N] [--ai-only | --waits]

Prints one JSON object on stdout, progress on stderr; every figure's method
is in the JSON. What each module measures:

    calibrate.py  pystone 1.2 under each interpreter, in the same run as the
                  workload, and the scaling to a SAMD51 board
    speed.py      random deals per second
    memory.py     bytes a game state keeps and a deal allocates (MicroPython)
    ai.py         the AI's time per decision, every level and rule set
    aimem.py      the AI's allocation in its search loops and its working memory
    imports.py    the first import of the modules a game loads during play
    waits.py      the waits a player meets: reset to title, Play to the first card, from
                  .mpy and .py drives, code.py run on the firmware stand-ins
    command.py    the command line and the JSON report
    host.py       running a guest under MicroPython, statistics (CPython only)
    guest.py      the entry point of a guest run

A SAMD51 estimate is never a fixed factor: every process that times a
workload (this process for CPython, each guest run for MicroPython) also
runs pystone before and after it (and at every deal of the AI's games), and
its times are scaled by its own pystones per second against a SAMD51's
(calibrate.py; the waits: pystone in the guest's fresh heap, waits.py).

The modules other than command.py, host.py and waits.py also run under
MicroPython: at import they use only what both interpreters have (waits.py
writes its guest's module out as text).
"""


def main(argv=None):
    """python -m tools bench: the command (tools/lab/bench/command.py)."""
    from tools.lab.bench.command import main as command
    return command(argv)
