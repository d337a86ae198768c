"""Games the tools play by themselves: a game, a deal or a number of actions, one loop.

A seat is whatever chooses its actions: an engine.ai player or an opponent of
tools/opponents.py (its choose(obs)), or a function of the observation. At each
decision the player p to move sees state.observation(p), its seat chooses, and
state.apply() plays the action; an illegal one raises the engine's IllegalAction with
the state unchanged and the player still to move.

The arena, the bench, endgame-loss, golden and the tune commands play through it. The
fuzz keeps a loop of its own: it feeds ints that are illegal on purpose and checks the
state after each one, which no seat does.

It runs under MicroPython too: the bench plays its timed games through it there.
"""


def chooser(seat):
    """The function that picks seat's action from its observation."""
    choose = getattr(seat, "choose", None)
    return seat if choose is None else choose


def play(state, seats, until=None, watch=None, limit=-1):
    """Play on from state: until the game is over, until until(state, obs) holds before a
    decision (obs: what the player to move sees), or until limit actions have been applied
    (below 0: no limit). seats[p] chooses for player p. watch(state, p, obs, action) sees
    each chosen action before it is applied. Returns the number of actions applied."""
    pick = [chooser(seat) for seat in seats]
    n = 0
    while n != limit and not state.is_game_over():
        p = state.current_player()
        obs = state.observation(p)
        if until is not None and until(state, obs):
            break
        action = pick[p](obs)
        if watch is not None:
            watch(state, p, obs, action)
        state.apply(action)
        n += 1
    return n


def deal_over(state, obs):
    """An until for play(): the deal is scored (or the game over)."""
    return state.is_deal_over()


def play_deal(state, seats, watch=None):
    """Play the deal on to its score; from the pause between deals, the dealer deals the next
    one first. Returns the number of actions applied."""
    n = 0
    if state.is_deal_over():
        n = play(state, seats, None, watch, 1)
    return n + play(state, seats, deal_over, watch)
