"""No single press loses a game, and the game says why it ended: in the simulator, headless,
by the board's buttons (tools/checks/simdriver.py).

- hoyle: B always shows the last trick (it never opens a knock); the knock is the pause
  menu's last line, with the person's count against the target (the engine's own count), and
  a knock short of the target is asked again, naming what it costs; the end says why.
- binokel: giving up is asked again, with its cost and why a suit is named; after it the
  melds screen, the summary and the score sheet say what happened.
"""

import pytest

from engine import actions
from engine.state import PH_CONTRACT, PH_KNOCK
from tools.checks.simdriver import Driver, until, picking


@pytest.fixture(scope="module")
def d():
    return Driver()


def lines(d, block):
    return [d.text(block, r) for r in range(block.height)]


def count(d):
    """The engine's count for a knock by the person (rules.md hoyle 9)."""
    state = d.app.session.state
    return state.score[0] + state.cardpts[0]


def names_on(d, trick_scene):
    """(header, faces) a LastTrick screen shows."""
    from binocle import ui
    texts, faces = [], []
    for item in trick_scene.group:
        if getattr(item, "tile_width", 0) == ui.GLYPH_W:     # a text
            texts.append(d.text(item))
        elif getattr(item, "tile_width", 0) == ui.CARD_W:    # a card
            faces.append(item[0])
    return texts[0], bytes(faces)


# -- hoyle: B shows the last trick, at every turn -----------------------------------------------

def test_b_at_every_turn_of_a_hoyle_deal_shows_the_last_trick_and_never_knocks(d):
    d.start("hoyle", 7)
    session = d.app.session
    turns = 0
    while session.state.deal_number == 1 and not session.state.is_deal_over():
        t = until(d, lambda d: (picking(d) and d.scene().obs.last_trick) or session.state.is_deal_over())
        if session.state.is_deal_over():
            break
        obs = t.obs
        assert actions.KNOCK in obs.legal                   # knocking open: B used to knock here
        done = session.state.nactions
        d.press(d.B.B)
        shown = d.scene()
        assert d.scene_name() == "LastTrick"
        header, faces = names_on(d, shown)
        assert header == "Last trick: %s won" % ("You" if obs.leader == 0 else "AI")
        assert faces == obs.last_trick
        d.press(d.B.A)                                      # any button closes it
        assert d.scene() is t and t.picking() and session.state.nactions == done
        d.person_move()
        turns += 1
    assert turns >= 10 and not session.game_over()


@pytest.mark.parametrize("rules, seed", [("french", 3), ("binokel", 11)])
def test_b_at_the_persons_turn_shows_the_last_trick_in_every_rule_set(d, rules, seed):
    d.start(rules, seed)
    t = until(d, lambda d: picking(d) and d.scene().obs.last_trick)
    d.press(d.B.B)
    assert d.scene_name() == "LastTrick"
    assert names_on(d, d.scene())[1] == t.obs.last_trick
    d.press(d.B.B)
    assert d.scene() is t and t.picking()


def test_b_over_a_menu_shows_the_last_trick_and_hides_the_menu_meanwhile(d):
    d.start("hoyle", 7)
    choice = until(d, lambda d: d.scene_name() == "Choice")         # a meld to announce
    items, index = list(choice.menu.items), choice.menu.index
    d.press(d.B.B)
    assert d.scene_name() == "LastTrick" and choice.group.hidden
    assert names_on(d, d.scene())[1] == choice.obs.last_trick
    d.press(d.B.B)
    assert d.scene() is choice and not choice.group.hidden
    assert choice.menu.items == items and choice.menu.index == index


# -- hoyle: the knock, its count and its question --------------------------------------------------

def test_the_knock_line_of_the_pause_menu_shows_the_engines_count(d):
    d.start("hoyle", 7)
    session = d.app.session
    seen = set()
    while session.state.deal_number < 3 and len(seen) < 40:
        until(d, lambda d: picking(d) and session.state.nactions not in seen)
        seen.add(session.state.nactions)
        d.press(d.B.START)
        pause = d.scene()
        assert pause.menu.items == ["Resume", "Hint", "Last trick", "Score sheet", "Rules help",
                                    "Settings", "New game", "Knock: %d of 1000" % count(d)]
        d.press(d.B.B)
        d.person_move()
    assert session.state.deal_number >= 2            # scores and card points both counted


