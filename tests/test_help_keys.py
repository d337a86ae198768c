"""The keys a player reads are the keys that work, and the cards' suits read apart.

The rules help opens on the board's buttons; in the simulator the buttons page and the help's
foot name the very keys its profile maps (lib/binocle/boards/sim.py KEYS, which
`python -m tools sim --help` lists too). Hoyle's help says how the target rises. Suits:
4 colours gives each suit its own ink, 2 colours black and red; the setting changes the cards
on screen at once.
"""

import os
import subprocess
import sys

import pytest

from tests import rulesdoc
from tools.checks import gen_assets as G
from tools.users import sim as simtool
from tools.checks.simdriver import Driver

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HELP = os.path.join(ROOT, "assets", "help.txt")
FIRST = {"hoyle": "Binocle", "french": "French binocle", "binokel": "Binokel, 3 hands"}
ACES = (7, 15, 23, 31)          # the ace of spades, hearts, diamonds, clubs (face = suit * 8 + rank)


@pytest.fixture(scope="module")
def d():
    return Driver()


def same_colour(pixel, rgb):
    """The screen is 16-bit (RGB565): a colour comes back within a few steps of itself."""
    want = ((rgb >> 16) & 0xFF, (rgb >> 8) & 0xFF, rgb & 0xFF)
    return all(abs(pixel[i] - want[i]) <= 8 for i in range(3))


def open_help(d, rules):
    from binocle.scenes.help import Help
    d.title()
    d.app.push(Help(d.app, rules))
    d.tick()
    return d.scene()


def page(d):
    s = d.scene()
    return d.text(s.title), [d.text(s.lines, r) for r in range(s.lines.height)], d.text(s.foot)


def key(d, code):
    """A key of the keyboard pressed and let go, as pygame tells the simulator."""
    import pygame
    for kind in (pygame.KEYDOWN, pygame.KEYUP):
        pygame.event.post(pygame.event.Event(kind, key=getattr(pygame, code)))
        d.tick()


def code_of(name):
    """pygame's name of the simulator's key a person reads as `name`, and its button."""
    found = [(code, b) for b, keys in enumerate(simtool.sim_keys()) for n, code in keys if n == name]
    assert len(found) == 1, name
    return found[0]


# -- the buttons page: first, with the keys that work ---------------------------------

@pytest.mark.parametrize("rules", ["hoyle", "french", "binokel"])
def test_the_buttons_page_is_the_first_page_of_each_rule_set(d, rules):
    from binocle import helptext
    n = helptext.count(HELP, rules) + 1
    open_help(d, rules)
    title, lines, foot = page(d)
    assert title == "Buttons"
    assert " ".join(x for x in lines if x) == (
        "Move: Right/Left. Choose: X. Last trick: Z. Menu: Enter. Hint: Tab. "
        "Any button hurries the cards on.")
    assert foot == "1/%d Right: next, Z: back" % n
    d.press(d.B.RIGHT)
    assert page(d)[0] == FIRST[rules] and page(d)[2] == "2/%d Right: next, Z: back" % n
    for _ in range(n - 2):
        d.press(d.B.RIGHT)
    assert page(d)[0] == helptext.page(HELP, rules, n - 2)[0]          # the file's last page
    d.press(d.B.RIGHT)
    assert page(d)[0] == "Buttons"                                      # round again
    d.press(d.B.LEFT)
    assert page(d)[2] == "%d/%d Right: next, Z: back" % (n, n)


def test_the_keys_the_help_names_are_the_keys_the_simulator_maps(d):
    """Each key named on the buttons page and the foot, pressed on the keyboard, does what
    the page says it does."""
    B = d.B
    assert simtool.sim_keys() == d.profile.KEYS                         # one table, read two ways
    assert [code_of(n) for n in d.profile.LABELS] == [
        ("K_LEFT", B.LEFT), ("K_RIGHT", B.RIGHT), ("K_UP", B.UP), ("K_DOWN", B.DOWN),
        ("K_x", B.A), ("K_z", B.B), ("K_RETURN", B.START), ("K_TAB", B.SELECT)]
    help_scene = open_help(d, "hoyle")
    key(d, code_of("Right")[0])                                         # "Right: next"
    assert page(d)[0] == "Binocle"
    key(d, code_of("Left")[0])                                          # "Move: Right/Left"
    assert page(d)[0] == "Buttons"
    key(d, code_of("X")[0])                                             # "Choose: X" turns on too
    assert page(d)[0] == "Binocle"
    key(d, code_of("Z")[0])                                             # "Z: back"
    assert d.scene() is not help_scene and d.scene_name() == "Title"
    import pygame
    assert sorted(k for k, _b in d.profile._KEYS) == sorted(getattr(pygame, code) for keys in d.profile.KEYS
                                                           for _n, code in keys)
    assert len(d.profile._KEYS) == 12


