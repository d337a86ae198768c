"""The rules help: pages of (title, text), read one at a time from assets/help.txt, so only
the page on screen is in RAM. The file's format is described at its top: "@ group" lines
(hoyle, french, binokel, two-hand, all), then "= title" and the page's text. A rule set's
pages are those of its own groups (its own, two-hand's for hoyle and french, all's) in the
order of the file; the help shows the page naming the board's buttons before them
(buttons_page). A text wraps to 26 characters, 8 lines."""


from engine.rules import kind, TWO_HAND


def _wanted(rules, group):
    return group == rules or group == "all" or (group == "two-hand" and kind(rules) == TWO_HAND)


def find(path, rules, take):
    """(title, text) of the first of a rule set's pages in the file (the help's, or the
    lessons' of teach.py, which keep the same format) whose title take(title) accepts; None if
    none does. The file is read to its end when none does."""
    group = ""
    title = None
    body = []
    with open(path, "rb") as f:
        for raw in f:
            line = raw.decode().strip()
            if line.startswith("@ ") or line.startswith("= "):
                if title is not None:
                    break                       # the page found is complete
                if line[0] == "@":
                    group = line[2:]
                elif _wanted(rules, group) and take(line[2:]):
                    title = line[2:]
            elif title is not None and line and line[0] != "#":
                body.append(line)
    return None if title is None else (title, " ".join(body))


def page(path, rules, k):
    """Page k of a rule set as (title, text) from the help file; None past its last page."""
    seen = [-1]

    def kth(title):
        seen[0] += 1
        return seen[0] == k
    return find(path, rules, kth)


def count(path, rules):
    """How many pages the help file has for a rule set."""
    seen = [0]

    def counted(title):
        seen[0] += 1
        return False
    find(path, rules, counted)
    return seen[0]


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
