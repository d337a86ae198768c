"""python -m tools arena and its opponents (tools/opponents.py): the summary, duplicate seating,
usage errors.

Only those opponents play here, so the results do not move while the AI changes.
"""

import json

import pytest

from engine import cards
from engine.rules import new_game
from engine.state import PH_PLAY
from engine.twohand import TwoHandState
from tests.device.helpers import binokel_game
from tools import opponents
from tools.lab import arena


def run(capsys, *argv):
    """The JSON summary of one successful run; stderr holds only the progress bar."""
    assert arena.main(list(argv) + ["--json"]) == 0
    captured = capsys.readouterr()
    assert "games" in captured.err and "Traceback" not in captured.err
    return json.loads(captured.out)


def match_of(*argv):
    return arena.check_args(arena.build_parser().parse_args(list(argv)))


class Quiet:
    def step(self):
        pass


def clocks():
    return {"a": arena.Clock(), "b": arena.Clock()}


def check_consistent(s):
    assert s["a_wins"] + s["b_wins"] + s["undecided"] == s["games"]
    low, high = s["a_win_rate_ci95"]
    assert 0 <= low <= s["a_win_rate"] <= high <= 1
    diff_low, diff_high = s["points_diff_ci95"]
    assert diff_low <= s["points_diff_per_deal"] <= diff_high
    assert s["deals"] >= s["games"]
    for side in ("a", "b"):
        assert s[side + "_decisions"] > 0
        assert 0 <= s[side + "_decision_ms_mean"] <= s[side + "_decision_ms_max"]
    assert s["seconds"] >= 0


# -- statistics ----------------------------------------------------------------------

def test_wilson_known_values():
    low, high = arena.wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    low, high = arena.wilson(0, 10)
    assert low == 0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = arena.wilson(10, 10)
    assert low == pytest.approx(0.7225, abs=1e-4) and high == 1
    assert arena.wilson(0, 0) == (0.0, 1.0)


def test_mean_interval_uses_t():
    m, (low, high) = arena.mean_ci([1.0, 2.0, 3.0])
    assert m == 2.0
    assert high - m == pytest.approx(4.303 / 3 ** 0.5, abs=1e-3)   # sd 1, t(2) = 4.303
    assert arena.t95(100) == pytest.approx(1.984, abs=0.003)


def test_one_value_has_no_interval():
    # one duplicate pair says nothing of the spread: no zero-width interval
    assert arena.mean_ci([31.0]) == (31.0, None)
    assert arena.ci_text(None) == "needs 2 seeds or more"


# -- two-hand matches ------------------------------------------------------------------

@pytest.mark.parametrize("rules", ["hoyle", "french"])
def test_greedy_beats_random(capsys, rules):
    s = run(capsys, "--rules", rules, "--a", "greedy", "--b", "random", "--games", "40", "--seed", "1")
    check_consistent(s)
    assert (s["rules"], s["a"], s["b"], s["games"]) == (rules, "greedy", "random", 40)
    assert s["a_win_rate"] > 0.6
    assert s["a_points_per_deal"] > s["b_points_per_deal"]


def test_duplicate_seating_swaps_seats():
    match = match_of("--rules", "french", "--a", "greedy", "--b", "random", "--games", "6")
    games = arena.two_hand_match(match, clocks(), Quiet())
    assert [(g["seed"], g["a_seat"]) for g in games] == [(1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1)]
    for first, second in zip(games[0::2], games[1::2]):     # the same cards, sides swapped
        dealer = TwoHandState.ROW_DEALER
        assert first["sheet"][0][dealer] == second["sheet"][0][dealer]  # same first dealer


@pytest.mark.parametrize("rules", ["hoyle", "french"])
def test_same_level_gives_mirrored_games(capsys, rules):
    # Same players in the same seats with the same seeds: each pair is one game twice,
    # so whatever seat 0 won in one, the other side won in the other.
    match = match_of("--rules", rules, "--a", "random", "--b", "random", "--games", "8")
    games = arena.two_hand_match(match, clocks(), Quiet())
    for first, second in zip(games[0::2], games[1::2]):
        assert first["winner"] == second["winner"] >= 0
        assert first["scores"] == second["scores"] and first["sheet"] == second["sheet"]
    s = run(capsys, "--rules", rules, "--a", "random", "--b", "random", "--games", "8")
    assert s["a_wins"] == s["b_wins"] and s["a_win_rate"] == 0.5
    assert s["points_diff_per_deal"] == 0


