"""A fourth rule set needs its row in the registry and its own module, nothing else.

The test copies the game, adds "fourth" there as a rule set is added (hoyle's rules under
another name and id: a row in engine/rules.py, engine/fourth.py), and runs
tests/fourth_rule_set.py in that copy: the engine, the AI, a record, the save journal,
resume, the statistics and the app's screens in the simulator driver."""

import json
import os
import shutil
import subprocess
import sys

import pytest

from engine import rules
from tests.test_registry import ROOT

COPIED = ("engine", "lib", "tools", "assets", "code.py", "boot.py",
          os.path.join("tests", "__init__.py"), os.path.join("tests", "device"),
          os.path.join("tests", "data", "stats-layout2.bin"), os.path.join("tests", "fourth_rule_set.py"))
ROW = '    (2, TWO_HAND, 1000, OPT_PACK64 | OPT_NO_GRAND, "Binocle, fourth set"),\n'
MODULE = '''from engine.hoyle import Hoyle


class Fourth(Hoyle):
    """two hands, to 1000, knocking, as hoyle under another name"""
    RULES = "fourth"
'''


def add_fourth(tree):
    """The two edits of a new rule set: its name and row in the registry, and its module."""
    path = os.path.join(tree, "engine", "rules.py")
    with open(path) as f:
        text = f.read()
    names = 'RULE_SETS = ("hoyle", "french", "binokel")'
    last = '    (3, THREE_HAND, 1500, 0, "Binokel, 3 hands"),\n'
    assert text.count(names) == 1 and text.count(last) == 1
    text = text.replace(names, 'RULE_SETS = ("hoyle", "french", "binokel", "fourth")')
    text = text.replace(last, last + ROW)
    with open(path, "w") as f:
        f.write(text)
    with open(os.path.join(tree, "engine", "fourth.py"), "w") as f:
        f.write(MODULE)


@pytest.fixture(scope="module")
def found(tmp_path_factory):
    tree = str(tmp_path_factory.mktemp("fourth"))
    shots = os.path.join(tree, "shots")
    os.mkdir(shots)
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "screens")
    for part in COPIED:
        src, dst = os.path.join(ROOT, part), os.path.join(tree, part)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if os.path.isdir(src):
            shutil.copytree(src, dst, ignore=skip)
        else:
            shutil.copy(src, dst)
    add_fourth(tree)
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONDONTWRITEBYTECODE="1")
    run = subprocess.run([sys.executable, os.path.join("tests", "fourth_rule_set.py"), shots], cwd=tree,
                         env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    out = json.loads(run.stdout.strip().splitlines()[-1])
    out["shots"] = sorted(os.listdir(shots))
    if os.environ.get("FOURTH_SHOTS"):                 # to look at them: a folder to copy them to
        for name in out["shots"]:
            shutil.copy(os.path.join(shots, name), os.environ["FOURTH_SHOTS"])
    return out


def test_the_registry_takes_it_with_its_variants(found):
    assert found["rule_sets"] == ["hoyle", "french", "binokel", "fourth"]
    assert found["variants"] == ["fourth", "fourth64", "fourth-nogrand"]      # from its row's options


def test_the_engine_and_its_record(found):
    assert found["record_head"] == [1, 3, rules.OPT_PACK64]      # format, the id 3, the 64-card pack
    assert found["replayed"] is True and found["record_check"] is None and found["deals"] >= 2
    assert found["newer_check"] == "Saved game: from a newer\nversion, not used."    # a fifth: not ours


def test_the_journal_keeps_it_and_it_goes_on_after_a_restart(found):
    assert found["journal_rules"] == "fourth"
    assert found["title_first"] == "Continue saved game" and found["resumed"] is True
    assert found["sheet_rows"] == 1 and found["counted"][2] == 1       # the deal counted once


def test_statistics_make_room_and_keep_what_was_saved(found):
    assert found["stats_size"] == [194, 254, 254]                    # stats.py: 14 + 60 a rule set
    assert found["old_ok"] is True and found["old_key"] is True
    assert found["old_reader_kept"] is False                         # stats.py: statsold.py, once
    assert found["old_cells"] == [
        [[1, 0, 1, 0, -120, -120, 0, 0, 0, 0], [3, 3, 3, 1, 300, 123, 0, 0, 3, 3],
         [3, 2, 3, 0, -20, -171, 0, 0, 1, 1]],
        [[2, 1, 4, 0, 92, 146, 0, 0, 1, 1], [3, 2, 5, 2, 142, 340, 0, 0, 0, 2],
         [4, 3, 6, 3, 192, 597, 0, 0, 2, 2]],
        [[3, 2, 7, 6, 304, 1351, 3, 4, 2, 2], [4, 3, 8, 7, 354, 1796, 3, 5, 1, 2],
         [5, 3, 9, 9, 404, 2304, 3, 6, 0, 2]],
        [[0, 0, 0, 0, None, 0, 0, 0, 0, 0]] * 3]                     # the fourth's: empty
    assert found["three_kept"] == [1, 1, 1, 1, 250, 250, 1, 0, 1, 1]


def test_its_screens(found):
    assert found["stats_screen"] == "< Binocle, fourth set >"
    assert found["rules_line"] == "Rules: Binocle, fourth set"
    assert found["stats_table"][1][:2] == [" Easy Norm.  Hard", "    0     0     0"]
    assert found["shots"] == ["sheet.png", "stats.png", "table.png", "title.png"]


def test_the_statistics_of_four_rule_sets_fit_the_saves():
    """The journal keeps the statistics' length in a byte (store.py), the nvm a slot of 320."""
    from tools.users.sim import load_paths
    load_paths()
    from binocle import nvmstore, stats
    assert stats.size(len(rules.RULE_SETS) + 1) == 254 <= 255
    assert stats.size(len(rules.RULE_SETS) + 1) <= nvmstore._SLOT[nvmstore.KIND_STATS] - nvmstore._HEAD
    assert stats.size(len(rules.RULE_SETS) + 2) > 255                # a fifth needs a new layout
