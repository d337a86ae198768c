"""The app talks to the AI through engine/ai/__init__.py's API and the players' public methods
(thinking, observe, can_knock, decision, why), never through their insides: nothing in lib/
reads a player's level row (.p), memory or endgame solver, nor imports a module of engine/ai/
(such as engine.ai.levels, whose column numbers would tie the app to the AI's level table).
Only the session (lib/binocle/session.py) holds AI players: the scenes and the rest of the app
ask it (session.person_can_knock(), hint_step(), think()) and never read its .ai or .adviser."""

import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INSIDES = ("p", "memory", "solver")
SEATS = ("ai", "adviser")
SESSION = os.path.join(ROOT, "lib", "binocle", "session.py")


def trespasses(source, session=True):
    """(line, what) for each reach into the AI's insides in a source (into the session's AI
    seats too, unless it is the session's own)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and (node.attr in INSIDES or (not session and node.attr in SEATS)):
            out.append((node.lineno, "." + node.attr))
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("engine.ai."):
                    out.append((node.lineno, "import " + a.name))
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.startswith("engine.ai."):
                out.append((node.lineno, "from " + node.module))
            elif node.module == "engine.ai":
                for a in node.names:
                    if os.path.exists(os.path.join(ROOT, "engine", "ai", a.name + ".py")):
                        out.append((node.lineno, "from engine.ai import " + a.name))
    return out


def lib_sources():
    for here, _dirs, files in os.walk(os.path.join(ROOT, "lib")):
        for f in sorted(files):
            if f.endswith(".py"):
                yield os.path.join(here, f)


def test_the_checker_sees_each_kind_of_trespass():
    src = ("from engine.ai import new_player, levels\n"
           "import engine.ai.levels\n"
           "from engine.ai.memory import Memory\n"
           "x = player.p[0] or player.memory.played or session.adviser.solver\n")
    found = sorted(what for _line, what in trespasses(src))
    assert found == [".memory", ".p", ".solver", "from engine.ai import levels", "from engine.ai.memory",
                     "import engine.ai.levels"]
    assert trespasses("from engine.ai import new_player, new_solver, DEVICE_LEVELS\n") == []
    assert trespasses("session.adviser.can_knock(obs)\n", session=True) == []
    assert trespasses("session.adviser.can_knock(obs)\n", session=False) == [(1, ".adviser")]


def test_lib_uses_only_the_ai_public_api():
    bad = []
    for path in lib_sources():
        with open(path) as fh:
            for line, what in trespasses(fh.read(), session=path == SESSION):
                bad.append("%s:%d %s" % (os.path.relpath(path, ROOT), line, what))
    assert not bad, "lib/ reaches into the AI: " + ", ".join(bad)


def test_the_settings_offer_the_ai_device_levels_in_their_order():
    """settings.LEVEL_NAMES copies engine.ai.DEVICE_LEVELS (the title screen would otherwise load
    the AI package to name three levels): the saved level index means the same level in both."""
    import sys
    sys.path.insert(0, os.path.join(ROOT, "lib"))
    try:
        from binocle import settings
    finally:
        sys.path.remove(os.path.join(ROOT, "lib"))
    from engine.ai import DEVICE_LEVELS
    assert settings.LEVEL_NAMES == DEVICE_LEVELS
