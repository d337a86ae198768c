"""The desktop commands: `python -m tools melds` and `python -m tools play`.

Expected meld totals are worked out by hand from docs/rules.md; the comments say how.
"""

import io
import json
import os
import subprocess
import sys

import pytest

from tools.lab import meldcli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def melds(capsys, *argv):
    """(total, [(name, points), ...], full JSON) of one successful run."""
    assert meldcli.main(list(argv)) == 0
    out = json.loads(capsys.readouterr().out)
    return out["total"], [(m["name"], m["points"]) for m in out["melds"]], out


def melds_error(capsys, *argv):
    assert meldcli.main(list(argv)) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "Traceback" not in captured.err
    assert captured.err.count("\n") == 1
    return captured.err


# -- binokel: the best total of 15 cards (rules.md binokel 5) ----------------------

def binokel(capsys, trump, hand):
    return melds(capsys, "--rules", "binokel", "--trump", trump, *hand.split())


def test_binokel_family_pair_and_binokel(capsys):
    # trump family 150 + plain pair 20 + Q♠ J♦ 40; three aces and odd cards add nothing
    total, found, out = binokel(capsys, "S", "AS TS KS QS JS KH QH JD TH AD TD 9D 9C TC AC")
    assert total == 210
    assert found == [("trump family", 150), ("pair in hearts", 20), ("binokel", 40)]
    assert out["melds"][0]["cards"] == ["AS", "TS", "KS", "QS", "JS"]


def test_binokel_notation_is_forgiving(capsys):
    total, _found, _out = binokel(capsys, "s", "as 10s ks qs js kh qh jd th ad td 9d 9c tc ac")
    assert total == 210


def test_double_binokel(capsys):
    total, found, out = binokel(capsys, "H", "QS QS JD JD TS TS 9S 9S AD TD TD 9D 9C 9C TC")
    assert total == 300            # instead of 40, not beside it
    assert found == [("double binokel", 300)]
    assert sorted(out["melds"][0]["cards"]) == ["JD", "JD", "QS", "QS"]


def test_eight_jacks_against_four(capsys):
    total, found, _out = binokel(capsys, "C", "JS JS JH JH JD JD JC JC TS TS 9S AH TH 9D TC")
    assert (total, found) == (1000, [("eight jacks", 1000)])
    total, found, _out = binokel(capsys, "C", "JS JS JH JH JD JC JC TS TS 9S AH TH 9D TC TD")
    assert (total, found) == (40, [("four jacks", 40)])


def test_trump_nines_ten_each(capsys):
    hand = "9D 9D TS TS TH TH TD TD TC TC AS AH AD 9S 9H"   # four tens and four nines: nothing
    assert binokel(capsys, "D", hand)[:2] == (20, [("trump nine", 10), ("trump nine", 10)])
    assert binokel(capsys, "S", hand)[:2] == (10, [("trump nine", 10)])
    assert binokel(capsys, "C", hand)[:2] == (0, [])


def test_worked_case_trump_family(capsys):
    # rules.md binokel 7: spades trump, a trump family is 150
    total, found, _out = binokel(capsys, "S", "AS TS KS QS JS 9H 9H TH TH TD TD 9D 9C TC AH")
    assert (total, found) == (150, [("trump family", 150)])
    # a second K and Q beside a single family are a pair (trump pair 40)
    total, found, _out = binokel(capsys, "S", "AS TS KS QS JS 9H 9H TH TH TD TD 9D KS QS AH")
    assert (total, found) == (190, [("trump family", 150), ("trump pair", 40)])


# -- hoyle and french: the best run of announcements (rules.md hoyle 6) -------------

def two_hand(capsys, rules, trump, hand, *extra):
    return melds(capsys, "--rules", rules, "--trump", trump, *extra, *hand.split())


def test_hoyle_four_kings_four_queens_is_220(capsys):
    # the classic text's worked case: one fresh card per meld, so never 240 (rules.md hoyle 6):
    # marriages ♠ ♥ ♦ 20 + 40 + 20, four kings with K♣ 80, four queens with Q♣ 60
    total, found, _out = two_hand(capsys, "hoyle", "H", "KS KH KD KC QS QH QD QC 9C 9C JH JC")
    assert total == 220
    assert sorted(found) == sorted([("marriage in spades", 20), ("royal marriage", 40),
                                    ("marriage in diamonds", 20), ("four kings", 80),
                                    ("four queens", 60)])


