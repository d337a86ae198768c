"""A game in the terminal: python -m tools play [--rules R] [--seed N] [--level L] [--pack64] [--no-grand] [--no-teach]

You are seat 0; the AI at a level, or an opponent of tools/opponents.py (greedy,
random), holds the other seats. Everything
shown comes from the observation of seat 0, so the screen never tells more
than a player at a real table would know. A seed and the same answers replay
the same game.
"""

import argparse
import os
import sys
import textwrap
import time

from engine import actions, cards
from engine.binokel import CONTRACT_DURCH
from engine.rules import RULE_SETS, THREE_HAND, kind, new_game, option_bits, state_class
from engine.state import PH_BID, PH_BURY, PH_ANNOUNCE, PH_KNOCK, PH_BETWEEN
from engine.twohand import NOTE_NONE, NOTE_KNOCK, NOTE_TARGET_RAISED
from engine.ai import LEVELS, new_player
from tools import ROOT, cli, opponents

WIDTH = 79      # columns of output
# The handheld's lessons (Explain rules), read from the file it reads them from.
TEACH_FILE = os.path.join(ROOT, "assets", "teach.txt")


def rule_help(name):
    """A rule set's line: the first of its state class's docstring (engine/rules.py)."""
    return (state_class(name).__doc__ or "").strip().split("\n")[0]


HELP = """Type the number of a choice, or a card such as QS (10S and qs work too)
to play it or bury it. Other commands:
  s, sheet   the score sheet        l, last   the last trick
  t, tip     the AI's suggestion    q, quit   leave the game
  h, help    this text
  (empty)    show the table again"""


def build_parser():
    p = cli.Parser("play", "Play Binocle against the AI or a rule of thumb.")
    p.add_argument("--rules", choices=RULE_SETS, help="rule set (asked for when missing)")
    p.add_argument("--seed", type=int, help="0..4294967295; the same seed replays the same game")
    p.add_argument("--pack64", action="store_true", help="hoyle: the 64-card pack")
    p.add_argument("--no-grand", action="store_true", help="hoyle: no grand binocle")
    p.add_argument("--level", choices=LEVELS + opponents.NAMES, default="normal",
                   help="the opponents: an AI level (default normal), or greedy or random "
                        "(tools/opponents.py)")
    p.add_argument("--teach", action=argparse.BooleanOptionalAction, default=True,
                   help="explain each phase the first time it comes, as the handheld's first game "
                        "does (default on)")
    return p


class Console:
    """Lines in and out. Input is echoed when it does not come from a terminal,
    so a scripted game reads like a played one."""

    def __init__(self, stdin, stdout):
        self.stdin = stdin
        self.stdout = stdout
        self.echo = not _is_tty(stdin)

    def say(self, text=""):
        for line in text.split("\n"):
            if len(line) > WIDTH:    # long meld lists: keep to the terminal's width
                indent = " " * (len(line) - len(line.lstrip()) + 4)
                line = "\n".join(textwrap.wrap(line, WIDTH, subsequent_indent=indent))
            self.stdout.write(line + "\n")

    def ask(self, prompt):
        """The answer without its newline, or None at the end of input."""
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.stdout.write("\n")
            return None
        line = line.rstrip("\r\n")
        if self.echo:
            self.stdout.write(line + "\n")
        return line.strip()


def _is_tty(stream):
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class EndOfInput(Exception):
    """The person quit or the input ended."""


# Third person of the first word of an action text ("West plays KS").
VERBS = {"play": "plays", "pass": "passes", "bid": "bids", "meld": "melds", "knock": "knocks",
         "exchange": "exchanges", "bury": "buries", "name": "names", "give": "gives",
         "reach": "reaches", "be": "is"}
SHEET_NOTES = {NOTE_NONE: "", NOTE_TARGET_RAISED: "both reached the target: it rises by 250", NOTE_KNOCK: "knock"}
CONTRACT_WORDS = ("spades", "hearts", "diamonds", "clubs", "durch")


