"""What the two-hand games share: `hoyle` (engine/hoyle.py) and `french` (engine/french.py).

A deal has two phases. In the *stock phase* (while the turn-up lies under the
stock) play is free; the winner of each trick may make one announcement (a
meld, or the exchange of the trump nine), then both draw. Melded cards lie on
the player's TableCards (engine/table.py) and may be played from there. At the
last draw the winner takes the last stock card and the loser the turn-up;
the table cards go back to the hands, and the last tricks follow the strict
rules of engine/tricks.py.

Knocking (hoyle) is offered at every card a player plays, as one more
legal action: the leader's chance comes before he leads (he won the last
trick, so he knocks first), the other's before he follows, and both are
asked in turn after the deal's last trick. A knock claims a count that the
card just led cannot change, so this is the rule's "trick boundary, winner
first" without a yes/no question before every trick.

Per-deal state, all small ints and bytearrays:

    hands[p]     32 counts: p's concealed hand (table cards not included)
    tables[p]    p's melded cards (TableCards)
    stock        faces still to draw, stock[stock_pos] on top
    turnup       face of the turn-up, -1 once taken at the last draw
    won[p]       32 counts: cards in p's tricks; cardpts[p] their points
    spent9[p]    trump nines in p's hand that have already scored (dix)
"""

from engine import actions, cards, tricks
from engine.state import (GameState, PH_PLAY, PH_ANNOUNCE, PH_KNOCK)
from engine.table import TableCards
from engine import melddata as T

DIX_POINTS = 10         # the trump nine exchanged for the turn-up, or turned up itself

# A sheet row's note (ROW_NOTE).
NOTE_NONE = 0
NOTE_TARGET_RAISED = 1  # both reached the target: it rose (hoyle)
NOTE_KNOCK = 2          # the deal ended in a knock (hoyle)


