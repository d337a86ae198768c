"""What one player may know: the only thing the AI and the screen ever read.

An Observation holds the player's own concealed hand and everything on the
table or announced, and nothing hidden: no other hand, no stock order, no
buried cards of another player, and of the tricks taken only the last one
(rules.md hoyle 10). Card sets are 32-byte count vectors (engine/cards.py).
`key()` is a canonical tuple, so two observations compare equal exactly when
they hold the same knowledge.
"""

class Observation:
    """Fields (None where a rule set has no such thing), in key() order:

    rules, player, phase, turn, dealer, scores, target, sheet, winner, deal_number, legal;
    the deal: trump, hand, hand_sizes, leader, trick, last_trick, last_leader, tricks_won;
    two-hand games: stock_left, turnup, tables, groups, deal_points, spent_nines,
    turnup_taker, shown_card, knock; binokel: bid, bid_holder, passed, soloist, contract,
    dabb, buried, melds.

    (Set one by one, not from a list of their names: the bundle gives the board's names to
    the game's own, which a name spelt in a string would keep from it: tools/users/names.py.)"""

    def __init__(self, rules, player):
        self.rules = rules
        self.player = player
        self.phase = self.turn = self.dealer = self.scores = self.target = self.sheet = None
        self.winner = self.deal_number = self.legal = None
        self.trump = self.hand = self.hand_sizes = self.leader = self.trick = None
        self.last_trick = self.last_leader = self.tricks_won = None
        self.stock_left = self.turnup = self.tables = self.groups = self.deal_points = None
        self.spent_nines = self.turnup_taker = self.shown_card = self.knock = None
        self.bid = self.bid_holder = self.passed = self.soloist = self.contract = None
        self.dabb = self.buried = self.melds = None

    def key(self):
        fields = (self.rules, self.player, self.phase, self.turn, self.dealer, self.scores,
                  self.target, self.sheet, self.winner, self.deal_number, self.legal,
                  self.trump, self.hand, self.hand_sizes, self.leader, self.trick, self.last_trick,
                  self.last_leader, self.tricks_won,
                  self.stock_left, self.turnup, self.tables, self.groups, self.deal_points,
                  self.spent_nines, self.turnup_taker, self.shown_card, self.knock,
                  self.bid, self.bid_holder, self.passed, self.soloist, self.contract, self.dabb,
                  self.buried, self.melds)
        out = []
        for v in fields:
            out.append(bytes(v) if isinstance(v, bytearray) else v)
        return tuple(out)

    def __eq__(self, other):
        return isinstance(other, Observation) and self.key() == other.key()

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self.key())
