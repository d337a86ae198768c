"""Desktop command line: python -m tools <command> [options]

Each command lives in its own module with a main(argv) -> exit code.
"""

import sys

from tools import cli

# The commands in the three rooms `python -m tools --help` lists them in: (room, commands), each
# command (name, module, one-line help). A room's commands live in its folder (users/, checks/,
# lab/); mpy, the MicroPython runner every room uses, stays at the top of tools/.
ROOMS = (
    ("for players and board owners", (
        ("sim", "tools.users.sim",
         "the handheld game in a desktop window (the device app on displayio)"),
        ("play", "tools.users.play",
         "play a game in the terminal against the AI"),
        ("bundle", "tools.users.bundle",
         "build what goes onto the board's drive (build/bundle) with its manifest and size"),
        ("deploy", "tools.users.deploy",
         "put the game onto a board's CIRCUITPY/BINOCLE drive (or a FAT image), safely"),
        ("firmware", "tools.users.firmware",
         "install CircuitPython: check a .uf2 against the board's chip and copy it to its bootloader drive"),
    )),
    ("development checks", (
        ("device-tests", "tools.checks.device",
         "run tests/device under MicroPython (WASI build)"),
        ("mpy", "tools.mpy",
         "run a script under MicroPython (WASI build) from the repository root"),
        ("screens", "tools.checks.simdriver",
         "the screenshots in docs/screens, from scripted games in the simulator"),
        ("gen-melddata", "tools.checks.gen_melddata",
         "regenerate engine/melddata*.py"),
        ("gen-assets", "tools.checks.gen_assets",
         "regenerate assets/cards.bmp, the card art"),
        ("golden", "tools.checks.golden",
         "regenerate tests/data/golden_counts.txt (legal-action counts)"),
        ("fuzz", "tools.checks.fuzz",
         "random legal and illegal action ints against every rule set, checking the invariants"),
        ("soak", "tools.checks.soak",
         "AI against AI under MicroPython, saved after every action; the heap must not grow"),
        ("pystack", "tools.checks.pystack",
         "the app's deepest use of a SAMD51 board's 2 KB Python stack, modelled"),
    )),
    ("the lab: measuring and tuning the game", (
        ("arena", "tools.lab.arena",
         "AI against AI or a baseline: duplicate matches with confidence intervals"),
        ("endgame-loss", "tools.lab.endgame_loss",
         "points an AI level gives away in the two-hand last tricks, against exact play"),
        ("melds", "tools.lab.meldcli",
         "best meld total of a hand, as JSON"),
        ("bench", "tools.lab.bench",
         "engine speed and memory on CPython and MicroPython, as JSON"),
        ("ui-memory", "tools.lab.uimem",
         "the app's heap on a SAMD51 board: displayio objects, game, code"),
        ("tune", "tools.lab.tune",
         "fit the binokel soloist's trick table by self-play"),
        ("tune-odds", "tools.lab.tune_odds",
         "count the odds a binokel defender deals the soloist's unseen cards by"),
        ("tune-leaf", "tools.lab.tune_leaf",
         "fit the two-hand endgame leaf's correction against exact play"),
    )),
)
COMMANDS = tuple(row for _room, rows in ROOMS for row in rows)


def usage(out):
    out.write("usage: python -m tools <command> [options]\n")
    for room, rows in ROOMS:
        out.write("\n%s:\n" % room)
        for name, _module, text in rows:
            out.write("  %-13s %s\n" % (name, text))
    out.write("\n'python -m tools <command> --help' tells more.\n")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help", "help"):
        usage(sys.stdout)
        return 0 if argv else 2
    for name, module, _text in COMMANDS:
        if argv[0] == name:
            mod = __import__(module, fromlist=["main"])
            try:
                return cli.run(name, mod.main, argv[1:])
            except KeyboardInterrupt:
                sys.stderr.write("\ninterrupted\n")
                return 130
    sys.stderr.write("unknown command %r\n\n" % argv[0])
    usage(sys.stderr)
    return 2


def quietly_cut():
    """Output cut short by its reader (`python -m tools --help | head`): no traceback, and no
    second complaint when Python flushes stdout at exit."""
    import os
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


if __name__ == "__main__":
    try:
        status = main()
    except BrokenPipeError:
        status = quietly_cut()
    sys.exit(status)
