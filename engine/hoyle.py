"""Two-handed Binocle to 1000 with knocking (rules.md hoyle); the deal itself is in twohand.py."""

from engine import melddata_hoyle as T
from engine.rules import OPT_PACK64, OPT_NO_GRAND
from engine.twohand import TwoHandState, NOTE_NONE, NOTE_TARGET_RAISED

TARGET_STEP = 250   # the target rises by this when both players reach it


class Hoyle(TwoHandState):
    """two hands, to 1000, knocking (Foster's Hoyle)

    Two-handed Binocle to 1000 with knocking (rules.md hoyle). The first line of a rule set's
    class docstring describes it in a line (python -m tools play)."""
    RULES = "hoyle"
    KNOCKING = True
    KINDS = T.HOYLE_KINDS
    KIND_NAMES = T.HOYLE_KIND_NAMES
    KIND_COUNT = T.HOYLE_KIND_COUNT

    def setup_options(self):
        self.pack64 = bool(self.options & OPT_PACK64)
        self.skip_kind = T.HOYLE_GRAND_BINOCLE if self.options & OPT_NO_GRAND else -1

    def decide_game_end(self):
        r0 = self.score[0] >= self.target
        r1 = self.score[1] >= self.target
        if r0 and r1:
            self.target += TARGET_STEP
            return NOTE_TARGET_RAISED
        if r0 or r1:
            self.end_game(0 if r0 else 1)
        return NOTE_NONE
