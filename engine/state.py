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

The score sheet (`sheet`, and Observation.sheet) holds one tuple per scored deal. Its fields
are read by the class's ROW_* indexes, `row[state.ROW_SCORES]`, never by number; a two-hand
deal (engine/twohand.py) and a binokel deal (engine/binokel.py) fill different rows:

    index  two-hand (hoyle, french)              binokel
    0      ROW_NUMBER  the deal's number, from 1  ROW_NUMBER
    1      ROW_DEALER  who dealt it               ROW_DEALER
    2      ROW_BONUS   per player: melds, the     ROW_SOLOIST      who played the Dabb
                       trump nine, the last trick
    3      ROW_CARDS   per player: card points    ROW_BID          the bid he played at
    4      ROW_SCORES  per player: the score      ROW_CONTRACT     trump suit 0..3 or
                       after the deal                              CONTRACT_DURCH
    5      ROW_NOTE    NOTE_NONE, NOTE_KNOCK,     ROW_SURRENDERED  True if he gave up
                       NOTE_TARGET_RAISED
    6                                             ROW_GAINS        per player: the deal's result
    7                                             ROW_SCORES       per player: the score after it

gains_of(row) is what each player's score gained in a row's deal, whatever the rule set;
the class answers it as well as a game (rules.state_class(name).gains_of(row)).
"""

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from engine import actions, cards, rules
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
    """One game of a rule set, from its first deal to its winner: the position and its history.

    The API (below) is the same for every rule set; the rules are a subclass's, through the
    hooks it supplies. What any state holds, between actions:

        seed, options    the game's seed and option byte (engine/rules.py); fixed
        rng              the game's generator (engine/rng.py): every shuffle comes from it
        history          the actions so far, as varints (the record's body, engine/record.py)
        nactions         how many actions were applied
        score            each player's score; target the score that ends the game
        sheet            one row per scored deal (module docstring: the ROW_* fields)
        deal_number      the deal in play (or just scored), from 1
        dealer, turn     the dealer of that deal; whose decision it is
        phase            PH_* (PH_OVER once won, PH_BETWEEN while the next deal waits)
        win              the winner, -1 until the game is over
        stacked          True when the first deal was stacked (no record then)

    A subclass keeps its deal's state in attributes of its own (twohand.py, binokel.py) and
    says what it is in class attributes: RULES its rule set's name (engine/rules.py holds the
    rest), PLAYERS, the ROW_* fields of its sheet rows, and flags of its rules (KNOCKING ...).
    Each kind of deal also gives gains_of(row), a class method: what each player's score
    gained in the deal of a sheet row, a tuple; it changes nothing, and the class answers it
    without a game (a sheet kept elsewhere, the app's statistics).
    """
    RULES = "?"        # rule set name: its row in engine/rules.py
    PLAYERS = 2
    ROW_NUMBER = 0     # sheet rows: see the module docstring
    ROW_DEALER = 1

    def __init__(self, seed=0, options=0, deck=None, dealer=None):
        """New game, its first deal dealt: options is the rule set's option byte (rules.py).
        For tests and puzzles, deck stacks the first deal (a list of faces in deal order)
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
        self.target = rules.target(self.RULES, options)
        self.sheet = []                 # one row per scored deal (module docstring)
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
    #
    # The API calls these; nothing else should. A hook may change only the state it is
    # given (self), never an argument but `out` and `obs`, and uses no generator but
    # self.rng (replays must give the same game).

    def setup_options(self):
        """Hook: read self.options into attributes of the rule set's own (hoyle: pack64,
        skip_kind). Called by __init__ and clone() before anything else is set up; returns
        nothing."""
        pass

    def start_deal(self, deck):
        """Hook: deal the next deal (deck: stacked faces, or None to shuffle with self.rng):
        deal_number + 1, the hands and everything of the deal afresh, phase and turn of its
        first decision; points scored at once (hoyle's turned-up nine) are scored. The dealer
        is already set. Returns nothing."""
        raise NotImplementedError

    def gen_legal(self, out):
        """Hook: append to out every legal action of the player to move (self.turn) in a
        phase of play (never PH_BETWEEN or PH_OVER: the API answers those), each once, in any
        order (the API sorts them). Changes nothing else."""
        raise NotImplementedError

    def do_action(self, action):
        """Hook: play a legal action (never DEAL: the API deals) of the player to move: change
        the deal's state, phase and turn; at a deal's end score it, add its row to the sheet
        and go between deals (between_deals()) or end the game (end_game()). The API has
        already checked the action and recorded it. Returns nothing."""
        raise NotImplementedError

    def fill_observation(self, obs, player):
        """Hook: set on obs (engine/observation.py) the deal's fields that player may know:
        his own hand, what lies open on the table, nothing hidden. The API has set the
        fields every rule set shares. Changes nothing of the state."""
        raise NotImplementedError

    def copy_deal_from(self, other):
        """Hook: make the deal's state of self (a blank shell from clone()) equal to other's,
        sharing nothing that either may change later (new lists and bytearrays; tuples and
        ints may be shared). Changes nothing of other."""
        raise NotImplementedError

    # -- the API --------------------------------------------------------------

    def current_player(self):
        """The seat whose decision it is (the next dealer between deals); -1 once the game
        is over."""
        return -1 if self.phase == PH_OVER else self.turn

    def legal_actions(self):
        """The legal actions, ascending (a new list the caller may change)."""
        return list(self.legal_now())

    def legal_now(self):
        """The legal actions, computed once per position and kept: do not change the list.
        Between deals only DEAL; once the game is over none."""
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
        """Play one action of the player to move; returns nothing. An action not in
        legal_now() raises IllegalAction and changes nothing; a legal one is added to the
        history, then DEAL deals the next deal (the next player deals) and any other goes to
        do_action()."""
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
        """True from a deal's scoring until the next deal is dealt, and once the game is over."""
        return self.phase == PH_BETWEEN or self.phase == PH_OVER

    def is_game_over(self):
        """True once the game has its winner (winner()); no action is legal from then on."""
        return self.phase == PH_OVER

    def winner(self):
        """The winning seat; -1 until the game is over."""
        return self.win

    def scores(self):
        """Each player's score, a new list."""
        return list(self.score)

    def describe(self, action):
        """An action in short English ('play QS', 'meld royal marriage'); the action need not
        be legal. Changes nothing."""
        return actions.describe(action, self.kind_names())

    def kind_names(self):
        """Hook: the names of the meld kinds under this deal's trump (index: an action's
        meld_kind()), or None where melds are not actions (binokel)."""
        return None

    def points_of(self, action):
        """Hook: the points the player to move scores at once by this legal action (an
        announcement, the trump nine's exchange), without applying it; 0 for the rest."""
        return 0

    def explain_illegal(self, action):
        """Why an action is not legal now, in a sentence (IllegalAction's text)."""
        if self.phase == PH_OVER:
            return "the game is over"
        text = self.describe(action)
        return "'%s' is not legal now (%s, player %d to act); legal: %s" % (
            text, PHASE_NAMES[self.phase], self.turn,
            ", ".join([self.describe(a) for a in self.legal_actions()]))

    def observation(self, player):
        """What player may know now, a new Observation (engine/observation.py): the shared
        fields here, the deal's by fill_observation(). Its legal actions are set only when
        it is player's turn. Changes nothing."""
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
        """An independent copy: equal now, and what is applied to one never shows in the
        other (the generator's state is copied too, so both deal alike from here)."""
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
        """The faces of the whole pack in deal order, as a bytearray: deck's (which must
        hold the whole pack), or the pack shuffled by self.rng."""
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
        """The game is over: winner wins, no one is to move."""
        self.win = winner
        self.phase = PH_OVER
        self.turn = -1

    def between_deals(self):
        """The deal is scored and the game goes on: the next dealer is to deal."""
        self.phase = PH_BETWEEN
        self.turn = (self.dealer + 1) % self.PLAYERS
