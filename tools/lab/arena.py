"""AI against AI or a baseline, in duplicate matches: python -m tools arena --rules R --a A --b B --games N

    python -m tools arena --rules hoyle --a hard --b greedy --games 200 --seed 1 [--json]
        [--open-a] [--pack64] [--no-grand] [--target T]

A and B are each a level of engine.ai (easy, normal, hard, expert) or a
opponent of tools/opponents.py (random, greedy).

Duplicate matches take the luck of the deal out of the comparison. A seed
fixes every shuffle of a game whatever is played, so:

- hoyle, french: each seed (S, S+1, ...) is played twice, A in seat 0 and B
  in seat 1, then swapped; --games N counts both (N even).
- binokel: for each seed, A plays seat r (r = 0, 1, 2) with B in the two
  other seats, and a reference game has B in all three seats. A in seat r
  is compared deal by deal with seat r of the reference game (deal k of
  both has the same cards; only deals both games reached count). --games N
  counts the A games (N a multiple of 3). The reference game is the same
  for r = 0, 1, 2 (same seed, same players, same player seeds), so it is
  played once per seed and used three times.

Every player is created fresh per game with seed = game seed * 7 + seat and
sees state.observation(seat) at each of its decisions (an AI keeps its own
memory of the deal). Before each decision the other seats of a two-hand game
ponder to the end (TwoHandPlayer.pondering, levels.py `ponder`), as if the
seat deciding took as long as that needs; its time is not in the clocks. A
game stops after 60 deals, won by nobody. --open-a
makes A's sampler deal the real cards (open_cards()): a desktop measure of
what seeing all cards is worth (AI levels only).

The summary (text, or one JSON object with --json) gives wins, A's win rate
over decided games with a Wilson 95% interval, points per deal, the mean
paired difference A - B per deal with a t 95% interval, binokel contracts,
and the time per decision. Progress goes to stderr. The same command gives
the same results, timings apart.
"""

import json
import math
import sys
import time

from engine import ai, cards, rules
from engine.binokel import Binokel, CONTRACT_DURCH
from engine.rules import RULE_SETS, new_game, option_bits
from engine.state import PH_BETWEEN, IllegalAction
from tools import cli, opponents, selfplay

MAX_DEALS = 60
Z95 = 1.959964
# Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom.
T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
       2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
       2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


class ArenaError(Exception):
    """A player broke the rules (an illegal action): one line for stderr, exit status 1."""


def build_parser():
    p = cli.Parser("arena", "Duplicate matches between AI levels and baselines.")
    p.add_argument("--rules", required=True, help="hoyle, french or binokel")
    p.add_argument("--a", required=True, help="player A: an AI level or random/greedy")
    p.add_argument("--b", required=True, help="player B: an AI level or random/greedy")
    p.add_argument("--games", type=int, required=True,
                   help="games in all (hoyle/french: even); binokel: A games, a multiple of 3")
    p.add_argument("--seed", type=int, default=1, help="first game seed (default 1)")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.add_argument("--open-a", action="store_true", help="A sees every card (AI levels only)")
    p.add_argument("--pack64", action="store_true", help="hoyle: the 64-card pack")
    p.add_argument("--no-grand", action="store_true", help="hoyle: no grand binocle")
    p.add_argument("--target", type=int, help="french: the target score")
    p.add_argument("--paired-with", metavar="FILE",
                   help="an earlier --json run of this match (another version of the code, say): "
                        "how A's lead changed, seed by seed, on the seeds both played")
    return p


# -- the command line --------------------------------------------------------------

def player_names():
    return tuple(ai.LEVELS) + opponents.NAMES


