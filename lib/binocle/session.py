"""One game as the app sees it: the engine state, the AI seats and the hint adviser.

The app never reads the state itself: it asks for the person's observation
(seat 0), hands the person's choices to `apply()`, and lets the AI seat to
move think in slices with `think()` so the screen stays alive meanwhile. While
the person chooses, `ponder_step()` lets a two-hand opponent think ahead.
"""

from engine import actions, record
from engine.rules import new_game
from engine.state import PH_BETWEEN, PH_OVER
from engine.ai import new_player, new_solver
from binocle.input import ticks_diff

HUMAN = 0
TWO_NAMES = ("You", "AI")
THREE_NAMES = ("You", "East", "West")     # East plays after you, West before
ADVISER_LEVEL = "hard"


class Session:
    def __init__(self, rules, seed, options, level):
        self.rules = rules
        self.seed = seed
        self.options = options
        self.level = level
        self.state = new_game(rules, seed, options)
        n = self.state.PLAYERS
        self.names = TWO_NAMES if n == 2 else THREE_NAMES
        self.ai = [None] * n
        # Made now, while the heap is young: one endgame table for every seat and the adviser.
        solver = new_solver(rules, level, ADVISER_LEVEL)
        # Every seat works in seat 1's buffers (sampler, chooser, ...): one thinks at a time.
        for p in range(1, n):
            self.ai[p] = new_player(rules, p, level, seed * 7 + p, options, solver, self.ai[1])
        # Hints come from the strongest device level whatever the opponents' level; the
        # adviser shares those buffers too, so it never thinks while a seat does (hint_step).
        self.adviser = new_player(rules, HUMAN, ADVISER_LEVEL, seed * 7, options, solver, self.ai[1])
        self.thinker = None          # the generator of the seat now thinking
        self.thinking_seat = -1
        self.hint_for = -1           # action count the cached hint belongs to
        self.hint = None             # (action, reason)
        self.hint_gen = None
        self.ponder_gen = None       # the opponent's pondering() while the person chooses
        self.ponder_for = -1         # action count it belongs to

    # -- what the person may know -------------------------------------------------------

    def observation(self):
        return self.state.observation(HUMAN)

    def players(self):
        return self.state.PLAYERS

    def to_move(self):
        return self.state.current_player()

    def person_to_move(self):
        return self.state.current_player() == HUMAN and self.state.phase != PH_BETWEEN

    def ai_to_move(self):
        p = self.state.current_player()
        return p > 0 and self.state.phase != PH_BETWEEN

    def game_over(self):
        return self.state.phase == PH_OVER

    def describe(self, action):
        return self.state.describe(action)

    def kind_names(self):
        return self.state.kind_names()

    def points_of(self, action):
        """Points the player to move scores at once by this action (melds, the nine)."""
        return self.state.points_of(action)

    # -- moves --------------------------------------------------------------------------

    def apply(self, action):
        """The person's or an AI's action; IllegalAction leaves everything unchanged."""
        self.state.apply(action)
        self.thinker = None
        self.thinking_seat = -1
        self.ponder_gen = None

    def next_deal(self):
        self.state.apply(actions.DEAL)

    def think(self, ticks_ms, budget_ms):
        """Step the AI seat to move for about budget_ms; its action when decided, else -1."""
        p = self.state.current_player()
        if self.thinker is None or self.thinking_seat != p:
            self.thinker = self.ai[p].thinking(self.state.observation(p))
            self.thinking_seat = p
        if not self._ended(self.thinker, ticks_ms, budget_ms):
            return -1
        self.thinker = None
        self.thinking_seat = -1
        return self.ai[p].decision

    def hint_step(self, ticks_ms, budget_ms):
        """Work on the person's hint; (action, reason) when ready, else None."""
        n = self.state.nactions
        if self.hint_for == n and self.hint is not None and self.hint_gen is None:
            return self.hint
        if self.thinker is not None:
            return None                 # a seat is thinking in the buffers the adviser shares
        if self.hint_for != n:
            self.hint_for = n
            self.hint = None
            self.stop_pondering()           # the adviser searches on the solver it shares
            self.hint_gen = self.adviser.thinking(self.observation())
        if not self._ended(self.hint_gen, ticks_ms, budget_ms):
            return None
        self.hint_gen = None
        self.hint = (self.adviser.decision, self.adviser.why)
        return self.hint

    def ponder_step(self, ticks_ms, budget_ms):
        """While the person chooses, for about budget_ms: the two-hand opponent searches the
        position it expects next (TwoHandPlayer.pondering), never while a hint is worked out."""
        if self.state.PLAYERS != 2 or self.hint_gen is not None:
            return
        if self.ponder_for != self.state.nactions:
            self.ponder_for = self.state.nactions
            self.ponder_gen = self.ai[1].pondering(self.state.observation(1))
        if self.ponder_gen is not None and self._ended(self.ponder_gen, ticks_ms, budget_ms):
            self.ponder_gen = None

    def stop_pondering(self):
        """Drop the opponent's pondering (it starts again at the next ponder_step)."""
        if self.ponder_for >= 0:
            self.ponder_gen = None
            self.ponder_for = -1
            self.ai[1].ponder_search = None

    def _ended(self, gen, ticks_ms, budget_ms):
        """Step gen for about budget_ms; True once it has ended."""
        start = ticks_ms()
        for _ in gen:
            if ticks_diff(ticks_ms(), start) >= budget_ms:
                return False
        return True

    def person_can_knock(self, obs):
        """True when the person, shown obs, may knock and has reached the target (hoyle):
        the adviser counts the card points as the person may."""
        return self.adviser.can_knock(obs)

    def person_count(self, obs):
        """What a knock by the person, shown obs, would claim (rules.md hoyle 9): his score and
        the card points in the tricks he took this deal, as the adviser counted them from what
        he saw. Hoyle only."""
        return self.adviser.my_count(obs)

    def remember(self):
        """Show the adviser the person's observation at each of the person's decisions,
        as every AI seat sees its own (its card memory)."""
        self.adviser.observe(self.observation())


def resume(data, level):
    """The Session of a saved record, replayed action by action. Each AI seat (and the hint
    adviser) is shown the observation at each of its past decisions, as in play, so its card
    memory is whole again. RecordError when the record is not one this engine can replay."""
    name, options, seed = record.read_header(data)
    s = Session(name, seed, options, level)
    state = s.state
    moves = record.decode_actions(data)
    for i in range(len(moves)):
        p = state.current_player()
        if p >= 0 and state.phase != PH_BETWEEN:
            player = s.ai[p] if p > 0 else s.adviser
            player.observe(state.observation(p))
        try:
            state.apply(moves[i])
        except ValueError as e:
            raise record.RecordError("action %d of the saved game is not legal: %s" % (i, e))
    return s
