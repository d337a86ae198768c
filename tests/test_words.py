"""One name per concept, in plain words, on every screen: the handheld's texts
(lib/binocle/words.py, the summary, game over), the terminal game (tools/users/play.py), the help
(assets/help.txt) and the hints' reasons."""

import ast
import copy
import io
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "lib"))
os.environ.setdefault("BLINKA_FORCEBOARD", "GENERIC_LINUX_PC")

from engine import actions                                   # noqa: E402
from engine.ai import new_player                             # noqa: E402
from engine.observation import Observation                  # noqa: E402
from engine.rules import new_game, OPT_PACK64                # noqa: E402
from engine.state import PH_ANNOUNCE, PH_BETWEEN             # noqa: E402
from binocle import helptext, words                          # noqa: E402
from binocle.session import Session                          # noqa: E402
from binocle.scenes import gameover, summary                 # noqa: E402
from tools.users import play                                       # noqa: E402

HELP = os.path.join(ROOT, "assets", "help.txt")
LINE = 26
# Words a newcomer does not know, once in the hints' reasons.
JARGON = ("played out", "cheap", "risks", "banks", "draw trump", "solved", "nets", "is out",
          "dix", "winners")


def literals(path):
    """The string literals of a module that are not docstrings."""
    tree = ast.parse(open(os.path.join(ROOT, path)).read())
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and node.body and \
                isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant):
            docs.add(id(node.body[0].value))
    return [n.value for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs]


def help_text(rules):
    pages = [helptext.page(HELP, rules, k) for k in range(helptext.count(HELP, rules))]
    return dict((title, body) for title, body in pages)


def terminal(monkeypatch, capsys, rules, seed=3, options=(), answers=400):
    monkeypatch.setattr(sys, "stdin", io.StringIO("s\n" + "1\n" * answers))
    assert play.main(["--rules", rules, "--seed", str(seed)] + list(options)) == 0
    return capsys.readouterr().out


def deal_end(rules, seed, options=0):
    """A session whose first deal is played out by normal seats, at its summary."""
    s = Session(rules, seed, options, "normal")
    seats = [new_player(rules, p, "normal", seed, options) for p in range(s.state.PLAYERS)]
    while s.state.phase != PH_BETWEEN and not s.game_over():
        p = s.state.current_player()
        s.apply(seats[p].choose(s.state.observation(p)))
    return s


# -- "dix" is said nowhere a player reads ---------------------------------------------------

def test_no_screen_terminal_or_help_text_says_dix(monkeypatch, capsys):
    screens = [os.path.join("lib", "binocle", "words.py"), os.path.join("tools", "users", "play.py")]
    scenes = os.path.join(ROOT, "lib", "binocle", "scenes")
    screens += [os.path.join("lib", "binocle", "scenes", f) for f in sorted(os.listdir(scenes)) if f.endswith(".py")]
    for path in screens:
        for text in literals(path):
            assert "dix" not in text.lower().split(), (path, text)
    for rules in ("hoyle", "french", "binokel"):
        for title, body in help_text(rules).items():
            assert "dix" not in (title + " " + body).lower(), (rules, title)
    out = terminal(monkeypatch, capsys, "hoyle")
    assert "Deal 1 over." in out and "dix" not in out.lower()


# -- the trump 9 swap: one name everywhere ---------------------------------------------------

def test_the_trump_9_swap_has_one_name_in_menu_summary_help_and_terminal(monkeypatch, capsys):
    for rules in ("hoyle", "french"):
        s = Session(rules, 1, 0, "normal")
        obs = s.observation()
        assert words.choice(s, obs, actions.EXCHANGE, 10) == "Swap trump 9: +10"
        assert words.choice(s, obs, actions.EXCHANGE, 10).lower().startswith("swap trump 9")
        pages = help_text(rules)
        assert "The nine" not in pages
        assert pages["Trump 9 swap"].startswith("After winning a trick you may swap the trump 9")
        assert "Trump 9 swap: your trump 9 for the turned-up card" in pages["Words"]
    s = Session("hoyle", 1, OPT_PACK64, "normal")
    assert words.choice(s, s.observation(), actions.EXCHANGE, 10) == "Swap trump 7: +10"
    lines = summary.summary_lines(deal_end("hoyle", 1).observation(), ("You", "AI"))
    assert "Melds: with the trump 9s" in lines
    assert summary.summary_lines(deal_end("hoyle", 1, OPT_PACK64).observation(), ("You", "AI"), "7")[-1] == \
        "Melds: with the trump 7s"
    out = terminal(monkeypatch, capsys, "hoyle")
    assert "AI swaps the trump 9: 10" in out and "2 swap the trump 9: 10" in out
    assert "exchange" not in out and "nine" not in out
    out = terminal(monkeypatch, capsys, "french")
    assert "2 swap the trump 9: 10" in out and "3 meld nine of trump 9D: 10" in out and "trump nine" not in out