def faces_text(faces, trump):
    """Faces sorted for reading: by suit, trump first, high cards first."""
    counts = bytearray(32)
    for f in faces:
        counts[f] += 1
    return cards.format_counts(counts, trump)


def hand_text(hand, trump):
    """A hand by suit, trump first: 'AH TH | KS 9S | ...'."""
    parts = []
    for s in cards.suit_order(trump):
        suit = bytearray(32)
        suit[s * 8:s * 8 + 8] = hand[s * 8:s * 8 + 8]
        if cards.count(suit):
            parts.append(cards.format_counts(suit, trump))
    return " | ".join(parts) or "(empty)"


class Screen:
    """The table as seat 0 sees it, in short lines for an 80-column terminal.

    Reads observations only; keeps the card points of the tricks it has seen
    so that a binokel deal can be summed up (each player keeps his tricks)."""

    def __init__(self, rules, names, low_rank):
        self.rules = rules
        self.three = kind(rules) == THREE_HAND      # binokel's deal: bidding, the Dabb
        self.game = state_class(rules)              # its sheet rows' ROW_* fields
        self.names = names
        self.low_rank = low_rank     # rank of the trump 9 swap's card: 9, or 7 in the 64-card pack
        self.taken = [0] * len(names)
        self.last_taker = {}         # deal number -> who took its last trick (and its 10)

    def who(self, p):
        return self.names[p]

    def rank(self):
        """The trump 9 swap's rank as the screens write it: 9, or 7 with the 64-card pack."""
        return "7" if self.low_rank == cards.R7 else "9"

    def does(self, p, verb):
        """'You take' or 'East takes'."""
        if p == 0:
            return "You " + ("are" if verb == "be" else verb)
        return "%s %s" % (self.names[p], VERBS.get(verb, verb + "s"))

    def owns(self, p):
        return "Your" if p == 0 else self.names[p] + "'s"

    def plays(self, cards_played, leader, trump):
        n = len(self.names)
        return ", ".join("%s %s" % (self.who((leader + i) % n), cards.name(f))
                         for i, f in enumerate(cards_played))

    # -- the board --------------------------------------------------------------

    def board(self, obs):
        out = ["", self.title(obs), self.score_line(obs)]
        if self.three:
            out.extend(self.binokel_lines(obs))
        else:
            out.extend(self.two_hand_lines(obs))
        last = self.last_trick(obs)
        if last:
            out.append(last)
        if obs.trick:
            out.append("Trick: " + self.plays(obs.trick, obs.leader, obs.trump))
        counts = ["%s %d" % (self.who(p), obs.hand_sizes[p]) for p in range(1, len(self.names))]
        won = ["%s %d" % (self.who(p), obs.tricks_won[p]) for p in range(len(self.names))]
        # trick counts only: rules.md hoyle 10 lets a player look back at the last trick alone
        out.append("Cards held: %s. Tricks won: %s" % (", ".join(counts), ", ".join(won)))
        out.append("Your hand: " + hand_text(obs.hand, obs.trump))
        return out

    def title(self, obs):
        text = "== %s, deal %d, dealer %s" % (self.rules, obs.deal_number, self.who(obs.dealer))
        if not self.three:
            text += ": trump %s, " % cards.SUIT_NAMES[obs.trump]
            if obs.turnup >= 0:
                text += "turn-up %s, stock %d" % (cards.name(obs.turnup), obs.stock_left)
            else:
                text += "stock empty"
        return text + " =="

    def score_line(self, obs):
        scores = ", ".join("%s %d" % (self.who(p), obs.scores[p]) for p in range(len(self.names)))
        return "Score: %s (game %d)" % (scores, obs.target)

    def two_hand_lines(self, obs):
        out = []
        for p in (1, 0):
            recs = obs.tables[p]
            if recs:
                out.append("%s table: %s" % (self.owns(p), faces_text([r & 31 for r in recs], obs.trump)))
        return out

    def binokel_lines(self, obs):
        out = []
        contract, surrendered = obs.contract
        if obs.soloist < 0:
            passed = [self.who(p) for p in range(3) if obs.passed[p]]
            text = "Bidding: %d by %s" % (obs.bid, self.who(obs.bid_holder))
            out.append(text + ("; passed: " + ", ".join(passed) if passed else ""))
        elif contract < 0:
            out.append("%s at %d and bur%s three cards" % (self.does(obs.soloist, "play"), obs.bid,
                                                           "y" if obs.soloist == 0 else "ies"))
        else:
            out.append("Contract: %s, %s, bid %d" % (self.who(obs.soloist), self.contract_word(contract), obs.bid))
        if obs.dabb is not None:
            out.append("Dabb: " + cards.format_faces(list(obs.dabb)))
        if obs.buried is not None and cards.count(obs.buried):
            out.append("You buried: " + cards.format_counts(obs.buried, obs.trump))
        if obs.melds:
            for p in range(3):
                if obs.melds[p]:
                    shown = ", ".join("%s %d" % (m[0], m[1]) for m in obs.melds[p])
                    out.append("%s melds: %s = %d" % (self.owns(p), shown, sum(m[1] for m in obs.melds[p])))
        return out

    def contract_word(self, contract):
        return "durch" if contract == CONTRACT_DURCH else CONTRACT_WORDS[contract] + " trump"

    def last_trick(self, obs):
        if not obs.last_trick:
            return None
        text = self.plays(obs.last_trick, obs.last_leader, obs.trump)
        return "Last trick: %s (%s won)" % (text, self.who(obs.leader))

    def menu(self, texts):
        """Numbered choices, three to a line when they are short."""
        items = ["%2d %s" % (i + 1, t) for i, t in enumerate(texts)]
        if max(len(t) for t in items) > 25:
            return items
        return ["".join("%-26s" % t for t in items[i:i + 3]).rstrip() for i in range(0, len(items), 3)]

    # -- what happened ---------------------------------------------------------

    def events(self, p, action, text, before, after):
        out = []
        if text:
            verb, _, rest = text.partition(" ")
            out.append(self.does(p, verb) + (" " + rest if rest else ""))
        if after.deal_number != before.deal_number:
            out.append(self.deal_start(after))
            return out
        out.extend(self.trick_done(before, after))
        if self.three:
            out.extend(self.binokel_events(before, after))
        else:
            out.extend(self.draw_events(p, action, before, after))
        if len(after.sheet) > len(before.sheet):
            out.extend(self.deal_over(after))
        return out

    def deal_start(self, obs):
        self.taken = [0] * len(self.names)
        text = "\n*** Deal %d: %s dealt." % (obs.deal_number, self.who(obs.dealer))
        if self.three:
            fore = (obs.dealer + 1) % 3
            return text + " %s forehand and bid%s first at %d." % (
                self.does(fore, "be"), "" if fore == 0 else "s", obs.bid)
        text += " Trump is %s (turn-up %s)." % (cards.SUIT_NAMES[obs.trump], cards.name(obs.turnup))
        if obs.deal_points[obs.dealer]:
            text += "\n%s 10 for the turned-up trump %s." % (self.does(obs.dealer, "score"), self.rank())
        return text

    def trick_done(self, before, after):
        if sum(after.tricks_won) <= sum(before.tricks_won):
            return []
        winner = [q for q in range(len(self.names)) if after.tricks_won[q] > before.tricks_won[q]][0]
        pts = sum(cards.points(f) for f in after.last_trick)
        last = max(after.hand_sizes) == 0
        self.taken[winner] += pts
        if last:
            self.last_taker[after.deal_number] = winner
        text = "  %s: %s %d" % (self.plays(after.last_trick, after.last_leader, after.trump),
                                 self.does(winner, "take"), pts)
        return [text + (" + 10 for the last trick" if last else "")]

    def draw_events(self, p, action, before, after):
        if after.stock_left >= before.stock_left:
            return []
        if after.turnup_taker is None:
            return ["  You draw %s." % cards.format_faces(self.drawn(p, action, before, after))]
        loser, face = after.turnup_taker
        if loser == 1:
            last = self.drawn(p, action, before, after)
            out = ["  You take the last card %s%s." % (cards.format_faces(last),
                                                       ", shown to " + self.names[1] if after.shown_card >= 0 else "")]
        else:
            shown = ": " + cards.name(after.shown_card) if after.shown_card >= 0 else ""
            out = ["  %s takes the last card%s." % (self.names[1], shown)]
        out.append("  %s the turn-up %s. The stock is empty." % (self.does(loser, "take"), cards.name(face)))
        out.append("  Melded cards go back to the hands; now follow suit and win if you can.")
        return out

    def drawn(self, p, action, before, after):
        """The card(s) seat 0 got from the stock: what its hand and table gained
        that its own play or exchange does not explain."""
        gain = [after.hand[f] - before.hand[f] for f in range(32)]
        for r in after.tables[0]:
            gain[r & 31] += 1
        for r in before.tables[0]:
            gain[r & 31] -= 1
        if p == 0 and actions.is_play(action):
            gain[actions.play_face(action)] += 1
        if p == 0 and action == actions.EXCHANGE:
            gain[before.turnup] -= 1          # taken for the nine, not drawn
            gain[cards.face(before.trump, self.low_rank)] += 1
        return [f for f in range(32) for _ in range(max(0, gain[f]))]

    def binokel_events(self, before, after):
        out = []
        if before.dabb is None and after.dabb is not None:
            out.append("  %s at %d and take%s the Dabb: %s"
                       % (self.does(after.soloist, "play"), after.bid, "" if after.soloist == 0 else "s",
                          cards.format_faces(list(after.dabb))))
        if before.melds is None and after.melds is not None:
            gave_up = after.contract[1]
            for q in [after.soloist] + [q for q in range(3) if q != after.soloist]:
                if gave_up and q == after.soloist:
                    continue                    # his melds do not count: not shown
                for name, pts, faces, _kind in after.melds[q]:
                    name = name.replace("trump nine", "nine of trump")      # the screens' name
                    out.append("  %s %s %s: %d" % (self.does(q, "show"), name, faces_text(faces, after.trump), pts))
        return out

    # -- the end of a deal and of the game ---------------------------------------

    def deal_over(self, obs):
        if self.three:
            out = self.binokel_summary(obs)
        else:
            out = self.two_hand_summary(obs)
        return out + self.sheet(obs)

    def two_hand_summary(self, obs):
        row, S = obs.sheet[-1], self.game
        bonus, cardpts = row[S.ROW_BONUS], row[S.ROW_CARDS]
        out = ["Deal %d over." % row[S.ROW_NUMBER]]
        if obs.knock is not None:
            p, claim, correct = obs.knock
            out.append("%s with %d of %d: %s." % (self.does(p, "knock"), claim, obs.target,
                                                   "enough" if correct else "too few"))
        taker = self.last_taker.get(row[S.ROW_NUMBER], -1)
        for p in range(2):
            last = cards.LAST_TRICK_POINTS if p == taker else 0
            out.append("  %s: cards %d + melds %d%s = %d" % (
                self.who(p), cardpts[p], bonus[p] - last, " + last trick %d" % last if last else "",
                bonus[p] + cardpts[p]))
        out.append("  (Melds count the trump %s swap and a turned-up trump %s.)" % (self.rank(), self.rank()))
        if row[S.ROW_NOTE] == NOTE_TARGET_RAISED:
            out.append("Both reached the target: it rises to %d." % obs.target)
        return out

    def binokel_summary(self, obs):
        row, S = obs.sheet[-1], self.game
        number, solo, bid, contract = row[S.ROW_NUMBER], row[S.ROW_SOLOIST], row[S.ROW_BID], row[S.ROW_CONTRACT]
        gains = S.gains_of(row)
        if row[S.ROW_SURRENDERED]:
            return self.gave_up_summary(number, solo, bid, contract, gains)
        else:
            made = "made it" if gains[solo] > 0 else "went down"
            head = "%s played %s at %d and %s." % (self.who(solo), self.contract_word(contract), bid, made)
        out = ["Deal %d over. %s" % (number, head)]
        taker = self.last_taker.get(number, -1)
        for p in range(3):
            melded = sum(m[1] for m in obs.melds[p]) if obs.melds else 0
            last = ", last trick %d" % cards.LAST_TRICK_POINTS if p == taker else ""
            out.append("  %s: tricks %d, cards %d, melds %d%s: %+d" % (self.who(p), obs.tricks_won[p],
                                                                      self.taken[p], melded, last, gains[p]))
        return out

    def gave_up_summary(self, number, solo, bid, contract, gains):
        """The soloist gave up (rules.md binokel 4): no card was played, his melds do not count."""
        from engine.binokel import SURRENDER_BONUS
        out = ["Deal %d over. %s up at %d with %s as trump: no card is played." % (
            number, self.does(solo, "give"), bid, CONTRACT_WORDS[contract])]
        for p in range(3):
            if p == solo:
                out.append("  %s: %+d, the bid lost" % (self.who(p), gains[p]))
            else:
                out.append("  %s: %d for the give-up + melds %d = %+d" % (
                    self.who(p), SURRENDER_BONUS, gains[p] - SURRENDER_BONUS, gains[p]))
        return out

    def sheet(self, obs):
        if not obs.sheet:
            return ["The score sheet is empty: no deal has been scored yet."]
        if self.three:
            return self.binokel_sheet(obs)
        head = "Deal Dealer" + "".join(" |%4s: cards melds last total" % self.who(p) for p in range(2))
        out = ["Score sheet (melds with the trump %s swap; last: the last trick):" % self.rank(), head]
        S = self.game
        for row in obs.sheet:
            bonus, cardpts, score = row[S.ROW_BONUS], row[S.ROW_CARDS], row[S.ROW_SCORES]
            taker = self.last_taker.get(row[S.ROW_NUMBER], -1)
            last = cards.LAST_TRICK_POINTS
            cols = "".join(" |%11d%6d%5s%6d" % (cardpts[p], bonus[p] - (last if p == taker else 0),
                                                 last if p == taker else "", score[p]) for p in range(2))
            out.append(("%4d %-6s%s  %s" % (row[S.ROW_NUMBER], self.who(row[S.ROW_DEALER]), cols,
                                            SHEET_NOTES[row[S.ROW_NOTE]])).rstrip())
        return out

    def binokel_sheet(self, obs):
        head = "Deal Dealer Soloist  Bid Contract  |" + "".join("%13s" % self.who(p) for p in range(3))
        out = ["Score sheet (deal result, then total):", head]
        S = self.game
        for row in obs.sheet:
            word = "gave up" if row[S.ROW_SURRENDERED] else CONTRACT_WORDS[row[S.ROW_CONTRACT]]
            gains, score = S.gains_of(row), row[S.ROW_SCORES]
            cols = "".join("%7s%6d" % ("%+d" % gains[p], score[p]) for p in range(3))
            out.append("%4d %-6s %-7s %4d %-9s |%s" % (row[S.ROW_NUMBER], self.who(row[S.ROW_DEALER]),
                                                       self.who(row[S.ROW_SOLOIST]), row[S.ROW_BID], word, cols))
        return out

    def game_over(self, obs):
        scores = ", ".join("%s %d" % (self.who(p), obs.scores[p]) for p in range(len(self.names)))
        if obs.winner == 0:
            head = "Game over: you win! (%s)" % scores
        else:
            head = "Game over: %s wins. (%s)" % (self.who(obs.winner), scores)
        return head + "\n" + self.why_over(obs)

    def why_over(self, obs):
        """Why the game ended: a knock and its count (rules.md hoyle 9), or who reached the target."""
        if obs.knock is not None:
            p, claim, correct = obs.knock
            return "%s with %d of %d: %s" % (self.does(p, "knock"), claim, obs.target,
                                              "a right knock wins at once." if correct else
                                              "a knock short of the target loses the game.")
        t, S = obs.target, self.game
        reached = [p for p in range(len(self.names)) if obs.scores[p] >= t]
        if len(reached) < 2:
            return "%s the game's %d points." % (self.does(obs.winner, "reach"), t)
        both = " and ".join(self.who(p) for p in reached)
        if self.three and obs.sheet[-1][S.ROW_SOLOIST] == obs.winner:
            return "%s reached %d: the soloist wins (rules.md binokel 8)." % (both, t)
        return "%s reached %d: the higher score wins." % (both, t)


