"""The rules help on the board (assets/help.txt) states what docs/rules.md states.

Each help page a rule set shows is read as the board reads it (lib/binocle/helptext.py). The
sentences below name each number on those pages: a meld's points, a card's points, the target,
the hand size... Every number is compared with the number docs/rules.md gives for the same
thing (tests/rulesdoc.py reads it), and a number on a help page that no sentence here names
fails too, so a value added to the help is checked as soon as it is written.
"""

import os
import re
import sys

import pytest

from tests import rulesdoc

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "lib"))

from binocle import helptext                         # noqa: E402

HELP = os.path.join(ROOT, "assets", "help.txt")

# {page title: sentences}. A sentence is help text with {name} where the help gives the value
# docs/rules.md calls name (tests/rulesdoc.py, facts()); each must be on its page once.
ALL = {
    "Cards": ["Two packs in one: {ranks} in each suit, every card twice. High to low: {ranks}."],
    "Card points": ["A {card A}, 10 {card 10}, K {card K}, Q {card Q}, J {card J}, 9 {card 9}.",
                    "The last trick adds {last trick}, so a deal holds {deal total}."],
}
TWO_HAND = {
    "A deal": ["{hand} cards each;"],
    "Growing melds": ["(trump K Q to trump A 10 K Q J, four kings to eight)"],     # cards, no values
    "Trump 9 swap": ["Trump 9 swap\n", "swap the trump 9 for the turned-up card: {dix} points. A 9 turned up gives the "
                 "dealer {dix}."],
}
SENTENCES = {
    "hoyle": dict(ALL, **TWO_HAND, **{
        "Binocle": ["Two players, {hand} cards each.", "Game to {target}.",
                    "If both reach it in one deal, it rises by {target step}."],
        "Meld table": ["Marriage (K Q) {marriage}, royal marriage (K Q of trump) {royal marriage}, "
                       "sequence (A 10 K Q J of trump) {sequence};",
                       "binocle (QS JD) {binocle}, double binocle (both QS, both JD) {double binocle}, "
                       "grand binocle (KS QS JD) {grand binocle}."],
        "Fours and eights": ["Four aces {four aces}, four kings {four kings}, four queens {four queens}, "
                             "four jacks {four jacks} (one of each suit);",
                             "all eight of a rank score double: {eight aces}, {eight kings}, "
                             "{eight queens}, {eight jacks}."],
        "Knocking": ["Think you have {target} with the points in your tricks?"],
        "Words": ["Trump 9 swap: your trump 9 for"],             # a rank, no value: the glossary
    }),
    "french": dict(ALL, **TWO_HAND, **{
        "French binocle": ["Two players, {hand} cards each.", "Game to {target} or your choice:"],
        "Meld table": ["Pair (K Q) {pair}, trump pair {trump pair}, family (A 10 K Q J) {family}, "
                       "trump family {trump family}, double trump family {double trump family};",
                       "binocle (QS JD) {binocle}, double binocle (both QS, both JD) {double binocle}."],
        "Fours and eights": ["Four aces {four aces}, four kings {four kings}, four queens {four queens}, "
                             "four jacks {four jacks} (one of each suit);",
                             "round (four kings and four queens) {round};",
                             "all eight of a rank {eight of a rank};", "a trump 9 alone {trump nine}."],
        "Words": ["Trump 9 swap: your trump 9 for", "Nine of trump: a trump 9 shown alone."],
    }),
    "binokel": dict(ALL, **{
        "Binokel, 3 hands": ["Binokel, {players} hands", "Game to {target}."],
        "A deal": ["{hand} cards each, {dabb} face down: the Dabb.",
                   "Bidding starts at {opening bid} and rises by {bid step};"],
        "Dabb and trump": ["buries {dabb} cards", "Durch (all {hand} tricks)"],
        "Giving up": ["The others score {surrender bonus} each"],
        "Melds": ["Family (A 10 K Q J) trump {family/trump}, plain {family/plain};",
                  "pair (K Q) {pair/trump}/{pair/plain};",
                  "fours {four aces}/{four kings}/{four queens}/{four jacks};",
                  "binokel (QS JD) {binokel}, double {double binokel};", "each trump 9: {trump nine}."],
        "Scoring": ["Game to {target}."],
    }),
}

PLACEHOLDER = re.compile(r"\{([^}]+)\}")
VALUE = {"ranks": r"[AKQJ0-9 ]+?"}           # any other name is a whole number
CARD_NOTATION = re.compile(r"\b(?:10|[AKQJT987])[SHDC]\b")    # 10H, QS: cards, not numbers


def help_pages(rules, path=HELP):
    """[(title, text)] of a rule set's help pages; text is the title, a newline, the body."""
    pages = []
    for k in range(helptext.count(path, rules)):
        title, body = helptext.page(path, rules, k)
        pages.append((title, title + "\n" + body))
    return pages


def sentence_regex(sentence):
    """(regex, names): the sentence with each {name} a group capturing the help's value."""
    parts = PLACEHOLDER.split(sentence)
    regex = "".join(re.escape(p) if i % 2 == 0 else "(%s)" % VALUE.get(p, r"\d+")
                    for i, p in enumerate(parts))
    return re.compile(regex), parts[1::2]