def test_same_command_same_results(capsys):
    argv = ("--rules", "hoyle", "--a", "greedy", "--b", "random", "--games", "10", "--seed", "5")
    first, second = run(capsys, *argv), run(capsys, *argv)
    for s in (first, second):
        for key in list(s):
            if key == "seconds" or "_ms_" in key:
                del s[key]
    assert first == second


def test_hoyle_options_reach_the_game():
    match = match_of("--rules", "hoyle", "--a", "greedy", "--b", "random", "--games", "2", "--pack64")
    assert match["options"] == 1
    state = arena.play_game(match, 3, ["a", "b"], clocks())
    assert state.pack64


def test_a_run_paired_with_an_earlier_one_gives_the_change_seed_by_seed(capsys, tmp_path):
    argv = ("--rules", "hoyle", "--a", "greedy", "--b", "random", "--games", "10", "--seed", "5")
    first = run(capsys, *argv)
    assert sorted(first["per_seed_points_diff"], key=int) == ["5", "6", "7", "8", "9"]
    path = tmp_path / "first.json"
    path.write_text(json.dumps(first))
    again = run(capsys, *(argv + ("--paired-with", str(path))))["paired_with"]
    assert again["seeds"] == 5 and again["points_diff_change"] == 0 and again["per_seed_spread"] == 0
    # random against itself on seeds 8-10: the lead there is 0 on every seed, so the change on
    # the two seeds both runs played is minus greedy's lead on them
    other = run(capsys, "--rules", "hoyle", "--a", "random", "--b", "random", "--games", "6", "--seed", "8",
                "--paired-with", str(path))
    assert set(other["per_seed_points_diff"].values()) == {0}
    was = [first["per_seed_points_diff"][s] for s in ("8", "9")]
    assert other["paired_with"]["seeds"] == 2
    assert other["paired_with"]["points_diff_change"] == pytest.approx(-sum(was) / 2, abs=1e-3)
    for bad, why in ((tmp_path / "missing.json", "cannot read"), (tmp_path / "first.json", "other rules")):
        rules = "french" if why == "other rules" else "hoyle"
        assert arena.main(["--rules", rules, "--a", "greedy", "--b", "random", "--games", "2",
                           "--paired-with", str(bad)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("arena: ") and why in err and "Traceback" not in err


def test_text_report(capsys):
    assert arena.main(["--rules", "hoyle", "--a", "greedy", "--b", "random", "--games", "4"]) == 0
    out = capsys.readouterr().out
    assert "A win rate" in out and "points per deal" in out


# -- binokel ----------------------------------------------------------------------------

def test_a_binokel_run_paired_with_an_earlier_one(capsys, tmp_path):
    """Binokel gives A's lead seed by seed too (the mean of a seed's three games against its
    reference game), so two versions' runs pair as the two-hand games' do."""
    argv = ("--rules", "binokel", "--a", "greedy", "--b", "random", "--games", "6", "--seed", "5")
    first = run(capsys, *argv)
    assert sorted(first["per_seed_points_diff"], key=int) == ["5", "6"]
    path = tmp_path / "first.json"
    path.write_text(json.dumps(first))
    again = run(capsys, *(argv + ("--paired-with", str(path))))["paired_with"]
    assert again["seeds"] == 2 and again["points_diff_change"] == 0 and again["per_seed_spread"] == 0
    assert arena.main(["--rules", "hoyle", "--a", "greedy", "--b", "random", "--games", "2",
                       "--paired-with", str(path)]) == 2
    assert "other rules" in capsys.readouterr().err


def test_binokel_arena_reports_contracts(capsys):
    s = run(capsys, "--rules", "binokel", "--a", "greedy", "--b", "random", "--games", "6", "--seed", "2")
    check_consistent(s)
    assert s["reference_games"] == 2 and 0 <= s["reference_win_rate"] <= 1
    for side in ("a", "b"):
        c = s[side + "_contracts"]
        assert set(c) == {"made", "failed", "durch_made", "durch_failed", "surrendered"}
        assert all(n >= 0 for n in c.values())
    assert 0 < sum(s["a_contracts"].values()) <= s["deals"]
    assert s["points_diff_per_deal"] > 0          # greedy gains on random, deal for deal


def test_binokel_seats_and_reference():
    match = match_of("--rules", "binokel", "--a", "greedy", "--b", "random", "--games", "3", "--seed", "4")
    games, refs = arena.binokel_match(match, clocks(), Quiet())
    assert [g["a_seat"] for g in games] == [0, 1, 2] and list(refs) == [4]
    # Same level on both sides: every A game is the reference game, so the difference is 0.
    match = match_of("--rules", "binokel", "--a", "random", "--b", "random", "--games", "3")
    games, refs = arena.binokel_match(match, clocks(), Quiet())
    assert all(g["sheet"] == refs[g["seed"]]["sheet"] for g in games)
    assert arena.binokel_summary(games, refs)["points_diff_per_deal"] == 0


def test_contract_rows_are_classified():
    counts = arena.new_contracts()
    arena.count_contract(counts, (1, 0, 1, 200, 2, False, (30, 240, 0), ()), 1)
    arena.count_contract(counts, (2, 1, 1, 200, 2, False, (30, -400, 0), ()), 1)
    arena.count_contract(counts, (3, 2, 1, 150, 4, False, (0, 1000, 0), ()), 1)
    arena.count_contract(counts, (4, 0, 1, 150, 4, False, (0, -1000, 0), ()), 1)
    arena.count_contract(counts, (5, 1, 1, 150, 0, True, (50, -150, 50), ()), 1)
    arena.count_contract(counts, (6, 2, 0, 150, 0, False, (150, 0, 0), ()), 1)   # not his
    assert counts == {"made": 1, "failed": 1, "durch_made": 1, "durch_failed": 1, "surrendered": 1}


# -- the opponents --------------------------------------------------------------------------

def test_greedy_bids_buries_and_names_from_its_melds():
    # Forehand (seat 0) holds a spade family and both binokels; the others are weak.
    state = binokel_game("AS TS KS QS JS QS JD JD 9S 9H 9D 9C JH JC 9H",
                         "AH AH TH TH KH KH QH QH JH AD AD TD TD KD KD",
                         "QD QD JS AC AC TC TC KC KC QC QC JC 9C 9D 9S",
                         "KS AS TS")
    # Best totals 500 (spades), 190 and 200: middlehand's last bid is 240, rearhand's 260,
    # forehand outbids both.
    players = [opponents.GreedyPlayer() for _ in range(3)]
    while state.phase != PH_PLAY:                          # up to the first card of play
        p = state.current_player()
        state.apply(players[p].choose(state.observation(p)))
    assert (state.soloist, state.bid, state.contract) == (0, 270, 0)    # spades
    buried = [f for f in range(32) for _ in range(state.buried[f])]
    assert buried == [cards.parse("9H")] * 2 + [cards.parse("9D")]    # no points, in no meld


def test_random_opponent_follows_its_seed():
    obs = new_game("french", 1).observation(new_game("french", 1).current_player())
    a = [opponents.new_opponent("random", 9).choose(obs) for _ in range(3)]
    b = opponents.new_opponent("random", 9)
    assert a[0] == b.choose(obs) and a[0] in obs.legal


# -- usage errors ----------------------------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["--rules", "hoyle", "--a", "greedy", "--b", "random", "--games", "7"],
    ["--rules", "binokel", "--a", "greedy", "--b", "random", "--games", "4"],
    ["--rules", "hoyle", "--a", "grandmaster", "--b", "random", "--games", "4"],
    ["--rules", "skat", "--a", "greedy", "--b", "random", "--games", "4"],
    ["--rules", "hoyle", "--a", "greedy", "--b", "random", "--games", "0"],
    ["--rules", "hoyle", "--a", "random", "--b", "easy", "--games", "2", "--open-a"],
    ["--rules", "french", "--a", "greedy", "--b", "random", "--games", "2", "--pack64"],
    ["--rules", "hoyle", "--a", "greedy", "--b", "random"],
    ["--rules", "hoyle", "--a", "greedy", "--b", "random", "--games", "2", "--seed", "-1"],
])
def test_usage_errors_exit_2(capsys, argv):
    assert arena.main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("arena: ") and captured.err.count("\n") == 1
    assert "Traceback" not in captured.err


def test_an_illegal_action_names_the_side_seat_and_seed(monkeypatch):
    match = match_of("--rules", "french", "--a", "random", "--b", "greedy", "--games", "2", "--seed", "3")

    class Cheat:
        def choose(self, obs):
            return -1
    real = arena.make_player
    monkeypatch.setattr(arena, "make_player", lambda name, rules, seat, seed, options:
                        Cheat() if name == "greedy" else real(name, rules, seat, seed, options))
    with pytest.raises(arena.ArenaError) as e:
        arena.play_game(match, 3, ["a", "b"], clocks())
    assert str(e.value).startswith("B (greedy) in seat 1, game seed 3: ")
