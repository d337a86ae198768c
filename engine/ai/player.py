"""An AI seat: memory of the deal, then a decision per phase (placeholder: first legal action)."""

from engine.ai import LEVELS


class Player:
    def __init__(self, rules, seat, level, seed, options):
        if level not in LEVELS:
            raise ValueError("unknown level %r (choose from %s)" % (level, ", ".join(LEVELS)))
        self.rules = rules
        self.seat = seat
        self.level = level
        self.seed = seed
        self.options = options
        self.open_state = None      # desktop measurement only: the true state, to see all cards

    def choose(self, obs):
        return obs.legal[0]

    def hint(self, obs):
        return obs.legal[0], "first legal action"
