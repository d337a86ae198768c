"""The game-state API every rule set shares.

A game is a rule set, its options, a seed and a list of actions. The state
moves only through `apply(action)`; chance (shuffles, the first dealer) comes
from the game's own generator, so replaying the actions on a state built
from the same seed gives the same game. Subclasses (hoyle.py, french.py,
binokel.py) supply the rules through a few hooks and class attributes.

    current_player()  whose decision it is (-1 when the game is over)
    legal_actions()   sorted list of small ints (engine/actions.py)
    apply(action)     IllegalAction, with the state unchanged, if not legal
    is_deal_over()    a deal has been scored and the next is not dealt yet
    is_game_over(), winner(), scores(), observation(player), clone()
"""

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from engine import actions, cards
from engine.rng import Rng

PH_PLAY = const(0)       # a card to a trick (and a knock, in hoyle)
PH_ANNOUNCE = const(1)   # trick winner's one announcement (two-hand stock phase)
PH_KNOCK = const(2)      # knock or not after the deal's last trick (hoyle)
PH_BID = const(3)        # binokel bidding
PH_BURY = const(4)       # binokel: the soloist buries three cards
PH_CONTRACT = const(5)   # binokel: trump, Durch or surrender
PH_BETWEEN = const(6)    # deal scored; the next dealer deals
PH_OVER = const(7)       # game over

PHASE_NAMES = ("play", "announce", "knock", "bid", "bury", "contract", "deal over", "game over")


class IllegalAction(ValueError):
    """An action that is not legal in the current state; the state is unchanged."""


def append_varint(buf, n):
    """Unsigned LEB128: 7 bits per byte, low bits first, high bit = more."""
    while n >= 0x80:
        buf.append((n & 0x7F) | 0x80)
        n >>= 7
    buf.append(n)


class GameState:
    RULES = "?"        # rule set name
    RULES_ID = -1      # byte in saved records
    PLAYERS = 2
    TARGET = 1000

    def __init__(self, seed=0, options=0, deck=None, dealer=None):
        """New game: options is the rule set's option bits (rules.py). For tests
        and puzzles, deck stacks the first deal (a list of faces in deal order)
        and dealer names the first dealer; such a game has no record.
        GameState(None) is a blank shell for clone() to fill."""
        self._legal = None              # legal actions of this position, once computed
        if seed is None:
            return
        self.seed = seed
        self.options = options
        self.rng = Rng(seed)
        self.history = bytearray()      # the actions so far, as varints
        self.nactions = 0
        self.score = [0] * self.PLAYERS
        self.target = self.TARGET
        self.sheet = []                 # one tuple per finished deal, see deal_row()
        self.deal_number = 0
        self.win = -1
        self.phase = PH_BETWEEN
        self.turn = 0
        self.stacked = deck is not None or dealer is not None
        self.setup_options()
        self.dealer = self.rng.below(self.PLAYERS)
        if dealer is not None:
            self.dealer = dealer
        self.start_deal(deck)

    # -- hooks for the rule sets ------------------------------------------------

    def setup_options(self):
        pass

    def start_deal(self, deck):
        raise NotImplementedError

    def gen_legal(self, out):
        raise NotImplementedError

    def do_action(self, action):
        raise NotImplementedError

    def fill_observation(self, obs, player):
        raise NotImplementedError

    def copy_deal_from(self, other):
        raise NotImplementedError

    # -- the API --------------------------------------------------------------

    def current_player(self):
        return -1 if self.phase == PH_OVER else self.turn

    def legal_actions(self):
        """The legal actions, ascending (a new list the caller may change)."""
        return list(self.legal_now())

    def legal_now(self):
        """The legal actions, computed once per position and kept: do not change the list."""
        if self._legal is None:
            out = []
            if self.phase == PH_BETWEEN:
                out.append(actions.DEAL)
            elif self.phase != PH_OVER:
                self.gen_legal(out)
                out.sort()
            self._legal = out
        return self._legal

    def apply(self, action):
        if action not in self.legal_now():
            raise IllegalAction(self.explain_illegal(action))
        self._legal = None
        append_varint(self.history, action)
        self.nactions += 1
        if action == actions.DEAL:
            self.dealer = (self.dealer + 1) % self.PLAYERS
            self.start_deal(None)
        else:
            self.do_action(action)

    def is_deal_over(self):
        return self.phase == PH_BETWEEN or self.phase == PH_OVER

    def is_game_over(self):
        return self.phase == PH_OVER

    def winner(self):
        return self.win

    def scores(self):
        return list(self.score)

    def describe(self, action):
        return actions.describe(action, self.kind_names())

    def kind_names(self):
        return None

    def points_of(self, action):
        """Hook: the points the player to move scores at once by this legal action (an
        announcement, the trump nine's exchange), without applying it; 0 for the rest."""
        return 0

    def explain_illegal(self, action):
        if self.phase == PH_OVER:
            return "the game is over"
        text = self.describe(action)
        return "'%s' is not legal now (%s, player %d to act); legal: %s" % (
            text, PHASE_NAMES[self.phase], self.turn,
            ", ".join([self.describe(a) for a in self.legal_actions()]))

    def observation(self, player):
        from engine.observation import Observation
        obs = Observation(self.RULES, player)
        obs.phase = self.phase
        obs.turn = self.current_player()
        obs.dealer = self.dealer
        obs.scores = tuple(self.score)
        obs.target = self.target
        obs.sheet = tuple(self.sheet)
        obs.winner = self.win
        obs.deal_number = self.deal_number
        obs.legal = tuple(self.legal_now()) if obs.turn == player else ()
        self.fill_observation(obs, player)
        return obs

    def clone(self):
        other = self.__class__(None)
        other.seed = self.seed
        other.options = self.options
        other.setup_options()
        other.rng = Rng(0)
        other.rng.set_state(self.rng.get_state())
        other.history = bytearray(self.history)
        other.nactions = self.nactions
        other.score = list(self.score)
        other.target = self.target
        other.sheet = list(self.sheet)
        other.deal_number = self.deal_number
        other.win = self.win
        other.phase = self.phase
        other.turn = self.turn
        other.stacked = self.stacked
        other.dealer = self.dealer
        other.copy_deal_from(self)
        return other

    # -- helpers for the rule sets --------------------------------------------

    def shuffled_pack(self, pack64, deck):
        """The faces of the whole pack in deal order, as a bytearray."""
        if deck is not None:
            faces = bytearray(deck)
            full = cards.new_pack(pack64)
            if cards.counts_of(faces) != full:
                raise ValueError("a stacked deck must hold the whole pack")
            return faces
        counts = cards.new_pack(pack64)
        faces = bytearray()
        for f in range(cards.NUM_FACES):
            for _ in range(counts[f]):
                faces.append(f)
        self.rng.shuffle(faces)
        return faces

    def end_game(self, winner):
        self.win = winner
        self.phase = PH_OVER
        self.turn = -1

    def between_deals(self):
        self.phase = PH_BETWEEN
        self.turn = (self.dealer + 1) % self.PLAYERS
