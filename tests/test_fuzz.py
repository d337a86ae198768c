"""python -m tools fuzz: a short seeded run finds nothing, and a broken engine is caught.

The run is deterministic (the engine's own generator drives it), so the
counts of a short run are pinned exactly: a change in them means the engine
now accepts or rejects other ints, or plays other games, for the same seed.
"""

import json

import pytest

from engine.binokel import Binokel
from engine.state import GameState, IllegalAction
from engine.twohand import TwoHandState
from tools.checks import fuzz

GAMES = 10
SEED = 1
# Counts of `fuzz --games 10 --seed 1`; the warnings are left out (see below).
EXPECTED = {
    "hoyle": {"games": 10, "legal": 1417, "illegal": 4243, "deals": 29, "full_deals": 20},
    "hoyle64": {"games": 10, "legal": 2157, "illegal": 6267, "deals": 34, "full_deals": 25},
    "hoyle-nogrand": {"games": 10, "legal": 1660, "illegal": 4681, "deals": 31, "full_deals": 24},
    "french": {"games": 10, "legal": 4549, "illegal": 13130, "deals": 83, "full_deals": 83},
    "binokel": {"games": 10, "legal": 9618, "illegal": 27396, "deals": 299, "full_deals": 152},
}


def run_json(capsys, *argv):
    """(exit code, the JSON summary, stderr) of one run."""
    code = fuzz.main(list(argv) + ["--json"])
    captured = capsys.readouterr()
    return code, json.loads(captured.out), captured.err


def test_short_run_has_exact_counts_and_no_failure(capsys):
    code, out, err = run_json(capsys, "--games", str(GAMES), "--seed", str(SEED))
    assert code == 0 and out["failure"] is None
    assert "%d/%d games" % (5 * GAMES, 5 * GAMES) in err     # progress went to stderr
    got = {name: {k: v for k, v in c.items() if k != "warnings"} for name, c in out["rules"].items()}
    assert got == EXPECTED
    # About one legal int in four, as the stream promises.
    for c in EXPECTED.values():
        assert 2.5 < c["illegal"] / c["legal"] < 3.5
    # Warnings are known engine flaws that break no rule of play; the stream
    # does not depend on them, so the counts above stay when they are fixed.
    assert set(out["warnings"]) <= set(fuzz.WARNINGS)


def failure_of(capsys, *argv):
    code, out, _err = run_json(capsys, *argv)
    assert code == 1
    return out["failure"]


def test_an_illegal_action_that_changes_the_state_is_a_failure(capsys, monkeypatch):
    apply = GameState.apply

    def leaky(self, action):
        if action not in self.legal_now():
            self.nactions += 1      # counts the action before it is rejected
        return apply(self, action)

    monkeypatch.setattr(GameState, "apply", leaky)
    f = failure_of(capsys, "--rules", "french", "--games", "3", "--seed", "5")
    assert (f["rules"], f["game"], f["seed"]) == ("french", 0, 5)
    assert "changed the state: nactions" in f["error"]
    assert f["reproduce"] == "python -m tools fuzz --rules french --seed 5 --games 1"
    # The command it gives replays the same failure.
    again = failure_of(capsys, "--rules", "french", "--games", "1", "--seed", "5")
    assert again == f


def test_a_lost_card_is_a_failure(capsys, monkeypatch):
    take_dabb = Binokel.take_dabb

    def lose_one(self, soloist):
        take_dabb(self, soloist)
        hand = self.hands[soloist]
        hand[hand.index(max(hand))] -= 1      # a card vanishes with the Dabb

    monkeypatch.setattr(Binokel, "take_dabb", lose_one)
    f = failure_of(capsys, "--rules", "binokel", "--games", "2", "--seed", "1")
    assert f["rules"] == "binokel" and f["game"] == 0
    assert f["error"].startswith("card census")


def test_a_wrong_exception_is_a_failure(capsys, monkeypatch):
    apply = TwoHandState.apply

    def crash(self, action):
        if action < 0:
            raise ValueError("negative")    # a ValueError, but not IllegalAction
        return apply(self, action)

    monkeypatch.setattr(TwoHandState, "apply", crash)
    f = failure_of(capsys, "--rules", "hoyle", "--games", "1")
    assert f["int"] < 0 and "raised ValueError: negative, not IllegalAction" in f["error"]


def test_an_accepted_illegal_action_is_a_failure(capsys, monkeypatch):
    apply = GameState.apply

    def lax(self, action):
        try:
            apply(self, action)
        except IllegalAction:
            if action != 1 << 40:
                raise

    monkeypatch.setattr(GameState, "apply", lax)
    f = failure_of(capsys, "--rules", "hoyle64", "--games", "50")
    assert f["int"] == 1 << 40 and "was accepted" in f["error"]


def test_a_warning_becomes_a_failure_when_fatal(capsys, monkeypatch):
    monkeypatch.setattr(fuzz, "FATAL", ("duplicate_legal",))
    monkeypatch.setattr(GameState, "legal_actions", lambda self: sorted(self.legal_now() * 2))
    f = failure_of(capsys, "--rules", "hoyle", "--games", "1")
    assert f["error"].startswith(fuzz.WARNINGS["duplicate_legal"])


def test_text_report(capsys):
    assert fuzz.main(["--rules", "hoyle-nogrand,hoyle", "--games", "1", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("fuzz: 1 games per rule set from seed 2")
    assert [line.split()[0] for line in lines[2:5]] == ["hoyle", "hoyle-nogrand", "total"]
    assert lines[-1] == "no failures"


@pytest.mark.parametrize("argv", [
    ["--games", "0"], ["--games", "x"], ["--seed", "-1"], ["--seed", "4294967295", "--games", "2"],
    ["--rules", "poker"], ["--rules", "hoyle,"], ["--bogus"], ["extra"],
])
def test_bad_arguments(capsys, argv):
    assert fuzz.main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("fuzz: ") and captured.err.count("\n") == 1
