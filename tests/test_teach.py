"""A game that teaches itself (Settings: Explain rules): each lesson of assets/teach.txt shows
once, at the person's first turn of its kind, in seeded games of each rule set played by the
board's buttons in the simulator (tools/checks/simdriver.py); A goes on; none when the setting is
off or the rule set's first game was played to its end; the texts fit their panel and say
what docs/rules.md says; the terminal game prints the same texts; a missing or damaged file
only means no lessons."""

import io
import os
import re
import sys

import pytest

from tests import rulesdoc
from tests.test_rules_text import CARD_NOTATION, sentence_regex

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "lib"))

from engine import actions                                         # noqa: E402
from engine.state import PH_PLAY, PH_ANNOUNCE, PH_KNOCK, PH_BID, PH_BURY, PH_CONTRACT   # noqa: E402
from binocle import teach, words                                    # noqa: E402
from tools.checks.simdriver import Driver, until                           # noqa: E402

TEACH = os.path.join(ROOT, "assets", "teach.txt")
# The lessons each rule set has (teach.due() can ask for them).
LESSONS = {"hoyle": ("deal", "meld", "dix", "last", "knock"),
           "french": ("deal", "meld", "dix", "last"),
           "binokel": ("bid", "dabb", "trump", "giveup", "solo", "play")}
# (rules, seed, level, the person passes in the bidding, the lessons of its first deal in order)
GAMES = (("hoyle", 7, None, False, ["deal", "meld", "dix", "last", "knock"]),
         ("french", 5, None, False, ["deal", "meld", "dix", "last"]),
         ("binokel", 11, "easy", False, ["bid", "dabb", "trump", "giveup", "play"]),
         ("binokel", 13, "easy", False, ["bid", "dabb", "trump", "giveup", "play"]),   # no say in the bidding
         ("binokel", 1, None, True, ["bid", "solo", "play"]))                         # an AI seat the soloist


@pytest.fixture(scope="module")
def d():
    return Driver()


def key_of(rules, title):
    for key in teach.KEYS:
        page = teach.read(TEACH, rules, key)
        if page is not None and page[0] == title:
            return key
    raise AssertionError("no lesson titled %r" % title)


def right_moment(key, obs):
    """The lesson's key fits what the person has to do now."""
    ph = obs.phase
    if key in ("deal", "last"):
        return ph == PH_PLAY and (obs.stock_left > 0) == (key == "deal")
    if key == "meld" or key == "dix":
        return ph == PH_ANNOUNCE and (key == "meld" or actions.EXCHANGE in obs.legal)
    if key == "solo":
        return ph == PH_PLAY and obs.soloist > 0
    return ph == {"knock": PH_KNOCK, "dabb": PH_BURY, "trump": PH_CONTRACT, "giveup": PH_CONTRACT,
                  "play": PH_PLAY}.get(key) or (key == "bid" and ph in (PH_BID, PH_BURY))


def play_deal(d, rules, seed, level=None, pick_last=False, teach_setting=1):
    """One deal by buttons; [(key, the person's observation, nactions)] of each lesson shown,
    checking at every turn of the person that the lessons due were shown before it."""
    shown = []

    def on(d, name):
        s = d.scene()
        obs = d.app.session.observation()
        if name == "Lesson":
            key = key_of(rules, d.text(s.title))
            if not shown or shown[-1][0] != key or shown[-1][2] != d.app.session.state.nactions:
                shown.append((key, obs, d.app.session.state.nactions))
            assert d.text(s.foot) in ("X: back to the game", "X: next lesson")           # the simulator's A
        elif (name == "Choice" or (name == "Table" and s.waiting)) and d.app.session.person_to_move() \
                and d.app.settings.teaching(d.app.settings.rules_id_of(rules)):
            due = teach.due(obs)
            assert due & ~getattr(d.app.scenes[0], "taught", 0) == 0, (rules, seed, due)
    d.start(rules, seed, level=level, teach=teach_setting)
    d.play_until(("Summary",), on_scene=on, pick_last=pick_last)
    return shown


@pytest.mark.parametrize("rules,seed,level,pick_last,want", GAMES)
def test_each_lesson_shows_once_at_its_moment(d, rules, seed, level, pick_last, want):
    shown = play_deal(d, rules, seed, level, pick_last)
    assert [k for k, _obs, _n in shown] == want
    for key, obs, n in shown:
        assert right_moment(key, obs), (key, obs.phase)
    if rules == "binokel" and seed == 13:            # forehand, both others passed: first word at the Dabb
        assert [o.phase for _k, o, _n in shown[:2]] == [PH_BURY, PH_BURY]
    if rules == "binokel" and seed == 11:
        assert shown[0][1].phase == PH_BID and shown[0][2] == 0      # before any bid at all
    assert "binocle.scenes.lesson" not in sys.modules           # forgotten once closed
    assert "binocle.teach" not in sys.modules                   # asked at each turn, never kept