def test_sim_help_lists_every_key():
    done = subprocess.run([sys.executable, "-m", "tools", "sim", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, env=dict(os.environ, DISPLAY=""))
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.endswith(
        "keys:\n"
        "  Left                     left\n"
        "  Right                    right\n"
        "  Up                       up\n"
        "  Down                     down\n"
        "  X or Space               A: choose\n"
        "  Z or Backspace           B: back, the last trick\n"
        "  Enter or keypad Enter    START: the menu\n"
        "  Tab or H                 SELECT: a hint\n")
    names = [n for keys in simtool.sim_keys() for n, _code in keys]
    assert len(names) == 12 and all(n in done.stdout for n in names)


# -- hoyle: how the target rises -------------------------------------------------------

def test_hoyles_help_says_the_target_rises_by_250_when_both_reach_it():
    from binocle import helptext
    from engine import hoyle
    assert rulesdoc.facts("hoyle")["target step"] == hoyle.TARGET_STEP == 250
    pages = [helptext.page(HELP, "hoyle", k) for k in range(helptext.count(HELP, "hoyle"))]
    said = [body for title, body in pages if "both reach" in body]
    assert said == [pages[0][1]] and pages[0][1].endswith(
        "Game to 1000. If both reach it in one deal, it rises by 250.")
    for rules in ("french", "binokel"):                                  # their games end otherwise
        assert not any("both reach" in helptext.page(HELP, rules, k)[1]
                       for k in range(helptext.count(HELP, rules)))


# -- suits in 2 or 4 colours ----------------------------------------------------------

INKS = {0: (0x101010, 0xD01818, 0xD01818, 0x101010), 1: (0x101010, 0xD01818, 0x1A48D0, 0x13802A)}
DIM_INKS = {0: (0x404040, 0x803030, 0x803030, 0x404040), 1: (0x404040, 0x803030, 0x34427E, 0x1E5028)}


def ink_spot(face):
    """A pixel of a face tile's corner rank: (x, y) in the tile, ink whatever the suit."""
    glyph = G.RANK_GLYPHS[face & 7]
    for dy in range(len(glyph)):
        for dx in range(len(glyph[0])):
            if glyph[dy][dx] == "#":
                return 7 - len(glyph[0]) + dx, 2 + dy
    raise AssertionError(face)


def rendered_inks(d, four):
    """The four aces drawn on screen, each suit's ink as the screen shows it, normal and dim."""
    import displayio
    d.app.art.suits(four)
    group = displayio.Group()
    for k in range(8):
        sprite = d.app.art.sprite(ACES[k % 4], x=4 + 22 * (k % 4), y=4 + 30 * (k // 4))
        d.app.art.show(sprite, ACES[k % 4], dim=k >= 4)
        group.append(sprite)
    d.app.screen.append(group)
    try:
        d.tick()
        x, y = ink_spot(ACES[0])
        spots = [d.pixel(4 + 22 * (k % 4) + x, 4 + 30 * (k // 4) + y) for k in range(8)]
    finally:
        d.app.screen.remove(group)
        d.app.art.suits(d.app.settings.suits)
    return spots[:4], spots[4:]


def test_four_colours_give_each_suit_its_own_ink(d):
    d.title()
    normal, dim = rendered_inks(d, 1)
    assert len(set(normal)) == len(set(dim)) == 4
    assert all(same_colour(normal[s], INKS[1][s]) and same_colour(dim[s], DIM_INKS[1][s]) for s in range(4))


def test_two_colours_make_spades_and_clubs_black_hearts_and_diamonds_red(d):
    d.title()
    normal, dim = rendered_inks(d, 0)
    for spots, inks in ((normal, INKS[0]), (dim, DIM_INKS[0])):
        assert spots[0] == spots[3] and spots[1] == spots[2] and spots[0] != spots[1]
        assert same_colour(spots[0], inks[0]) and same_colour(spots[1], inks[1])


def hand_spot(d, t, suit):
    """The screen position of an ink pixel of a card of this suit in the person's hand."""
    for k in range(t.hand_n):
        face = t.slots[k][0]
        if face >> 3 == suit:
            sprite = t.sprite_of(k)
            x, y = ink_spot(face)
            return sprite.x + x, sprite.y + y
    return None


def to_settings_line(d, key):
    s = d.scene()
    while s.keys[s.menu.index][0] != key:
        d.press(d.B.DOWN)
    return s


def test_the_suits_setting_changes_the_cards_on_screen_at_once(d):
    d.start("hoyle", 7)
    assert d.app.settings.suits == 0
    t = d.wait_for(("Table",))
    while not (d.scene_name() == "Table" and t.picking()):
        if not d.person_move():
            d.tick()
    spots = [hand_spot(d, t, suit) for suit in (2, 3)]                  # diamonds, clubs
    spots = [s for s in spots if s is not None]
    assert spots
    before = [d.pixel(*s) for s in spots]
    d.pause_item("Settings")
    s = to_settings_line(d, "suits")
    assert d.text(s.menu.labels, s.menu.index - s.menu.top) == "Suits: 2 colours"
    d.press(d.B.RIGHT)
    assert d.text(s.menu.labels, s.menu.index - s.menu.top) == "Suits: 4 colours"
    assert d.app.settings.suits == 1 and d.app.settings_bytes[1 + 11] == 1     # saved
    d.press(d.B.B)                                                      # to the pause menu
    d.press(d.B.B)                                                      # to the table
    assert d.scene() is t
    after = [d.pixel(*s) for s in spots]
    assert all(a != b for a, b in zip(after, before))
    greens = [(0x1A48D0, 0x34427E), (0x13802A, 0x1E5028)]
    for a, k in zip(after, [suit for suit in (2, 3) if hand_spot(d, t, suit) is not None]):
        assert any(same_colour(a, c) for c in greens[k - 2]), a
    d.app.art.suits(0)                                                  # straight from the setting
    d.tick()
    assert [d.pixel(*s) for s in spots] == before
    d.app.art.suits(1)
    d.tick()
    assert [d.pixel(*s) for s in spots] == after
    d.boot()                                                            # switched off and on
    assert d.app.settings.suits == 1
    assert d.app.art.palette[10] == 0x13802A and d.app.art.dim[11] == 0x34427E
    d.app.settings.suits = 0
    d.app.art.suits(0)
    d.app.save_settings()
