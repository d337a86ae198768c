"""What the player can set, with the choices each setting offers.

Values are indices into the choice tuples, so they fit in a byte each
(the save format of the storage issue keeps them that way)."""

from engine.rules import option_bits

# (key, label, choices): the settings screen lists them in this order.
TABLE = (
    ("level", "AI", ("Easy", "Normal", "Hard")),
    ("anim", "Animation", ("Off", "Fast", "Normal", "Slow")),
    ("pace", "AI pace", ("Fast", "Normal", "Slow")),
    ("hints", "Hints", ("Off", "On")),
    ("sort", "Sort cards", ("High first", "Low first")),
)
# The new-game options (title screen).
RULES = ("hoyle", "french", "binokel")
TARGETS = (1000, 1250, 1500, 2000, 2500)

ANIM_MS = (0, 120, 220, 380)      # one card slide
PACE_MS = (250, 700, 1300)        # least time an AI move stays on screen before the next
TRICK_MS = (400, 1000, 1800)      # a finished trick stays this long
LEVEL_NAMES = ("easy", "normal", "hard")


class Settings:
    def __init__(self):
        self.level = 1
        self.anim = 2
        self.pace = 1
        self.hints = 1
        self.sort = 0
        self.rules = 0
        self.pack64 = 0
        self.grand = 1
        self.target = 2           # index in TARGETS: 1500

    def get(self, key):
        return getattr(self, key)

    def cycle(self, key, choices):
        setattr(self, key, (getattr(self, key) + 1) % len(choices))

    def text(self, key):
        for k, label, choices in TABLE:
            if k == key:
                return "%s: %s" % (label, choices[getattr(self, key)])
        return key

    def rules_name(self):
        return RULES[self.rules]

    def level_name(self):
        return LEVEL_NAMES[self.level]

    def options(self):
        name = self.rules_name()
        if name == "hoyle":
            return option_bits(name, pack64=bool(self.pack64), grand_binocle=bool(self.grand))
        if name == "french":
            return option_bits(name, target=TARGETS[self.target])
        return 0