def check_args(args):
    """The match settings as a dict; UsageError says what is wrong."""
    if args.rules not in RULE_SETS:
        raise cli.UsageError("unknown rule set %r (choose from %s)" % (args.rules, ", ".join(RULE_SETS)))
    for side in ("a", "b"):
        name = getattr(args, side)
        if name not in player_names():
            raise cli.UsageError("unknown player %r for --%s (choose from %s)"
                             % (name, side, ", ".join(player_names())))
    if args.open_a and args.a in opponents.NAMES:
        raise cli.UsageError("--open-a needs an AI level for A: the baselines read only observations")
    per_seed = rules.find(args.rules)[rules.PLAYERS]      # a duplicate set: one game per seat
    if args.games <= 0 or args.games % per_seed:
        raise cli.UsageError("--games must be a positive multiple of %d for %s, got %d"
                         % (per_seed, args.rules, args.games))
    seeds = args.games // per_seed
    if args.seed < 0 or args.seed + seeds - 1 > 0xFFFFFFFF:
        raise cli.UsageError("game seeds must lie in 0..4294967295")
    try:
        options = option_bits(args.rules, pack64=args.pack64, grand_binocle=not args.no_grand,
                              target=args.target)
    except ValueError as e:
        raise cli.UsageError(str(e))
    return {"rules": args.rules, "a": args.a, "b": args.b, "games": args.games,
            "seed": args.seed, "seeds": seeds, "options": options, "open_a": args.open_a}


# -- playing one game ----------------------------------------------------------------

class Clock:
    """Seconds spent in choose() by one side."""

    def __init__(self):
        self.n = 0
        self.total = 0.0
        self.max = 0.0

    def add(self, dt):
        self.n += 1
        self.total += dt
        self.max = max(self.max, dt)


def make_player(name, rules, seat, game_seed, options):
    return opponents.new_seat(name, rules, seat, (game_seed * 7 + seat) & 0xFFFFFFFF, options)


def open_cards(player, state):
    """An AI player whose every sample is the real deal of `state` (a game in progress): its
    sampler's sample() fills the hidden hands (and binokel's buried cards) from the state."""
    sampler = player.sampler

    def sample(obs, memory, rng, use_caps=True):
        for p, hand in enumerate(sampler.hands):
            hand[:] = state.hands[p]
        if player.players == 3:
            sampler.buried[:] = state.buried if state.dabb_shown else cards.counts_of(state.dabb)
        return True
    sampler.sample = sample


def play_game(match, seed, sides, clocks):
    """Play one game; sides[seat] is "a" or "b". Returns the final state."""
    rules, options = match["rules"], match["options"]
    state = new_game(rules, seed, options)
    players = [make_player(match[side], rules, p, seed, options) for p, side in enumerate(sides)]
    for player, side in zip(players, sides):
        if match["open_a"] and side == "a":
            open_cards(player, state)
    seats = [timed(state, players, p, clocks[side]) for p, side in enumerate(sides)]
    try:
        selfplay.play(state, seats, capped)
    except IllegalAction as e:
        p = state.current_player()                  # the state is as it was before the action
        raise ArenaError("%s (%s) in seat %d, game seed %d: %s"
                         % (sides[p].upper(), match[sides[p]], p, seed, e))
    return state


def capped(state, obs):
    """A game stops after MAX_DEALS deals, won by nobody."""
    return state.phase == PH_BETWEEN and state.deal_number >= MAX_DEALS


def timed(state, players, p, clock):
    """Seat p's choice, its time on clock; before it the other seats think on p's time, as on a
    board while the person chooses."""
    def choose(obs):
        for q, other in enumerate(players):
            if q != p and hasattr(other, "pondering"):
                for _ in other.pondering(state.observation(q)):
                    pass
        t0 = time.perf_counter()
        action = players[p].choose(obs)
        clock.add(time.perf_counter() - t0)
        return action
    return choose


def game_record(state, seed, a_seat):
    return {"seed": seed, "a_seat": a_seat, "winner": state.winner(), "deals": len(state.sheet),
            "scores": state.scores(), "sheet": list(state.sheet)}


# -- matches ------------------------------------------------------------------------

def two_hand_match(match, clocks, progress):
    """Records of every game: each seed with A in seat 0, then in seat 1."""
    out = []
    for i in range(match["seeds"]):
        seed = match["seed"] + i
        for a_seat in (0, 1):
            sides = ["b", "b"]
            sides[a_seat] = "a"
            out.append(game_record(play_game(match, seed, sides, clocks), seed, a_seat))
            progress.step()
    return out


def binokel_match(match, clocks, progress):
    """(records of the A games, the reference game record of each seed, by seed)."""
    games, refs = [], {}
    for i in range(match["seeds"]):
        seed = match["seed"] + i
        refs[seed] = game_record(play_game(match, seed, ["b", "b", "b"], clocks), seed, -1)
        progress.step()
        for r in range(3):
            sides = ["b", "b", "b"]
            sides[r] = "a"
            games.append(game_record(play_game(match, seed, sides, clocks), seed, r))
            progress.step()
    return games, refs