def test_a_short_knock_is_asked_again_and_no_leaves_the_game_going(d):
    d.start("hoyle", 7)
    session = d.app.session
    t = until(d, lambda d: picking(d) and d.app.session.state.nactions > 20)
    have = count(d)
    assert 0 < have < 1000
    done = session.state.nactions
    d.press(d.B.START)
    d.press(d.B.UP)                                   # the last line, the knock
    assert d.scene().menu.items[d.scene().menu.index] == "Knock: %d of 1000" % have
    d.press(d.B.A)
    ask = d.scene()
    assert d.scene_name() == "Confirm"
    assert lines(d, ask.group[1]) == ["You have %d of 1000:" % have, "your score and the card",
                                      "points in your tricks.", "A knock short of 1000",
                                      "loses the game at once."]
    assert d.text(ask.menu.group[2]) == "Knock anyway?"
    assert ask.menu.items == ["No, play on", "Yes, knock and lose"] and ask.menu.index == 0
    d.press(d.B.A)                                    # No
    assert d.scene_name() == "Pause" and session.state.nactions == done
    import sys
    assert "binocle.scenes.confirm" not in sys.modules        # the question's code is let go
    d.press(d.B.B)
    assert d.scene() is t and t.picking() and not session.game_over()
    d.person_move()                                   # and the game goes on
    assert session.state.nactions == done + 1


def test_a_short_knock_said_twice_loses_and_the_end_says_why(d):
    d.start("hoyle", 7)
    session = d.app.session
    until(d, lambda d: picking(d) and d.app.session.state.nactions > 20)
    have = count(d)
    d.press(d.B.START)
    d.press(d.B.UP)
    d.press(d.B.A)
    assert d.scene_name() == "Confirm"
    d.press(d.B.DOWN)
    d.press(d.B.A)                                    # Yes, knock and lose
    summary = d.wait_for(("Summary",), 200)
    assert session.game_over() and session.state.winner() == 1
    assert session.state.knock == (0, have, False)
    assert d.text(summary.body, 0) == "You knocked: %d, too few" % have
    d.press(d.B.A)
    d.press(d.B.A)
    over = d.scene()
    assert d.scene_name() == "GameOver" and d.text(over.group[1]) == "AI wins"
    assert over.why.text.split("\n") == ["You knocked with %d." % have, "A knock needs 1000: short,",
                                  "it loses the game."]


def test_the_knock_after_the_last_trick_shows_the_count_and_asks_when_short(d):
    d.start("hoyle", 7)
    session = d.app.session
    choice = until(d, lambda d: d.scene_name() == "Choice" and d.scene().obs.phase == PH_KNOCK)
    have = count(d)
    assert have < 1000
    assert choice.menu.items == ["No knock", "Knock: %d of 1000" % have]
    done = session.state.nactions
    d.press(d.B.DOWN)
    d.press(d.B.A)
    assert d.scene_name() == "Confirm"
    d.press(d.B.A)                                    # No
    assert d.scene() is choice and session.state.nactions == done
    d.press(d.B.UP)
    d.press(d.B.A)                                    # No knock
    assert session.state.nactions == done + 1 and not session.game_over()


def test_the_ais_right_knock_ends_the_game_and_says_so(d):
    d.start("hoyle", 7, level="hard")
    session = d.app.session
    session.state.score[1] = 990
    until(d, lambda d: d.scene_name() == "GameOver")
    claim = session.state.knock[1]
    assert session.state.knock == (1, claim, True) and claim >= 1000
    over = d.scene()
    assert d.text(over.group[1]) == "AI wins"
    assert over.why.text.split("\n") == ["AI knocked with %d." % claim, "A knock needs 1000: it",
                                  "wins the game at once."]
    d.app.settings.level = 1


# -- binokel: giving up ------------------------------------------------------------------------------

def to_contract(d):
    d.start("binokel", 13, level="easy")              # the person wins the bidding
    return until(d, lambda d: d.scene_name() == "Choice" and d.scene().obs.phase == PH_CONTRACT)


