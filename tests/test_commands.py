"""Every command of docs/tools.md runs here as a person runs it: a new process from the
repository root, `python -m tools <command> ...` (and `make play`'s own command line),
once with a small real invocation and once with a mistake, which must be one line on
stderr and exit status 2, never a traceback.

A command added to tools/__main__.py without a case here fails test_every_command_is_tried.
"""

import json
import os
import re
import shlex
import struct
import subprocess
import sys

import pytest

from tools.__main__ import COMMANDS, ROOMS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOOT_OUT = (b"Adafruit CircuitPython 9.2.1 on 2024-11-20; Adafruit PyBadge with samd51j19\r\n"
            b"Board ID:pybadge\r\n")


def env_for(tmp_path):
    env = dict(os.environ)
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", HOME=str(tmp_path))
    return env


def tools(tmp_path, *args, stdin="", timeout=300):
    return subprocess.run([sys.executable, "-m", "tools"] + [str(a) for a in args], cwd=ROOT,
                          env=env_for(tmp_path), input=stdin, capture_output=True, text=True,
                          timeout=timeout)


def assert_works(done):
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    assert done.returncode == 0, done.stderr


def assert_one_line(done, command, *words):
    """A mistake: exit 2, nothing on stdout, one line on stderr naming the command."""
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(command + ": "), lines[0]
    for w in words:
        assert w in lines[0], lines[0]
    return lines[0]


# -- make play ----------------------------------------------------------------------------------

