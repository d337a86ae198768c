"""tools/lab/endgame_loss.py: what a level gives away in the last tricks, against exact play."""

import json

from tools.lab import endgame_loss
from tools.__main__ import main


def test_hard_solves_the_last_four_tricks_exactly():
    """Hard searches 7 cards and fewer exactly: it gives nothing away there."""
    out = endgame_loss.measure("hoyle", "hard", 2, 1, 2, 4, 30)
    assert out["positions"] > 20 and out["deals"] > 4
    assert out["points_given_away_per_deal"] == 0.0
    assert sum(v["positions"] for v in out["by_cards_in_hand"].values()) == out["positions"]


def test_normal_gives_points_away_beyond_its_reach():
    """Normal solves 4 cards exactly; from 5 to 7 it plays on samples and loses some points."""
    out = endgame_loss.measure("french", "normal", 2, 1, 5, 7, 30)
    assert out["positions"] > 20
    assert out["points_given_away_per_deal"] > 0


def test_the_command_prints_json_and_refuses_bad_input(capsys):
    assert main(["endgame-loss", "--rules", "hoyle", "--games", "1", "--cards", "1-3"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rules"] == "hoyle" and out["cards"] == [1, 3] and out["games"] == 1
    for bad in (["--rules", "binokel", "--games", "1"], ["--rules", "hoyle", "--games", "1", "--cards", "9-3"],
                ["--rules", "hoyle", "--games", "1", "--cards", "x"], ["--rules", "hoyle", "--games", "0"],
                ["--rules", "hoyle", "--games", "1", "--level", "wizard"],
                ["--rules", "hoyle", "--games", "1", "--against", "wizard"]):
        assert main(["endgame-loss"] + bad) == 2
        err = capsys.readouterr().err
        assert err.startswith("endgame-loss: ") and "Traceback" not in err


def test_against_another_level_only_the_levels_own_decisions_count():
    """The expert solves the last 12 tricks exactly: against hard, with the seats both ways, it
    gives nothing away, while hard's own decisions in the same games do."""
    expert = endgame_loss.measure("hoyle", "expert", 2, 1, 7, 12, 30, against="hard")
    assert expert["against"] == "hard" and expert["positions"] > 20
    assert expert["points_given_away_per_deal"] == 0.0
    hard = endgame_loss.measure("hoyle", "hard", 2, 1, 7, 12, 30, against="expert")
    assert hard["deals"] == expert["deals"]          # the same two games
    assert hard["points_given_away_per_deal"] > 0


def test_saved_positions_replay_to_the_same_figures(tmp_path, capsys):
    """--save keeps hard's positions with their exact values; --replay searches them again with
    the code as it stands: unchanged, it makes the same choices, so the figures agree."""
    path = str(tmp_path / "hoyle.json")
    assert main(["endgame-loss", "--rules", "hoyle", "--games", "1", "--cards", "7-12",
                 "--against", "expert", "--save", path]) == 0
    played = json.loads(capsys.readouterr().out)
    assert main(["endgame-loss", "--replay", path]) == 0
    again = json.loads(capsys.readouterr().out)
    assert played["positions"] > 20 and again["unsearched"] == 0
    for k in ("deals", "positions", "points_given_away_per_deal", "by_cards_in_hand"):
        assert again[k] == played[k], k
    saved = json.load(open(path))["positions_saved"]
    assert len(saved) == played["positions"]
    assert all(7 <= p["cards"] <= 12 and len(p["values"]) > 1 for p in saved)


def test_a_replay_refuses_what_it_cannot_use(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"rules": "hoyle"}')
    no_deals = tmp_path / "no_deals.json"
    no_deals.write_text('{"rules": "hoyle", "positions_saved": []}')
    for args in (["--replay", str(tmp_path / "missing.json")], ["--replay", str(bad)], ["--replay", str(no_deals)],
                 ["--games", "1"], ["--rules", "hoyle", "--games", "1", "--save", str(tmp_path / "no" / "x.json")]):
        assert main(["endgame-loss"] + args) == 2
        err = capsys.readouterr().err
        assert err.startswith("endgame-loss: ") and "Traceback" not in err
    assert not (tmp_path / "no").exists()
