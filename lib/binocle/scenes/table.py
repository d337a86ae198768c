"""The table: the person's hand with a cursor, the trick, the stock, melds and scores.

This scene runs the game: while the AI seats are to move it lets them think in
slices and paces their moves; when the person is to move it either waits for
a card (play, bury) with the cursor on it, or opens a menu of choices (melds,
knocking, bids, trump). What it shows, its TableView (tableview.py) draws.
"""

from engine import actions
from engine.state import PH_PLAY, PH_BURY, PH_BID
from binocle import buttons as B
from binocle import forget, words
from binocle.anim import Animator
from binocle.input import ticks_add, ticks_diff
from binocle.settings import ANIM_MS, PACE_MS, THINK_MS, TRICK_MS
from binocle.scenes import layout
from binocle.scenes.tableview import TableView


class Table:
    KEYS = (
        (B.LEFT, "left"), (B.RIGHT, "right"), (B.UP, "jump_row"), (B.DOWN, "jump_row"),
        (B.A, "choose"), (B.B, "show_last_trick"), (B.START, "pause"), (B.SELECT, "hint"),
    )

    def __init__(self, app, session):
        self.app = app
        self.session = session
        self.lay = layout.for_players(session.players())
        self.view = TableView(app.art, self.lay, session.names)
        self.group = self.view.group
        self.anim = Animator()
        self.thinking = False
        self.waiting = False          # the person is to move and the scene knows it
        self.ai_since = -1            # when the AI seat to move started
        self.ai_action = -1
        self.hold_until = 0           # a finished trick stays until then
        self.trick_shown = False      # the trick area shows a finished trick
        self.dabb_shown = False       # the trick area shows the Dabb just taken
        self.handled_between = False
        self.hint_asked = False       # SELECT while the game was on its way: a hint when it stops
        self.slots = []               # (face, action, source) of the person's cards on screen
        self.hand_n = 0               # how many of them are in the hand (the rest: table)
        self.cursor = 0
        self.obs = session.observation()
        self.asleep = False           # see sleep()
        self.redraw()

    # -- the person's keys ----------------------------------------------------------------

    def move(self, step):
        if self.picking() and self.slots:
            self.cursor = (self.cursor + step) % len(self.slots)
            self.stand_cursor()

    def left(self):
        self.move(-1)

    def right(self):
        self.move(1)

    def jump_row(self):
        """Between the hand and the table cards (hoyle, french)."""
        if not self.picking() or self.hand_n == len(self.slots):
            return
        self.cursor = self.hand_n if self.cursor < self.hand_n else 0
        self.stand_cursor()

    def choose(self):
        if not self.picking() or not self.slots:
            return
        face, action, _src = self.slots[self.cursor]
        if action not in self.obs.legal:
            self.app.toast(layout.why_not(self.obs, face))
            return
        self.person_does(action)

    def show_last_trick(self):
        """B, at any moment: the last trick. (A knock is a line of the pause menu: no button
        pressed to look at something ends the game.)"""
        from binocle.scenes.lasttrick import LastTrick
        self.app.push(LastTrick(self.app, self.obs, self.session.names))

    def pause(self):
        from binocle.scenes.pause import Pause
        self.app.cover()                  # a whole screen: the table's sprites go meanwhile
        self.app.push(Pause(self.app, self))

    def hint(self):
        if self.waiting:
            self.app.ask_hint(self.show_hint)
        else:
            self.hint_asked = True

    def show_hint(self, action, why):
        for k in range(len(self.slots)):
            if self.slots[k][1] == action:
                self.cursor = k
                self.stand_cursor()
                break
        self.say_hint(action, why)

    def say_hint(self, action, why):
        if actions.is_play(action):
            what = "play " + words.card(actions.play_face(action))
        elif actions.BURY <= action < actions.BURY + 32:
            what = "bury " + words.card(action - actions.BURY)
        elif action == actions.KNOCK and self.obs.phase == PH_PLAY:
            what = "knock: %s, Knock" % self.app.profile.LABELS[B.START]   # the pause menu's
        else:
            what = words.choice(self.session, self.obs, action)
        lines = words.wrap("Hint: " + what)
        if why:
            for c in "SHDC":               # the game's notation for a ten, as its cards show it
                why = why.replace("T" + c, "10" + c)
            lines += words.wrap(why)
        self.app.toast("\n".join(lines[:3]), 5000)      # the band's three lines

    def skip(self):
        """A press during an animation or a pause only hurries the game on."""
        if self.anim.busy():
            self.anim.finish()
            return True
        if self.hold_until:
            self.hold_until = self.app.now
            return True
        return False

    # -- under a whole screen (score sheet, rules help) -------------------------------------

    def sleep(self):
        """A whole screen covers the table: let its sprites and texts go. The app calls
        wake() when the table shows again; it builds and draws them anew."""
        self.anim.finish()
        self.trick_shown = False          # a finished trick is not held under a cover
        self.dabb_shown = False
        self.hold_until = 0
        self.view.clear()
        self.asleep = True

    def wake(self):
        self.asleep = False
        self.obs = self.session.observation()     # first: the largest piece, while the heap is freshest
        self.view.build()
        self.redraw()

    # -- what the table shows ---------------------------------------------------------------

    def redraw(self):
        if self.asleep:
            return                        # wake() draws
        obs = self.obs
        v = self.view
        v.draw_status(obs)
        v.draw_opponents(obs)
        v.draw_stock(obs)
        if not self.trick_shown:
            v.draw_trick(obs.trick, obs.leader)
        v.draw_dabb(obs, self.dabb_shown)
        self.draw_mine(obs)

    def picking(self):
        """The person is to choose one of their cards (play or bury)."""
        return self.waiting and (self.obs.phase == PH_PLAY or self.obs.phase == PH_BURY)

    def draw_mine(self, obs):
        """The person's cards: hand sorted by suit (trump first), then the table cards."""
        self.slots = layout.my_cards(obs, self.app.settings.sort)
        n = 0
        while n < len(self.slots) and self.slots[n][2] == 0:
            n += 1
        self.hand_n = n
        if self.cursor >= len(self.slots):
            self.cursor = max(0, len(self.slots) - 1)
        self.view.draw_mine(self.slots, n, self.cursor, self.picking(), obs.legal)

    def stand_cursor(self):
        self.view.stand_cursor(len(self.slots), self.hand_n, self.cursor, self.picking())

    def sprite_of(self, k):
        """The sprite showing the person's card number k (hand first, then table)."""
        return self.view.sprite_of(k, self.hand_n)

    # -- the game's progress ------------------------------------------------------------

    def reveal(self):
        """Back on top after the scene above closed."""
        self.obs = self.session.observation()
        self.redraw()

    def update(self, now):
        if self.anim.busy():
            self.anim.update(now)
            return
        if self.hold_until:                  # a finished trick, or the Dabb, on view
            if ticks_diff(now, self.hold_until) < 0:
                return
            self.hold_until = 0
            if self.trick_shown:
                self.clear_trick(now)
            if self.dabb_shown:
                self.dabb_shown = False
                self.view.draw_dabb(self.obs, False)
            return
        s = self.session
        if s.state.is_deal_over():          # scored, or the game won
            self.end_of_deal()
        elif s.person_to_move():
            if not self.waiting:
                self.person_turn()
            else:                           # the opponent thinks ahead on the person's time
                s.ponder_step(self.app.profile.ticks_ms, THINK_MS)
        elif s.ai_to_move():
            self.ai_turn(now)

    def person_turn(self):
        self.waiting = True
        self.thinking = False
        self.session.remember()
        self.obs = self.session.observation()
        self.redraw()
        phase = self.obs.phase
        if phase == PH_PLAY or phase == PH_BURY:
            self.cursor = layout.first_legal(self.slots, self.obs.legal, self.cursor)
            self.stand_cursor()
            if phase == PH_PLAY and self.app.settings.hints and self.session.person_can_knock(self.obs):
                # the person may count too; with hints on, the game says so (the adviser counts)
                self.app.toast("You have %d of %d: knock in the menu to win" %
                               (self.session.person_count(self.obs), self.obs.target), 3000)
        else:
            self.open_choices()
        if self.hint_asked:
            self.hint_asked = False
            self.app.top().hint()
        st = self.app.settings
        if st.teaching(st.rules_id_of(self.session.rules)):
            from binocle import teach          # the lessons due now, over the table or its menu
            m = teach.take(self)
            forget("binocle.teach")            # not kept between turns: its code is RAM
            if m:
                from binocle.scenes.lesson import offer
                offer(self.app, self.obs.rules, m)

    def open_choices(self):
        from binocle.scenes.choice import Choice
        self.app.push(Choice(self.app, self, self.obs))

    def person_does(self, action):
        self.waiting = False
        self.draw_mine(self.obs)
        self.do(0, action, self.sprite_of(self.cursor) if actions.is_play(action) else None)

    def ai_turn(self, now):
        if self.ai_since < 0:
            self.ai_since = now
            self.ai_action = -1
        if self.ai_action < 0:
            self.thinking = True
            self.app.busy(True)
            self.ai_action = self.session.think(self.app.profile.ticks_ms, THINK_MS)
            return
        self.thinking = False
        if ticks_diff(now, self.ai_since) < PACE_MS[self.app.settings.pace]:
            return
        seat = self.session.to_move()
        action = self.ai_action
        self.ai_since = -1
        self.ai_action = -1
        start = None
        if actions.is_play(action):
            opp = self.view.opp
            start = opp[min(seat, len(opp)) - 1][0]
        self.do(seat, action, start)

    def do(self, seat, action, from_sprite):
        """Apply an action and show what it changed."""
        before = self.obs
        self.session.apply(action)
        if self.session.state.phase != before.phase:
            self.app.clear_toast()        # a message belongs to the phase it was said in
        self.app.autosave()
        after = self.session.observation()
        self.obs = after
        line = words.narrate(self.session.names, seat, action, self.session, before,
                             after.scores[seat] - before.scores[seat])
        if len(after.sheet) > len(before.sheet):
            self.app.deal_done(after)
        if after.dabb is not None and before.dabb is None and after.soloist:
            # an AI seat won the bidding: the Dabb is shown to all a while before it is taken
            self.dabb_shown = True
            self.hold_until = ticks_add(self.app.now, 1500 + TRICK_MS[self.app.settings.pace]) or 1
        if before.phase == PH_BID and after.phase != PH_BID:
            # the bidding is over: its last pass would stay above the next phase's prompt
            s = after.soloist
            line = "%s take%s the Dabb: %d" % (self.session.names[s], "s" if s else "", after.bid)
        if line:
            self.app.toast(line)
        if actions.is_play(action):
            self.app.beep(880 if seat == 0 else 660, 15)
            self.show_play(seat, actions.play_face(action), before, after, from_sprite)
        if after.melds is not None and before.melds is None:
            from binocle.scenes.melds import Melds
            self.app.push(Melds(self.app, after, self.session.names))
        self.redraw()

    def show_play(self, seat, face, before, after, from_sprite):
        """Slide the card to its place in the trick; keep a finished trick on view a while."""
        done = len(after.trick) == 0
        faces = after.last_trick if done else after.trick
        leader = after.last_leader if done else after.leader
        self.view.draw_trick(faces, leader)
        s = self.view.trick[len(faces) - 1]
        x1, y1 = s.x, s.y
        if from_sprite is not None:
            s.x, s.y = from_sprite.x, from_sprite.y
        now = self.app.now
        self.anim.slide(s, x1, y1, now, ANIM_MS[self.app.settings.anim])
        if done:
            self.trick_shown = True
            self.winner = after.leader
            hold = ANIM_MS[self.app.settings.anim] + TRICK_MS[self.app.settings.pace]
            self.hold_until = ticks_add(now, hold) or 1                 # 0 means no hold

    def clear_trick(self, now):
        """The finished trick slides to its winner's side and goes."""
        self.trick_shown = False
        x, y = self.lay.taken[self.winner]
        for s in self.view.trick:
            if not s.hidden:
                self.anim.slide(s, x, y, now, ANIM_MS[self.app.settings.anim], True)

    def end_of_deal(self):
        if self.handled_between:
            return
        self.handled_between = True
        self.thinking = False
        self.hint_asked = False
        self.app.cover()
        from binocle.scenes.summary import Summary
        self.app.push(Summary(self.app, self))

    def next_deal(self):
        """The summary was read: deal again (or the game is over, and the app leaves)."""
        self.session.next_deal()
        self.app.autosave()
        self.handled_between = False
        self.waiting = False
        self.obs = self.session.observation()
        self.redraw()
