"""Write the meld and score data of the three rule sets, one module per rule set.

    engine/melddata.py          the two-hand row layout: KIND_STRIDE and the meld classes
    engine/melddata_hoyle.py    hoyle's meld kinds
    engine/melddata_french.py   french's meld kinds
    engine/melddata_binokel.py  binokel's family/pair codes and meld points

A game imports only its own rule set's meld data (the device keeps every imported
module in RAM). The rules are spelled out here once, readably, and turned into
compact byte strings that the device can index without building any objects.
Run `python -m tools gen-melddata` after changing a rule; `tests/test_melddata.py`
regenerates the files and fails on any difference.

The rule set modules hold public names that other modules read, so const()
would save nothing there: only engine/melddata.py imports it.
"""

import os

from engine.cards import SUIT_CHARS, SUIT_NAMES
import tools
from tools import cli

S, H, D, C = 0, 1, 2, 3
R9, RJ, RQ, RK, RT, RA = 2, 3, 4, 5, 6, 7
SUITS = (S, H, D, C)
FOURS = ((RA, "aces", 100), (RK, "kings", 80), (RQ, "queens", 60), (RJ, "jacks", 40))
FAMILY_RANKS = (RA, RT, RK, RQ, RJ)
CLASS_A, CLASS_B, CLASS_C, CLASS_NINE = 0, 1, 2, 3
KIND_STRIDE = 11  # bytes per kind: class, value/10, face count, 8 face slots
MAX_SLOTS = 8


def f(suit, rank):
    return suit * 8 + rank


def hoyle_kinds(trump):
    """(name, class, points, [(face, copies)]) for two-handed Binocle (rules.md hoyle 5)."""
    kinds = []
    for s in SUITS:
        royal = s == trump
        kinds.append(("royal marriage" if royal else "marriage in " + SUIT_NAMES[s],
                      CLASS_A, 40 if royal else 20, [(f(s, RK), 1), (f(s, RQ), 1)]))
    kinds.append(("sequence", CLASS_A, 150, [(f(trump, r), 1) for r in FAMILY_RANKS]))
    kinds.append(("binocle", CLASS_B, 40, [(f(S, RQ), 1), (f(D, RJ), 1)]))
    kinds.append(("double binocle", CLASS_B, 80, [(f(S, RQ), 2), (f(D, RJ), 2)]))
    kinds.append(("grand binocle", CLASS_B, 80, [(f(S, RK), 1), (f(S, RQ), 1), (f(D, RJ), 1)]))
    for rank, word, value in FOURS:
        kinds.append(("four " + word, CLASS_C, value, [(f(s, rank), 1) for s in SUITS]))
    for rank, word, value in FOURS:
        kinds.append(("eight " + word, CLASS_C, 2 * value, [(f(s, rank), 2) for s in SUITS]))
    return kinds


def french_kinds(trump):
    """The French meld table (rules.md french 4), same layout."""
    kinds = []
    for s in SUITS:
        t = s == trump
        kinds.append(("trump pair" if t else "pair in " + SUIT_NAMES[s],
                      CLASS_A, 40 if t else 20, [(f(s, RK), 1), (f(s, RQ), 1)]))
    for s in SUITS:
        t = s == trump
        kinds.append(("trump family" if t else "family in " + SUIT_NAMES[s],
                      CLASS_A, 150 if t else 100, [(f(s, r), 1) for r in FAMILY_RANKS]))
    kinds.append(("double trump family", CLASS_A, 1500, [(f(trump, r), 2) for r in FAMILY_RANKS]))
    kinds.append(("binocle", CLASS_B, 40, [(f(S, RQ), 1), (f(D, RJ), 1)]))
    kinds.append(("double binocle", CLASS_B, 300, [(f(S, RQ), 2), (f(D, RJ), 2)]))
    for rank, word, value in FOURS:
        kinds.append(("four " + word, CLASS_C, value, [(f(s, rank), 1) for s in SUITS]))
    kinds.append(("round", CLASS_C, 240, [(f(s, RK), 1) for s in SUITS] + [(f(s, RQ), 1) for s in SUITS]))
    for rank, word, value in FOURS:
        kinds.append(("eight " + word, CLASS_C, 1000, [(f(s, rank), 2) for s in SUITS]))
    kinds.append(("trump nine", CLASS_NINE, 10, [(f(trump, R9), 1)]))
    return kinds


