"""Start-up check: did the last update finish? code.py calls check() before the game.

It compares the installed files with manifest.json by size only: hashing some
200 KB of files on a SAMD51 would add seconds to every start, while a deploy cut
short leaves a missing file, a wrong size or a *.tmp-binocle file behind (every
deploy keeps such a marker file until its very end), which this finds.
"""

import json
import os

MANIFEST = "manifest.json"
TMP_SUFFIX = ".tmp-binocle"
_DIR = 0x4000  # S_IFDIR in os.stat()[0]


def _join(root, path):
    if not path:
        return root
    if root.endswith("/"):
        return root + path
    return root + "/" + path


def _size(path):
    """The file's size, or -1 when it is missing or a directory."""
    try:
        st = os.stat(path)
    except OSError:
        return -1
    if st[0] & _DIR:
        return -1
    return st[6]


def _leftovers(root, folder, problems):
    try:
        names = os.listdir(_join(root, folder))
    except OSError:
        return
    for name in names:
        if name.endswith(TMP_SUFFIX):
            problems.append("leftover " + (folder + "/" + name if folder else name))


def check(root="/"):
    """Problems as short lines ("missing lib/x.py"); empty when the files match manifest.json.

    A drive without manifest.json (files copied by hand) has nothing to check
    but leftovers at its root."""
    problems = []
    folders = [""]
    try:
        with open(_join(root, MANIFEST)) as f:
            files = json.load(f)["files"]
    except OSError:
        files = ()
    except (ValueError, KeyError, TypeError):
        return ["manifest.json unreadable"]
    try:
        for entry in files:
            path = entry["path"]
            size = _size(_join(root, path))
            if size < 0:
                problems.append("missing " + path)
            elif size != entry["size"]:
                problems.append("wrong size " + path)
            cut = path.rfind("/")
            folder = path[:cut] if cut > 0 else ""
            if folder not in folders:   # a list keeps the order: dicts and sets may not
                folders.append(folder)
    except (KeyError, TypeError):
        return ["manifest.json unreadable"]
    for folder in folders:
        _leftovers(root, folder, problems)
    return problems
