"""The rules help, in short pages: (title, text); text wraps to 26 characters, 8 lines."""

COMMON = (
    ("Cards", "Two packs in one: A 10 K Q J 9 in each suit, every card twice (48). "
              "High to low: A 10 K Q J 9. Of two equal cards the first played wins."),
    ("Card points", "In tricks: A 11, 10 10, K 4, Q 3, J 2, 9 0. The last trick adds 10: "
                    "250 points are won in tricks in every deal."),
)

TWO_HAND = (
    ("The stock", "12 cards each; a card turned up shows trump. While the stock lasts you "
                  "need not follow suit. The trick winner may meld once, then both draw."),
    ("Melds", "Melded cards lie face up in front of you and may still be played from there. "
              "Each new meld needs a card from your hand."),
    ("Growing melds", "A meld may grow into a bigger one of its class (marriage to sequence, "
                      "four kings to eight) but never shrink. One card may score in each class."),
    ("The nine", "After winning a trick you may swap the trump 9 for the turned-up card: 10 points."),
    ("The end", "Stock gone: melds go back to the hand. Now follow suit and win the trick if you "
                "can; else trump if you can."),
)

HOYLE = (
    ("Binocle to 1000", "Melds: marriage 20, trump marriage 40, trump sequence A10KQJ 150; "
                        "binocle QS+JD 40, double 80, grand KS QS JD 80; four aces 100, kings 80, "
                        "queens 60, jacks 40; all eight double it."),
    ("Knocking", "Think you have 1000 with the points in your tricks? Knock (B) before you play. "
                 "Right: you win at once. Wrong: you lose at once."),
)

FRENCH = (
    ("French to 1500", "Melds: pair 20, trump pair 40, family A10KQJ 100, trump family 150, double "
                       "trump family 1500; binocle 40, double 300; fours 100/80/60/40; "
                       "4 K + 4 Q 240; eight alike 1000."),
    ("Winning", "No knocking. After a deal, whoever passed the target with more points wins."),
)

BINOKEL = (
    ("Binokel, 3 hands", "15 cards each, 3 face down: the Dabb. Bidding starts at 150 and rises by "
                         "10; a pass is final. The highest bidder plays alone."),
    ("Dabb and trump", "The soloist takes the Dabb, buries 3 cards (their points count for him), "
                       "then names trump or Durch (all 15 tricks), or gives up at once."),
    ("Melds", "All show melds before play. Family trump 150, plain 100; pair 40/20; fours "
              "100/80/60/40; binokel QS+JD 40, double 300; each trump 9: 10."),
    ("Play", "Follow suit and beat the trick if you can; else trump, overtrumping if you can."),
    ("Scoring", "Soloist: tricks, buried cards and melds; below the bid costs twice the bid. "
                "Others score their own if they took a trick. Game to 1500."),
)

# (what it does, the buttons that do it) for the buttons page, named as the board names them.
_FUNCTIONS = (("Move", (1, 0)), ("Choose", (4,)), ("Knock/last trick", (5,)), ("Menu", (6,)), ("Hint", (7,)))


def buttons_page(labels, long_labels):
    """The page that names this board's buttons: ('Buttons', 'Move: left/right. Choose: A. ...')."""
    parts = []
    for what, which in _FUNCTIONS:
        names = []
        for b in which:
            name = labels[b]
            for lb, text in long_labels:
                if lb == b:
                    name = text
            if name is not None:
                names.append(name)
        parts.append("%s: %s." % (what, "/".join(names)))
    return ("Buttons", " ".join(parts) + " Any button hurries the cards on.")


def pages(rules, labels=None, long_labels=()):
    keys = () if labels is None else (buttons_page(labels, long_labels),)
    if rules == "binokel":
        return BINOKEL + COMMON + keys
    return (HOYLE if rules == "hoyle" else FRENCH) + TWO_HAND + COMMON + keys
