"""Three-handed Swabian Binokel with bidding and a Dabb (rules.md binokel).

Seats are 0, 1, 2 in playing order (anticlockwise at a real table): the
player after the dealer is forehand, then middlehand, then rearhand (the
dealer). A deal runs: bidding (PH_BID), the soloist takes the Dabb and buries
three cards (PH_BURY), names trump, Durch or surrender (PH_CONTRACT), every
player's best melds are shown (engine/melds.py), then 15 tricks (PH_PLAY).

Per-deal state:

    hands[p]        32 counts: p's hand
    dabb            the three Dabb faces (shown to all once bidding ends)
    buried          32 counts: the soloist's buried cards (points count for him)
    bid, holder     the highest bid and who made it; speaker: whose turn to bid
    duel            the two players bidding against each other now
    contract        -1 none yet, 0..3 trump suit, CONTRACT_DURCH
    won[p], cardpts[p], tricks_won[p]
"""

from engine import actions, cards, tricks, melds
from engine.state import GameState, PH_PLAY, PH_BID, PH_BURY, PH_CONTRACT

OPENING_BID = 150
BID_STEP = 10
MAX_BID = 2000          # no hand can make more; keeps every bidding finite
DABB_SIZE = 3
SURRENDER_BONUS = 50
DURCH_POINTS = 1000
CONTRACT_DURCH = 4      # the contract after the four trump suits 0..3 (ROW_CONTRACT)


