"""docs/rules.md read as data: its sections, numbered rules and tables, and the numbers they state.

The tests compare these with what the game shows and uses (tests/test_rules_text.py: the rules
help in assets/help.txt; tests/test_melddata.py: the meld data of the engine). A sentence or
table this reader cannot find is an error, never a silent pass.
"""

import os
import re

from engine.rules import RULE_SETS      # the registry's: docs/rules.md has a column for each

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATH = os.path.join(ROOT, "docs", "rules.md")


def text():
    with open(PATH, encoding="utf-8") as fh:
        return fh.read()


def sections():
    """{key: text} per '## ' heading: the word before the heading's colon ('common', 'hoyle',
    'french', 'binokel', 'defaults'), or 'glance' for the table of the three rule sets."""
    out = {}
    for part in text().split("\n## ")[1:]:
        heading, _, body = part.partition("\n")
        key = heading.split(":")[0] if ":" in heading else "glance"
        assert key not in out, "two sections named %r" % key
        out[key] = body
    return out


def rule(section, n):
    """The text of numbered rule n of a section (its sub-items and tables included)."""
    body = sections()[section]
    m = re.search(r"^%d\. (.*?)(?=^\d+\. |\Z)" % n, body, re.S | re.M)
    assert m, "no rule %s %d in docs/rules.md" % (section, n)
    return m.group(1)


def tables(body):
    """Every markdown table in a text: a list of rows, each row a list of its cells; the
    header is the first row, the dashed line is left out."""
    out, rows = [], []
    for line in body.split("\n") + [""]:
        line = line.strip()
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if not all(set(c) <= set("-") for c in cells):
                rows.append(cells)
        elif rows:
            out.append(rows)
            rows = []
    return out


def table_with(body, header_cell):
    """The one table of a text whose header has this cell."""
    found = [t for t in tables(body) if header_cell in t[0]]
    assert len(found) == 1, "want one table with a %r column, found %d" % (header_cell, len(found))
    return found[0]


def number(pattern, body):
    """The whole number the one group of pattern captures in body, read with its line breaks
    and indents as single spaces; it must be there."""
    m = re.search(pattern, " ".join(body.split()))
    assert m, "docs/rules.md no longer says %r" % pattern
    return int(m.group(1))


def glance():
    """{row name: {rule set: cell}} of the table of the three rule sets."""
    t = tables(sections()["glance"])[0]
    assert t[0][1:] == list(RULE_SETS), "docs/rules.md's first table has the columns %s, the " \
        "registry's rule sets are %s (engine/rules.py)" % (t[0][1:], list(RULE_SETS))
    return {row[0]: dict(zip(RULE_SETS, row[1:])) for row in t[1:]}


def card_points():
    """{rank as written ('A', '10', ... '7'): points} of the card-points table (common)."""
    t = table_with(sections()["common"], "Card")
    assert t[0][0] == "Card" and t[1][0] == "Points"
    return {rank: int(p) for rank, p in zip(t[0][1:], t[1][1:])}


def meld_points(rules):
    """{meld name: points} of a rule set's meld table. binokel's table has a plain and a trump
    value: its keys are 'name/plain' and 'name/trump', and the bare name where both agree (or
    where the meld exists in trumps only)."""
    if rules == "binokel":
        t = table_with(rule("binokel", 5), "Trumps")
        head = t[0]
        out = {}
        for row in t[1:]:
            cell = dict(zip(head, row))
            name, trump = cell["Meld"], int(cell["Trumps"])
            out[name + "/trump"] = trump
            if cell["Plain suit"] != "–":
                out[name + "/plain"] = int(cell["Plain suit"])
            if out.get(name + "/plain", trump) == trump:
                out[name] = trump
        return out
    return {name: points for name, (_cls, points) in two_hand_melds(rules).items()}


def two_hand_melds(rules):
    """{meld name: (class letter, or '–' for none, points)} of hoyle's or french's meld table."""
    t = table_with(rule(rules, {"hoyle": 5, "french": 4}[rules]), "Points")
    head = t[0]
    out = {}
    for row in t[1:]:
        cell = dict(zip(head, row))
        assert cell["Meld"] not in out, cell["Meld"]
        out[cell["Meld"]] = (cell["Class"], int(cell["Points"]))
    return out


def facts(rules):
    """{name: value} of what docs/rules.md says for a rule set: its meld points, the card
    points ('card A', ...), players, hand size, target and the rest the rules help states."""
    g = glance()
    out = dict(meld_points(rules))
    for rank, p in card_points().items():
        out["card " + rank] = p
    common = sections()["common"]
    out["last trick"] = number(r"final trick of a deal gets (\d+) more", common)
    out["deal total"] = number(r"puts exactly (\d+) points into the tricks", common)
    m = re.search(r"from highest to lowest: ([^.]*?), and under them", " ".join(common.split()))
    assert m, "docs/rules.md common no longer gives the rank order"
    out["ranks"] = m.group(1).replace(", ", " ")
    out["players"] = int(g["Players"][rules])
    out["hand"] = int(g["Cards per hand"][rules])
    out["target"] = int(g["Game to"][rules])
    if rules == "hoyle":
        out["dix"] = number(r"the exchange scores (\d+)", rule("hoyle", 4))
        assert number(r"the dealer gets (\d+) for dix", rule("hoyle", 1)) == out["dix"]
        out["target step"] = number(r"when both are, the target goes up by (\d+)", rule("hoyle", 9))
    if rules == "french":
        out["dix"] = number(r"turned-up card for (\d+) points", rule("french", 2))
        assert number(r"gives the dealer (\d+)", rule("french", 2)) == out["dix"]
        eights = set(v for k, v in out.items() if k.startswith("eight "))
        assert len(eights) == 1, eights
        out["eight of a rank"] = eights.pop()
    if rules == "binokel":
        out["dabb"] = number(r"once the first round is out, (\d+) cards go face down", rule("binokel", 1))
        out["opening bid"] = number(r"opening bid of (\d+) is compulsory", rule("binokel", 2))
        out["bid step"] = number(r"bids exactly (\d+) more", rule("binokel", 2))
        out["surrender bonus"] = number(r"each opponent gets (\d+) and his own melds", rule("binokel", 4))
    return out
