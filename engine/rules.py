"""The rule sets: what differs between them, in one place, and how to start a game.

    new_game("hoyle", seed=7, pack64=True)
    find("binokel")[PLAYERS]        # 3; find() raises ValueError for a name it does not know
    kind("french") == TWO_HAND

A rule set is its row here (as python-chess keeps its variants in one list and OpenSpiel
declares a game's type once): what the game must know of it before, or without, loading its
code. Other modules ask this one and never compare a rule set's name themselves (a test
checks engine/, lib/ and tools/ for it). The
rules themselves are its state class's (engine/hoyle.py, french.py, binokel.py), imported by
name only when a game of that rule set starts, so a game holds its own rule set's code alone.

    id  name     PLAYERS  KIND        TARGET  OPTIONS                   TITLE
    0   hoyle    2        TWO_HAND    1000    OPT_PACK64, OPT_NO_GRAND  Binocle to 1000
    1   french   2        TWO_HAND    1500    OPT_TARGET                French binocle
    2   binokel  3        THREE_HAND  1500    none                      Binokel, 3 hands

The id is the rule set's byte in a saved record (engine/record.py) and its index in RULE_SETS
and ROWS: ids never change. Wherever a rule set is held, `rules` is its name (GameState.RULES,
Observation.rules, Session.rules) and `rules_id` its id (Settings.rules_id, the statistics). The kind says
which deal it plays: TWO_HAND that of engine/twohand.py (the stock, melds on the table; the AI
of engine/ai/twohand.py), THREE_HAND that of engine/binokel.py (bidding, the Dabb; the AI of
engine/ai/binokel.py). TARGET is the score its games play to unless an option chooses another
(target()); OPTIONS the option bits it has; TITLE what the screen calls it.

Options are one byte of bits (kept in saved records); option_bits() makes it from friendly
arguments, target() reads the target from it:

    bit 0      OPT_PACK64    hoyle: the 64-card pack
    bit 1      OPT_NO_GRAND  hoyle: no grand binocle
    bits 4..7  OPT_TARGET    french: the target / 250 (0: its own, 1500)

The named variants the tools and tests play are engine/variants.py's, made from these rows. A
rule set's one-line description is the first line of its state class's docstring (the board
keeps no docstring).

A rule set's code is the module engine/<name>.py, its state class the name capitalized
(engine.hoyle.Hoyle): state_class() imports it by that name when it is first asked for, so
this module imports no rule set's code itself (they import it, for the option bits). Other modules
read the fields of a row and the OPT_* bits by these names; they are plain ints, not const():
a const() name keeps its name in the board's RAM (tools/users/names.py), a plain one may take one
of the firmware's.
"""

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

RULE_SETS = ("hoyle", "french", "binokel")     # by id

TWO_HAND = 0
THREE_HAND = 1

OPT_PACK64 = 1
OPT_NO_GRAND = 2
OPT_TARGET_SHIFT = 4
OPT_TARGET = 0xF0
_TARGET_UNIT = const(250)


# A rule set's row, ROWS[id], holds its fields at these indexes:
PLAYERS = 0     # 2 or 3
KIND = 1        # TWO_HAND or THREE_HAND
TARGET = 2      # the score its games play to, unless an option chooses another
OPTIONS = 3     # the option bits it has (OPT_*), 0 for none
TITLE = 4       # what the screen calls it

ROWS = (
    (2, TWO_HAND, 1000, OPT_PACK64 | OPT_NO_GRAND, "Binocle to 1000"),
    (2, TWO_HAND, 1500, OPT_TARGET, "French binocle"),
    (3, THREE_HAND, 1500, 0, "Binokel, 3 hands"),
)


def find(name):
    """The row of a rule set (its fields: PLAYERS, KIND, ...); ValueError for a name no rule
    set has. Its id is RULE_SETS.index(name)."""
    if name in RULE_SETS:
        return ROWS[RULE_SETS.index(name)]
    raise ValueError("unknown rule set %r (choose from %s)" % (name, ", ".join(RULE_SETS)))


def kind(name):
    """The kind of deal a rule set plays: TWO_HAND or THREE_HAND (ValueError as find())."""
    return find(name)[KIND]


def state_class(name):
    """The GameState subclass of a rule set; imports only what that rule set needs."""
    find(name)                                  # ValueError: no such rule set
    cls = name[0].upper() + name[1:]            # (no str.capitalize() in CircuitPython)
    return getattr(__import__("engine." + name, None, None, (cls,)), cls)


def target(name, options=0):
    """The score a game of the rule set plays to with these options."""
    row = find(name)
    quarters = (options & row[OPTIONS] & OPT_TARGET) >> OPT_TARGET_SHIFT
    return quarters * _TARGET_UNIT if quarters else row[TARGET]


def option_bits(name, pack64=False, grand_binocle=True, target=None):
    """Option byte of a rule set from friendly arguments; ValueError on a misfit."""
    row = find(name)
    have = row[OPTIONS]
    bits = (OPT_PACK64 if pack64 else 0) | (0 if grand_binocle else OPT_NO_GRAND)
    if bits & ~have:
        raise ValueError("%s has no 64-card pack or grand binocle option" % name)
    if target is not None:
        if not have & OPT_TARGET:
            raise ValueError("%s has no choice of target" % name)
        if target % _TARGET_UNIT or not _TARGET_UNIT <= target <= 15 * _TARGET_UNIT:
            raise ValueError("target must be a multiple of 250 from 250 to 3750")
        if target != row[TARGET]:
            bits |= (target // _TARGET_UNIT) << OPT_TARGET_SHIFT
    return bits


def new_game(name, seed=0, options=0, deck=None, dealer=None, **friendly):
    """A new game state; options is an option byte, or pass pack64=, grand_binocle=, target=.

    deck and dealer stack the first deal (tests and puzzles, see GameState)."""
    cls = state_class(name)
    if friendly:
        options |= option_bits(name, **friendly)
    return cls(seed, options, deck, dealer)
