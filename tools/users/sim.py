"""The handheld game in a desktop window: python -m tools sim [--screenshot FILE]

Runs the very app the board runs (lib/binocle, engine/, assets/) on real
displayio (Blinka's, drawn by pygame), with the keyboard as the buttons: the
simulator's profile (lib/binocle/boards/sim.py KEYS) maps them, and --help
lists them from there.
"""

import ast
import argparse
import contextlib
import io
import os
import sys
import time
import warnings

from tools import ROOT, cli

FRAME_S = 0.012          # the window needs no more than ~80 frames a second
DEFAULT_NVM = os.path.join("~", ".binocle", "sim-nvm.bin")

NO_SCREEN = """sim: no screen to open a window on (neither DISPLAY nor WAYLAND_DISPLAY is set).
  On a desktop, run 'make play' there. Here you can:
    python -m tools play                 the same game in the terminal
    SDL_VIDEODRIVER=dummy python -m tools sim --frames 200 --screenshot shot.png
                                         run headless and save what the screen shows
"""


PROFILE = os.path.join(ROOT, "lib", "binocle", "boards", "sim.py")
# What each button does, in the order of binocle.buttons
BUTTONS = ("left", "right", "up", "down", "A: choose", "B: back, the last trick", "START: the menu",
           "SELECT: a hint")


def sim_keys():
    """The simulator's keys, KEYS of its profile: for each button ((name, pygame's name), ...).
    Read from the file's text, as importing the profile opens pygame's window."""
    with open(PROFILE, encoding="utf-8") as fh:
        tree = ast.parse(fh.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["KEYS"]:
            return ast.literal_eval(node.value)
    raise LookupError("no KEYS in %s" % PROFILE)


def keys_text():
    """The keys as --help lists them: one line per button."""
    lines = ["keys:"]
    for button, keys in zip(BUTTONS, sim_keys()):
        lines.append("  %-24s %s" % (" or ".join(name for name, _code in keys), button))
    return "\n".join(lines)


def build_parser():
    p = cli.Parser("sim", __doc__.split("\n")[0], epilog=keys_text(),
                   formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--screenshot", metavar="FILE", type=cli.output_file,
                   help="save the screen as PNG when the window closes")
    p.add_argument("--frames", type=cli.natural_int, default=0,
                   help="stop after this many frames (0: run until closed)")
    p.add_argument("--or-play", action="store_true",
                   help="with no screen for a window, play the same game in the terminal instead "
                        "(python -m tools play): what make play does")
    p.add_argument("--nvm", metavar="FILE", default=None,
                   help="the file standing in for the board's non-volatile memory: saves, settings, "
                        "statistics (default %s)" % DEFAULT_NVM)
    return p


def has_screen():
    if os.environ.get("SDL_VIDEODRIVER") in ("dummy", "offscreen"):
        return True
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def load_app(nvm=None):
    """The app with the simulator profile (pygame's display is made once per process; a later
    call makes a new app on it, as a board switched off and on). nvm: the saves' bytes."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    os.environ.setdefault("BLINKA_FORCEBOARD", "GENERIC_LINUX_PC")
    if os.environ.get("SDL_VIDEODRIVER") in ("dummy", "offscreen"):
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")   # headless: no sound card to look for
        warnings.filterwarnings("ignore", "no fast renderer available")
    load_paths()
    with contextlib.redirect_stdout(io.StringIO()) as said:  # Blinka's note that a PC is no board
        from binocle.boards import sim as profile
        from binocle.app import App
    for line in said.getvalue().splitlines():
        if not line.startswith("WARNING: GENERIC_X86"):
            print(line)
    return App(profile, assets=os.path.join(ROOT, "assets") + os.sep, nvm=nvm), profile


def open_file_nvm(path):
    """The saves' file, or a clear exit when it cannot be made (a wrong path, a full disk)."""
    load_paths()
    from binocle.saveload import FileNvm
    try:
        return FileNvm(path)
    except OSError as e:
        raise cli.UsageError("cannot keep saves in %s: %s" % (path, e.strerror or e))


def load_paths():
    for p in (os.path.join(ROOT, "lib"), ROOT):
        if p not in sys.path:
            sys.path.insert(0, p)


def save_screen(profile, path):
    import pygame
    pygame.image.save(profile.display._pygame_screen, path)


def nvm_path(option):
    """The saves' file: the one named (its folder must exist), or the default, whose
    folder is made the first time."""
    if option is not None:
        path = os.path.expanduser(option)
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise cli.UsageError("--nvm: no such folder: %s" % folder)
        if os.path.isdir(path):
            raise cli.UsageError("--nvm: %s is a folder, not a file" % path)
        return path
    path = os.path.expanduser(DEFAULT_NVM)
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
    except OSError as e:
        raise cli.UsageError("cannot make the folder for %s: %s" % (path, e.strerror or e))
    return path


def main(argv):
    args = build_parser().parse_args(argv)
    if not has_screen():
        if args.or_play:
            print("No screen for a window here: the same game in the terminal (python -m tools play).")
            from tools.users import play
            return play.main([])
        sys.stderr.write(NO_SCREEN)
        return 2
    path = nvm_path(args.nvm)
    app, profile = load_app(nvm=open_file_nvm(path))
    from binocle.scenes.title import Title
    app.replace(Title(app))
    frames = 0
    while not profile.quit_requested():
        app.tick()
        frames += 1
        if args.frames and frames >= args.frames:
            break
        time.sleep(FRAME_S)
    if args.screenshot and profile.display._pygame_screen is not None:
        try:
            save_screen(profile, args.screenshot)
        except Exception as e:           # pygame's own error: a full disk, no permission
            sys.stderr.write("sim: cannot save %s: %s\n" % (args.screenshot, e))
            return 1
        print("saved %s" % args.screenshot)
    return 0
