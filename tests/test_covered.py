"""Nothing covers what a player must read, and Durch is asked again: in the simulator,
headless, by the board's buttons (tools/checks/simdriver.py), and in the terminal game.

- the last trick (B) leaves the scores and the prompt line in view, in every rule set;
- binokel: the contract in the top bar and first on the melds screen; the trump menu says
  what the person's melds are worth with each trump, as the engine scores them; a message of
  the bidding does not stay once the Dabb is taken;
- Durch: asked again with what it wins and what it costs; No (or B) changes nothing.
"""

import io

import pytest

from engine import actions, melds
from engine.binokel import CONTRACT_DURCH
from engine.state import PH_BID, PH_CONTRACT, PH_PLAY
from tools.users import play
from tools.checks.simdriver import Driver, until, picking


@pytest.fixture(scope="module")
def d():
    return Driver()


def rows(d, y0, y1):
    """The screen's pixels of rows y0 to y1 - 1."""
    return [[d.pixel(x, y) for x in range(160)] for y in range(y0, y1)]


def texts_of(d, group):
    from binocle import ui
    return [d.text(t) for t in group if getattr(t, "tile_width", 0) == ui.GLYPH_W]


# -- the last trick leaves the prompt line in view ---------------------------------------------

@pytest.mark.parametrize("rules, seed, prompt, cards", [
    ("hoyle", 7, "Your turn: any card", 2),
    ("french", 3, "Your turn: any card", 2),
    ("binokel", 11, "Your turn: follow hearts", 3)])
def test_the_last_trick_leaves_the_prompt_line_readable(d, rules, seed, prompt, cards):
    from binocle import ui
    d.start(rules, seed, level="normal")
    t = until(d, lambda d: picking(d) and d.scene().obs.last_trick and d.scene().obs.trick)
    assert d.text(t.view.status, 1) == prompt
    d.press(d.B.B)
    shown = d.scene()
    assert d.scene_name() == "LastTrick" and d.app.toast_box.hidden
    over = rows(d, 0, 2 * ui.LINE)                          # the scores and the prompt line
    top = min(item.y for item in shown.group)
    assert top == 2 * ui.LINE                               # the box begins under the prompt
    faces = [item[0] for item in shown.group if getattr(item, "tile_width", 0) == ui.CARD_W]
    assert bytes(faces) == t.obs.last_trick and len(faces) == cards
    d.press(d.B.B)
    assert d.scene() is t
    assert rows(d, 0, 2 * ui.LINE) == over                  # the same pixels, box or no box
    assert d.text(t.view.status, 1) == prompt
    assert (255, 218, 32) in over[ui.LINE + 4]             # the prompt's yellow letters (as shown)


def test_the_last_trick_names_each_card_and_the_winner(d):
    d.start("binokel", 11, level="normal")
    t = until(d, lambda d: picking(d) and d.scene().obs.last_trick and d.scene().obs.trick)
    d.press(d.B.B)
    assert texts_of(d, d.scene().group) == ["Last trick: West won", "West", "You", "East"]
    assert t.obs.leader == 2 and t.obs.last_leader == 2
    d.press(d.B.A)


# -- binokel: the contract on the table and on the melds screen -----------------------------------

def test_the_contract_shows_in_the_top_bar_and_on_the_melds_screen(d):
    d.start("binokel", 11, level="normal")
    t = d.scene() if d.scene_name() == "Table" else d.app.scenes[0]
    assert d.text(t.view.status, 0) == "You 0  to 1500"          # the bidding: the target
    assert d.text(t.view.info) == "Bid 150: West"
    melds_screen = until(d, lambda d: d.scene_name() == "Melds")
    state = d.app.session.state
    assert (state.soloist, state.bid, state.trump) == (0, 280, 0)
    assert melds_screen.menu.items[0] == "You 280, trump Spades"
    assert melds_screen.menu.items[1:4] == ["You: 140", "  Family D 100", "  Binokel 40"]
    assert d.text(t.view.status, 0) == "You 0 | You 280 Spades"  # above the melds screen too
    d.press(d.B.A)
    until(d, lambda d: picking(d))
    assert d.text(t.view.status, 0) == "You 0 | You 280 Spades"
    assert d.text(t.view.info) == "Game to 1500"


