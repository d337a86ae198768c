"""A game loads only its own rule set's code: the board keeps every imported module in RAM."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# A whole deal with AI seats (hard: the endgame solver too), then the engine modules loaded.
_GAME = """
import sys
from engine.rules import new_game
from engine.ai import new_player
from engine.state import PH_BETWEEN
rules = sys.argv[1]
state = new_game(rules, seed=3)
seats = [new_player(rules, p, "hard", seed=p + 1) for p in range(state.PLAYERS)]
while state.phase != PH_BETWEEN and not state.is_game_over():
    p = state.current_player()
    state.apply(seats[p].choose(state.observation(p)))
print(" ".join(sorted(m for m in sys.modules if m.split(".")[0] == "engine")))
"""

TWO_HAND_ONLY = {"engine.twohand", "engine.table", "engine.melddata", "engine.ai.twohand", "engine.ai.announce",
                 "engine.ai.endgame", "engine.ai.leaf"}
BINOKEL_ONLY = {"engine.binokel", "engine.melds", "engine.melddata_binokel", "engine.ai.binokel",
                "engine.ai.bidding", "engine.ai.rollout"}      # rollout: hard's playouts (binokel only)
OWN = {"hoyle": {"engine.hoyle", "engine.melddata_hoyle"}, "french": {"engine.french", "engine.melddata_french"},
       "binokel": set()}


_LOADED = {}


def loaded(rules):
    if rules not in _LOADED:
        out = subprocess.run([sys.executable, "-c", _GAME, rules], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout
        _LOADED[rules] = set(out.split())
    return _LOADED[rules]


def test_each_rule_set_loads_its_own_modules_only():
    every_own = set().union(*OWN.values())
    for rules in ("hoyle", "french", "binokel"):
        mods = loaded(rules)
        mine = OWN[rules] | (BINOKEL_ONLY if rules == "binokel" else TWO_HAND_ONLY)
        others = (every_own | TWO_HAND_ONLY | BINOKEL_ONLY) - mine
        assert mine <= mods, (rules, sorted(mine - mods))
        assert not mods & others, (rules, sorted(mods & others))
        assert "engine.ai.expert" not in mods           # desktop only


def test_the_bundle_ships_every_module_a_game_loads():
    from tools.users import bundle
    shipped = set(bundle.module_name(path) for path in bundle.app_files() if path.endswith(".py"))
    for rules in ("hoyle", "french", "binokel"):
        assert loaded(rules) <= shipped, (rules, sorted(loaded(rules) - shipped))