def test_hoyle_royal_marriage_then_sequence(capsys):
    total, found, out = two_hand(capsys, "hoyle", "H", "AH TH KH QH JH 9S 9S TS TD 9D 9C TC")
    assert (total, found) == (190, [("royal marriage", 40), ("sequence", 150)])
    assert out["melds"][1]["cards"] == ["AH", "TH", "KH", "QH", "JH"]


def test_hoyle_binocle_then_double(capsys):
    total, found, _out = two_hand(capsys, "hoyle", "H", "QS QS JD JD 9S 9S TS TD 9D 9C TC TC")
    assert (total, found) == (120, [("binocle", 40), ("double binocle", 80)])


def test_hoyle_four_kings_then_eight(capsys):
    total, found, _out = two_hand(capsys, "hoyle", "S", "KS KS KH KH KD KD KC KC 9S 9H TD TC")
    assert (total, found) == (240, [("four kings", 80), ("eight kings", 160)])


def test_hoyle_grand_binocle_option(capsys):
    hand = "KS QS JD 9C 9C TC TC 9D TD TD 9S TS"
    # binocle, then K♠ fresh makes it grand (80 > 40); the marriage would lack a fresh card
    assert two_hand(capsys, "hoyle", "H", hand)[:2] == (120, [("binocle", 40), ("grand binocle", 80)])
    total, found, _out = two_hand(capsys, "hoyle", "H", hand, "--no-grand")
    assert (total, found) == (60, [("marriage in spades", 20), ("binocle", 40)])


def test_french_round(capsys):
    # pairs ♠ ♥(trump) ♦ 80, four kings with K♣ 80, the round with Q♣ extends them: 240
    total, found, out = two_hand(capsys, "french", "H", "KS KH KD KC QS QH QD QC 9S TS TD TC")
    assert total == 400
    assert ("round", 240) in found and ("four kings", 80) in found
    rnd = [m for m in out["melds"] if m["name"] == "round"][0]
    assert sorted(rnd["cards"]) == ["KC", "KD", "KH", "KS", "QC", "QD", "QH", "QS"]


def test_french_double_binocle_and_family(capsys):
    assert two_hand(capsys, "french", "H", "QS QS JD JD 9S 9S TS TD 9D 9C TC TC")[:2] == (
        340, [("binocle", 40), ("double binocle", 300)])
    assert two_hand(capsys, "french", "H", "AS TS KS QS JS 9S 9S TD 9D 9C TC TC")[:2] == (
        120, [("pair in spades", 20), ("family in spades", 100)])


def test_french_lone_trump_nines(capsys):
    total, found, _out = two_hand(capsys, "french", "H", "9H 9H TH TH 9S 9S TS TD 9D 9C TC TC")
    assert (total, found) == (20, [("trump nine", 10), ("trump nine", 10)])
    # hoyle has no such meld (the nine only scores by the exchange, which is no meld)
    assert two_hand(capsys, "hoyle", "H", "9H 9H TH TH 9S 9S TS TD 9D 9C TC TC")[:2] == (0, [])


def test_hard_hand_is_quick(capsys):
    # both K♠ Q♠ J♦ pairs with four kings and queens: many orders of many melds
    import time
    start = time.perf_counter()
    total, _found, _out = two_hand(capsys, "hoyle", "S", "KS KH KD KC QS QH QD QC JD JD QS KS")
    assert total == 460
    assert time.perf_counter() - start < 5     # about 0.3 s; generous for loaded machines


# -- usage errors: one line on stderr, exit 2 ----------------------------------------

def test_bad_card(capsys):
    err = melds_error(capsys, "--rules", "binokel", "--trump", "S", *("AS " * 14).split(), "ZZ")
    assert "'ZZ'" in err


def test_wrong_card_count(capsys):
    err = melds_error(capsys, "--rules", "binokel", "--trump", "S",
                      *"AS TS KS QS JS KH QH JD TH AD TD 9D 9C TC".split())
    assert "15" in err and "14" in err
    assert "12" in melds_error(capsys, "--rules", "hoyle", "--trump", "S", "AS")


