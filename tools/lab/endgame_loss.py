"""How many points an AI level gives away in the two-hand last tricks, against exact play.

    python -m tools endgame-loss --rules french --level hard --games 20 [--seed 1] [--cards 8-12]
                                 [--against expert]

The level plays itself, or with --against another level, each game twice with the seats
swapped. At each of its card decisions in the last tricks (the stock gone, every card known,
--cards cards in hand, more than one face to choose from) every legal face is solved exactly
(engine/ai/endgame.py with no node limit), and what the chosen face gives away against the
best one is added up (the level's own searches: it does not ponder on the opponent's time
here, as it does in the arena and on the board). The JSON gives the points given away a deal (both seats together in
self-play, the level's seat alone against another), in all and by cards in hand. It measures a
change to the last-trick search (levels.py's horizon, leaf.py's correction) without an arena.
Exact solves from 11-12 cards take seconds each.

    python -m tools endgame-loss --rules french --games 40 --against expert --save FILE
    python -m tools endgame-loss --replay FILE [--level hard]

--save keeps the level's positions with every face's exact value (JSON), --replay runs the
level's search of the last tricks (TwoHandPlayer.search_endgame, as the code stands now) on
them again, without the games or the exact solves: a change to that search is then measured
on the same positions in seconds. Only the level's own decisions change, not the games that
led to them, so a replay measures the search, and an arena what it does to whole games.
"""

import json
import sys
import time

from tools import cli


def build_parser():
    p = cli.Parser("endgame-loss", "Points an AI level gives away in the two-hand last tricks, "
                                   "against exact play.")
    p.add_argument("--rules", help="hoyle or french")
    p.add_argument("--level", default="hard", help="the AI level that plays itself (default hard)")
    p.add_argument("--games", type=cli.positive_int, help="games to play (each seed twice against another level)")
    p.add_argument("--against", default=None,
                   help="the opponent's level, each game played with the seats both ways "
                        "(default: the level plays itself)")
    p.add_argument("--seed", type=cli.natural_int, default=1, help="first game seed (default 1)")
    p.add_argument("--cards", default="8-12", help="cards in hand, LOW-HIGH within 1-12 (default 8-12)")
    p.add_argument("--max-deals", type=cli.positive_int, default=30, help="deals a game at most (default 30)")
    p.add_argument("--save", metavar="FILE", type=cli.output_file,
                   help="also write the positions and their exact values to FILE")
    p.add_argument("--replay", metavar="FILE", help="search the positions of FILE (--save) again instead of playing")
    return p


def card_range(text):
    try:
        lo, hi = (int(x) for x in text.split("-"))
    except ValueError:
        raise cli.UsageError("--cards wants LOW-HIGH, such as 8-12, not %r" % text)
    if not 1 <= lo <= hi <= 12:
        raise cli.UsageError("--cards must lie within 1-12, got %r" % text)
    return lo, hi


def move_values(solver, state, p, faces):
    """{face: what player p takes from this trick on with that face and exact play after}."""
    from engine import cards, tricks
    trump = state.trump
    trick = state.trick[:state.trick_n]
    out = {}
    for f in faces:
        hands = [bytearray(state.hands[0]), bytearray(state.hands[1])]
        hands[p][f] -= 1
        if not trick:                      # p leads f; the other follows, then exact play
            v0, _m, _e = solver.solve(hands[0], hands[1], trump, p, bytearray([f, 0]), 1, 1 << 30)
        else:                              # p completes the trick
            t = bytearray([trick[0], f])
            w = (state.leader + tricks.winning_index(t, 2, trump)) % 2
            pts = cards.points(t[0]) + cards.points(t[1])
            if cards.count(hands[0]) == 0:
                v0 = pts + cards.LAST_TRICK_POINTS if w == 0 else 0
            else:
                v0, _m, _e = solver.solve(hands[0], hands[1], trump, w, bytearray(2), 0, 1 << 30)
                v0 += pts if w == 0 else 0
        out[f] = v0 if p == 0 else -v0    # higher is better for p
    return out


def measure(rules, level, games, seed, lo, hi, max_deals, progress=None, against=None, record=None):
    from engine import actions, cards
    from engine.ai import new_player
    from engine.ai.endgame import Solver
    from engine.rules import new_game
    from tools.selfplay import play
    solver = Solver(16, 12)
    lost = {}
    positions = {}
    deals = 0
    solved_deal = None
    seatings = ((level, level),) if against is None else ((level, against), (against, level))

    def capped(state, obs):
        return state.deal_number >= max_deals

    def judge(state, p, obs, a):
        """Add what a's face gives away against the best face, at a decision that counts."""
        nonlocal solved_deal
        if obs.turnup < 0 and actions.is_play(a) and seats[p].memory.complete:
            n = cards.count(obs.hand)
            faces = sorted(set(actions.play_face(b) for b in obs.legal if actions.is_play(b)))
            if lo <= n <= hi and len(faces) > 1 and levels[p] == level:
                if solved_deal != (g, state.deal_number):
                    solver.clear()      # entries stay true through a deal (endgame.py)
                    solved_deal = (g, state.deal_number)
                values = move_values(solver, state, p, faces)
                lost[n] = lost.get(n, 0) + max(values.values()) - values[actions.play_face(a)]
                positions[n] = positions.get(n, 0) + 1
                if record is not None:
                    record.append(position_record(state, g * 1000 + state.deal_number, n, values))
    for g in range(games * len(seatings)):
        game_seed = seed + g // len(seatings)
        levels = seatings[g % len(seatings)]
        state = new_game(rules, game_seed, 0)
        seats = [new_player(rules, p, levels[p], game_seed, 0) for p in (0, 1)]
        play(state, seats, capped, judge)
        deals += len(state.sheet)          # the deals scored
        if progress:
            progress(g + 1, games * len(seatings))
    out = {"rules": rules, "level": level, "against": against or level, "games": games, "seed": seed,
           "cards": [lo, hi]}
    out.update(summary(lost, positions, deals))
    return out


