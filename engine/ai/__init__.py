"""The built-in opponent: plays every decision of every rule set from observations only.

    from engine.ai import new_player
    bot = new_player("hoyle", seat=1, level="hard", seed=5)
    action = bot.choose(state.observation(1))

A player keeps its own memory of the deal (cards played, melds shown, voids)
from the observations it is given, so it must be shown the observation at
every one of its decisions. Levels differ in knowledge and budget, never in
what they may see; each is deterministic for its seed.
"""

LEVELS = ("easy", "normal", "hard", "expert")
DEVICE_LEVELS = ("easy", "normal", "hard")   # expert is for desktop tuning and measurement


def new_player(rules, seat, level="normal", seed=0, options=0):
    """An AI seat; only the code of its own kind of game is loaded (engine/ai/player.py)."""
    if rules == "binokel":
        from engine.ai.binokel import BinokelPlayer
        return BinokelPlayer(rules, seat, level, seed, options)
    from engine.ai.twohand import TwoHandPlayer
    return TwoHandPlayer(rules, seat, level, seed, options)