def test_three_copies(capsys):
    err = melds_error(capsys, "--rules", "hoyle", "--trump", "S",
                      *"AS AS AS KS QS JS KH QH JD TH AD TD".split())
    assert "AS" in err and "two copies" in err


def test_unknown_rules_and_bad_trump(capsys):
    assert "rule set" in melds_error(capsys, "--rules", "skat", "--trump", "S", "AS")
    hand = "KS KH KD KC QS QH QD QC 9C 9C JH JC".split()
    assert "--trump" in melds_error(capsys, "--rules", "hoyle", *hand)
    assert "--trump" in melds_error(capsys, "--rules", "hoyle", "--trump", "X", *hand)
    assert "--rules" in melds_error(capsys, *hand)
    assert "7S" in melds_error(capsys, "--rules", "binokel", "--trump", "S", "7S", *hand[:14])


# 7S and 8C in a hoyle hand: both K Q pairs of spades and clubs lose a card
SEVENS = "7S KH KD KC QS QH QD QC 8C 9C JH JC".split()


def test_sevens_and_eights_only_with_hoyles_64_card_pack(capsys):
    """rules.md common: 7s and 8s are in hoyle's 64-card pack only, which --pack64 chooses."""
    assert melds_error(capsys, "--rules", "hoyle", "--trump", "H", *SEVENS) == (
        "melds: bad card '7S': 7s and 8s need --pack64 (the 64-card pack)\n")
    assert melds_error(capsys, "--rules", "hoyle", "--trump", "H", "8S", *SEVENS[1:]) == (
        "melds: bad card '8S': 7s and 8s need --pack64 (the 64-card pack)\n")
    # royal marriage 40, marriages in diamonds and clubs 20 + 20, four queens with Q♠ 60
    total, found, _out = two_hand(capsys, "hoyle", "H", " ".join(SEVENS), "--pack64")
    assert total == 140
    assert sorted(found) == sorted([("royal marriage", 40), ("marriage in diamonds", 20),
                                    ("marriage in clubs", 20), ("four queens", 60)])
    # the option changes nothing for a hand of the 48-card pack
    assert two_hand(capsys, "hoyle", "H", "KS KH KD KC QS QH QD QC 9C 9C JH JC", "--pack64")[0] == 220
    for rules, hand in (("french", SEVENS), ("binokel", SEVENS + "AS AH AD".split())):
        assert melds_error(capsys, "--rules", rules, "--trump", "H", *hand) == (
            "melds: bad card '7S': no 7s or 8s in the %s pack\n" % rules)
        assert melds_error(capsys, "--rules", rules, "--trump", "H", "--pack64", *hand) == (
            "melds: --pack64 belongs to hoyle\n")


def test_real_process_exit_codes():
    def run(*args):
        return subprocess.run([sys.executable, "-m", "tools", "melds"] + list(args), cwd=ROOT,
                              capture_output=True, text=True, timeout=60)
    bad = run("--rules", "binokel", "--trump", "S", "AS", "XX")
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert "Traceback" not in bad.stderr and "XX" in bad.stderr
    good = run("--rules", "hoyle", "--trump", "H", *"KS KH KD KC QS QH QD QC 9C 9C JH JC".split())
    assert good.returncode == 0
    assert json.loads(good.stdout)["total"] == 220
    sevens = run("--rules", "hoyle", "--trump", "H", *SEVENS)
    assert (sevens.returncode, sevens.stdout, sevens.stderr) == (
        2, "", "melds: bad card '7S': 7s and 8s need --pack64 (the 64-card pack)\n")
    pack64 = run("--rules", "hoyle", "--trump", "H", "--pack64", *SEVENS)
    assert (pack64.returncode, pack64.stderr) == (0, "")
    assert json.loads(pack64.stdout)["total"] == 140


# -- play: scripted games through main() ----------------------------------------------

from engine import actions                      # noqa: E402
from tools import opponents              # noqa: E402
from tools.users import play


def run_play(monkeypatch, capsys, argv, answers):
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(a + "\n" for a in answers)))
    rc = play.main(argv)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    return rc, captured.out, captured.err