class Binokel(GameState):
    """three hands, bidding and Dabb, to 1500 (Swabian)

    Three-handed Swabian Binokel (rules.md binokel)."""
    RULES = "binokel"
    PLAYERS = 3
    # Sheet rows: (number, dealer, soloist, bid, contract, surrendered, gains, scores),
    # see engine/state.py.
    ROW_SOLOIST = 2
    ROW_BID = 3
    ROW_CONTRACT = 4
    ROW_SURRENDERED = 5
    ROW_GAINS = 6
    ROW_SCORES = 7

    # -- dealing --------------------------------------------------------------

    def start_deal(self, deck):
        faces = self.shuffled_pack(False, deck)
        self.deal_number += 1
        fh = (self.dealer + 1) % 3
        self.forehand = fh
        self.hands = [bytearray(32), bytearray(32), bytearray(32)]
        self.dabb = bytearray(DABB_SIZE)
        pos = 0
        for rnd in range(5):        # five rounds of three, forehand first
            for k in range(3):
                hand = self.hands[(fh + k) % 3]
                for _ in range(3):
                    hand[faces[pos]] += 1
                    pos += 1
            if rnd == 0:            # the Dabb after the first round
                for i in range(DABB_SIZE):
                    self.dabb[i] = faces[pos]
                    pos += 1
        self.dabb_shown = False
        self.buried = bytearray(32)
        self.nburied = 0
        self.bid = OPENING_BID      # forehand's compulsory opening
        self.holder = fh
        self.duel = (fh, (fh + 1) % 3)
        self.duel_stage = 1
        self.passed = bytearray(3)
        self.soloist = -1
        self.contract = -1
        self.surrendered = False
        self.trump = cards.NO_TRUMP
        self.meld_points = [0, 0, 0]
        self.shown = None           # per player: tuple of (name, points, faces)
        self.won = [bytearray(32), bytearray(32), bytearray(32)]
        self.cardpts = [0, 0, 0]
        self.tricks_won = [0, 0, 0]
        self.trick = bytearray(3)
        self.trick_n = 0
        self.leader = fh
        self.last_trick = bytearray(3)
        self.last_leader = -1
        self.last_winner = -1
        self.gains = None
        self.phase = PH_BID
        self.turn = self.duel[1]     # middlehand speaks first

    def copy_deal_from(self, o):
        self.forehand = o.forehand
        self.hands = [bytearray(h) for h in o.hands]
        self.dabb = bytearray(o.dabb)
        self.dabb_shown = o.dabb_shown
        self.buried = bytearray(o.buried)
        self.nburied = o.nburied
        self.bid = o.bid
        self.holder = o.holder
        self.duel = o.duel
        self.duel_stage = o.duel_stage
        self.passed = bytearray(o.passed)
        self.soloist = o.soloist
        self.contract = o.contract
        self.surrendered = o.surrendered
        self.trump = o.trump
        self.meld_points = list(o.meld_points)
        self.shown = o.shown
        self.won = [bytearray(w) for w in o.won]
        self.cardpts = list(o.cardpts)
        self.tricks_won = list(o.tricks_won)
        self.trick = bytearray(o.trick)
        self.trick_n = o.trick_n
        self.leader = o.leader
        self.last_trick = bytearray(o.last_trick)
        self.last_leader = o.last_leader
        self.last_winner = o.last_winner
        self.gains = o.gains

    # -- legal actions --------------------------------------------------------

    def gen_legal(self, out):
        p = self.turn
        hand = self.hands[p]
        if self.phase == PH_PLAY:
            if self.trick_n == 0:
                for f in range(32):
                    if hand[f]:
                        out.append(f)
            else:
                tricks.legal_follow(hand, self.trick, self.trick_n, self.trump, out)
        elif self.phase == PH_BID:
            out.append(actions.PASS)
            if self.bid + BID_STEP <= MAX_BID:
                out.append(actions.BID)
        elif self.phase == PH_BURY:
            for f in range(32):
                if hand[f]:
                    out.append(actions.BURY + f)
        elif self.phase == PH_CONTRACT:
            for s in range(4):
                out.append(actions.TRUMP + s)
                out.append(actions.SURRENDER + s)
            out.append(actions.DURCH)

    # -- applying -------------------------------------------------------------

    def do_action(self, a):
        p = self.turn
        if self.phase == PH_BID:
            self.do_bid(p, a)
        elif self.phase == PH_BURY:
            self.hands[p][a - actions.BURY] -= 1
            self.buried[a - actions.BURY] += 1
            self.nburied += 1
            if self.nburied == DABB_SIZE:
                self.phase = PH_CONTRACT
        elif self.phase == PH_CONTRACT:
            self.do_contract(p, a)
        else:
            self.play_card(p, a)

    def do_bid(self, p, a):
        other = self.duel[0] if p == self.duel[1] else self.duel[1]
        if a == actions.BID:
            self.bid += BID_STEP
            self.holder = p
            self.turn = other
            return
        self.passed[p] = 1
        if self.duel_stage == 1:     # rearhand now bids against the survivor
            self.duel_stage = 2
            rear = self.dealer
            self.duel = (rear, other)
            self.turn = rear
        else:
            self.take_dabb(other)

    def take_dabb(self, soloist):
        self.soloist = soloist
        self.dabb_shown = True
        for f in self.dabb:
            self.hands[soloist][f] += 1
        self.phase = PH_BURY
        self.turn = soloist

    def do_contract(self, p, a):
        if a == actions.DURCH:
            self.contract = CONTRACT_DURCH
            self.trump = cards.NO_TRUMP
            self.leader = p
        else:
            suit = (a - actions.SURRENDER) if a >= actions.SURRENDER else (a - actions.TRUMP)
            self.contract = suit
            self.trump = suit
            self.show_melds()
            if a >= actions.SURRENDER:
                self.surrendered = True
                gains = [0, 0, 0]
                for q in range(3):
                    gains[q] = -self.bid if q == p else SURRENDER_BONUS + self.meld_points[q]
                self.end_deal(gains)
                return
            self.leader = self.forehand
        self.phase = PH_PLAY
        self.turn = self.leader

    def show_melds(self):
        shown = []
        for q in range(3):
            self.meld_points[q] = melds.best_total(self.hands[q], self.trump)
            # tuples all the way down: observations compare and hash by value
            shown.append(tuple([(name, pts, tuple(faces), k)
                                for name, pts, faces, k in melds.best_melds(self.hands[q], self.trump)]))
        self.shown = tuple(shown)

    def play_card(self, p, face):
        self.hands[p][face] -= 1
        self.trick[self.trick_n] = face
        self.trick_n += 1
        if self.trick_n == 3:
            self.finish_trick()
        else:
            self.turn = (p + 1) % 3

    def finish_trick(self):
        w = (self.leader + tricks.winning_index(self.trick, 3, self.trump)) % 3
        for f in self.trick:
            self.won[w][f] += 1
            self.cardpts[w] += cards.points(f)
        self.tricks_won[w] += 1
        self.last_trick[:] = self.trick
        self.last_leader = self.leader
        self.last_winner = w
        self.trick_n = 0
        self.leader = w
        self.turn = w
        if self.contract == CONTRACT_DURCH and w != self.soloist:
            self.end_deal(self.durch_gains(False))
        elif cards.count(self.hands[0]) == 0:
            self.cardpts[w] += cards.LAST_TRICK_POINTS
            if self.contract == CONTRACT_DURCH:
                self.end_deal(self.durch_gains(True))
            else:
                self.end_deal(self.trump_gains())

    def durch_gains(self, made):
        gains = [0, 0, 0]
        gains[self.soloist] = DURCH_POINTS if made else -DURCH_POINTS
        return gains

    def deal_total(self, p):
        """Cards (with the last trick), melds if p took a trick, buried points for the soloist."""
        total = self.cardpts[p]
        if self.tricks_won[p]:
            total += self.meld_points[p]
        if p == self.soloist:
            total += cards.card_points(self.buried)
        return total

    def trump_gains(self):
        gains = [0, 0, 0]
        for p in range(3):
            total = self.deal_total(p)
            if p == self.soloist:
                made = self.tricks_won[p] > 0 and total >= self.bid
                gains[p] = total if made else -2 * self.bid
            else:
                gains[p] = total if self.tricks_won[p] else 0
        return gains

    # -- the end of a deal or game --------------------------------------------

    def end_deal(self, gains):
        self.gains = tuple(gains)
        for p in range(3):
            self.score[p] += gains[p]
        self.sheet.append((self.deal_number, self.dealer, self.soloist, self.bid,      # ROW_* order
                           self.contract, self.surrendered, self.gains, tuple(self.score)))
        winner = self.game_winner()
        if winner >= 0:
            self.end_game(winner)
        else:
            self.between_deals()

    @classmethod
    def gains_of(cls, row):
        """What each player gained in a row's deal (ROW_GAINS)."""
        return row[cls.ROW_GAINS]

    def game_winner(self):
        """rules.md binokel 8: soloist first, then a sole opponent, then the higher opponent."""
        t = self.target
        if self.score[self.soloist] >= t:
            return self.soloist
        reached = [p for p in range(3) if p != self.soloist and self.score[p] >= t]
        if len(reached) == 1:
            return reached[0]
        if len(reached) == 2:
            a, b = reached
            if self.score[a] != self.score[b]:
                return a if self.score[a] > self.score[b] else b
        return -1

    # -- observation ----------------------------------------------------------

    def fill_observation(self, obs, player):
        obs.trump = self.trump
        obs.hand = bytes(self.hands[player])
        obs.hand_sizes = tuple([cards.count(h) for h in self.hands])
        obs.leader = self.leader
        obs.trick = bytes(self.trick[:self.trick_n])
        obs.last_trick = bytes(self.last_trick) if self.last_leader >= 0 else b""
        obs.last_leader = self.last_leader
        obs.tricks_won = tuple(self.tricks_won)
        obs.bid = self.bid
        obs.bid_holder = self.holder
        obs.passed = tuple(self.passed)
        obs.soloist = self.soloist
        obs.contract = (self.contract, self.surrendered)
        obs.dabb = bytes(self.dabb) if self.dabb_shown else None
        obs.buried = bytes(self.buried) if player == self.soloist else None
        obs.melds = self.shown
        obs.deal_points = self.gains