def summary(lost, positions, deals):
    """The report's figures from {cards: points given away} and {cards: positions}."""
    return {
        "deals": deals, "positions": sum(positions.values()),
        "points_given_away_per_deal": round(sum(lost.values()) / deals, 3) if deals else None,
        "by_cards_in_hand": {str(n): {"positions": positions[n],
                                      "per_deal": round(lost[n] / deals, 3) if deals else None}
                             for n in sorted(positions)},
    }


def position_record(state, deal, n, values):
    """One position of --save: both hands (hex), trump, leader, the trick so far, every legal
    face's exact value for the player to move, cards in hand and a number for its deal."""
    return {"deal": deal, "cards": n, "hands": [bytes(state.hands[0]).hex(), bytes(state.hands[1]).hex()],
            "trump": state.trump, "leader": state.leader, "trick": list(state.trick[:state.trick_n]),
            "values": {str(f): v for f, v in sorted(values.items())}}


def save(path, out, record):
    """Write the report and its positions to path whole, or not at all."""
    cli.write_whole(path, json.dumps(dict(out, positions_saved=record)))


def load(path):
    """The report and positions --save wrote to path; UsageError if it cannot be read as one."""
    try:
        with open(path) as f:
            data = json.load(f)
    except OSError as e:
        raise cli.UsageError("cannot read %s: %s" % (path, e.strerror or e))
    except ValueError:
        data = None
    if not (isinstance(data, dict) and isinstance(data.get("positions_saved"), list)
            and "rules" in data and "deals" in data):
        raise cli.UsageError("%s is not a file of positions written by endgame-loss --save" % path)
    return data


def replay(data, level):
    """Search every saved position again with the level's code as it stands; the report."""
    from engine.ai import new_player, levels
    seat = new_player(data["rules"], 0, level, 1, 0)
    if not hasattr(seat, "search_endgame") or not seat.p[levels.ROLLOUTS]:
        raise cli.UsageError("level %s does not search the last tricks to a horizon" % level)
    lost, positions, unsearched = {}, {}, 0
    for pos in data["positions_saved"]:
        hands = [bytearray.fromhex(h) for h in pos["hands"]]
        for _ in seat.search_endgame(hands, pos["trump"], pos["leader"], bytearray(pos["trick"]), pos["deal"]):
            pass
        values = {int(f): v for f, v in pos["values"].items()}
        move = seat.endgame_move
        if move not in values:          # no search ended: the seat would play from samples
            unsearched += 1
            continue
        n = pos["cards"]
        lost[n] = lost.get(n, 0) + max(values.values()) - values[move]
        positions[n] = positions.get(n, 0) + 1
    out = {"rules": data["rules"], "level": level, "replayed": data.get("level"), "against": data.get("against"),
           "games": data.get("games"), "seed": data.get("seed"), "cards": data.get("cards"),
           "unsearched": unsearched}
    out.update(summary(lost, positions, data["deals"]))
    return out


@cli.command("endgame-loss")
def main(argv):
    args = build_parser().parse_args(argv)
    from engine.ai import LEVELS
    from engine.rules import RULE_SETS, kind, TWO_HAND
    for name in (args.level, args.against or args.level):
        if name not in LEVELS:
            raise cli.UsageError("unknown level %r (one of %s)" % (name, ", ".join(LEVELS)))
    if args.replay:
        start = time.time()
        out = replay(load(args.replay), args.level)
        out["seconds"] = round(time.time() - start, 1)
        print(json.dumps(out))
        return 0
    if args.games is None or args.rules is None:
        raise cli.UsageError("--rules and --games are needed to play (or --replay FILE)")
    two_hand = [r for r in RULE_SETS if kind(r) == TWO_HAND]
    if args.rules not in two_hand:
        raise cli.UsageError("--rules must be one of %s (the two-hand games), not %r"
                             % (", ".join(two_hand), args.rules))
    if args.against == args.level:
        args.against = None
    lo, hi = card_range(args.cards)
    start = time.time()

    def progress(done, total):
        sys.stderr.write("\rendgame-loss: %d/%d games  %.0f s" % (done, total, time.time() - start))
        if done == total:
            sys.stderr.write("\n")
    record = [] if args.save else None
    out = measure(args.rules, args.level, args.games, args.seed, lo, hi, args.max_deals, progress,
                  args.against, record)
    out["seconds"] = round(time.time() - start, 1)
    if args.save:
        try:
            save(args.save, out, record)
        except OSError as e:
            raise cli.UsageError("cannot write %s: %s" % (args.save, e.strerror or e))
    print(json.dumps(out))
    return 0