class Game:
    """One game: the engine state, the opponents, and the person's side of the table."""

    def __init__(self, rules, seed, options, console, level="greedy", teach=False):
        self.state = new_game(rules, seed, options)
        self.rules = rules
        self.teach = teach
        self.taught = 0              # the lessons shown (lib/binocle/teach.py KEYS bits)
        self.console = console
        n = self.state.PLAYERS
        self.names = ("You", "AI") if n == 2 else ("You", "East", "West")   # as on the handheld
        self.opponents = {p: opponents.new_seat(level, rules, p, seed * 7 + p, options) for p in range(1, n)}
        # The tip giver sees what the person sees, every time the person decides.
        self.adviser = new_player(rules, 0, "hard", seed * 7, options)
        self.screen = Screen(rules, self.names, cards.lowest_rank(getattr(self.state, "pack64", False)))

    def points_of(self, action):
        """Points the player to move would score at once by this action."""
        p = self.state.current_player()
        c = self.state.clone()
        before = c.scores()[p]
        c.apply(action)
        return c.scores()[p] - before

    def run(self):
        say = self.console.say
        say(self.screen.deal_start(self.state.observation(0)))
        try:
            while not self.state.is_game_over():
                p = self.state.current_player()
                action = self.ask_person() if p == 0 else self.opponent_action(p)
                self.apply(p, action)
        except EndOfInput:
            say("bye")
            return 0
        say(self.screen.game_over(self.state.observation(0)))
        return 0

    def opponent_action(self, p):
        return self.opponents[p].choose(self.state.observation(p))

    def apply(self, p, action):
        before = self.state.observation(0)
        text = self.action_text(p, action, before)
        self.state.apply(action)
        after = self.state.observation(0)
        lines = self.screen.events(p, action, text, before, after)
        for line in lines:
            self.console.say(line)

    def action_text(self, p, action, obs):
        """What the table sees of an action, before it happens (None: nothing to say)."""
        if obs.phase == PH_BURY and p != 0:
            return "bury a card"
        if obs.phase == PH_BETWEEN or (action == actions.PASS and obs.phase in (PH_ANNOUNCE, PH_KNOCK)):
            return None
        if action == actions.KNOCK:
            return "knock"
        return self.choice_text(action, obs)

    def choice_text(self, action, obs):
        """An action in words, as the person's menu and the narration show it."""
        if obs.phase == PH_BID:
            return "bid %d" % (obs.bid + 10) if action == actions.BID else "pass"
        if actions.TRUMP <= action < actions.TRUMP + 4:
            return "name %s trump" % cards.SUIT_NAMES[action - actions.TRUMP]
        if action == actions.DURCH:
            return "play durch"
        if action == actions.KNOCK:
            return "knock (you have %d of %d)" % (self.count(obs), obs.target)
        if actions.SURRENDER <= action < actions.SURRENDER + 4:
            return "give up with %s as trump" % cards.SUIT_NAMES[action - actions.SURRENDER]
        if action == actions.EXCHANGE:
            return "swap the trump %s: %d" % (self.screen.rank(), self.points_of(action))
        text = self.state.describe(action).replace("trump nine", "nine of trump")   # the screens' name
        if actions.is_meld(action):
            text += ": %d" % self.points_of(action)
        return text

    def count(self, obs):
        """What a knock by the person would claim (rules.md hoyle 9): his score and the card
        points in the tricks he took this deal, as the adviser counted them from what he saw."""
        return self.adviser.my_count(obs)

    # -- the person ------------------------------------------------------------

    def ask_person(self):
        obs = self.state.observation(0)
        self.adviser.observe(obs)
        say = self.console.say
        legal = menu_order(obs)
        if obs.phase == PH_BETWEEN:
            texts = ["deal the next deal"]
        else:
            for line in self.screen.board(obs):
                say(line)
            if self.teach:
                self.lessons(obs)
            texts = [self.choice_text(a, obs) for a in legal]
        for line in self.screen.menu(texts):
            say(line)
        while True:
            answer = self.console.ask("Your choice [1-%d]: " % len(legal))
            if answer is None:
                raise EndOfInput
            action = self.read_answer(answer, obs, legal, texts)
            if action is not None:
                return action

    def lessons(self, obs):
        """The lessons of the handheld's Explain rules due now and not shown yet this game,
        from its own file (lib/binocle/teach.py); none if the file cannot be read."""
        lib = os.path.join(ROOT, "lib")
        if lib not in sys.path:
            sys.path.append(lib)
        from binocle import teach
        due = teach.due(obs) & ~self.taught
        self.taught |= due
        for i, key in enumerate(teach.KEYS):
            if due >> i & 1:
                try:
                    page = teach.read(TEACH_FILE, self.rules, key)
                except (OSError, ValueError):
                    return
                if page is not None:
                    self.console.say("\n-- %s --\n%s" % (page[0], textwrap.fill(page[1], WIDTH)))

    def read_answer(self, answer, obs, legal, texts):
        """The action an answer names, or None after saying what to do instead."""
        say = self.console.say
        word = answer.lower()
        if word == "":
            if obs.phase != PH_BETWEEN:
                for line in self.screen.board(obs):
                    say(line)
            for line in self.screen.menu(texts):
                say(line)
        elif word in ("s", "sheet"):
            for line in self.screen.sheet(obs):
                say(line)
        elif word in ("l", "last"):
            say(self.screen.last_trick(obs) or "No trick has been taken in this deal yet.")
        elif word in ("h", "help", "?"):
            say(HELP)
        elif word in ("t", "tip", "hint"):
            self.tip(obs, legal)
        elif word in ("q", "quit"):
            sure = self.console.ask("Quit the game? [y/n]: ")
            if sure is None or sure.lower() in ("y", "yes"):
                raise EndOfInput
        elif word.isdigit():
            n = int(word)
            if 1 <= n <= len(legal):
                return legal[n - 1] if self.sure(legal[n - 1], obs) else None
            say("%s: no such choice; %s." % (answer, choices_text(len(legal))))
        else:
            return self.card_answer(answer, obs, legal)
        return None

    def sure(self, action, obs):
        """Asks again before a knock short of the target (it loses the game at once), before
        Durch and before giving up (binokel); True to go ahead. The question again at the
        end of input."""
        if action == actions.KNOCK:
            have = self.count(obs)
            if have >= obs.target:
                return True
            question = ("You have %d of %d. A knock short of %d loses the game at once.\n"
                        "Knock anyway? [y/n]: " % (have, obs.target, obs.target))
        elif actions.SURRENDER <= action < actions.SURRENDER + 4:
            from engine.binokel import SURRENDER_BONUS
            suit = cards.SUIT_NAMES[action - actions.SURRENDER]
            question = ("Giving up costs you your bid: -%d.\n%s and %s score %d each plus their "
                        "melds, counted with %s as trump.\n(Play and fall short: -%d.)\n"
                        "Give up with %s as trump? [y/n]: " % (obs.bid, self.names[1], self.names[2],
                                                              SURRENDER_BONUS, suit, 2 * obs.bid, suit))
        elif action == actions.DURCH:
            from engine.binokel import DURCH_POINTS
            question = ("Durch: no trump; you lead and must take all 15 tricks.\n"
                        "All 15: +%d. The first trick an opponent takes ends the deal: -%d.\n"
                        "(%s and %s score nothing either way.)\nPlay Durch? [y/n]: "
                        % (DURCH_POINTS, DURCH_POINTS, self.names[1], self.names[2]))
        else:
            return True
        lines = question.split("\n")
        self.console.say("\n".join(lines[:-1]))
        answer = self.console.ask(lines[-1])
        if answer is None:
            raise EndOfInput
        if answer.lower() in ("y", "yes"):
            return True
        self.console.say("No knock." if action == actions.KNOCK else
                         "No Durch." if action == actions.DURCH else "You do not give up.")
        return False

    def tip(self, obs, legal):
        """The hard AI's choice for the person, with its reason (it thinks on a copy)."""
        import copy
        action, why = copy.deepcopy(self.adviser).hint(obs)
        number = legal.index(action) + 1 if action in legal else 0
        self.console.say("Tip: %d (%s): %s" % (number, self.choice_text(action, obs), why))

    def card_answer(self, answer, obs, legal):
        say = self.console.say
        try:
            face = cards.parse(answer)
        except ValueError:
            say("%s: not understood; %s, a card like QS, or h for help."
                % (answer, choices_text(len(legal))))
            return None
        found = [a for a in legal if (actions.is_play(a) and actions.play_face(a) == face)
                 or a == actions.BURY + face]
        if len(found) == 1:
            return found[0]
        name = cards.name(face)
        if found:
            numbers = ", ".join(str(legal.index(a) + 1) for a in found)
            say("%s: from the hand or the table? Type its number (%s)." % (name, numbers))
        elif obs.hand[face] == 0 and not on_my_table(obs, face):
            say("You hold no %s." % name)
        else:
            say("%s cannot be played now." % name)
        return None


