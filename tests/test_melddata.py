"""engine/melddata*.py are exactly what tools/checks/gen_melddata.py writes, and their data say what docs/rules.md says."""

import os
import re

from engine import melddata as T, melddata_hoyle as TH, melddata_french as TF, melddata_binokel as TB
from engine.cards import parse, rank_of
from tests import rulesdoc
from tools.checks import gen_melddata


def test_melddata_files_match_generator():
    written = gen_melddata.render_all()
    assert [os.path.basename(path) for path, _ in written] == [
        "melddata.py", "melddata_hoyle.py", "melddata_french.py", "melddata_binokel.py"]
    for path, text in written:
        with open(path) as fh:
            assert fh.read() == text, "%s is stale: run python -m tools gen-melddata" % path


def test_table_sizes():
    assert len(TB.FAMILY_PAIRS) == 243
    for kinds, count in ((TH.HOYLE_KINDS, TH.HOYLE_KIND_COUNT), (TF.FRENCH_KINDS, TF.FRENCH_KIND_COUNT)):
        assert len(kinds) == 4
        for per_trump in kinds:
            assert len(per_trump) == count * T.KIND_STRIDE
    assert TH.HOYLE_KIND_COUNT == 16 and TF.FRENCH_KIND_COUNT == 21


def _row(kinds, kind):
    o = kind * T.KIND_STRIDE
    n = kinds[o + 2]
    return kinds[o], kinds[o + 1] * 10, [(kinds[o + 3 + i] & 31, 2 if kinds[o + 3 + i] & 32 else 1)
                                         for i in range(n)]


def test_hoyle_rows_spelled_out():
    spades = TH.HOYLE_KINDS[0]
    names = TH.HOYLE_KIND_NAMES[0]
    assert names[0] == "royal marriage" and _row(spades, 0) == (0, 40, [(parse("KS"), 1), (parse("QS"), 1)])
    assert _row(spades, 1)[1] == 20
    assert _row(spades, names.index("double binocle")) == (1, 80, [(parse("QS"), 2), (parse("JD"), 2)])
    assert _row(spades, names.index("eight jacks"))[1] == 80
    assert names.index("grand binocle") == TH.HOYLE_GRAND_BINOCLE


def test_family_pair_codes():
    def code(a, t, k, q, j):
        return TB.FAMILY_PAIRS[a * 81 + t * 27 + k * 9 + q * 3 + j]
    assert code(1, 1, 1, 1, 1) == 1                  # a family
    assert code(2, 2, 2, 2, 2) == 2                  # the double family
    assert code(1, 1, 2, 2, 1) == 1 | 1 << 2         # a family and a pair
    assert code(0, 0, 2, 2, 0) == 2 << 2             # two pairs
    assert code(2, 2, 2, 2, 1) == 1 | 1 << 2         # nine of ten: a family and a pair


def test_two_hand_meld_tables_are_those_of_the_rules():
    """Every hoyle and french meld kind, under every trump, has the class and points of its row
    in docs/rules.md (hoyle 5, french 4), and every row there is a kind."""
    classes = {T.CLASS_A: "A", T.CLASS_B: "B", T.CLASS_C: "C", T.CLASS_NINE: "–"}
    for rules, all_kinds, all_names in (("hoyle", TH.HOYLE_KINDS, TH.HOYLE_KIND_NAMES),
                                        ("french", TF.FRENCH_KINDS, TF.FRENCH_KIND_NAMES)):
        table = rulesdoc.two_hand_melds(rules)
        for kinds, names in zip(all_kinds, all_names):
            found = {}
            for k, name in enumerate(names):
                cls, points, _shape = _row(kinds, k)
                found.setdefault(re.sub(r" in (spades|hearts|diamonds|clubs)$", "", name), set()).add(
                    (classes[cls], points))
            assert found == {name: {row} for name, row in table.items()}, rules
    assert rulesdoc.two_hand_melds("hoyle")["sequence"] == ("A", 150)      # the reading itself


def test_binokel_meld_points_are_those_of_the_rules():
    """engine/melddata_binokel.py holds the values of docs/rules.md binokel 5, plain and trump."""
    doc = rulesdoc.meld_points("binokel")
    for key, engine in (("family", TB.FAMILY_POINTS), ("double family", TB.DOUBLE_FAMILY_POINTS),
                        ("pair", TB.PAIR_POINTS)):
        assert (doc[key + "/plain"], doc[key + "/trump"]) == engine, key
    ranks = {"aces": "A", "kings": "K", "queens": "Q", "jacks": "J"}
    assert {r: TB.FOUR_POINTS[rank_of(parse(c + "S"))] for r, c in ranks.items()} == {
        r: doc["four " + r] for r in ranks}
    assert doc["eight of a rank"] == TB.EIGHT_POINTS
    assert (doc["binokel"], doc["double binokel"]) == TB.BINOKEL_POINTS
    assert doc["trump nine"] == TB.TRUMP_NINE_POINTS and "trump nine/plain" not in doc
    assert (doc["pair/plain"], doc["pair/trump"], doc["four kings"]) == (20, 40, 80)   # the reading itself
