"""The bundle's renaming (tools/users/names.py): the game's own names only, never a library's."""

from tools.users import names

GAME = {
    "lib/binocle/keep.py": "import json\n"
                           "import os as fs\n"
                           "from gc import collect\n"
                           "from engine import cards\n"
                           "import engine.ai\n"
                           "class Store:\n"
                           "    def load(self, f):\n"
                           "        collect()\n"
                           "        return json.load(f), fs.listdir('/'), cards.count, engine.ai.LEVELS\n"
                           "    def listdir(self):\n"
                           "        return self.load(None)\n",
    "engine/cards.py": "count = 1\n",
    "engine/ai/__init__.py": "LEVELS = 2\n",
}


def test_names_taken_from_other_modules_are_foreign():
    assert names.foreign_names(GAME) == {"load", "listdir", "collect"}


def test_a_game_name_spelt_like_a_library_name_keeps_it():
    """The game's Store.load and json.load are one name token: renaming the one renames the
    other, so the board would call json.<something else>. Kept, both stay as written."""
    paths = list(GAME)
    keep = names.protected_names(paths, [])
    out, mapping = names.rename(GAME, ["ring", "pulse"], keep | names.foreign_names(GAME))
    text = out["lib/binocle/keep.py"]
    assert "json.load(" in text and "def load(self, " in text and "fs.listdir('/')" in text
    assert "load" not in mapping and "listdir" not in mapping
    broken, bad = names.rename(GAME, ["ring", "pulse"], keep)      # what happened before
    assert "load" in bad and "json.load(" not in broken["lib/binocle/keep.py"]


LIBRARY = ('def make(size, pad=0, **kwargs):\n'
           '    if "pad" not in kwargs:\n'
           '        kwargs["pad"] = size\n'
           '    return kwargs.get("pad"), "pad" in kwargs, kwargs.pop("size", 1), "pad"\n')


def test_a_library_s_keys_of_its_own_kwargs_are_renamed_with_its_keywords():
    # "pad" spells the keyword pad where it keys **kwargs; a lone "pad" is a string like any
    # other, spelt out: with it the name keeps its spelling everywhere
    targets = ["ring", "pulse", "tone", "wave"]
    lib = LIBRARY.replace(', "pad"\n', "\n")
    out, mapping = names.rename({"lib/m.py": lib}, targets, set(), ("lib/m.py",))
    assert mapping == {"kwargs": "ring", "size": "pulse", "make": "tone", "pad": "wave"}
    assert out["lib/m.py"] == ("def tone(pulse, wave=0, **ring):\n"
                               "    if 'wave' not in ring:\n"
                               "        ring['wave'] = pulse\n"
                               "    return ring.get('wave'), 'wave' in ring, ring.pop('pulse', 1)\n")
    out, mapping = names.rename({"lib/m.py": LIBRARY}, targets, set(), ("lib/m.py",))
    assert "pad" not in mapping and out["lib/m.py"].count('"pad"') == 5
    # in the game's own modules a string keeps the name whatever it keys
    out, mapping = names.rename({"engine/m.py": lib}, targets, set())
    assert "pad" not in mapping and "size" not in mapping
