"""What the player can set: the values, their defaults and their saved bytes. Each value is
an index into its choices (the settings screen's LINES, scenes/settingsview.py), so it fits
in a byte."""

from engine.rules import RULE_SETS, find, option_bits, OPTIONS, OPT_PACK64, OPT_NO_GRAND, OPT_TARGET

# The new-game options (title screen).
TARGETS = (1000, 1250, 1500, 2000, 2500)

ANIM_MS = (0, 120, 220, 380)      # one card slide
PACE_MS = (250, 700, 1300)        # least time an AI move stays on screen before the next
TRICK_MS = (400, 1000, 1800)      # a finished trick stays this long
THINK_MS = 30                     # AI work per frame (a move or the hint): buttons are read between
# engine.ai.DEVICE_LEVELS written out: importing engine.ai here would load the AI with the title
# (1.7 KB more there, tools/ui-memory); tests/test_ai_boundary.py checks that they agree.
LEVEL_NAMES = ("easy", "normal", "hard")


# The bytes kept in the saves' settings slot: a layout version, then one byte per field.
# Fields are only ever added at the end: bytes saved by a version with fewer fields are read
# as far as they go, the newer fields keeping their defaults.
LAYOUT = 1
FIELDS = ("level", "anim", "pace", "hints", "sort", "rules_id", "pack64", "grand", "target", "sound",
          "game_level", "suits", "teach", "taught")
LIMITS = (3, 4, 3, 2, 2, len(RULE_SETS), 2, 2, 5, 2, 3, 2, 3, 256)     # each field's number of values
FIELDS_V1 = 11                    # the fields of the first versions (no suits, teach, taught)


class Settings:
    def __init__(self):
        self.level = 1
        self.anim = 2
        self.pace = 1
        self.hints = 1
        self.sort = 0
        self.rules_id = 0         # the rule set by its id (engine/rules.py RULE_SETS)
        self.pack64 = 0
        self.grand = 1
        self.target = 2           # index in TARGETS: 1500
        self.sound = 1
        self.game_level = 1       # the AI level of the game in progress (kept with its save)
        self.suits = 0            # 0: spades and clubs black, 1: four colours
        self.teach = 1            # explain each phase: 0 never, 1 in a rule set's first game, 2 always
        self.taught = 0           # bit i set: a game of rule set id i was played to its end (8 at most)

    def to_bytes(self):
        out = bytearray(1 + len(FIELDS))
        out[0] = LAYOUT
        for i in range(len(FIELDS)):
            out[1 + i] = getattr(self, FIELDS[i])
        return bytes(out)

    def from_bytes(self, data):
        """Take saved values; False (defaults kept) if the bytes are not settings we know."""
        if not data or data[0] != LAYOUT or not FIELDS_V1 <= len(data) - 1 <= len(FIELDS):
            return False
        n = len(data) - 1
        for i in range(n):
            if data[1 + i] >= LIMITS[i]:
                return False
        for i in range(n):
            setattr(self, FIELDS[i], data[1 + i])
        return True

    def teaching(self, rules_id):
        """Whether a new game of this rule set explains each phase the first time it comes."""
        return self.teach == 2 or (self.teach == 1 and not self.taught >> rules_id & 1)

    def get(self, key):
        return getattr(self, key)

    def rules_name(self):
        return RULE_SETS[self.rules_id]

    def level_name(self, level=None):
        return LEVEL_NAMES[self.level if level is None else level]

    def rules_id_of(self, name):
        for i in range(len(RULE_SETS)):
            if RULE_SETS[i] == name:
                return i
        return 0

    def options(self):
        """The option byte of a new game: the settings of the options its rule set has."""
        name = self.rules_name()
        have = find(name)[OPTIONS]
        return option_bits(name, pack64=bool(have & OPT_PACK64 and self.pack64),
                           grand_binocle=bool(self.grand or not have & OPT_NO_GRAND),
                           target=TARGETS[self.target] if have & OPT_TARGET else None)
