"""The rules help: pages of (title, text), read one at a time from assets/help.txt, so only
the page on screen is in RAM. The file's format is described at its top: "@ group" lines
(hoyle, french, binokel, two-hand, all), then "= title" and the page's text. A rule set's
pages are those of its own groups (its own, two-hand's for hoyle and french, all's) in the
order of the file; the help shows the page naming the board's buttons before them
(buttons_page). A text wraps to 26 characters, 8 lines."""


from engine.rules import kind, TWO_HAND


def _wanted(rules, group):
    return group == rules or group == "all" or (group == "two-hand" and kind(rules) == TWO_HAND)


def page(path, rules, k):
    """Page k of a rule set as (title, text) from the help file; None past its last page."""
    n = -1
    group = ""
    title = None
    body = []
    with open(path, "rb") as f:
        for raw in f:
            line = raw.decode().strip()
            if line.startswith("@ ") or line.startswith("= "):
                if n == k:
                    break                       # page k is complete
                if line[0] == "@":
                    group = line[2:]
                elif _wanted(rules, group):
                    n += 1
                    if n == k:
                        title = line[2:]
            elif n == k and line and line[0] != "#":
                body.append(line)
    return None if title is None else (title, " ".join(body))


def count(path, rules):
    """How many pages the help file has for a rule set."""
    n = 0
    group = ""
    with open(path, "rb") as f:
        for raw in f:
            if raw.startswith(b"@ "):
                group = raw.decode().strip()[2:]
            elif raw.startswith(b"= ") and _wanted(rules, group):
                n += 1
    return n


# (what it does, the buttons that do it) for the buttons page, named as the board names them.
_FUNCTIONS = (("Move", (1, 0)), ("Choose", (4,)), ("Last trick", (5,)), ("Menu", (6,)), ("Hint", (7,)))


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
