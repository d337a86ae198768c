"""The French two-handed binocle to 1500 (rules.md french); the deal itself is in twohand.py."""

from engine import melddata_french as T
from engine.twohand import TwoHandState, NOTE_NONE


class French(TwoHandState):
    """two hands, to 1500, French meld table

    French two-handed binocle to 1500 (rules.md french)."""
    RULES = "french"
    SHOW_LAST_CARD = True
    KINDS = T.FRENCH_KINDS
    KIND_NAMES = T.FRENCH_KIND_NAMES
    KIND_COUNT = T.FRENCH_KIND_COUNT

    def decide_game_end(self):
        s0, s1 = self.score[0], self.score[1]
        if (s0 >= self.target or s1 >= self.target) and s0 != s1:
            self.end_game(0 if s0 > s1 else 1)
        return NOTE_NONE