# -- statistics ---------------------------------------------------------------------

def wilson(k, n, z=Z95):
    """Wilson score interval of k successes in n trials (0, 1 when n is 0)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if k == 0 else centre - half     # exact ends: no 0.9999999999999999
    high = 1.0 if k == n else centre + half
    return (low, high)


def t95(df):
    if df <= len(T95):
        return T95[df - 1]
    return Z95 + (Z95 ** 3 + Z95) / (4 * df)     # first Cornish-Fisher term: within 0.003


def sample_sd(values, m):
    """The standard deviation of two or more values around their mean m (n - 1 in the divisor)."""
    return math.sqrt(sum((v - m) ** 2 for v in values) / (len(values) - 1))


def mean_ci(values):
    """(mean, (low, high)): a t 95% interval of the mean; None for no values, and no
    interval for one value (its spread is unknown, not zero)."""
    n = len(values)
    if n == 0:
        return None, None
    m = sum(values) / n
    if n == 1:
        return m, None
    half = t95(n - 1) * sample_sd(values, m) / math.sqrt(n)
    return m, (m - half, m + half)


def ratio(num, den):
    return num / den if den else None


# -- summaries ----------------------------------------------------------------------

def win_summary(a_wins, b_wins):
    decided = a_wins + b_wins
    return {"a_wins": a_wins, "b_wins": b_wins, "a_win_rate": ratio(a_wins, decided),
            "a_win_rate_ci95": list(wilson(a_wins, decided))}


def two_hand_summary(games):
    a_wins = sum(1 for g in games if g["winner"] == g["a_seat"])
    b_wins = sum(1 for g in games if g["winner"] == 1 - g["a_seat"])
    deals = sum(g["deals"] for g in games)
    a_pts = sum(g["scores"][g["a_seat"]] for g in games)
    b_pts = sum(g["scores"][1 - g["a_seat"]] for g in games)
    per_seed = {}
    for g in games:     # a seed's two games are one duplicate pair: the unit of the interval
        a = g["a_seat"]
        per_seed.setdefault(g["seed"], []).append(ratio(g["scores"][a] - g["scores"][1 - a], g["deals"]) or 0)
    seed_diffs = {str(seed): round(sum(v) / len(v), 4) for seed, v in sorted(per_seed.items())}
    diff, ci = mean_ci([sum(v) / len(v) for v in per_seed.values()])
    out = win_summary(a_wins, b_wins)
    out.update({"undecided": len(games) - a_wins - b_wins, "deals": deals,
                "a_points_per_deal": ratio(a_pts, deals), "b_points_per_deal": ratio(b_pts, deals),
                "points_diff_per_deal": diff, "points_diff_ci95": ci, "per_seed_points_diff": seed_diffs})
    return out


def load_paired(path, match):
    """The per-seed differences of an earlier `--json` run of the same rules (--paired-with)."""
    try:
        with open(path) as f:
            other = json.load(f)
        seeds, same = other["per_seed_points_diff"], other["rules"] == match["rules"]
        seeds = {str(k): float(v) for k, v in seeds.items()}
    except OSError as e:
        raise cli.UsageError("cannot read %s: %s" % (path, e.strerror or e))
    except (ValueError, KeyError, TypeError, AttributeError):
        raise cli.UsageError("%s is not the --json output of an arena" % path)
    if not same or other.get("options", 0) != match["options"]:
        raise cli.UsageError("%s is a match of other rules or options" % path)
    return seeds


def paired_report(summary, other, path):
    """A's lead here less A's lead there, seed by seed, on the seeds both played: two versions
    of the AI whose games stay alike (the per-deal streams) differ by far less from seed to
    seed than either's lead does, so this needs far fewer games than two separate intervals."""
    mine = summary["per_seed_points_diff"]
    diffs = [mine[s] - other[s] for s in sorted(mine, key=int) if s in other]
    mean, ci = mean_ci(diffs)
    spread = sample_sd(diffs, mean) if len(diffs) > 1 else None
    return {"file": path, "seeds": len(diffs), "points_diff_change": mean, "points_diff_change_ci95": ci,
            "per_seed_spread": spread}


def new_contracts():
    return {"made": 0, "failed": 0, "durch_made": 0, "durch_failed": 0, "surrendered": 0}