def make_play_command(extra):
    """The command line `make play ARGS=...` runs, as make itself prints it."""
    done = subprocess.run(["make", "--no-print-directory", "-n", "play",
                           "ARGS=" + extra], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    line = done.stdout.strip().splitlines()[-1]
    assert " -m tools sim" in line, line
    return line


def test_make_play_opens_the_game_headless(tmp_path):
    shot, nvm = tmp_path / "title.png", tmp_path / "nvm.bin"
    line = make_play_command("--frames 60 --screenshot %s --nvm %s" % (shot, nvm))
    done = subprocess.run(line, shell=True, cwd=ROOT, env=env_for(tmp_path), capture_output=True,
                          text=True, timeout=120)
    assert_works(done)
    assert done.stdout.strip() == "saved %s" % shot
    from PIL import Image
    with Image.open(shot) as im:
        assert im.size == (160, 128)
        colours = im.convert("RGB").getcolors(1 << 16)
    assert len(colours) > 4                     # a drawn title, not a blank window
    assert os.path.getsize(nvm) == 8192         # the saves' file stands in for the board's nvm


def test_make_play_without_a_screen_says_what_to_do(tmp_path):
    env = env_for(tmp_path)
    for name in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        env.pop(name, None)
    if sys.platform in ("win32", "darwin"):
        pytest.skip("a desktop always has a screen")
    done = subprocess.run([sys.executable, "-m", "tools", "sim"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "python -m tools play" in done.stderr


# -- each command: a real small run, then a mistake -----------------------------------------------

def make_image(tmp_path):
    from tools.users import drives
    from tools.users import fat
    path = str(tmp_path / "drive.img")
    fat.make_image(path)
    with drives.ImageDrive(path) as d:
        d.write("boot_out.txt", BOOT_OUT)
    return path


def make_uf2(path, blocks=4, family=0x55114460):
    data = b""
    for i in range(blocks):
        head = struct.pack("<IIIIIIII", 0x0A324655, 0x9E5D5157, 0x00002000, 0x4000 + 256 * i, 256, i,
                           blocks, family)
        data += head + bytes(476) + struct.pack("<I", 0x0AB16F30)
    path.write_bytes(data)
    return str(path)


def bootloader_drive(tmp_path):
    drive = tmp_path / "PYBADGEBOOT"
    drive.mkdir()
    (drive / "INFO_UF2.TXT").write_bytes(b"UF2 Bootloader v3.15.0 SFHWRO\r\nModel: PyBadge\r\n"
                                         b"Board-ID: SAMD51J19A-PyBadge-M4\r\n")
    return str(drive)


def run_sim(tmp_path):
    done = tools(tmp_path, "sim", "--frames", 30, "--screenshot", tmp_path / "s.png",
                 "--nvm", tmp_path / "n.bin")
    assert_works(done)
    assert (tmp_path / "s.png").exists()


def run_screens(tmp_path):
    done = tools(tmp_path, "screens", tmp_path / "shots")
    assert_works(done)
    assert "summary-binokel.png" in os.listdir(tmp_path / "shots")


def run_ui_memory(tmp_path):
    import json
    done = tools(tmp_path, "ui-memory", "--rules", "binokel", "--json", timeout=600)
    assert_works(done)
    assert json.loads(done.stdout)["moments"]


def run_gen_assets(tmp_path):
    done = tools(tmp_path, "gen-assets", "--out", tmp_path)
    assert_works(done)
    with open(os.path.join(ROOT, "assets", "cards.bmp"), "rb") as f:
        assert (tmp_path / "cards.bmp").read_bytes() == f.read()


def run_bundle(tmp_path):
    import json
    done = tools(tmp_path, "bundle", "--out", tmp_path / "b", "--json")
    assert_works(done)
    assert json.loads(done.stdout)["files"] > 10
    assert (tmp_path / "b" / "code.py").exists()


def run_deploy(tmp_path):
    from tools.users import drives
    image = make_image(tmp_path)
    done = tools(tmp_path, "deploy", "--image", image, "--yes")
    assert_works(done)
    from tools.users import bundle
    bundle.build(str(tmp_path / "b"))                 # the files deploy writes, built again
    with drives.ImageDrive(image) as d:
        assert d.read("code.py") == (tmp_path / "b" / "code.py").read_bytes()


def run_firmware(tmp_path):
    done = tools(tmp_path, "firmware", "--uf2", make_uf2(tmp_path / "cp.uf2"),
                 "--drive", bootloader_drive(tmp_path), "--dry-run")
    assert_works(done)


def run_play(tmp_path):
    done = tools(tmp_path, "play", "--rules", "hoyle", "--seed", 3, stdin="1\nq\ny\n")
    assert_works(done)
    assert "You" in done.stdout and "bye" in done.stdout


def run_arena(tmp_path):
    done = tools(tmp_path, "arena", "--rules", "hoyle", "--a", "greedy", "--b", "random", "--games", 4)
    assert_works(done)
    assert "A win rate" in done.stdout


def run_endgame_loss(tmp_path):
    done = tools(tmp_path, "endgame-loss", "--rules", "hoyle", "--games", 1, "--cards", "1-4")
    assert_works(done)
    out = json.loads(done.stdout)
    assert out["level"] == "hard" and out["points_given_away_per_deal"] == 0.0   # exact from 6 cards


def run_melds(tmp_path):
    done = tools(tmp_path, "melds", "--rules", "hoyle", "--trump", "H",
                 *"KS KH KD KC QS QH QD QC 9C 9C JH JC".split())
    assert_works(done)
    assert '"total": 220' in done.stdout


def run_bench(tmp_path, quick_bench):
    # tests/conftest.py runs `python -m tools bench --quick --rules french` once for the
    # session; tests/test_bench.py checks every figure of it.
    assert quick_bench["calibration"] and quick_bench["ai"]


def run_device_tests(tmp_path):
    done = tools(tmp_path, "device-tests", "xorshift32")
    assert_works(done)
    assert re.search(r"\b[1-9]\d* passed", done.stdout)


def run_mpy(tmp_path):
    script = tmp_path / "hello.py"
    script.write_text("import sys\nprint('hello', sys.implementation.name, sys.argv[1:])\n")
    done = tools(tmp_path, "mpy", script, "a", "b")
    assert_works(done)
    assert done.stdout.strip() == "hello micropython ['a', 'b']"


def run_gen_melddata(tmp_path):
    done = tools(tmp_path, "gen-melddata", "--check")
    assert_works(done)
    assert done.stdout.count("up to date") == 4


def run_tune(tmp_path):
    done = tools(tmp_path, "tune", "--deals", 60, "--level", "easy")
    assert_works(done)
    assert "TRICK_WORTH = (" in done.stdout


def run_tune_leaf(tmp_path):
    done = tools(tmp_path, "tune-leaf", "--games", 2)
    assert_works(done)
    assert "LEAF_WEIGHTS = (" in done.stdout and "playouts alone" in done.stdout


def run_pystack(tmp_path):
    done = tools(tmp_path, "pystack", "--boards", "pybadge", "--top", "3")
    assert_works(done)
    assert re.match(r"The app's deepest pystack use: \d+ of 2048 bytes", done.stdout), done.stdout


def run_tune_odds(tmp_path):
    done = tools(tmp_path, "tune-odds", "--games", 3, "--level", "easy")
    assert_works(done)
    assert "_SOLOIST_ODDS = b\"" in done.stdout and "_BURIED_ODDS = b\"" in done.stdout


def run_fuzz(tmp_path):
    done = tools(tmp_path, "fuzz", "--games", 1, "--rules", "hoyle")
    assert_works(done)


def run_soak(tmp_path):
    done = tools(tmp_path, "soak", "--deals", 2)
    assert_works(done)
    assert "soak: ok" in done.stdout


def run_golden(tmp_path):
    done = tools(tmp_path, "golden", "--check")
    assert_works(done)
    assert done.stdout.strip() == "golden counts: unchanged"


RUNS = {
    "sim": run_sim, "screens": run_screens, "ui-memory": run_ui_memory, "gen-assets": run_gen_assets,
    "bundle": run_bundle, "deploy": run_deploy, "firmware": run_firmware, "play": run_play,
    "arena": run_arena, "endgame-loss": run_endgame_loss, "melds": run_melds, "bench": run_bench, "device-tests": run_device_tests,
    "mpy": run_mpy, "gen-melddata": run_gen_melddata, "tune": run_tune, "tune-leaf": run_tune_leaf,
    "tune-odds": run_tune_odds, "fuzz": run_fuzz, "pystack": run_pystack,
    "soak": run_soak, "golden": run_golden,
}

# A mistake per command, and words its one line must hold.
MISTAKES = {
    "sim": (("--frames", "-5"), ("--frames", "0 or more")),
    "screens": (("/etc/hostname",), ("is a file",)),
    "ui-memory": (("--bogus",), ("--bogus",)),
    "pystack": (("--top", "0"), ("--top", "1 or more")),
    "gen-assets": (("--out", "/no/such/folder"), ("/no/such",)),
    "bundle": (("--mpy-cross", "/no/such/mpy-cross"), ("mpy-cross",)),
    "deploy": (("--image", "/no/such/folder/drive.img"), ("drive.img",)),
    "firmware": (("--drive", "/tmp"), ("--uf2",)),
    "play": (("--rules", "skat"), ("skat",)),
    "arena": (("--rules", "hoyle", "--a", "greedy", "--b", "random", "--games", "0"), ("--games",)),
    "endgame-loss": (("--rules", "binokel", "--games", "1"), ("binokel",)),
    "melds": (("--rules", "binokel", "--trump", "S", "AS", "XX"), ("XX",)),
    "bench": (("--rules", "nosuch"), ("nosuch",)),
    "device-tests": (("nomatch",), ("nomatch",)),
    "mpy": ((), ("script",)),
    "gen-melddata": (("--bogus",), ("--bogus",)),
    "tune": (("--deals", "-1"), ("--deals",)),
    "tune-leaf": (("--games", "0"), ("--games",)),
    "tune-odds": (("--level", "grandmaster"), ("grandmaster",)),
    "fuzz": (("--games", "0"), ("--games",)),
    "soak": (("--deals", "1"), ("--deals",)),
    "golden": (("--bogus",), ("--bogus",)),
}


def test_every_command_is_tried():
    names = [c[0] for c in COMMANDS]
    assert sorted(RUNS) == sorted(names)
    assert sorted(MISTAKES) == sorted(names)


def test_each_room_is_a_folder_and_help_lists_the_commands_by_room(tmp_path):
    assert [room for room, _rows in ROOMS] == [
        "for players and board owners", "development checks", "the lab: measuring and tuning the game"]
    assert [row[0] for row in ROOMS[0][1]] == ["sim", "play", "bundle", "deploy", "firmware"]
    assert len(set(c[0] for c in COMMANDS)) == len(COMMANDS) == 22
    for (room, rows), folder in zip(ROOMS, ("users", "checks", "lab")):
        for name, module, _text in rows:
            # a command's module is in its room's folder; mpy, the runner every room uses, is shared
            assert module.split(".")[1] == folder or module == "tools.mpy", (name, module)
            assert os.path.exists(os.path.join(ROOT, *module.split("."))) \
                or os.path.exists(os.path.join(ROOT, *module.split(".")) + ".py"), module
    out = tools(tmp_path, "--help").stdout
    at = [out.index("\n%s:\n" % room) for room, _rows in ROOMS]
    assert at == sorted(at)
    for (room, rows), start, end in zip(ROOMS, at, at[1:] + [len(out)]):
        assert [line.split()[0] for line in out[start:end].splitlines()[2:] if line.startswith("  ")] \
            == [row[0] for row in rows], room


def test_tools_top_folder_holds_only_the_shared_pieces():
    """Everything else under tools/ stands in a room."""
    top = sorted(f for f in os.listdir(os.path.join(ROOT, "tools")) if not f.startswith("__pycache__"))
    assert top == ["__init__.py", "__main__.py", "checks", "cli.py", "lab", "mpy.py", "opponents.py",
                   "selfplay.py", "users"]


def test_docs_tools_names_every_command():
    with open(os.path.join(ROOT, "docs", "tools.md")) as f:
        table = re.findall(r"^\| `([a-z-]+)[ `]", f.read(), re.M)
    assert sorted(set(table) & {c[0] for c in COMMANDS}) == sorted(c[0] for c in COMMANDS)


@pytest.mark.parametrize("name", [c[0] for c in COMMANDS])
def test_a_small_real_run(name, tmp_path, request):
    if name == "bench":
        run_bench(tmp_path, request.getfixturevalue("quick_bench"))
    else:
        RUNS[name](tmp_path)


@pytest.mark.parametrize("name", [c[0] for c in COMMANDS])
def test_a_mistake_is_one_line_and_exit_2(name, tmp_path):
    args, words = MISTAKES[name]
    assert_one_line(tools(tmp_path, name, *args), name, *words)


def test_an_unknown_command_lists_the_commands(tmp_path):
    done = tools(tmp_path, "plya")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "unknown command 'plya'" in done.stderr and "arena" in done.stderr


def test_help_of_every_command_exits_0(tmp_path):
    for name, _module, _text in COMMANDS:
        done = tools(tmp_path, name, "--help")
        assert done.returncode == 0, (name, done.stderr)
        assert done.stdout.startswith("usage: python -m tools " + name), (name, done.stdout[:80])


def test_the_makefile_play_line_is_the_sim():
    assert shlex.split(make_play_command(""))[1:4] == ["-m", "tools", "sim"]