def test_an_ais_contract_shows_in_the_top_bar(d):
    d.start("binokel", 1, level="normal")                              # the person passes; East takes the Dabb
    t = d.app.scenes[0]
    melds_screen = until(d, lambda d: d.scene_name() == "Melds", pick_last=True)
    state = d.app.session.state
    assert (state.soloist, state.bid, state.trump) == (1, 280, 0)
    assert d.text(t.view.status, 0) == "You 0 | East 280 Spades"
    assert melds_screen.menu.items[0] == "East 280, trump Spades"


def test_the_top_bar_fits_a_long_score_and_contract():
    from binocle.scenes import layout
    from engine.observation import Observation
    obs = Observation("binokel", 0)
    obs.scores, obs.target, obs.phase = (-1500, 0, 0), 1500, PH_PLAY
    obs.soloist, obs.bid, obs.contract = 2, 280, (2, False)
    names = ("You", "East", "West")
    assert layout.top_line(obs, names) == "You -1500 West 280 Diamond"      # 26: cut by a letter
    obs.scores = (-150, 0, 0)
    assert layout.top_line(obs, names) == "You -150 West 280 Diamonds"
    obs.scores = (40, 0, 0)
    assert layout.top_line(obs, names) == "You 40 | West 280 Diamonds"
    obs.contract = (CONTRACT_DURCH, False)
    assert layout.top_line(obs, names) == "You 40 | West 280 Durch"
    obs.contract = (2, True)
    assert layout.top_line(obs, names) == "You 40 | West gave up"
    obs.phase = PH_BID
    assert layout.top_line(obs, names) == "You 40  to 1500"


# -- binokel: the trump menu's meld values ----------------------------------------------------------

def to_contract(d):
    d.start("binokel", 13, level="easy")              # the person wins the bidding at 150
    return until(d, lambda d: d.scene_name() == "Choice" and d.scene().obs.phase == PH_CONTRACT)


def test_the_trump_lines_carry_the_melds_the_engine_scores(d, monkeypatch):
    choice = to_contract(d)
    state = d.app.session.state
    assert choice.menu.items[:5] == ["Trump: Spades   melds 1000", "Trump: Hearts   melds 1000",
                                     "Trump: Diamonds melds 1010", "Trump: Clubs    melds 1500",
                                     "Durch (all tricks)"]
    assert [melds.best_total(state.hands[0], s) for s in range(4)] == [1000, 1000, 1010, 1500]
    calls = []
    real = melds.best_total
    monkeypatch.setattr(melds, "best_total", lambda h, t: calls.append(t) or real(h, t))
    for _ in range(10):
        d.tick()
    d.press(d.B.DOWN)
    d.press(d.B.UP)
    assert calls == []                                # counted when the menu opened, not per frame
    monkeypatch.undo()
    for _ in range(3):
        d.press(d.B.DOWN)
    d.press(d.B.A)                                    # Trump: Clubs
    assert state.trump == 3 and state.meld_points[0] == 1500


def test_an_ais_trump_is_said_without_melds(d):
    from binocle import words
    d.start("binokel", 1, level="normal")
    until(d, lambda d: d.scene_name() == "Melds", pick_last=True)
    assert [d.text(d.app.toast_text, r) for r in range(2)] == ["East: Trump: Spades", ""]
    assert words.choice(d.app.session, d.app.session.observation(), actions.TRUMP, 0) == "Trump: Spades"


# -- binokel: no stale message on the Dabb --------------------------------------------------------

