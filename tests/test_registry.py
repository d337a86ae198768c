"""The rule sets live in one place (engine/rules.py), and the score sheet is read by name."""

import ast
import os

import pytest

from engine import cards, record, rules, variants
from engine.binokel import Binokel
from engine.rules import RULE_SETS, ROWS, find, kind, new_game, state_class
from engine.twohand import TwoHandState
from tests.device import helpers as H

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCANNED = ("engine", "lib", "tools")


def python_files():
    """Every .py of the engine, the app and the tools, and the board's code.py and boot.py."""
    out = [os.path.join(ROOT, "code.py"), os.path.join(ROOT, "boot.py")]
    for top in SCANNED:
        for folder, _dirs, files in os.walk(os.path.join(ROOT, top)):
            out.extend(os.path.join(folder, f) for f in files if f.endswith(".py"))
    return sorted(out)


def _names_in(node):
    """The rule-set names a comparison's operand spells out: a string, or a literal tuple,
    list or set of strings."""
    if isinstance(node, ast.Constant) and node.value in RULE_SETS:
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [e.value for e in node.elts if isinstance(e, ast.Constant) and e.value in RULE_SETS]
    return []


def name_comparisons(source):
    """(line, name) of each comparison with a rule set's name: == and != on either side, and
    membership in a literal collection (a name on the left of `in` is a substring test of
    another string, such as a meld's name, and is not one)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Compare):
            continue
        left = node.left
        for op, right in zip(node.ops, node.comparators):
            if isinstance(op, (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)):
                found.extend((node.lineno, n) for n in _names_in(left) + _names_in(right))
            elif isinstance(op, (ast.In, ast.NotIn)):
                found.extend((node.lineno, n) for n in _names_in(right))
            left = right
    return found


def test_no_module_but_the_registry_compares_a_rule_set_name():
    registry = os.path.join(ROOT, "engine", "rules.py")
    bad = []
    for path in python_files():
        if path == registry:
            continue
        with open(path, encoding="utf-8") as f:
            for line, name in name_comparisons(f.read()):
                bad.append("%s:%d %r" % (os.path.relpath(path, ROOT), line, name))
    assert not bad, "ask engine/rules.py instead of comparing names: " + ", ".join(bad)


def test_the_check_finds_what_it_should():
    assert name_comparisons('if rules == "binokel": pass') == [(1, "binokel")]
    assert name_comparisons('x = "hoyle" != obs.rules') == [(1, "hoyle")]
    assert name_comparisons('ok = r in ("hoyle", "french")') == [(1, "hoyle"), (1, "french")]
    assert name_comparisons('ok = "binokel" in meld_name') == []
    assert name_comparisons('state = new_game("french", 3)') == []
    assert python_files() and all(os.path.exists(p) for p in python_files())


# Files that may keep tables of their own by rule set: how many, and why.
OWN_TABLES = {
    os.path.join("tools", "lab", "bench", "waits.py"): (1, "the seed of the deal it times, chosen per rule set "
                                                    "(another takes seed 1)"),
    os.path.join("tools", "lab", "bench", "aimem.py"): (1, "its report of binokel's rollouts, the one rule set "
                                                    "that plays deals out on a board"),
}
# Names that hold a rule set's id; a table indexed by one is a table by rule set.
ID_NAMES = ("rules_id",)
# The registry's own tables, which may be indexed by an id anywhere.
REGISTRY_TABLES = ("RULE_SETS", "ROWS")


def _is_id(node):
    """True for an expression that is a rule set's id: a name or attribute named like
    rules_id, or RULE_SETS.index(...)."""
    if isinstance(node, ast.Name):
        return node.id in ID_NAMES
    if isinstance(node, ast.Attribute):
        return node.attr in ID_NAMES
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr == "index" and _table_name(node.func.value) == "RULE_SETS"
    return False


def _table_name(node):
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def tables_by_rule_set(source):
    """(line, what) of each table by rule set that a module keeps itself: a dict whose keys
    name a rule set, a literal list of two or more rule sets' names, or a subscript by a
    rule set's id of anything but the registry's RULE_SETS and ROWS."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Dict):
            if any(isinstance(k, ast.Constant) and k.value in RULE_SETS for k in node.keys):
                found.append((node.lineno, "dict keyed by rule set"))
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            if len(_names_in(node)) >= 2:
                found.append((node.lineno, "list of rule sets"))
        elif isinstance(node, ast.Subscript):
            index = node.slice
            if _is_id(index) and _table_name(node.value) not in REGISTRY_TABLES:
                found.append((node.lineno, "indexed by a rule set's id"))
    return found


def test_no_module_but_the_registry_keeps_a_table_by_rule_set():
    registry = os.path.join(ROOT, "engine", "rules.py")
    bad = []
    for path in python_files():
        rel = os.path.relpath(path, ROOT)
        if path == registry:
            continue
        with open(path, encoding="utf-8") as f:
            found = tables_by_rule_set(f.read())
        if rel in OWN_TABLES and len(found) == OWN_TABLES[rel][0]:
            continue
        bad.extend("%s:%d %s" % (rel, line, what) for line, what in found)
    assert not bad, "keep it in engine/rules.py (a row's field, or the rule set's class): " + ", ".join(bad)