def test_french_shows_its_nine_of_trump_as_a_meld_apart_from_the_swap():
    s = Session("french", 1, 0, "normal")
    names = s.kind_names()
    assert names[-1] == "trump nine" and words.short_kind(names[-1]) == "Nine of trump"
    assert words.short_kind("marriage in spades") == "Marriage S"
    assert words.short_kind("binokel") == "Binokel"


# -- menu lines and narration start with a capital -------------------------------------------

class _Obs:
    phase = PH_ANNOUNCE
    turn = 1                # an AI's turn: a trump line without the person's meld total
    bid = 150
    target = 1000


def test_every_menu_line_and_narration_starts_with_a_capital():
    for rules in ("hoyle", "french", "binokel"):
        s = Session(rules, 1, 0, "normal")
        obs = _Obs()
        lines = [words.choice(s, obs, actions.meld(k, 0), 20) for k in range(len(s.kind_names() or ()))]
        for phase in range(4):
            obs.phase = phase
            lines.append(words.choice(s, obs, actions.PASS))
        lines += [words.choice(s, obs, actions.BID), words.choice(s, obs, actions.DURCH)]
        lines += [words.choice(s, obs, actions.TRUMP + k) for k in range(4)]
        lines += [words.choice(s, obs, actions.SURRENDER + k) for k in range(4)]
        lines += [words.choice(s, obs, actions.EXCHANGE, 10)]
        for line in lines:
            assert line[0] == line[0].upper() and line[0].isalpha(), (rules, line)
    s = Session("hoyle", 1, 0, "normal")
    trump = s.state.trump
    marriage = [k for k, n in enumerate(s.kind_names()) if n.startswith("marriage in ")][0]
    assert words.choice(s, _Obs(), actions.meld(marriage, 0), 20) == "Marriage %s +20" % "SHDC"[[
        i for i in range(4) if i != trump][0]]
    narrated = words.narrate(("You", "AI"), 1, actions.meld(marriage, 0), s, _Obs(), 20)
    assert narrated == "AI: Marriage %s +20" % "SHDC"[[i for i in range(4) if i != trump][0]]


# -- the summaries ---------------------------------------------------------------------------

ROWS = ["Cards", "Melds", "Last trick", "Deal", "Score"]


@pytest.mark.parametrize("rules,seed", [("hoyle", 1), ("french", 2), ("binokel", 3)])
def test_the_summaries_share_one_order_and_label_the_last_trick(rules, seed):
    s = deal_end(rules, seed)
    obs = s.observation()
    lines = summary.summary_lines(obs, s.names)
    labels = [line[:10].strip() for line in lines]
    rows = [label for label in labels if label in ROWS]
    assert rows == ROWS, lines
    assert all(len(line) <= LINE for line in lines) and len(lines) <= 9
    assert not any("*" in line and "melds" in line.lower() for line in lines)    # no footnoted column
    last = lines[labels.index("Last trick")]
    head = lines[labels.index("Cards") - 1]
    # "+10" stands under the name of whoever took the last trick
    from engine.tricks import winning_index
    n = len(s.names)
    taker = (obs.last_leader + winning_index(obs.last_trick, n, obs.trump)) % n
    col = last.index("+10") + 2
    assert last.count("+10") == 1
    name = s.names[taker]
    assert head.index(name) <= col <= head.index(name) + len(name) + 1, (head, last)
    # every number adds up: cards + melds + last trick = the deal (the soloist's may fall short)
    table = dict((label, lines[i]) for i, label in enumerate(labels) if label in ROWS)
    w = 16 // n
    for p in range(n):
        cell = lambda label: table[label][10 + p * w:10 + (p + 1) * w].strip() or "0"
        got = int(cell("Cards")) + int(cell("Melds")) + int(cell("Last trick"))
        if rules != "binokel":
            assert got == int(cell("Deal")), (p, lines)


def test_the_terminal_summary_labels_the_last_trick(monkeypatch, capsys):
    out = terminal(monkeypatch, capsys, "hoyle")
    deal = out.split("Deal 1 over.")[1].split("***")[0]
    assert deal.count("+ last trick 10 = ") == 1 and "cards " in deal and " + melds " in deal
    assert "Deal Dealer | You: cards melds last total |  AI: cards melds last total" in deal


# -- game over: a tie-break in words ---------------------------------------------------------

def _over(rules, sheet, scores, winner, target):
    obs = Observation(rules, 0)
    obs.sheet, obs.scores, obs.winner, obs.target, obs.knock = sheet, scores, winner, target, None
    return obs