def pack_kinds(kinds):
    out = bytearray()
    for _name, cls, value, shape in kinds:
        assert value % 10 == 0 and value // 10 < 256 and len(shape) <= MAX_SLOTS
        row = bytearray([cls, value // 10, len(shape)])
        for face, copies in shape:
            row.append(face | (32 if copies == 2 else 0))
        row.extend(bytes(KIND_STRIDE - len(row)))
        out.extend(row)
    return bytes(out)


# --- binokel (rules.md binokel 5): each meld type counts separately ---------------

BINOKEL_VALUES = {
    "family": (100, 150), "double family": (1000, 1500), "pair": (20, 40),
}


def family_pair_options(counts):
    """Every way to split one suit's A T K Q J counts into family/pair melds.

    Yields (families, pairs): families 0 none, 1 one family, 2 the double
    family (both copies of all five). A family's K and Q are not also a pair;
    each further pair needs a K and a Q of its own.
    """
    a, t, k, q, j = counts
    for fam in (0, 1, 2):
        if fam and min(counts) < fam:
            continue
        kk, qq = k - fam, q - fam
        for pairs in range(0, min(kk, qq) + 1):
            yield fam, pairs


def family_pair_points(fam, pairs, trump):
    i = 1 if trump else 0
    value = pairs * BINOKEL_VALUES["pair"][i]
    if fam == 1:
        value += BINOKEL_VALUES["family"][i]
    elif fam == 2:
        value += BINOKEL_VALUES["double family"][i]
    return value


def best_family_pairs(counts):
    """Code fam | pairs << 2 of the best split; the same split is best in trumps and plain."""
    best = {}
    for trump in (False, True):
        options = list(family_pair_options(counts))
        top = max(family_pair_points(fm, pr, trump) for fm, pr in options)
        best[trump] = [(fm, pr) for fm, pr in options if family_pair_points(fm, pr, trump) == top]
    choice = best[False][0]
    assert choice in best[True], counts
    return choice[0] | choice[1] << 2


def family_pair_table():
    """243 codes, index a*81 + t*27 + k*9 + q*3 + j (counts of A T K Q J in one suit)."""
    out = bytearray()
    for index in range(243):
        counts = []
        n = index
        for _ in range(5):
            counts.insert(0, n % 3)
            n //= 3
        out.append(best_family_pairs(tuple(counts)))
    return bytes(out)


def hexbytes(data, indent="    "):
    lines = []
    for i in range(0, len(data), 24):
        chunk = data[i:i + 24]
        lines.append(indent + 'b"' + "".join("\\x%02x" % b for b in chunk) + '"')
    return "\n".join(lines)


def kind_block(prefix, kinds_of, label):
    parts = []
    per_trump = [kinds_of(t) for t in SUITS]
    n = len(per_trump[0])
    size = n * KIND_STRIDE
    parts.append("# %s: %d meld kinds per trump, %d bytes per trump, %d bytes in all." % (
        label, n, size, 4 * size))
    parts.append("%s_KIND_COUNT = %d" % (prefix, n))
    parts.append("%s_KINDS = (" % prefix)
    for t in SUITS:
        parts.append("    # trump %s" % SUIT_CHARS[t])
        parts.append("    (\n" + hexbytes(pack_kinds(per_trump[t]), "        ") + "\n    ),")
    parts.append(")")
    parts.append("%s_KIND_NAMES = (" % prefix)
    for t in SUITS:
        names = ", ".join('"%s"' % k[0] for k in per_trump[t])
        parts.append("    (%s)," % names)
    parts.append(")")
    return "\n".join(parts)


KIND_LAYOUT = """One row of 11 bytes per meld kind, per trump suit:

    byte 0   class: 0 A (marriages, families), 1 B (binocles), 2 C (fours, eights, round),
             3 the lone trump nine (french)
    byte 1   points / 10
    byte 2   number of face slots n (1..8)
    byte 3+i slot i: bit 5 set = both copies of the face needed; bits 4..0 the face"""

ROWS = ("One row of 11 bytes per meld kind, per trump suit, laid out as drawn in engine/melddata.py\n"
        "(with KIND_STRIDE and the class numbers).")

FAMILY_PAIR_LAYOUT = """Families and pairs: one code per suit holding A T K Q J counts
(a, t, k, q, j), index a*81 + t*27 + k*9 + q*3 + j:

    code bits 1..0  families: 0 none, 1 a family, 2 the double family
    code bits 3..2  further pairs (K and Q not in a family)"""

GENERATED = "GENERATED by tools/checks/gen_melddata.py: do not edit."

CONST_IMPORT = """try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x
"""


def docstring(title, layout):
    return '"""%s %s\n\n%s\n"""\n' % (title, GENERATED, layout)


def render_common():
    """engine/melddata.py: the row layout the two-hand meld data share (engine/table.py reads it)."""
    parts = [docstring("Row layout of the two-hand meld data.",
                       "engine/melddata_hoyle.py and engine/melddata_french.py hold the rows.\n\n" + KIND_LAYOUT)]
    parts.append(CONST_IMPORT)
    parts.append("KIND_STRIDE = const(%d)" % KIND_STRIDE)
    for name, value in (("CLASS_A", CLASS_A), ("CLASS_B", CLASS_B), ("CLASS_C", CLASS_C),
                        ("CLASS_NINE", CLASS_NINE)):
        parts.append("%s = const(%d)" % (name, value))
    return "\n".join(parts) + "\n"


def render_hoyle():
    parts = [docstring("Meld data of hoyle, two-handed Binocle.", ROWS)]
    parts.append(kind_block("HOYLE", hoyle_kinds, "hoyle (rules.md hoyle 5)"))
    parts.append("")
    parts.append("# Index of the optional grand binocle among the hoyle kinds.")
    parts.append("HOYLE_GRAND_BINOCLE = %d" % [k[0] for k in hoyle_kinds(0)].index("grand binocle"))
    return "\n".join(parts) + "\n"


def render_french():
    parts = [docstring("Meld data of french, the French two-handed binocle.", ROWS)]
    parts.append(kind_block("FRENCH", french_kinds, "french (rules.md french 4)"))
    return "\n".join(parts) + "\n"


def render_binokel():
    parts = [docstring("Meld and score data of binokel.", FAMILY_PAIR_LAYOUT)]
    table = family_pair_table()
    parts.append("# binokel families and pairs: %d bytes." % len(table))
    parts.append("FAMILY_PAIRS = (\n" + hexbytes(table) + "\n)")
    parts.append("")
    parts.append("# binokel meld points, plain then trump (rules.md binokel 5).")
    for key, const_name in (("family", "FAMILY"), ("double family", "DOUBLE_FAMILY"), ("pair", "PAIR")):
        plain, trump = BINOKEL_VALUES[key]
        parts.append("%s_POINTS = (%d, %d)" % (const_name, plain, trump))
    parts.append("# Four of a rank, one per suit, indexed by rank code (8 entries): J 40, Q 60, K 80, A 100.")
    fours = [0] * 8
    for rank, _word, value in FOURS:
        fours[rank] = value
    parts.append("FOUR_POINTS = (%s)" % ", ".join(str(v) for v in fours))
    parts.append("EIGHT_POINTS = 1000")
    parts.append("BINOKEL_POINTS = (40, 300)  # Q of spades + J of diamonds: single, double")
    parts.append("TRUMP_NINE_POINTS = 10")
    return "\n".join(parts) + "\n"


# engine/<name>.py and what writes it. A game loads melddata.py (two-hand games) and its own rule set's module.
MODULES = (
    ("melddata", render_common),
    ("melddata_hoyle", render_hoyle),
    ("melddata_french", render_french),
    ("melddata_binokel", render_binokel),
)


def target_path(name):
    return os.path.join(tools.ROOT, "engine", name + ".py")


def check_all():
    """Print whether each generated module is up to date; 1 if one is not."""
    stale = 0
    for path, text in render_all():
        try:
            with open(path) as fh:
                same = fh.read() == text
        except OSError:
            same = False
        stale += not same
        print("%s: %s" % (os.path.relpath(path), "up to date" if same else "DIFFERENT: run python -m tools gen-melddata"))
    return 1 if stale else 0


def render_all():
    """[(path, text)] of every generated module."""
    return [(target_path(name), render()) for name, render in MODULES]


@cli.command("gen-melddata")
def main(argv):
    parser = cli.Parser("gen-melddata", "Regenerate the meld and score data (engine/melddata*.py).")
    parser.add_argument("--check", action="store_true",
                        help="compare with the files instead of writing them; exit 1 if one differs")
    opts = parser.parse_args(argv)
    if opts.check:
        return check_all()
    for path, text in render_all():
        cli.write_whole(path, text)
        print("wrote %s (%d bytes)" % (path, len(text)))
    return 0
