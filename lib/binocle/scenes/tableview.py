"""What the table shows: every sprite and label made once, then changed from observations.

    view = TableView(app.art, layout.for_players(2), ("You", "AI"))
    view.draw_status(obs)                  # and the other draw_* methods, from an observation
    view.clear()                           # a whole screen covers the table: sprites go
    view.build()                           # ... and are made anew when it shows again

The Table scene (table.py) owns the game's progress, the keys and the cursor, and tells
this view what to draw; the view reads no game and keeps no state of the game. Sprites
come from pools sized for the largest case, so a deal creates no displayio objects.
"""

import displayio

from engine.state import PH_BURY
from binocle import ui
from binocle.scenes import layout

# Sprite pools per kind of game: (hand, one player's melded cards on the table, the Dabb).
# Two-hand: a player holds 12 cards, in the hand or on the table. Binokel: 15 and the Dabb's 3.
_POOLS_TWO = (12, 12, 0)
_POOLS_THREE = (18, 0, 3)
_RAISE = 5            # the cursor's card stands this much higher


class TableView:
    def __init__(self, art, lay, names):
        self.art = art                # ui.CardArt
        self.lay = lay                # layout.TWO or layout.THREE
        self.names = names            # the seats' names, the person's first
        self.group = displayio.Group()
        self.build()

    # -- building the screen, and letting it go -------------------------------------------

    def build(self):
        g = self.group
        art = self.art
        three = len(self.names) == 3
        g.append(ui.panel(0, 0, ui.W, ui.H, ui.GREEN))
        self.status = ui.block(1, 0, ui.CHARS, 2, ui.WHITE, ui.DARK)    # scores; the prompt
        g.append(self.status)
        self.info = ui.text("", 44, 26, ui.WHITE, width=16) if three else None
        if three:
            g.append(self.info)
        self.opp = []                                    # per opponent: back sprite, its label
        for x, y, lx, ly in self.lay.opponents:
            back = art.sprite(ui.BACK, x, y)
            g.append(back)
            lab = None
            if lx >= 0:                                  # binokel: name and score by the seat
                lab = ui.block(lx, ly, 5, 2)
                g.append(lab)
            self.opp.append((back, lab))
        self.stock = art.sprite(ui.BACK, 136, 52)
        self.turnup = art.sprite(ui.BLANK, 118, 54)
        self.stock_label = ui.text("", 118, 82, ui.WHITE, width=7)
        for s in (self.turnup, self.stock, self.stock_label):
            g.append(s)
        hand, table, dabb = _POOLS_THREE if three else _POOLS_TWO
        self.opp_table = self._row(table)
        self.my_table = self._row(table)
        self.extra = self._row(dabb)                    # the Dabb, face up once taken
        self.trick = self._row(3)
        self.hand = self._row(hand)

    def clear(self):
        """Every sprite and text goes (build() makes them again)."""
        g = self.group
        while len(g):
            g.pop()
        self.status = self.info = self.stock = self.turnup = self.stock_label = None
        self.opp = self.opp_table = self.my_table = self.extra = self.trick = self.hand = ()

    def _row(self, n):
        group = displayio.Group()
        sprites = []
        for _ in range(n):
            s = self.art.sprite(ui.BLANK)
            s.hidden = True
            sprites.append(s)
            group.append(s)
        self.group.append(group)
        return sprites

    # -- drawing from the observation -------------------------------------------------------

    def draw_status(self, obs):
        names = self.names
        if self.info is not None:
            ui.set_text(self.info, layout.info_text(obs, names))
        ui.set_lines(self.status, (layout.top_line(obs, names), layout.prompt(obs, names)))
        self.status.pixel_shader = ui.ink(ui.YELLOW if obs.turn == 0 else ui.WHITE, ui.DARK)

    def draw_opponents(self, obs):
        names = self.names
        for i in range(len(self.opp)):
            back, lab = self.opp[i]
            back.hidden = obs.hand_sizes[i + 1] == 0
            if lab is not None:                          # East's right-aligned, West's left
                f = "%5s" if i == 0 else "%s"
                ui.set_lines(lab, (f % names[i + 1], f % obs.scores[i + 1]))
        if obs.tables is not None:                       # two hands: the other's melded cards
            self.draw_row(self.opp_table, [r & 31 for r in obs.tables[1]], 2, 24, layout.ROW_X1)

    def draw_stock(self, obs):
        if obs.stock_left is None:                       # binokel: the trump sign once named
            self.stock.hidden = True
            self.turnup.hidden = obs.trump is None or obs.trump < 0
            if not self.turnup.hidden:
                self.turnup[0] = ui.SUIT_SIGN + obs.trump
                self.turnup.x, self.turnup.y = 22, 24
            return
        self.stock.hidden = obs.stock_left == 0
        if obs.turnup >= 0:
            self.turnup[0] = obs.turnup
            self.turnup.x = 118
        else:
            self.turnup[0] = ui.SUIT_SIGN + obs.trump
            self.turnup.x = 136
        self.turnup.hidden = False
        ui.set_text(self.stock_label, "%d left" % obs.stock_left if obs.stock_left else "")

    def draw_row(self, sprites, faces, x0, y, x1, dim=False):
        n = len(faces)
        step = layout.step(n, x1 - x0)
        for i in range(len(sprites)):
            s = sprites[i]
            if i < n:
                self.art.show(s, faces[i], dim)
                s.x, s.y = x0 + i * step, y
                s.hidden = False
            else:
                s.hidden = True

    def draw_trick(self, faces, leader):
        n = len(self.names)
        for i in range(3):
            s = self.trick[i]
            if i < len(faces):
                seat = (leader + i) % n
                s[0] = faces[i]
                s.x, s.y = self.lay.trick[seat]
                s.hidden = False
            else:
                s.hidden = True

    def draw_dabb(self, obs, shown):
        """The Dabb, face up in the trick area: shown to all when it is taken (shown), and
        while the soloist buries."""
        faces = ()
        if obs.dabb is not None and (obs.phase == PH_BURY or shown):
            faces = obs.dabb
        self.draw_row(self.extra, faces, 46, 44, 112)

    def draw_mine(self, slots, hand_n, cursor, picking, legal):
        """The person's cards (layout.my_cards()): the first hand_n the hand, centred, then
        the table cards from the left, clear of the stock. Cards not in legal are dimmed
        while picking, and the cursor's card stands higher."""
        self._place(self.hand, slots, 0, hand_n, cursor, picking, legal, self.lay.hand_y, True)
        self._place(self.my_table, slots, hand_n, len(slots), cursor, picking, legal, layout.TABLE_Y,
                    False)

    def stand_cursor(self, n, hand_n, cursor, picking):
        """Raise the cursor's card and lower the others; the cards themselves stay."""
        for k in range(n):
            y = self.lay.hand_y if k < hand_n else layout.TABLE_Y
            self.sprite_of(k, hand_n).y = y - (_RAISE if picking and k == cursor else 0)

    def _place(self, sprites, slots, first, end, cursor, picking, legal, y, centre):
        n = end - first
        step = layout.step(n, 156 if centre else layout.ROW_X1 - 2)
        x0 = (ui.W - (ui.CARD_W + step * (n - 1))) // 2 if n and centre else 2
        for i in range(len(sprites)):
            s = sprites[i]
            if i >= n:
                s.hidden = True
                continue
            face, action, _src = slots[first + i]
            self.art.show(s, face, picking and action not in legal)
            s.x = x0 + i * step
            s.y = y - (_RAISE if picking and first + i == cursor else 0)
            s.hidden = False

    def sprite_of(self, k, hand_n):
        """The sprite showing the person's card number k (hand first, then table)."""
        return self.hand[k] if k < hand_n else self.my_table[k - hand_n]
