"""The built-in opponent: plays every decision of every rule set from observations only.

    from engine.ai import new_player
    bot = new_player("hoyle", seat=1, level="hard", seed=5)
    action = bot.choose(state.observation(1))

A player keeps its own memory of the deal (cards played, melds shown, voids)
from the observations it is given, so it must be shown the observation at
every one of its decisions. Levels differ in knowledge and budget, never in
what they may see; each is deterministic for its seed.
"""

from engine.ai import levels
from engine.rules import kind, THREE_HAND

LEVELS = ("easy", "normal", "hard", "expert")
# The levels a board offers: all but the expert (for desktop tuning and measurement); the app's
# settings name them by index in this order (lib/binocle/settings.py LEVEL_NAMES, a copy checked
# by tests/test_ai_boundary.py), and saves keep the index.
DEVICE_LEVELS = LEVELS[:3]


def new_player(rules, seat, level="normal", seed=0, options=0, solver=None, scratch=None):
    """An AI seat; only the code of its own kind of game is loaded (engine/ai/player.py). A
    seat of a level the board does not offer (the expert) is engine/ai/expert.py's.

    solver: an endgame Solver to use (new_solver()), shared with the other seats of the
    game; without one, a seat that solves endgames makes its own when it first needs it.
    scratch: another seat of the same game whose working buffers (sampler, chooser, rollout,
    meld scratch) this one uses too; the two must never be thinking at the same time."""
    three_hand = kind(rules) == THREE_HAND
    if level not in DEVICE_LEVELS:      # the expert: desktop only, the device never loads expert.py
        from engine.ai import expert
        cls = expert.ExpertPlayer if three_hand else expert.TwoHandExpert
    elif three_hand:
        from engine.ai.binokel import BinokelPlayer as cls
    else:
        from engine.ai.twohand import TwoHandPlayer as cls
    player = cls(rules, seat, level, seed, options, scratch)
    if solver is not None and player.p[levels.ENDGAME]:
        player.solver = solver
    return player


def new_solver(rules, *level_names):
    """One endgame Solver for all the seats of a two-hand game played at these levels (its
    entries name seats absolutely, so seats can share it), with the largest table any of
    them uses; None when no seat solves endgames (binokel, easy).

    A board makes it when the game starts, while its heap is in one piece: the table is
    one 2 KB block, which a heap broken up by a deal in progress may no longer hold."""
    if kind(rules) == THREE_HAND:
        return None
    bits = tricks = 0
    for name in level_names:
        p = levels.params(name)
        if p[levels.ENDGAME]:
            bits = max(bits, p[levels.TT_BITS])
            tricks = max(tricks, p[levels.ENDGAME])
    if not bits:
        return None
    from engine.ai.endgame import Solver
    return Solver(bits, tricks)
