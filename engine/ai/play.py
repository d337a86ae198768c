"""Which card to play: one trick of lookahead over sampled deals, plus what each card is worth keeping.

For every card the seat may play, the rest of the trick is played out in
each sample (engine/ai/sampler.py) by a simple model of the other players:
win the trick as cheaply as possible when it is worth it, else throw the
least useful card. The card's score is the average result of the trick for
this seat (its points, the right to announce a meld after it in the stock
phase, a first trick that makes binokel melds count), less what the card
would still be worth in hand (engine/ai/values.py). When the seat plays last
the trick needs no sample. A level that plays every sample out to the deal's
end (binokel's hard) scores a card by the context's `playout` instead
(BinokelPlayer.playout).

Scratch buffers are made once per chooser; a decision allocates nothing per
sample or per candidate card.
"""

from engine import actions, cards, tricks
from engine.ai import values

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

_NEG = const(-1000000)
_TRICK_WORTH_WINNING = const(10)     # the model opponent wins a trick holding this many points
_OTHER_DEFENDER = const(4)           # binokel: a defender counts a fellow defender's trick as 1/4 of his own


class Chooser:
    def __init__(self, players):
        self.players = players
        self.trick = bytearray(3)
        self.follow = bytearray(32)   # the legal cards of a model player, follow_into() fills it
        self.totals = [0] * 32        # summed score per candidate face
        self.mine = bytearray(32)     # cards we hold, hand and table
        self.chosen = -1
        self.runs = 0                 # the last decision's: samples summed in totals
        self.rolled = False           # ... and whether each was played out to the deal's end

    # -- the decision -----------------------------------------------------------------

    def choosing(self, obs, memory, sampler, rng, samples, ctx):
        """The best card action in obs.legal (plays only; ctx: see Context in player.py).

        Generator: yields after each sample, or after each card's playout where samples are
        played out (so a screen can redraw); the result is in .chosen."""
        faces = self.candidates(obs)
        self.fill_mine(obs)
        playout = ctx.playout if len(faces) > 1 and samples else None
        last_to_play = len(obs.trick) == self.players - 1 and playout is None
        runs = 1 if last_to_play or samples == 0 else samples
        self.runs = runs
        self.rolled = playout is not None
        for f in faces:
            self.totals[f] = 0
        for _ in range(runs):
            if not last_to_play and samples:
                sampler.sample(obs, memory, rng, ctx.infers)
            for f in faces:
                if playout is not None:
                    self.totals[f] += playout(obs, ctx, sampler, memory, f)
                    yield 1
                else:
                    self.totals[f] += self.trick_result(obs, ctx, sampler, f, last_to_play or samples)
            if playout is None:
                yield 1
        self.chosen = self.best_of(obs, memory, faces, runs, ctx, playout is None)

    def best_of(self, obs, memory, faces, runs, ctx, keep):
        best = -1
        best_score = _NEG
        for f in faces:
            score = self.totals[f] // runs
            if keep:
                score -= values.keep_value(f, self.mine, memory.played, obs.trump, ctx.melds_open)
            if score > best_score or (score == best_score and f < best):
                best, best_score = f, score
        return self.action_for(obs, best)

    def candidates(self, obs):
        out = []
        for a in obs.legal:
            if actions.is_play(a):
                f = actions.play_face(a)
                if f not in out:
                    out.append(f)
        return out

    def action_for(self, obs, f):
        """Play from the table when a copy lies there: the concealed one stays fresh for melds."""
        if actions.PLAY_TABLE1 + f in obs.legal:
            return actions.PLAY_TABLE1 + f
        return f

    def fill_mine(self, obs):
        self.mine[:] = obs.hand
        if obs.tables is not None:
            for r in obs.tables[obs.player]:
                self.mine[r & 31] += 1

    # -- one trick ---------------------------------------------------------------------

    def trick_result(self, obs, ctx, sampler, f, sampled):
        """Score of this seat's trick if it plays f (others answer from the sampled hands)."""
        n = len(obs.trick)
        trick = self.trick
        for i in range(n):
            trick[i] = obs.trick[i]
        trick[n] = f
        n += 1
        seat = obs.player
        while n < self.players:
            p = (obs.leader + n) % self.players
            if not sampled:
                break
            trick[n] = self.model_card(sampler.hands[p], trick, n, obs.trump, ctx.strict)
            n += 1
        if n < self.players:          # nobody sampled: judge by our card alone
            return self.unanswered(obs, ctx, f)
        winner = (obs.leader + tricks.winning_index(trick, n, obs.trump)) % self.players
        pts = 0
        for i in range(n):
            pts += cards.points(trick[i])
        if ctx.last_trick:
            pts += 10
        return self.value_for(seat, winner, pts, ctx)

    def unanswered(self, obs, ctx, f):
        """Without samples: a top card is taken to win, anything else to lose."""
        pts = cards.points(f)
        if values.is_top(f, self.mine, ctx.played) or f >> 3 == obs.trump:
            return self.value_for(obs.player, obs.player, pts, ctx)
        return self.value_for(obs.player, -1, pts, ctx)

    def value_for(self, seat, winner, pts, ctx):
        if winner == seat:
            return pts + ctx.win_bonus
        if ctx.soloist < 0 or seat == ctx.soloist or winner == ctx.soloist or winner < 0:
            return -pts - ctx.lose_bonus
        return pts // _OTHER_DEFENDER          # a fellow defender took it

    # -- the model of the other players ---------------------------------------------------

    def model_card(self, hand, trick, n, trump, strict):
        follow = self.follow
        if strict:
            count = tricks.follow_into(hand, trick, n, trump, follow)
        else:
            count = 0
            for g in range(32):
                if hand[g]:
                    follow[count] = g
                    count += 1
        if count == 0:
            return trick[0]           # an inconsistent sample: treat as a copy of the lead
        best = trick[tricks.winning_index(trick, n, trump)]
        pts = 0
        for i in range(n):
            pts += cards.points(trick[i])
        choice = -1
        if pts >= _TRICK_WORTH_WINNING or n == self.players - 1:
            for i in range(count):    # cheapest winner
                g = follow[i]
                if tricks.beats(g, best, trump) and (choice < 0 or cheaper(g, choice, trump)):
                    choice = g
        if choice < 0:
            for i in range(count):    # else the least useful card
                g = follow[i]
                if choice < 0 or cheaper(g, choice, trump):
                    choice = g
        return choice


def cheaper(a, b, trump):
    """True if card a is the one to give up before b: no trump first, then fewer points, lower rank."""
    ta = a >> 3 == trump
    tb = b >> 3 == trump
    if ta != tb:
        return tb
    pa = cards.points(a)
    pb = cards.points(b)
    if pa != pb:
        return pa < pb
    return (a & 7) < (b & 7)