def test_game_over_explains_a_tie_break():
    # hoyle: both passed 1000 in deal 3 (NOTE_TARGET_RAISED), the target rose to 1250
    sheet = [(3, 0, (0, 0), (0, 0), (1010, 1040), 1), (4, 1, (0, 0), (0, 0), (1300, 1200), 0)]
    why = gameover.reason(_over("hoyle", sheet, (1300, 1200), 0, 1250), ("You", "AI"))
    assert why == "Both passed the target, so it rose by 250, to 1250.\nYou reached 1250."
    assert len(words.wrap(why)) <= 4
    # french: equal scores over the target mean another deal; then both over it, the higher wins
    sheet = [(5, 0, (0, 0), (0, 0), (1510, 1510), 0), (6, 1, (0, 0), (0, 0), (1600, 1540), 0)]
    why = gameover.reason(_over("french", sheet, (1600, 1540), 0, 1500), ("You", "AI"))
    assert why == "Equal scores: one more deal.\nYou and AI reached 1500: the higher score wins."
    assert len(words.wrap(why)) <= 4
    # binokel: the soloist reached it with an opponent: the soloist wins (rules.md binokel 8)
    sheet = [(7, 1, 2, 200, 0, False, (10, 20, 200), (1510, 1400, 1520))]
    why = gameover.reason(_over("binokel", sheet, (1510, 1400, 1520), 2, 1500), ("You", "East", "West"))
    assert why == "You and West reached 1500: the soloist wins."
    sheet = [(7, 1, 1, 200, 0, False, (10, 20, 200), (1510, 1400, 1520))]
    why = gameover.reason(_over("binokel", sheet, (1510, 1400, 1520), 2, 1500), ("You", "East", "West"))
    assert why == "You and West reached 1500: the higher score wins."
    # no tie-break: one reached it
    sheet = [(2, 0, (0, 0), (0, 0), (1010, 400), 0)]
    assert gameover.reason(_over("hoyle", sheet, (1010, 400), 0, 1000), ("You", "AI")) == "You reached 1000."


# -- hints and the AI's narration -------------------------------------------------------------

def test_hint_reasons_use_no_jargon():
    said = set()
    for rules in ("hoyle", "french", "binokel"):
        for seed in (1, 5):
            state = new_game(rules, seed)
            seats = [new_player(rules, p, "normal", seed) for p in range(state.PLAYERS)]
            helper = new_player(rules, 0, "hard", 77)
            while state.deal_number <= 1 and not state.is_game_over():
                p = state.current_player()
                obs = state.observation(p)
                if p == 0 and len(obs.legal) > 1:
                    said.add(copy.deepcopy(helper).hint(obs)[1])
                if p == 0:
                    helper.observe(obs)
                state.apply(seats[p].choose(obs))
    assert len(said) > 20
    for reason in said:
        assert len(reason) <= LINE and not any(j in reason for j in JARGON), reason


def test_a_knock_advised_in_play_says_where_the_knock_is():
    """During play the knock is the pause menu's last line: the hint names the button that
    opens it, on each board by its own name, and the reason gives the count."""
    from engine.state import PH_PLAY
    from binocle.scenes.table import Table
    from binocle import buttons as B
    p = new_player("hoyle", 0, "hard", 77)
    obs = Observation("hoyle", 0)
    obs.phase, obs.target, obs.legal, obs.scores = PH_PLAY, 1000, (actions.KNOCK,), (990, 0)
    p.can_knock = lambda o: True
    p.my_count = lambda o: 1010
    p.final_knock(obs)
    assert p.decision == actions.KNOCK and p.why == "your 1010 reaches 1000"
    for start in ("START", "Enter"):                  # a PyBadge's name, the simulator's key
        labels = ["x"] * 8
        labels[B.START] = start
        profile = type("P", (), {"LABELS": tuple(labels)})
        shown = []
        table = type("T", (), {})()
        table.obs = obs
        table.app = type("A", (), {"profile": profile,
                                   "toast": lambda self, text, ms: shown.append(text)})()
        Table.say_hint(table, actions.KNOCK, p.why)
        assert shown == ["Hint: knock: %s, Knock\nyour 1010 reaches 1000" % start]


def test_the_ai_giving_up_fits_the_message_band():
    s = Session("binokel", 1, 0, "normal")
    for seat in (1, 2):
        for k in range(4):
            line = words.narrate(s.names, seat, actions.SURRENDER + k, s, _Obs(), 0)
            assert line == "%s gives up: %s" % (s.names[seat], words.SUIT_WORDS[k])
            assert len(line) <= LINE