def help_values(rules, path=HELP):
    """[(page, name, value in the help)] for every {name} of the rule set's sentences, and
    [(page, number)] of the numbers on its pages that no sentence covers."""
    pages = dict(help_pages(rules, path))
    values, uncovered = [], []
    for title, sentences in SENTENCES[rules].items():
        assert title in pages, "%s: no help page %r" % (rules, title)
    for title, page in pages.items():
        blanked = page
        for sentence in SENTENCES[rules].get(title, []):
            regex, names = sentence_regex(sentence)
            found = list(regex.finditer(page))
            assert len(found) == 1, "%s, page %r: %r found %d times" % (rules, title, sentence, len(found))
            m = found[0]
            for name, value in zip(names, m.groups()):
                values.append((title, name, value if name in VALUE else int(value)))
            blanked = blanked[:m.start()] + " " * (m.end() - m.start()) + blanked[m.end():]
        blanked = CARD_NOTATION.sub(" ", blanked)
        uncovered.extend((title, n) for n in re.findall(r"\d+", blanked))
    return values, uncovered


def mismatches(rules, values):
    facts = rulesdoc.facts(rules)
    return [(title, name, said, facts.get(name, "not in docs/rules.md"))
            for title, name, said in values if facts.get(name) != said]


@pytest.mark.parametrize("rules", rulesdoc.RULE_SETS)
def test_every_number_of_the_help_is_what_the_rules_say(rules):
    values, uncovered = help_values(rules)
    assert mismatches(rules, values) == [], "(page, what, help says, docs/rules.md says)"
    assert uncovered == [], "help numbers no sentence of tests/test_rules_text.py checks"


def test_every_meld_value_and_card_point_of_the_help_is_checked():
    """What the comparison covers, spelled out: all of each meld table the help gives, every
    card's points and the 250 of a deal."""
    named = {rules: {name for _title, name, _v in help_values(rules)[0]} for rules in rulesdoc.RULE_SETS}
    cards = {"card A", "card 10", "card K", "card Q", "card J", "card 9", "last trick", "deal total"}
    assert named["hoyle"] == set(rulesdoc.meld_points("hoyle")) | cards | {
        "ranks", "hand", "target", "target step", "dix"}
    assert named["french"] == set(rulesdoc.meld_points("french")) - {
        "eight aces", "eight kings", "eight queens", "eight jacks"} | cards | {
        "eight of a rank", "ranks", "hand", "target", "dix"}
    assert named["binokel"] == {
        "family/trump", "family/plain", "pair/trump", "pair/plain", "four aces", "four kings",
        "four queens", "four jacks", "binokel", "double binokel", "trump nine"} | cards | {
        "ranks", "players", "hand", "target", "dabb", "opening bid", "bid step", "surrender bonus"}


def test_the_help_values_read_are_the_real_ones():
    """The reading itself, on values known by heart: a reader that found nothing would agree
    with anything."""
    values = {(t, n): v for t, n, v in help_values("hoyle")[0]}
    assert values[("Meld table", "sequence")] == 150
    assert values[("Fours and eights", "eight kings")] == 160
    assert values[("Card points", "card A")] == 11
    assert values[("Cards", "ranks")] == "A 10 K Q J 9"
    values = {(t, n): v for t, n, v in help_values("binokel")[0]}
    assert values[("Melds", "pair/plain")] == 20 and values[("A deal", "opening bid")] == 150


def test_a_wrong_help_value_is_found(tmp_path):
    """A help file with one meld value changed fails the comparison, naming it; a number added
    where no sentence names it is found too."""
    with open(HELP, encoding="utf-8") as fh:
        text = fh.read()
    wrong = text.replace("grand binocle (KS QS JD) 80", "grand binocle (KS QS JD) 90")
    assert wrong != text
    path = tmp_path / "help.txt"
    path.write_text(wrong, encoding="utf-8")
    values, uncovered = help_values("hoyle", str(path))
    assert mismatches("hoyle", values) == [("Meld table", "grand binocle", 90, 80)]
    assert uncovered == []
    path.write_text(text.replace("queens) 240;", "queens) 240; a lone 8 20;"), encoding="utf-8")
    assert help_values("french", str(path))[1] == [("Fours and eights", "8"), ("Fours and eights", "20")]


def test_the_rules_state_their_targets_where_the_table_says():
    """The table of the three rule sets and the game rules give the same targets and hands."""
    g = rulesdoc.glance()
    assert g["Game to"] == {"hoyle": "1000", "french": "1500", "binokel": "1500"}
    assert rulesdoc.number(r"Play goes to (\d+) points\.", rulesdoc.rule("hoyle", 9)) == 1000
    assert rulesdoc.number(r"The target is (\d+) unless", rulesdoc.rule("french", 1)) == 1500
    assert rulesdoc.number(r"The game is to (\d+),", rulesdoc.rule("binokel", 8)) == 1500
    assert g["Cards per hand"] == {"hoyle": "12", "french": "12", "binokel": "15"}
    assert rulesdoc.number(r"until each player holds (\d+)\.", rulesdoc.rule("hoyle", 1)) == 12
    assert rulesdoc.number(r"Each player receives\s+(\d+) cards", rulesdoc.rule("binokel", 1)) == 15


def test_the_rules_are_numbered_as_cited():
    """'rules.md hoyle 6' and the like name a rule that is there: hoyle 1-10, french 1-4,
    binokel 1-8, and the sections common and defaults."""
    s = rulesdoc.sections()
    assert list(s) == ["glance", "common", "hoyle", "french", "binokel", "defaults"]
    for section, last in (("hoyle", 10), ("french", 4), ("binokel", 8)):
        numbers = [int(n) for n in re.findall(r"^(\d+)\. \*\*", s[section], re.M)]
        assert numbers == list(range(1, last + 1)), section