class TwoHandState(GameState):
    """A two-hand deal; a rule set's subclass gives its meld data (KINDS, KIND_NAMES,
    KIND_COUNT), its flags (KNOCKING, SHOW_LAST_CARD) and decide_game_end()."""
    PLAYERS = 2
    # Sheet rows: (number, dealer, bonus, cards, scores, note), see engine/state.py.
    ROW_BONUS = 2
    ROW_CARDS = 3
    ROW_SCORES = 4
    ROW_NOTE = 5
    KNOCKING = False
    SHOW_LAST_CARD = False
    KINDS = None
    KIND_NAMES = None
    KIND_COUNT = 0

    def setup_options(self):
        self.pack64 = False
        self.skip_kind = -1

    def kind_names(self):
        return self.KIND_NAMES[self.trump]

    def points_of(self, a):
        if self.phase != PH_ANNOUNCE:
            return 0
        if a == actions.EXCHANGE:
            return DIX_POINTS
        if actions.is_meld(a):
            p = self.turn
            return max(0, self.tables[p].check(self.kinds, actions.meld_kind(a), actions.meld_sources(a),
                                               self.hands[p]))
        return 0

    def meld_cards(self, a):
        """(faces from the hand, faces from the table) a meld action names."""
        kinds = self.kinds
        o = actions.meld_kind(a) * T.KIND_STRIDE
        sources = actions.meld_sources(a)
        from_hand = []
        from_table = []
        for i in range(kinds[o + 2]):
            slot = kinds[o + 3 + i]
            face = slot & 31
            src = (sources >> (2 * i)) & 3
            if slot & 32:
                n_table = (0, 1, 1, 2)[src]
                from_hand.extend([face] * (2 - n_table))
            else:
                n_table = 1 if src else 0
                from_hand.extend([face] * (1 - n_table))
            from_table.extend([face] * n_table)
        return from_hand, from_table

    def describe(self, a):
        text = actions.describe(a, self.kind_names())
        if actions.is_meld(a) and 0 <= actions.meld_kind(a) < self.KIND_COUNT:
            from_hand, from_table = self.meld_cards(a)
            text += " " + cards.format_faces(from_hand)
            if from_table:
                text += " + " + cards.format_faces(from_table) + " from the table"
                if self.second_copy_used(a):
                    text += " (second copy)"
        return text

    def second_copy_used(self, a):
        kinds = self.kinds
        o = actions.meld_kind(a) * T.KIND_STRIDE
        sources = actions.meld_sources(a)
        for i in range(kinds[o + 2]):
            if (sources >> (2 * i)) & 3 == 2:
                return True
        return False

    # -- dealing --------------------------------------------------------------

    def start_deal(self, deck):
        faces = self.shuffled_pack(self.pack64, deck)
        self.deal_number += 1
        pone = 1 - self.dealer
        self.hands = [bytearray(32), bytearray(32)]
        pos = 0
        for _ in range(3):          # three rounds of four, pone first
            for p in (pone, self.dealer):
                for _ in range(4):
                    self.hands[p][faces[pos]] += 1
                    pos += 1
        self.turnup = faces[pos]
        self.stock = faces[pos + 1:]
        self.stock_pos = 0
        self.trump = self.turnup >> 3
        self.kinds = self.KINDS[self.trump]
        self.nine = self.trump * 8 + cards.lowest_rank(self.pack64)
        self.tables = [TableCards(), TableCards()]
        self.won = [bytearray(32), bytearray(32)]
        self.cardpts = [0, 0]
        self.tricks_won = [0, 0]
        self.deal_pts = [0, 0]
        self.spent9 = bytearray(2)
        self.trick = bytearray(2)
        self.trick_n = 0
        self.last_trick = bytearray(2)
        self.last_leader = -1
        self.turnup_taken = None    # (player, face) after the last draw
        self.shown_card = -1        # french: last stock card, shown at the last draw
        self.knock = None           # (player, claimed total, correct)
        self.knocks_asked = 0
        self.leader = pone
        self.turn = pone
        self.phase = PH_PLAY
        if self.turnup == self.nine:
            self.add_points(self.dealer, DIX_POINTS)

    def copy_deal_from(self, o):
        self.hands = [bytearray(o.hands[0]), bytearray(o.hands[1])]
        self.turnup = o.turnup
        self.stock = bytearray(o.stock)
        self.stock_pos = o.stock_pos
        self.trump = o.trump
        self.kinds = o.kinds
        self.nine = o.nine
        self.tables = [o.tables[0].copy(), o.tables[1].copy()]
        self.won = [bytearray(o.won[0]), bytearray(o.won[1])]
        self.cardpts = list(o.cardpts)
        self.tricks_won = list(o.tricks_won)
        self.deal_pts = list(o.deal_pts)
        self.spent9 = bytearray(o.spent9)
        self.trick = bytearray(o.trick)
        self.trick_n = o.trick_n
        self.last_trick = bytearray(o.last_trick)
        self.last_leader = o.last_leader
        self.turnup_taken = o.turnup_taken
        self.shown_card = o.shown_card
        self.knock = o.knock
        self.knocks_asked = o.knocks_asked
        self.leader = o.leader

    def add_points(self, p, n):
        self.deal_pts[p] += n
        self.score[p] += n

    def in_stock_phase(self):
        return self.turnup >= 0

    def stock_left(self):
        return len(self.stock) - self.stock_pos

    # -- legal actions --------------------------------------------------------

    def gen_legal(self, out):
        p = self.turn
        if self.phase == PH_PLAY:
            self.gen_plays(p, out)
            if self.KNOCKING:
                out.append(actions.KNOCK)
        elif self.phase == PH_ANNOUNCE:
            out.append(actions.PASS)
            self.gen_announcements(p, out)
        elif self.phase == PH_KNOCK:
            out.append(actions.PASS)
            out.append(actions.KNOCK)

    def gen_plays(self, p, out):
        hand = self.hands[p]
        if self.in_stock_phase() or self.trick_n == 0:
            for f in range(32):
                if hand[f]:
                    out.append(f)
        else:
            tricks.legal_follow(hand, self.trick, self.trick_n, self.trump, out)
        # Records sort by their group bits too, so two copies of a face need not sit side
        # by side: a face is offered once, from the first copy and (if any) the second.
        table = self.tables[p]
        recs = table.recs
        for i in range(len(recs)):
            f = recs[i] & 31
            if table.copy_index(f, 1) != i:
                continue
            out.append(actions.PLAY_TABLE1 + f)
            if table.copy_index(f, 2) >= 0:
                out.append(actions.PLAY_TABLE2 + f)

    def can_exchange(self, p):
        return self.turnup >= 0 and self.hands[p][self.nine] > self.spent9[p]

    def gen_announcements(self, p, out, limit=0):
        if self.can_exchange(p):
            out.append(actions.EXCHANGE)
            if limit:
                return
        melds = []
        self.tables[p].legal_melds(self.kinds, self.KIND_COUNT, self.hands[p], self.skip_kind,
                                   self.hands[p][self.nine] > self.spent9[p], melds, limit)
        for kind, sources in melds:
            out.append(actions.meld(kind, sources))

    def has_announcement(self, p):
        out = []
        self.gen_announcements(p, out, 1)
        return len(out) > 0

    # -- applying -------------------------------------------------------------

    def do_action(self, a):
        p = self.turn
        if a == actions.KNOCK:
            self.do_knock(p)
        elif self.phase == PH_PLAY:
            self.play_card(p, a)
        elif self.phase == PH_ANNOUNCE:
            if a == actions.EXCHANGE:
                self.exchange(p)
            elif actions.is_meld(a):
                kind = actions.meld_kind(a)
                sources = actions.meld_sources(a)
                table = self.tables[p]
                pts = table.check(self.kinds, kind, sources, self.hands[p])
                table.apply(self.kinds, kind, sources, self.hands[p])
                self.add_points(p, pts)
            self.draw()
        elif self.phase == PH_KNOCK:   # PASS: no knock after the last trick
            self.knocks_asked += 1
            if self.knocks_asked == 2:
                self.score_deal()
            else:
                self.turn = 1 - p

    def play_card(self, p, a):
        face = actions.play_face(a)
        src = actions.play_source(a)
        if src == 0:
            self.hands[p][face] -= 1
            if face == self.nine and self.spent9[p]:
                self.spent9[p] -= 1   # a spent nine goes first: the other may still score
        else:
            table = self.tables[p]
            table.remove(table.copy_index(face, src))
        self.trick[self.trick_n] = face
        self.trick_n += 1
        if self.trick_n == 2:
            self.finish_trick()
        else:
            self.turn = 1 - p

    def finish_trick(self):
        winner = (self.leader + tricks.winning_index(self.trick, 2, self.trump)) % 2
        for i in range(2):
            f = self.trick[i]
            self.won[winner][f] += 1
            self.cardpts[winner] += cards.points(f)
        self.tricks_won[winner] += 1
        self.last_trick[0] = self.trick[0]
        self.last_trick[1] = self.trick[1]
        self.last_leader = self.leader
        self.trick_n = 0
        self.leader = winner
        self.turn = winner
        if self.in_stock_phase():
            if self.has_announcement(winner):
                self.phase = PH_ANNOUNCE
            else:
                self.draw()
        elif cards.count(self.hands[0]) == 0:
            self.add_points(winner, cards.LAST_TRICK_POINTS)
            if self.KNOCKING:
                self.phase = PH_KNOCK
                self.knocks_asked = 0
            else:
                self.score_deal()

    def exchange(self, p):
        hand = self.hands[p]
        hand[self.nine] -= 1
        hand[self.turnup] += 1
        if self.turnup == self.nine:
            self.spent9[p] += 1
        self.turnup = self.nine
        self.add_points(p, DIX_POINTS)

    def draw(self):
        w = self.leader
        loser = 1 - w
        if self.stock_left() > 1:
            self.hands[w][self.stock[self.stock_pos]] += 1
            self.hands[loser][self.stock[self.stock_pos + 1]] += 1
            self.stock_pos += 2
        else:
            last = self.stock[self.stock_pos]
            self.stock_pos += 1
            self.hands[w][last] += 1
            if self.SHOW_LAST_CARD:
                self.shown_card = last
            self.hands[loser][self.turnup] += 1
            self.turnup_taken = (loser, self.turnup)
            self.turnup = -1
            for p in (0, 1):      # melds end: table cards go back to the hands
                for r in self.tables[p].recs:
                    self.hands[p][r & 31] += 1
                self.tables[p].clear()
        self.phase = PH_PLAY
        self.turn = w

    # -- the end of a deal or game --------------------------------------------

    def do_knock(self, p):
        claim = self.score[p] + self.cardpts[p]
        correct = claim >= self.target
        self.knock = (p, claim, correct)
        for q in (0, 1):
            self.score[q] += self.cardpts[q]
        self.add_sheet_row(NOTE_KNOCK)
        self.end_game(p if correct else 1 - p)

    def score_deal(self):
        for q in (0, 1):
            self.score[q] += self.cardpts[q]
        note = self.decide_game_end()
        self.add_sheet_row(note)
        if self.win < 0:
            self.between_deals()

    def add_sheet_row(self, note):
        """The deal's row, its fields in ROW_* order."""
        self.sheet.append((self.deal_number, self.dealer, tuple(self.deal_pts),
                           tuple(self.cardpts), tuple(self.score), note))

    @classmethod
    def gains_of(cls, row):
        """What each player gained in a row's deal: melds, the nine, the last trick, cards."""
        bonus = row[cls.ROW_BONUS]
        taken = row[cls.ROW_CARDS]
        return (bonus[0] + taken[0], bonus[1] + taken[1])

    def decide_game_end(self):
        """Hook: end the game or not after a scored deal; returns a sheet note."""
        raise NotImplementedError

    # -- observation ----------------------------------------------------------

    def fill_observation(self, obs, player):
        obs.trump = self.trump
        obs.hand = bytes(self.hands[player])
        obs.hand_sizes = tuple([cards.count(self.hands[p]) + self.tables[p].count() for p in (0, 1)])
        obs.leader = self.leader
        obs.trick = bytes(self.trick[:self.trick_n])
        obs.last_trick = bytes(self.last_trick) if self.last_leader >= 0 else b""
        obs.last_leader = self.last_leader
        obs.tricks_won = tuple(self.tricks_won)
        obs.stock_left = self.stock_left()
        obs.turnup = self.turnup
        obs.tables = (tuple(self.tables[0].recs), tuple(self.tables[1].recs))
        obs.groups = (bytes(self.tables[0].gval) + bytes(self.tables[0].gdead),
                      bytes(self.tables[1].gval) + bytes(self.tables[1].gdead))
        obs.deal_points = tuple(self.deal_pts)
        obs.spent_nines = tuple(self.spent9)
        obs.turnup_taker = self.turnup_taken
        obs.shown_card = self.shown_card
        obs.knock = self.knock