def test_giving_up_is_asked_again_with_its_cost_and_why_a_suit_is_named(d):
    choice = to_contract(d)
    session = d.app.session
    bid = choice.obs.bid
    assert choice.menu.items == ["Trump: Spades   melds 1000", "Trump: Hearts   melds 1000",
                                 "Trump: Diamonds melds 1010", "Trump: Clubs    melds 1500",
                                 "Durch (all tricks)", "Give up, Spades trump", "Give up, Hearts trump",
                                 "Give up, Diamonds trump", "Give up, Clubs trump"]
    done = session.state.nactions
    for _ in range(7):
        d.press(d.B.DOWN)                             # Give up, Diamonds trump
    d.press(d.B.A)
    ask = d.scene()
    assert d.scene_name() == "Confirm"
    assert bid == 150
    assert lines(d, ask.group[1]) == ["You lose your bid: -150.", "East and West score 50",
                                      "each plus their melds,", "with Diamonds as trump.",
                                      "Play and fall short: -300"]
    assert d.text(ask.menu.group[2]) == "Give up, Diamonds trump?"
    assert ask.menu.items == ["No, back", "Yes, give up"] and ask.menu.index == 0
    d.press(d.B.A)                                    # No
    assert d.scene() is choice and choice.menu.index == 7 and session.state.nactions == done
    d.press(d.B.A)
    d.press(d.B.DOWN)
    d.press(d.B.A)                                    # Yes, give up
    assert session.state.surrendered and session.state.sheet[-1][6][0] == -bid
    obs = session.observation()
    melds = d.scene()
    assert d.scene_name() == "Melds"
    assert d.text(melds.menu.group[2]) == "You gave up (A: summary)"
    assert melds.menu.items == ["You: -150, the bid",          # none of the soloist's melds
                                "East: 50 + melds 10", "  Nine of trump 10",
                                "West: 50 + melds 80", "  Trump pair 40", "  Trump pair 40"]
    for p in (1, 2):                                  # as the engine counts them
        assert obs.deal_points[p] == 50 + sum(m[1] for m in obs.melds[p])
    d.press(d.B.A)
    summary = d.wait_for(("Summary",), 200)
    assert obs.deal_points == (-150, 60, 130) and obs.scores == (-150, 60, 130)
    assert d.text(summary.group[1]) == "Deal 1: You gave up"
    assert lines(d, summary.body) == [
        "The bid of 150 is lost;", "the others get 50 + their", "melds, with Diamonds trump",
        "You    -150 (the bid)", "East    +60 = 50 + 10", "West   +130 = 50 + 80",
        "Score    You  East  West", "        -150    60   130"]
    d.press(d.B.A)
    sheet = d.scene()
    assert d.scene_name() == "Sheet"
    assert d.text(sheet.body, 0).split() == ["1", "-150x", "60", "130"]
    assert d.text(sheet.note) == "x: gave up, lost the bid"
    assert d.text(sheet.foot) == "*: soloist   A: next deal"


def test_an_ai_giving_up_is_said_in_words(d, monkeypatch):
    d.start("binokel", 1, level="normal")             # the person passes; an AI takes the Dabb
    session = d.app.session
    think = session.think

    def gives_up(ticks_ms, budget_ms):
        a = think(ticks_ms, budget_ms)
        return actions.SURRENDER + 1 if a >= 0 and session.state.phase == PH_CONTRACT else a
    monkeypatch.setattr(session, "think", gives_up)
    melds = until(d, lambda d: d.scene_name() == "Melds", pick_last=True)
    solo = session.state.soloist
    name = session.names[solo]
    assert solo != 0 and session.state.surrendered
    assert [d.text(d.app.toast_text, r) for r in range(2)] == ["%s gives up: Hearts" % name, ""]
    assert d.text(melds.menu.group[2]) == "%s gave up (A: summary)" % name
    assert "%s: -%d, the bid" % (name, session.state.bid) in melds.menu.items
    assert melds.menu.items[0] == "You: 50 + melds %d" % sum(m[1] for m in session.observation().melds[0])