def test_the_bidding_s_last_message_goes_when_the_dabb_is_taken(d):
    d.start("binokel", 1, level="normal")
    state = d.app.session.state
    said = []

    def watch(d):
        if not d.app.toast_box.hidden:
            said.append((state.phase, d.text(d.app.toast_text, 0)))
        return getattr(d.scene(), "dabb_shown", False)
    t = until(d, watch, pick_last=True)
    assert d.text(d.app.toast_text, 0) == "East takes the Dabb: 280" and not d.app.toast_box.hidden
    assert d.text(t.view.status, 1) == "East buries 3"
    heard = []
    for _, s in said:
        if s not in heard:
            heard.append(s)
    assert heard[-2:] == ["East bids 280", "East takes the Dabb: 280"]   # West's pass ended it
    stale = [s for ph, s in said if ph != PH_BID and ("passes" in s or " bids " in s)]
    assert stale == []
    until(d, lambda d: state.phase == PH_CONTRACT)
    d.tick()
    assert d.app.toast_box.hidden                      # the burying done: that message gone too


def test_when_the_person_wins_the_bidding_the_band_says_so(d):
    d.start("binokel", 13, level="easy")
    state = d.app.session.state
    until(d, lambda d: state.phase != PH_BID)
    assert d.text(d.app.toast_text, 0) == "You take the Dabb: 150" and not d.app.toast_box.hidden


# -- binokel: Durch is asked again ---------------------------------------------------------------------

def test_durch_is_asked_before_it_is_announced_and_b_changes_nothing(d):
    choice = to_contract(d)
    session = d.app.session
    items = list(choice.menu.items)
    done = session.state.nactions
    for _ in range(4):
        d.press(d.B.DOWN)
    assert choice.menu.items[choice.menu.index] == "Durch (all tricks)"
    d.press(d.B.A)
    ask = d.scene()
    assert d.scene_name() == "Confirm" and session.state.nactions == done
    assert [d.text(ask.group[1], r) for r in range(ask.group[1].height)] == [
        "No trump; you lead and", "must take all 15 tricks.", "All 15: +1000.",
        "An opponent's first trick", "ends the deal: -1000.", "East and West get 0."]
    assert d.text(ask.menu.group[2]) == "Durch, all 15 tricks?"
    assert ask.menu.items == ["No, back", "Yes, Durch"] and ask.menu.index == 0
    d.press(d.B.B)                                    # back: nothing announced
    assert d.scene() is choice and session.state.nactions == done
    assert choice.menu.items == items and choice.menu.index == 4
    d.press(d.B.A)
    d.press(d.B.A)                                    # No
    assert d.scene() is choice and session.state.nactions == done and choice.menu.index == 4
    d.press(d.B.A)
    d.press(d.B.DOWN)
    d.press(d.B.A)                                    # Yes, Durch
    assert session.state.nactions == done + 1 and session.state.contract == CONTRACT_DURCH
    t = until(d, lambda d: picking(d))
    assert d.text(t.view.status, 0) == "You 0 | You 150 Durch"


def test_the_terminal_game_asks_before_durch():
    # seed 5: the person bids twice and wins at 270, buries AS TS KS, then "5": Durch
    answers = ["2", "2", "1", "1", "1", "5", "n", "5", "y"]
    out = io.StringIO()
    game = play.Game("binokel", 5, 0, play.Console(io.StringIO("".join(a + "\n" for a in answers)), out),
                     "normal")                       # as python -m tools play runs it
    assert game.run() == 0
    text = out.getvalue()
    asked = ("Your choice [1-9]: 5\nDurch: no trump; you lead and must take all 15 tricks.\n"
             "All 15: +1000. The first trick an opponent takes ends the deal: -1000.\n"
             "(East and West score nothing either way.)\nPlay Durch? [y/n]: ")
    assert text.count(asked) == 2
    assert asked + "n\nNo Durch.\n" + asked + "y\nYou play durch\n" in text
    assert game.state.contract == CONTRACT_DURCH and max(len(x) for x in text.splitlines()) <= 80