@pytest.mark.parametrize("rules", ["hoyle", "french", "binokel"])
def test_play_first_choice_through_a_deal(monkeypatch, capsys, rules):
    rc, out, err = run_play(monkeypatch, capsys, ["--rules", rules, "--seed", "11"], ["1"] * 45)
    assert rc == 0 and err == ""
    assert "Deal 1 over." in out
    assert "Score sheet" in out.split("Deal 1 over.")[1]
    assert out.rstrip().endswith("bye")          # the input ran out mid-game
    assert "Game over" not in out
    assert max(len(line) for line in out.splitlines()) <= 80
    # the same seed and answers replay the same game
    assert run_play(monkeypatch, capsys, ["--rules", rules, "--seed", "11"], ["1"] * 45)[1] == out


def sheet_rows(out):
    """Rows of the last score sheet printed: the numbers right of the first '|'."""
    block = out.split("Score sheet")[-1].splitlines()[2:]
    rows = []
    for line in block:
        if not line[:4].strip().isdigit():
            break
        right = line.split("|", 1)[1].replace("|", " ").split()
        rows.append([int(w) for w in right if w.lstrip("+-").isdigit()])
    return rows


@pytest.mark.parametrize("rules", ["hoyle", "french"])
def test_two_hand_sheet_counts_240_card_points(monkeypatch, capsys, rules):
    _rc, out, _err = run_play(monkeypatch, capsys, ["--rules", rules, "--seed", "5"], ["1"] * 45)
    line = out.split("Score sheet")[-1].splitlines()[2]
    (cards_you, melds_you, last_you, total_you), (cards_bot, melds_bot, last_bot, total_bot) = [
        (int(c[:12]), int(c[12:18]), int(c[18:23].strip() or 0), int(c[23:29])) for c in line.split("|")[1:]]
    assert cards_you + cards_bot == 240         # the last trick's 10 has a column of its own
    assert sorted((last_you, last_bot)) == [0, 10]
    assert total_you == melds_you + cards_you + last_you and total_bot == melds_bot + cards_bot + last_bot
    assert "Score: You %d, AI %d" % (total_you, total_bot) in out


def test_binokel_sheet_totals(monkeypatch, capsys):
    _rc, out, _err = run_play(monkeypatch, capsys, ["--rules", "binokel", "--seed", "5"], ["1"] * 60)
    rows = sheet_rows(out)
    assert len(rows) >= 2
    running = [0, 0, 0]
    for row in rows:
        gains, totals = row[0::2], row[1::2]     # per player: the deal's result, the total
        running = [r + g for r, g in zip(running, gains)]
        assert totals == running


def test_bad_input_keeps_the_game_going(monkeypatch, capsys):
    rc, out, _err = run_play(monkeypatch, capsys, ["--rules", "hoyle", "--seed", "3"],
                             ["zz", "99", "0", "QS", "s", "l", "h", "", "1"])
    assert rc == 0
    assert "zz: not understood" in out
    assert "99: no such choice; type a number from 1 to 12." in out
    assert "0: no such choice" in out
    assert "You hold no QS." in out
    assert "The score sheet is empty" in out
    assert "No trick has been taken" in out
    assert "s, sheet" in out
    assert "You play AD" in out                  # "1" still answered the same question
    assert out.rstrip().endswith("bye")


def test_card_notation_plays_the_card(monkeypatch, capsys):
    _rc, out, _err = run_play(monkeypatch, capsys, ["--rules", "hoyle", "--seed", "3"], ["js"])
    assert "You play JS" in out
    _rc, out, _err = run_play(monkeypatch, capsys, ["--rules", "hoyle", "--seed", "3"], ["9D"])
    assert "You play 9D" in out


def test_quit_asks_first(monkeypatch, capsys):
    rc, out, _err = run_play(monkeypatch, capsys, ["--rules", "french", "--seed", "3"], ["q", "n", "q", "y", "1"])
    assert rc == 0
    assert out.count("Quit the game?") == 2
    assert "You play" not in out and out.rstrip().endswith("bye")