def test_a_closes_the_lesson_and_the_game_goes_on(d):
    sys.modules.pop("binocle.helptext", None)              # another test may have loaded it
    d.start("hoyle", 7, teach=1)
    d.wait_for(("Lesson",), 200)
    lesson, table = d.scene(), d.app.scenes[0]
    assert "binocle.helptext" not in sys.modules           # it read the lessons: gone with teach
    assert d.text(lesson.title) == "The stock" and table.waiting
    lines = [d.text(lesson.lines, r) for r in range(6)]
    assert lines == words.wrap(teach.read(TEACH, "hoyle", "deal")[1], 26)
    for b in (d.B.B, d.B.START, d.B.SELECT, d.B.LEFT):
        d.press(b)
        assert d.scene() is lesson                   # only A goes on
    d.press(d.B.A)
    assert d.scene_name() == "Table" and d.scene().picking()
    n = d.app.session.state.nactions
    d.person_move()
    assert d.app.session.state.nactions > n


def test_two_lessons_of_one_moment_show_one_after_the_other(d):
    d.start("hoyle", 7, teach=1)
    until(d, lambda d: d.scene_name() == "Lesson" and d.text(d.scene().title) == "A meld")
    assert d.text(d.scene().foot) == "X: next lesson"
    d.press(d.B.A)
    assert d.text(d.scene().title) == "The trump 9" and d.text(d.scene().foot) == "X: back to the game"
    d.press(d.B.A)
    assert d.scene_name() == "Choice"


@pytest.mark.parametrize("rules", ("hoyle", "binokel"))
def test_no_lesson_with_the_setting_off(d, rules):
    for name in ("binocle.teach", "binocle.scenes.lesson"):
        sys.modules.pop(name, None)                 # another test of this process may have them
    assert play_deal(d, rules, 7, "easy", teach_setting=0) == []
    assert "binocle.teach" not in sys.modules and "binocle.scenes.lesson" not in sys.modules


def test_a_game_played_out_ends_the_first_game_lessons(d):
    """A knock short of the target ends a hoyle game: its bit is set and saved, and the next
    hoyle game (First game) has no lessons; french still has them; Always shows them again."""
    d.start("hoyle", 7, teach=1)
    assert d.app.settings.taught == 0
    until(d, lambda d: d.scene_name() == "Table" and d.scene().picking() and d.app.session.state.nactions > 20)
    d.press(d.B.START)
    d.press(d.B.UP)                                      # the pause menu's last line: the knock
    d.press(d.B.A)
    d.press(d.B.DOWN)
    d.press(d.B.A)                                       # knock anyway: the game is lost
    d.play_until(("GameOver",))
    assert d.app.settings.taught == 1
    d.boot()                                             # off and on: the bit was saved
    assert d.app.settings.taught == 1 and d.app.settings.teach == 1
    assert not d.app.settings.teaching(0) and d.app.settings.teaching(1)
    assert play_deal(d, "hoyle", 7) == []
    try:
        assert [k for k, _o, _n in play_deal(d, "french", 5)] == list(LESSONS["french"])
        assert [k for k, _o, _n in play_deal(d, "hoyle", 7, teach_setting=2)] == list(LESSONS["hoyle"])
    finally:
        d.app.settings.taught = 0


def test_a_continued_game_goes_on_teaching(d):
    """Teaching is decided at each turn by the setting and the rule set's bit, so a game left
    for the title and continued keeps explaining (a lesson seen before may show once more)."""
    d.start("hoyle", 7, teach=1)
    d.wait_for(("Lesson",), 200)
    d.press(d.B.A)
    d.app.to_title()
    d.tick()
    assert "binocle.teach" not in sys.modules             # never kept between turns
    d.scene().choose()                                    # the title's first line: Continue
    d.wait_for(("Lesson",), 200)
    assert d.text(d.scene().title) == "The stock"


@pytest.mark.parametrize("content", [None, b"\xff\xfe\x00garbage\n= deal \xc3", b"= deal\n"])
def test_a_missing_or_damaged_file_means_no_lessons(d, tmp_path, content):
    assets = str(tmp_path) + "/"
    if content is not None:
        (tmp_path / "teach.txt").write_bytes(content)
    d.app.assets, old = assets, d.app.assets
    try:
        assert play_deal(d, "hoyle", 7, teach_setting=2) == []
    finally:
        d.app.assets = old
    assert "binocle.scenes.lesson" not in sys.modules


# -- the file ------------------------------------------------------------------------------------

@pytest.mark.parametrize("rules", ("hoyle", "french", "binokel"))
def test_every_lesson_fits_its_panel(rules):
    for key in LESSONS[rules]:
        page = teach.read(TEACH, rules, key)
        assert page is not None, (rules, key)
        title, text = page
        assert len(title) <= 26
        lines = words.wrap(text, 26)
        assert len(lines) <= 6 and max(len(x) for x in lines) <= 26, (rules, key, lines)
    for key in teach.KEYS:
        if key not in LESSONS[rules]:
            assert teach.read(TEACH, rules, key) is None, (rules, key)