def count_contract(counts, row, seat):
    """Add one binokel sheet row to counts if seat was the soloist (engine/state.py: its fields)."""
    if row[Binokel.ROW_SOLOIST] != seat:
        return
    made = row[Binokel.ROW_GAINS][seat] > 0
    if row[Binokel.ROW_SURRENDERED]:
        key = "surrendered"
    elif row[Binokel.ROW_CONTRACT] == CONTRACT_DURCH:
        key = "durch_made" if made else "durch_failed"
    else:
        key = "made" if made else "failed"
    counts[key] += 1


def paired_diff(game, ref):
    """Mean per deal of A's gain minus the reference seat's, over deals both games reached."""
    r = game["a_seat"]
    k = min(game["deals"], ref["deals"])
    if k == 0:
        return None
    gains = Binokel.ROW_GAINS
    return sum(game["sheet"][i][gains][r] - ref["sheet"][i][gains][r] for i in range(k)) / k


def binokel_summary(games, refs):
    a_wins = sum(1 for g in games if g["winner"] == g["a_seat"])
    b_wins = sum(1 for g in games if g["winner"] >= 0 and g["winner"] != g["a_seat"])
    ref_wins = ref_decided = ref_deals = a_pts = b_pts = 0
    a_contracts, b_contracts = new_contracts(), new_contracts()
    diffs = []
    per_seed = {}          # a seed's games (A in each seat) against its reference game
    for g in games:
        r, ref = g["a_seat"], refs[g["seed"]]
        ref_decided += ref["winner"] >= 0
        ref_wins += ref["winner"] == r
        ref_deals += ref["deals"]
        a_pts += sum(row[Binokel.ROW_GAINS][r] for row in g["sheet"])
        b_pts += sum(row[Binokel.ROW_GAINS][r] for row in ref["sheet"])
        for row in g["sheet"]:
            count_contract(a_contracts, row, r)
        for row in ref["sheet"]:
            count_contract(b_contracts, row, r)
        d = paired_diff(g, ref)
        if d is not None:
            diffs.append(d)
            per_seed.setdefault(g["seed"], []).append(d)
    deals = sum(g["deals"] for g in games)
    diff, ci = mean_ci(diffs)
    out = win_summary(a_wins, b_wins)
    out.update({"undecided": len(games) - a_wins - b_wins,
                "reference_win_rate": ratio(ref_wins, ref_decided),
                "reference_games": len(refs), "deals": deals, "reference_deals": ref_deals // 3,
                "a_points_per_deal": ratio(a_pts, deals), "b_points_per_deal": ratio(b_pts, ref_deals),
                "points_diff_per_deal": diff, "points_diff_ci95": ci,
                "per_seed_points_diff": {str(s): round(sum(v) / len(v), 4) for s, v in sorted(per_seed.items())},
                "a_contracts": a_contracts, "b_contracts": b_contracts})
    return out


def rounded(v, digits=4):
    if isinstance(v, float):
        return round(v, digits)
    if isinstance(v, (list, tuple)):
        return [rounded(x, digits) for x in v]
    return v


def rounded_dict(d):
    return {k: rounded(v) for k, v in d.items()}


def run_match(match, progress):
    """The summary dict of a whole match."""
    clocks = {"a": Clock(), "b": Clock()}
    t0 = time.perf_counter()
    if three_hand(match):
        summary = binokel_summary(*binokel_match(match, clocks, progress))
    else:
        summary = two_hand_summary(two_hand_match(match, clocks, progress))
    out = {"rules": match["rules"], "a": match["a"], "b": match["b"], "games": match["games"],
           "seed": match["seed"], "options": match["options"], "open_a": match["open_a"]}
    out.update(rounded_dict(summary))
    out["seconds"] = round(time.perf_counter() - t0, 2)
    for side in ("a", "b"):
        c = clocks[side]
        out[side + "_decisions"] = c.n
        out[side + "_decision_ms_mean"] = round(1000 * c.total / c.n, 3) if c.n else None
        out[side + "_decision_ms_max"] = round(1000 * c.max, 3)
    return out


# -- output ---------------------------------------------------------------------------