def choices_text(n):
    """How to pick one of n numbered choices, in words."""
    if n == 1:
        return "type 1"
    if n == 2:
        return "type 1 or 2"
    return "type a number from 1 to %d" % n


def on_my_table(obs, face):
    return obs.tables is not None and any(r & 31 == face for r in obs.tables[0])


def menu_order(obs):
    """Legal actions in the order the menu lists them: cards as the hand shows
    them (trump first, high first, hand before table), then the rest."""
    order = cards.suit_order(obs.trump)

    def key(a):
        if actions.is_play(a):
            f, src = actions.play_face(a), actions.play_source(a)
        elif actions.BURY <= a < actions.BURY + 32:
            f, src = a - actions.BURY, 0
        else:
            return (1, a)
        return (0, order.index(cards.suit_of(f)), -cards.rank_of(f), src)
    return sorted(obs.legal, key=key)


def choose_rules(console):
    """Ask for a rule set (stdin is a terminal); None at the end of input."""
    console.say("Which rule set?")
    for i, name in enumerate(RULE_SETS):
        console.say("  %d %-8s %s" % (i + 1, name, rule_help(name)))
    while True:
        answer = console.ask("Rule set [1-%d]: " % len(RULE_SETS))
        if answer is None:
            return None
        if answer.lower() in RULE_SETS:
            return answer.lower()
        if answer.isdigit() and 1 <= int(answer) <= len(RULE_SETS):
            return RULE_SETS[int(answer) - 1]
        console.say("%s: %s, or a name." % (answer, choices_text(len(RULE_SETS))))


def setup(argv, console):
    """(rules, seed, options, level) from the command line; UsageError if it is wrong."""
    args = build_parser().parse_args(argv)
    rules = args.rules
    if rules is None:
        if console.echo:
            raise cli.UsageError("--rules is needed when input is not a terminal (%s)" % ", ".join(RULE_SETS))
        rules = choose_rules(console)
        if rules is None:
            return None
    try:
        options = option_bits(rules, pack64=args.pack64, grand_binocle=not args.no_grand)
    except ValueError as e:
        raise cli.UsageError(str(e))
    seed = args.seed
    if seed is None:
        seed = int(time.time()) & 0xFFFFFFFF
        console.say("seed %d (replay with --seed %d)" % (seed, seed))
    elif not 0 <= seed <= 0xFFFFFFFF:
        raise cli.UsageError("--seed must be between 0 and 4294967295")
    return rules, seed, options, args.level, args.teach


@cli.command("play")
def main(argv):
    console = Console(sys.stdin, sys.stdout)
    chosen = setup(argv, console)
    if chosen is None:
        console.say("bye")
        return 0
    rules, seed, options, level, teach = chosen
    return Game(rules, seed, options, console, level, teach).run()