def test_the_table_check_finds_what_it_should():
    assert tables_by_rule_set('HELP = {"hoyle": "two hands", "french": "more"}') == [(1, "dict keyed by rule set")]
    assert tables_by_rule_set('SETS = ("hoyle", "french", "binokel")') == [(1, "list of rule sets")]
    assert tables_by_rule_set('x = _OPTIONS[data.rules_id]') == [(1, "indexed by a rule set's id")]
    assert tables_by_rule_set('x = BY_ID[RULE_SETS.index(name)]') == [(1, "indexed by a rule set's id")]
    assert tables_by_rule_set('x = ROWS[rules_id][TITLE]; y = RULE_SETS[st.rules_id]') == []
    assert tables_by_rule_set('x = {r: 0 for r in RULE_SETS}; ok = name in ("hoyle",)') == []


def test_a_rule_set_s_line_is_its_class_s():
    from tools.users.play import rule_help
    for name in RULE_SETS:
        line = rule_help(name)
        assert line == state_class(name).__doc__.split("\n")[0] and 20 <= len(line) <= 60
    assert rule_help("hoyle") == "two hands, to 1000, knocking (Foster's Hoyle)"


def test_the_variants_come_from_the_rows():
    assert variants.variants() == [("hoyle", "hoyle", 0), ("hoyle64", "hoyle", rules.OPT_PACK64),
                                ("hoyle-nogrand", "hoyle", rules.OPT_NO_GRAND), ("french", "french", 0),
                                ("binokel", "binokel", 0)]
    from tools.checks import fuzz, golden
    from tools.lab.bench import speed
    assert fuzz.ORDER == tuple(v[0] for v in variants.variants()) and fuzz.VARIANTS["hoyle-nogrand"] == ("hoyle", 2, 0x3003)
    assert speed.ORDER == ("hoyle", "hoyle64", "french", "binokel") and speed.SETS["hoyle64"] == ("hoyle", 1)
    assert {p[0] for p in golden.POSITIONS} <= set(fuzz.VARIANTS)


@pytest.mark.parametrize("rules_id", range(len(RULE_SETS)))
def test_a_row_says_what_its_state_class_is(rules_id):
    name = RULE_SETS[rules_id]
    row = ROWS[rules_id]
    cls = state_class(name)
    assert find(name) is row and len(ROWS) == len(RULE_SETS)
    assert cls.RULES == name and cls.PLAYERS == row[rules.PLAYERS]
    assert issubclass(cls, Binokel if kind(name) == rules.THREE_HAND else TwoHandState)
    state = new_game(name, seed=5)
    assert state.target == row[rules.TARGET] == rules.target(name)
    assert record.read_header(record.encode(state))[0] == name          # the id is the record's byte
    assert isinstance(row[rules.TITLE], str) and len(row[rules.TITLE]) <= 26   # a line of the screen


def test_options_follow_the_row():
    assert rules.option_bits("hoyle", pack64=True, grand_binocle=False) == rules.OPT_PACK64 | rules.OPT_NO_GRAND
    assert rules.option_bits("french", target=2000) == 8 << rules.OPT_TARGET_SHIFT
    assert rules.target("french", rules.option_bits("french", target=2000)) == 2000
    assert rules.option_bits("french", target=1500) == 0
    for name, friendly in (("french", {"pack64": True}), ("binokel", {"grand_binocle": False}),
                           ("hoyle", {"target": 1500}), ("binokel", {"target": 1000})):
        with pytest.raises(ValueError):
            rules.option_bits(name, **friendly)
    with pytest.raises(ValueError):
        find("skat")


def test_the_app_takes_its_rule_sets_from_the_registry():
    from tools.users.sim import load_paths
    load_paths()
    from binocle import settings, words
    assert not hasattr(settings, "RULES")          # no list of its own: the registry's ids
    st = settings.Settings()
    for i in range(len(RULE_SETS)):
        st.rules_id = i
        assert st.rules_name() == RULE_SETS[i] and st.rules_id_of(RULE_SETS[i]) == i
    assert [words.rule_title(n) for n in RULE_SETS] == [row[rules.TITLE] for row in ROWS]


def _row_fields(cls):
    return sorted(getattr(cls, k) for k in dir(cls) if k.startswith("ROW_"))


@pytest.mark.parametrize("name", RULE_SETS)
def test_sheet_rows_are_read_by_name(name):
    """Every field of a sheet row has its ROW_* name; gains_of() and ROW_SCORES add up."""
    state = H.random_game(name, 11, max_deals=6)
    cls = type(state)
    assert state.sheet
    assert _row_fields(cls) == list(range(len(state.sheet[0])))          # one name per field, no gaps
    totals = [0] * state.PLAYERS
    for n, row in enumerate(state.sheet):
        assert row[cls.ROW_NUMBER] == n + 1 and 0 <= row[cls.ROW_DEALER] < state.PLAYERS
        gains = cls.gains_of(row)
        assert gains == state.gains_of(row) and len(gains) == state.PLAYERS
        for p in range(state.PLAYERS):
            totals[p] += gains[p]
        assert list(row[cls.ROW_SCORES]) == totals
    if state.is_deal_over():              # (a deal in play may have scored a turned-up nine)
        assert list(state.sheet[-1][cls.ROW_SCORES]) == state.scores()


def test_the_last_trick_is_worth_the_same_everywhere():
    assert cards.LAST_TRICK_POINTS == 10
    assert cards.card_points(cards.new_pack(False)) + cards.LAST_TRICK_POINTS == 250
