"""The rule sets by name, their options, and how to start a game.

    new_game("hoyle", seed=7, pack64=True)

Options become one byte of bits (kept in saved records):

    hoyle    bit 0 the 64-card pack; bit 1 no grand binocle
    french   bits 4..7 target / 250 (0: 1500)
    binokel  none
"""

RULE_SETS = ("hoyle", "french", "binokel")

OPT_PACK64 = 1
OPT_NO_GRAND = 2
OPT_TARGET_SHIFT = 4


def state_class(name):
    """The GameState subclass of a rule set; imports only what that rule set needs."""
    if name == "hoyle":
        from engine.hoyle import Hoyle
        return Hoyle
    if name == "french":
        from engine.french import French
        return French
    if name == "binokel":
        from engine.binokel import Binokel
        return Binokel
    raise ValueError("unknown rule set %r (choose from %s)" % (name, ", ".join(RULE_SETS)))


def option_bits(name, pack64=False, grand_binocle=True, target=None):
    """Option byte of a rule set from friendly arguments; ValueError on a misfit."""
    if name not in RULE_SETS:
        raise ValueError("unknown rule set %r (choose from %s)" % (name, ", ".join(RULE_SETS)))
    bits = 0
    if pack64 or not grand_binocle:
        if name != "hoyle":
            raise ValueError("the 64-card pack and grand binocle options belong to hoyle")
        bits |= OPT_PACK64 if pack64 else 0
        bits |= 0 if grand_binocle else OPT_NO_GRAND
    if target is not None:
        if name != "french":
            raise ValueError("only french has a choice of target")
        if target % 250 or not 250 <= target <= 3750:
            raise ValueError("target must be a multiple of 250 from 250 to 3750")
        if target != 1500:
            bits |= (target // 250) << OPT_TARGET_SHIFT
    return bits


def rules_name(rules_id):
    if 0 <= rules_id < len(RULE_SETS):
        return RULE_SETS[rules_id]
    raise ValueError("unknown rule set id %d" % rules_id)


def new_game(name, seed=0, options=0, deck=None, dealer=None, **friendly):
    """A new game state; options is an option byte, or pass pack64=, grand_binocle=, target=.

    deck and dealer stack the first deal (tests and puzzles, see GameState)."""
    cls = state_class(name)
    if friendly:
        options |= option_bits(name, **friendly)
    return cls(seed, options, deck, dealer)