def test_a_rule_set_reads_its_own_lesson_first():
    assert "announce it alone" in teach.read(TEACH, "french", "dix")[1]
    assert "announce" not in teach.read(TEACH, "hoyle", "dix")[1]
    assert teach.read(TEACH, "binokel", "deal") is None


# {key: sentences} with {name} where the lesson gives the value docs/rules.md calls name
SENTENCES = {
    "deal": [], "meld": [], "last": [],
    "dix": ["You hold the {nine} of trump", "for {dix} points"],
    "knock": ["make {target}:"],
    "bid": ["opens at {opening bid}.", "bid {bid step} more"],
    "dabb": ["the {dabb} cards of the Dabb", "Bury {dabb} cards"],
    "trump": ["all {hand} tricks: +{durch}, else -{durch}."],
    "giveup": ["the others score {surrender bonus} each"],
    "solo": [],
    "play": ["The last trick adds {last trick}."],
}
FRENCH_DIX = ["You hold the {nine} of trump", "Either scores {dix}", "each {nine} scores once"]


def facts(rules):
    out = rulesdoc.facts(rules)
    out["nine"] = rulesdoc.number(r"holds the (\d+) of trumps", rulesdoc.rule("hoyle", 4))
    if rules == "binokel":
        out["durch"] = rulesdoc.number(r"Durch is won with all \d+ tricks, for \+(\d+)", rulesdoc.rule("binokel", 7))
        assert rulesdoc.number(r"the soloist gets −(\d+)", rulesdoc.rule("binokel", 7)) == out["durch"]
        assert rulesdoc.number(r"Durch is won with all (\d+) tricks", rulesdoc.rule("binokel", 7)) == out["hand"]
    return out


def lesson_values(rules, path=TEACH):
    """[(key, name, value)] of the rule set's lessons, and [(key, number)] no sentence covers."""
    values, uncovered = [], []
    for key in LESSONS[rules]:
        text = teach.read(path, rules, key)[1]
        for sentence in (FRENCH_DIX if rules == "french" and key == "dix" else SENTENCES[key]):
            regex, names = sentence_regex(sentence)
            found = list(regex.finditer(text))
            assert len(found) == 1, (rules, key, sentence, len(found))
            m = found[0]
            values.extend((key, n, int(v)) for n, v in zip(names, m.groups()))
            text = text[:m.start()] + " " * (m.end() - m.start()) + text[m.end():]
        uncovered.extend((key, n) for n in re.findall(r"\d+", CARD_NOTATION.sub(" ", text)))
    return values, uncovered


@pytest.mark.parametrize("rules", ("hoyle", "french", "binokel"))
def test_every_number_of_a_lesson_is_what_the_rules_say(rules):
    values, uncovered = lesson_values(rules)
    f = facts(rules)
    assert [(k, n, v, f.get(n)) for k, n, v in values if f.get(n) != v] == []
    assert uncovered == []
    assert values                                          # a reader that found nothing fails


def test_a_wrong_number_in_a_lesson_is_found(tmp_path):
    text = open(TEACH, encoding="utf-8").read()
    path = tmp_path / "teach.txt"
    path.write_text(text.replace("opens at 150", "opens at 160"), encoding="utf-8")
    values, _ = lesson_values("binokel", str(path))
    assert ("bid", "opening bid", 160) in values and facts("binokel")["opening bid"] == 150
    path.write_text(text.replace("a pass is final", "a pass is final after 2 rounds"), encoding="utf-8")
    assert lesson_values("binokel", str(path))[1] == [("bid", "2")]


# -- the terminal game and the bundle -------------------------------------------------------------

def test_the_terminal_game_prints_the_same_lessons(monkeypatch, capsys):
    from tools.users import play
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 60))
    play.main(["--rules", "hoyle", "--seed", "7", "--level", "easy"])
    out = capsys.readouterr().out
    titles = re.findall(r"^-- (.+) --$", out, re.M)
    assert titles == ["The stock", "A meld", "The trump 9", "The last tricks", "Knocking"]
    title, text = teach.read(TEACH, "hoyle", "meld")
    assert " ".join(out.split("-- %s --\n" % title)[1].split("\n\n")[0].split()) == text
    assert out.index("-- The stock --") < out.index("Your choice")
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 60))
    play.main(["--rules", "hoyle", "--seed", "7", "--level", "easy", "--no-teach"])
    assert "-- The stock --" not in capsys.readouterr().out


def test_the_bundle_ships_the_lessons():
    from tools.users import bundle
    files = bundle.app_files()
    assert files["assets/teach.txt"] == TEACH
    assert "lib/binocle/teach.py" in files and "lib/binocle/scenes/lesson.py" in files