class Progress:
    """games done / total, elapsed and a rough ETA, rewritten in place on stderr."""

    def __init__(self, total, out):
        self.total = total
        self.done = 0
        self.out = out
        self.t0 = time.perf_counter()
        self.width = 0
        self.show()

    def step(self):
        self.done += 1
        if self.done == self.total or time.perf_counter() - self.shown >= 0.25:
            self.show()     # a few times a second at most: short games would flood a log file

    def show(self):
        self.shown = time.perf_counter()
        elapsed = self.shown - self.t0
        eta = elapsed / self.done * (self.total - self.done) if self.done else None
        filled = 20 * self.done // self.total
        text = "[%s%s] %d/%d games  %s elapsed  ETA %s" % (
            "#" * filled, "." * (20 - filled), self.done, self.total, clock_text(elapsed),
            clock_text(eta) if eta is not None else "?")
        self.out.write("\r" + text.ljust(self.width))
        self.width = len(text)
        if self.done == self.total:
            self.out.write("\n")
        self.out.flush()


def clock_text(seconds):
    s = int(seconds + 0.5)
    return "%d:%02d:%02d" % (s // 3600, s // 60 % 60, s % 60) if s >= 3600 else "%d:%02d" % (s // 60, s % 60)


def fmt(v, spec="%.3f"):
    return "-" if v is None else spec % v


def ci_text(ci, spec="%.3f"):
    return "needs 2 seeds or more" if ci is None else (spec + " to " + spec) % (ci[0], ci[1])


def text_report(s):
    """The summary as a few lines for people."""
    lines = ["%s: %s (A) against %s (B)%s, %d games from seed %d, duplicate seating"
             % (s["rules"], s["a"], s["b"], ", A sees all cards" if s["open_a"] else "",
                s["games"], s["seed"]),
             "wins: A %d, B %d, undecided %d; A win rate %s (95%% CI %s)"
             % (s["a_wins"], s["b_wins"], s["undecided"], fmt(s["a_win_rate"]),
                ci_text(s["a_win_rate_ci95"]))]
    if "reference_win_rate" in s:
        lines.append("reference (B in A's seat) win rate %s" % fmt(s["reference_win_rate"]))
    lines.append("points per deal: A %s, B %s; A - B %s (95%% CI %s)"
                 % (fmt(s["a_points_per_deal"], "%.1f"), fmt(s["b_points_per_deal"], "%.1f"),
                    fmt(s["points_diff_per_deal"], "%.1f"), ci_text(s["points_diff_ci95"], "%.1f")))
    for side in ("a", "b"):
        if side + "_contracts" in s:
            c = s[side + "_contracts"]
            lines.append("%s as soloist: made %d, failed %d, durch made %d, durch failed %d, surrendered %d"
                         % (side.upper(), c["made"], c["failed"], c["durch_made"], c["durch_failed"],
                            c["surrendered"]))
    if "paired_with" in s:
        p = s["paired_with"]
        lines.append("paired with %s on %d seeds: A - B changed by %s a deal (95%% CI %s), per-seed spread %s"
                     % (p["file"], p["seeds"], fmt(p["points_diff_change"], "%.2f"),
                        ci_text(p["points_diff_change_ci95"], "%.2f"), fmt(p["per_seed_spread"], "%.1f")))
    lines.append("%d deals in %.1f s; ms per decision: A mean %s max %s, B mean %s max %s"
                 % (s["deals"], s["seconds"], fmt(s["a_decision_ms_mean"]), fmt(s["a_decision_ms_max"]),
                    fmt(s["b_decision_ms_mean"]), fmt(s["b_decision_ms_max"])))
    return "\n".join(lines) + "\n"


def three_hand(match):
    """A three-hand match (binokel): the A games of each seed against one reference game."""
    return rules.find(match["rules"])[rules.KIND] == rules.THREE_HAND


def total_games(match):
    """Games actually played: binokel adds one reference game per seed."""
    return match["games"] + (match["seeds"] if three_hand(match) else 0)


@cli.command("arena")
def main(argv):
    args = build_parser().parse_args(argv)
    match = check_args(args)
    other = load_paired(args.paired_with, match) if args.paired_with else None
    try:
        summary = run_match(match, Progress(total_games(match), sys.stderr))
    except ArenaError as e:
        sys.stderr.write("\narena: illegal action by %s\n" % e)
        return 1
    if other is not None:
        summary["paired_with"] = rounded_dict(paired_report(summary, other, args.paired_with))
    if args.json:
        sys.stdout.write(json.dumps(summary) + "\n")
    else:
        sys.stdout.write(text_report(summary))
    return 0
