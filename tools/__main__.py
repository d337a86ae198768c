"""Desktop command line: python -m tools <command> [options]

Each command lives in its own module with a main(argv) -> exit code.
"""

import sys

from tools import cli

COMMANDS = (
    # name, module, one-line help
    ("sim", "tools.sim", "the handheld game in a desktop window (the device app on displayio)"),
    ("screens", "tools.simdriver", "the screenshots in docs/screens, from scripted games in the simulator"),
    ("ui-memory", "tools.uimem", "the app's heap on a SAMD51 board: displayio objects, game, code"),
    ("pystack", "tools.pystack", "the app's deepest use of a SAMD51 board's 2 KB Python stack, modelled"),
    ("bundle", "tools.bundle", "build what goes onto the board's drive (build/bundle) with its manifest and size"),
    ("deploy", "tools.deploy", "put the game onto a board's CIRCUITPY/BINOCLE drive (or a FAT image), safely"),
    ("firmware", "tools.firmware", "install CircuitPython: check a .uf2 against the board's chip and copy it to its bootloader drive"),
    ("play", "tools.play", "play a game in the terminal against the AI"),
    ("arena", "tools.arena", "AI against AI or a baseline: duplicate matches with confidence intervals"),
    ("endgame-loss", "tools.endgame_loss", "points an AI level gives away in the two-hand last tricks, against exact play"),
    ("melds", "tools.meldcli", "best meld total of a hand, as JSON"),
    ("bench", "tools.bench", "engine speed and memory on CPython and MicroPython, as JSON"),
    ("device-tests", "tools.device", "run tests/device under MicroPython (WASI build)"),
    ("mpy", "tools.mpy", "run a script under MicroPython (WASI build) from the repository root"),
    ("gen-melddata", "tools.gen_melddata", "regenerate engine/melddata*.py"),
    ("tune", "tools.tune", "fit the binokel soloist's trick table by self-play"),
    ("tune-odds", "tools.tune_odds", "count the odds a binokel defender deals the soloist's unseen cards by"),
    ("tune-leaf", "tools.tune_leaf", "fit the two-hand endgame leaf's correction against exact play"),
    ("gen-assets", "tools.gen_assets", "regenerate assets/cards.bmp, the card art"),
    ("fuzz", "tools.fuzz", "random legal and illegal action ints against every rule set, checking the invariants"),
    ("soak", "tools.soak", "AI against AI under MicroPython, saved after every action; the heap must not grow"),
    ("golden", "tools.golden", "regenerate tests/data/golden_counts.txt (legal-action counts)"),
)

# The three rooms the commands stand in, as `python -m tools --help` lists them.
ROOMS = (
    ("for players and board owners", ("sim", "play", "bundle", "deploy", "firmware")),
    ("development checks", ("device-tests", "mpy", "screens", "gen-melddata", "gen-assets", "golden",
                            "fuzz", "soak", "pystack")),
    ("the lab: measuring and tuning the game", ("arena", "endgame-loss", "melds", "bench", "ui-memory",
                                                 "tune", "tune-odds", "tune-leaf")),
)


def usage(out):
    out.write("usage: python -m tools <command> [options]\n")
    text = dict((name, t) for name, _module, t in COMMANDS)
    for room, names in ROOMS:
        out.write("\n%s:\n" % room)
        for name in names:
            out.write("  %-13s %s\n" % (name, text[name]))
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


if __name__ == "__main__":
    sys.exit(main())