def test_play_usage_errors(monkeypatch, capsys):
    for argv in (["--seed", "1"],                          # no --rules and no terminal
                 ["--rules", "skat"], ["--rules", "french", "--pack64"],
                 ["--rules", "binokel", "--no-grand"], ["--rules", "hoyle", "--seed", "-1"],
                 ["--rules", "hoyle", "--seed", "x"]):
        rc, out, err = run_play(monkeypatch, capsys, argv, [])
        assert rc == 2, argv
        assert out == "" and err.startswith("play: ") and err.count("\n") == 1


def test_seed_from_the_clock_is_printed(monkeypatch, capsys):
    _rc, out, _err = run_play(monkeypatch, capsys, ["--rules", "hoyle"], [])
    seed = int(out.split()[1])
    assert out.startswith("seed %d (replay with --seed %d)\n" % (seed, seed))


def test_pack64_and_no_grand_play(monkeypatch, capsys):
    rc, out, _err = run_play(monkeypatch, capsys, ["--rules", "hoyle", "--seed", "2", "--pack64"], ["1"] * 30)
    assert rc == 0 and "stock 39" in out
    rc, out, _err = run_play(monkeypatch, capsys, ["--rules", "hoyle", "--seed", "2", "--no-grand"], ["1"] * 5)
    assert rc == 0 and "stock 23" in out


# -- the opponents ----------------------------------------------------------------------

def greedy_game(rules, seed):
    """A whole game with greedy in every seat; returns the state and the actions."""
    game = play.Game(rules, seed, 0, play.Console(io.StringIO(), io.StringIO()))
    seat0 = opponents.new_opponent("greedy", seed)
    state, seen = game.state, []
    while not state.is_game_over() and state.deal_number <= 30:
        p = state.current_player()
        seat = seat0 if p == 0 else game.opponents[p]
        a = seat.choose(state.observation(p))
        assert a in state.legal_actions()
        assert a not in (actions.KNOCK, actions.DURCH) and not actions.SURRENDER <= a < actions.SURRENDER + 4
        state.apply(a)
        seen.append(a)
    return state, seen


@pytest.mark.parametrize("rules", ["hoyle", "french", "binokel"])
def test_greedy_plays_whole_games_the_same_way_twice(rules):
    state, seen = greedy_game(rules, 21)
    assert state.is_game_over()
    assert greedy_game(rules, 21)[1] == seen


def test_greedy_takes_the_best_announcement():
    from tests.device.helpers import two_hand_game, play as play_cards
    # greedy (seat 1, pone) wins the first trick holding K♥ Q♥ with hearts trump: it melds 40
    state = two_hand_game("hoyle", "KH QH AS TS 9S 9S JS JC 9C TC TD 9D",
                          "AD KD QD JD KC QC AC TH JH 9H JS QS", "9H", dealer_seat=0)
    play_cards(state, "AS JS")
    game = play.Game("hoyle", 1, 0, play.Console(io.StringIO(), io.StringIO()))
    game.state = state
    assert state.current_player() == 1
    choice = game.opponents[1].choose(state.observation(1))
    assert state.describe(choice).startswith("meld royal marriage")
    assert game.points_of(choice) == 40


def test_the_terminal_game_seats_the_arenas_opponents(monkeypatch, capsys):
    game = play.Game("binokel", 4, 0, play.Console(io.StringIO(), io.StringIO()), "random")
    assert [type(game.opponents[p]) for p in (1, 2)] == [opponents.RandomPlayer] * 2
    assert type(play.Game("hoyle", 4, 0, None).opponents[1]) is opponents.GreedyPlayer
    rc, out, err = run_play(monkeypatch, capsys, ["--rules", "binokel", "--seed", "4", "--level", "random"],
                            ["1"] * 20)
    assert rc == 0 and err == "" and out.rstrip().endswith("bye")
    rc, out, err = run_play(monkeypatch, capsys, ["--rules", "hoyle", "--level", "bots"], [])
    assert rc == 2 and out == "" and "invalid choice: 'bots'" in err


# -- play: no single answer loses a game ------------------------------------------------------

def scripted_game(rules, seed, answers, level="greedy"):
    out = io.StringIO()
    game = play.Game(rules, seed, 0, play.Console(io.StringIO("".join(a + "\n" for a in answers)), out), level)
    return game, out


