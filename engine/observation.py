"""What one player may know: the only thing the AI and the screen ever read.

An Observation holds the player's own concealed hand and everything on the
table or announced, and nothing hidden: no other hand, no stock order, no
buried cards of another player, and of the tricks taken only the last one
(RULES.md hoyle 10). Card sets are 32-byte count vectors (engine/cards.py).
`key()` is a canonical tuple, so two observations compare equal exactly when
they hold the same knowledge.
"""

FIELDS = (
    "rules", "player", "phase", "turn", "dealer", "scores", "target", "sheet", "winner",
    "deal_number", "legal",
    # the deal
    "trump", "hand", "hand_sizes", "leader", "trick", "last_trick", "last_leader",
    "tricks_won",
    # two-hand games
    "stock_left", "turnup", "tables", "groups", "deal_points", "spent_nines",
    "turnup_taker", "shown_card", "knock",
    # binokel
    "bid", "bid_holder", "passed", "soloist", "contract", "dabb", "buried", "melds",
)


class Observation:
    def __init__(self, rules, player):
        for name in FIELDS:
            setattr(self, name, None)
        self.rules = rules
        self.player = player

    def key(self):
        out = []
        for name in FIELDS:
            v = getattr(self, name)
            if isinstance(v, bytearray):
                v = bytes(v)
            out.append(v)
        return tuple(out)

    def __eq__(self, other):
        return isinstance(other, Observation) and self.key() == other.key()

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self.key())
