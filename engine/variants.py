"""The named variants the tools and tests play of each rule set (fuzz, bench, golden, the
property tests and the device games): the rule set alone under its own name, and each of its
options that changes the game's pack or melds alone (hoyle64, hoyle-nogrand). Made from the
registry's rows (rules.py), so a new rule set brings its own; the game on the board never
imports this module."""

from engine.rules import RULE_SETS, ROWS, OPTIONS, OPT_PACK64, OPT_NO_GRAND


def variants():
    """[(variant name, rule set, option bits)]: each rule set plain, then with each of its
    64-card pack and no grand binocle options alone, in the order of the ids."""
    out = []
    for i in range(len(RULE_SETS)):
        name = RULE_SETS[i]
        have = ROWS[i][OPTIONS]
        out.append((name, name, 0))
        if have & OPT_PACK64:
            out.append((name + "64", name, OPT_PACK64))
        if have & OPT_NO_GRAND:
            out.append((name + "-nogrand", name, OPT_NO_GRAND))
    return out