def test_a_short_knock_is_asked_again_with_the_count(monkeypatch, capsys):
    from engine.state import PH_PLAY
    game, out = scripted_game("hoyle", 3, [])
    state = game.state
    while not (state.current_player() == 0 and state.phase == PH_PLAY and state.cardpts[0] > 0
               and sum(state.tricks_won) >= 6):
        p = state.current_player()
        if p == 0:
            game.console.stdin = io.StringIO("1\n")       # the person's first choice, as asked
            game.apply(0, game.ask_person())
        else:
            game.apply(p, game.opponent_action(p))
    have = state.score[0] + state.cardpts[0]         # the engine's count for a knock
    assert 0 < have < 1000
    done = state.nactions
    obs = state.observation(0)
    n = play.menu_order(obs).index(actions.KNOCK) + 1
    game.console.stdin = io.StringIO("%d\nn\n%d\ny\n" % (n, n))
    assert game.ask_person() == actions.KNOCK and state.nactions == done
    text = out.getvalue()
    assert "%2d knock (you have %d of 1000)" % (n, have) in text
    asked = ("Your choice [1-%d]: %d\nYou have %d of 1000. A knock short of 1000 loses the game at once.\n"
             "Knock anyway? [y/n]: " % (n, n, have))
    assert text.count(asked) == 2
    assert asked + "n\nNo knock.\n" + asked + "y\n" in text


def test_a_knock_said_twice_ends_the_game_and_the_end_says_why(monkeypatch, capsys):
    rc, out, _err = run_play(monkeypatch, capsys, ["--rules", "hoyle", "--seed", "3"], ["12", "n", "12", "y"])
    assert rc == 0
    assert out.count("Knock anyway? [y/n]: ") == 2 and "No knock.\n" in out
    assert out.endswith("You knock\nDeal 1 over.\nYou knock with 0 of 1000: too few.\n"
                        "  You: cards 0 + melds 0 = 0\n  AI: cards 0 + melds 0 = 0\n"
                        "  (Melds count the trump 9 swap and a turned-up trump 9.)\n"
                        "Score sheet (melds with the trump 9 swap; last: the last trick):\n"
                        "Deal Dealer | You: cards melds last total |  AI: cards melds last total\n"
                        "   1 You    |          0     0          0 |          0     0          0  knock\n"
                        "Game over: AI wins. (You 0, AI 0)\n"
                        "You knock with 0 of 1000: a knock short of the target loses the game.\n")


def test_the_ais_right_knock_is_said_at_the_end():
    game, out = scripted_game("hoyle", 3, ["1"] * 300, level="normal")
    game.state.score[1] = 990
    assert game.run() == 0
    p, claim, correct = game.state.knock
    assert (p, correct) == (1, True) and claim >= 1000
    assert out.getvalue().endswith("\nAI knocks with %d of 1000: a right knock wins at once.\n" % claim)


def test_giving_up_is_asked_again_with_what_it_costs(monkeypatch, capsys):
    # seed 5: the person bids twice and wins at 270, buries AS TS KS, then "8": diamonds
    answers = ["2", "2", "1", "1", "1", "8", "n", "8", "y"]
    rc, out, _err = run_play(monkeypatch, capsys, ["--rules", "binokel", "--seed", "5"], answers)
    assert rc == 0
    assert " 8 give up with diamonds as trump" in out
    asked = ("Your choice [1-9]: 8\nGiving up costs you your bid: -270.\n"
             "East and West score 50 each plus their melds, counted with diamonds as trump.\n"
             "(Play and fall short: -540.)\nGive up with diamonds as trump? [y/n]: ")
    assert out.count(asked) == 2
    assert asked + "n\nYou do not give up.\n" + asked + "y\n" in out
    assert ("You give up with diamonds as trump\n"
            "  East shows family in hearts AH TH KH QH JH: 100\n"
            "  East shows nine of trump 9D: 10\n"
            "  West shows pair in clubs KC QC: 20\n"
            "  West shows four aces AD AS AH AC: 100\n"
            "Deal 1 over. You give up at 270 with diamonds as trump: no card is played.\n"
            "  You: -270, the bid lost\n"
            "  East: 50 for the give-up + melds 110 = +160\n"
            "  West: 50 for the give-up + melds 120 = +170\n") in out
    assert "   1 You    You      270 gave up   |   -270  -270   +160   160   +170   170\n" in out
