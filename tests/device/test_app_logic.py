"""The device app's parts that need no screen, under MicroPython too: every app module
compiles there, and a Session (the app's hold on the game) plays deals with sliced AI."""

import sys

if "lib" not in sys.path:
    sys.path.append("lib")

# The app's files that go onto the board (tests/test_portability.py checks the list is whole).
APP_FILES = (
    "code.py", "boot.py",
    "lib/binocle/__init__.py", "lib/binocle/anim.py", "lib/binocle/app.py", "lib/binocle/begin.py", "lib/binocle/buttons.py",
    "lib/binocle/helptext.py", "lib/binocle/input.py", "lib/binocle/session.py", "lib/binocle/teach.py",
    "lib/binocle/nvmstore.py", "lib/binocle/saveload.py", "lib/binocle/settings.py", "lib/binocle/startup.py", "lib/binocle/stats.py", "lib/binocle/statsold.py", "lib/binocle/store.py", "lib/binocle/version.py", "lib/binocle/ui.py", "lib/binocle/words.py",
    "lib/binocle/boards/__init__.py", "lib/binocle/boards/feather_s3_tft.py",
    "lib/binocle/boards/pybadge.py", "lib/binocle/boards/pygamer.py",
    "lib/binocle/boards/speaker.py",
    "lib/binocle/scenes/__init__.py", "lib/binocle/scenes/base.py", "lib/binocle/scenes/choice.py", "lib/binocle/scenes/help.py",
    "lib/binocle/scenes/lasttrick.py", "lib/binocle/scenes/layout.py", "lib/binocle/scenes/melds.py",
    "lib/binocle/scenes/pause.py", "lib/binocle/scenes/sheet.py", "lib/binocle/scenes/statsview.py", "lib/binocle/scenes/table.py",
    "lib/binocle/scenes/summary.py", "lib/binocle/scenes/gameover.py", "lib/binocle/scenes/settingsview.py",
    "lib/binocle/scenes/confirm.py", "lib/binocle/scenes/lesson.py",
    "lib/binocle/scenes/tableview.py", "lib/binocle/scenes/title.py",
)


class FakeClock:
    """ticks_ms that advances 1 ms per reading: slices end after a fixed amount of work."""

    def __init__(self):
        self.t = 0

    def __call__(self):
        self.t = (self.t + 1) & 0x1FFFFFFF
        return self.t


def test_every_app_module_compiles():
    """From source; on a drive of .mpy files (device-tests --bundle) each is there compiled."""
    import os
    for path in APP_FILES:
        try:
            fh = open(path)
        except OSError:
            os.stat(path[:-3] + ".mpy")      # OSError if neither is on the drive
            continue
        with fh:
            source = fh.read()
        compile(source, path, "exec")


def play_deal(rules, seed, level):
    """The person takes the first legal action; the AI thinks in 5 ms slices."""
    from binocle.session import Session
    s = Session(rules, seed, 0, level)
    clock = FakeClock()
    slices = 0
    longest = 0
    while not s.state.is_deal_over():
        if s.person_to_move():
            s.remember()
            s.apply(s.observation().legal[0])
        else:
            a = s.think(clock, 5)
            slices += 1
            if a >= 0:
                s.apply(a)
                longest = max(longest, slices)
                slices = 0
    return s, longest


def test_a_session_plays_a_deal_of_each_rule_set():
    from engine import record
    for rules, seed in (("hoyle", 4), ("french", 5), ("binokel", 6)):
        s, longest = play_deal(rules, seed, "hard")
        obs = s.observation()
        assert len(obs.sheet) == 1
        assert longest > 1                  # some decision took several slices: the screen lived
        again = record.replay(record.encode(s.state))
        assert again.scores() == s.state.scores()


def test_the_hint_is_a_legal_move_with_a_reason():
    from binocle.session import Session
    s = Session("french", 8, 0, "normal")
    clock = FakeClock()
    while not s.person_to_move():
        a = s.think(clock, 50)
        if a >= 0:
            s.apply(a)
    s.remember()
    hint = None
    while hint is None:
        hint = s.hint_step(clock, 5)
    assert hint[0] in s.observation().legal
    assert len(hint[1]) > 0


def test_the_rules_help_reads_one_page_at_a_time_from_its_file():
    from binocle import helptext
    path = "assets/help.txt"
    counts = []
    for rules in ("hoyle", "french", "binokel"):
        n = helptext.count(path, rules)
        counts.append(n)
        assert helptext.page(path, rules, n) is None
    assert counts == [13, 12, 11]          # each with its Words page(s) last
    assert helptext.page(path, "hoyle", 1)[0] == "Cards"
    assert helptext.page(path, "hoyle", 11)[0] == "Knocking"
    assert helptext.page(path, "binokel", 5)[0] == "Giving up"
    title, text = helptext.page(path, "binokel", 8)
    assert title == "Scoring" and text.endswith("Game to 1500.")


def test_the_lessons_read_from_their_file_and_fit_the_moment():
    from binocle import teach
    from engine.rules import new_game
    path = "assets/teach.txt"
    assert teach.read(path, "hoyle", "deal")[0] == "The stock"
    assert teach.read(path, "french", "dix")[1].endswith("each 9 scores once.")
    assert teach.read(path, "hoyle", "bid") is None and teach.read(path, "binokel", "play")[0] == "Playing"
    state = new_game("binokel", 11)
    obs = state.observation(state.current_player())
    assert teach.due(obs) == 32                       # the bidding
    state = new_game("hoyle", 7)
    obs = state.observation(state.current_player())
    assert teach.due(obs) == 1                        # the stock


def test_the_opponent_ponders_on_the_persons_time_and_a_hint_stops_it():
    from binocle.session import Session
    s = Session("french", 3, 0, "hard")
    clock = FakeClock()
    pondered = hinted = 0
    while not s.state.is_deal_over():
        if not s.person_to_move():
            a = s.think(clock, 5)
            if a >= 0:
                s.apply(a)
            continue
        s.remember()
        s.ponder_step(clock, 5)
        while not hinted and s.ponder_gen is not None and s.ai[1].ponder_search is None:
            s.ponder_step(clock, 5)         # to the search of the position it guessed
        if s.ponder_gen is not None and not hinted:
            hint = None                     # a hint asked while the opponent ponders
            while hint is None:
                hint = s.hint_step(clock, 5)
            assert s.ponder_gen is None and s.ai[1].ponder_search is None
            hinted = 1
        for _ in range(1000):               # the person takes long enough
            if s.ponder_gen is None and s.ponder_for == s.state.nactions:
                break
            s.ponder_step(clock, 5)
        if s.ai[1].ponder_search is not None:
            pondered += 1
        s.apply(s.observation().legal[0])
    assert hinted and pondered >= 4
