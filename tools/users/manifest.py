"""manifest.json: what a bundle holds and what a deploy put on the board's drive.

    {"format": 1, "game": "binocle", "version": "0.1.0",
     "libraries": {"adafruit-circuitpython-display-text": "5.0.6", ...},
     "files": [{"path": "code.py", "size": 290, "sha256": "..."}, ...]}

"libraries": the third-party libraries the bundle ships under lib/, by their PyPI names and
the pinned versions (none: {}; a manifest of before they were listed has no such key).

It sits at the drive's root and does not list itself. Paths are relative, with
forward slashes, sorted. The board's start-up check (lib/binocle/startup.py)
compares the installed files with it by size; bundle, deploy and the tests use
this module.
"""

import hashlib
import json
import os

NAME = "manifest.json"
FORMAT = 1
GAME = "binocle"
# Suffix of every file a deploy writes before renaming it into place: one left
# on the drive means a deploy stopped part-way (startup.py looks for it too).
TMP_SUFFIX = ".tmp-binocle"


class ManifestError(Exception):
    pass


class ForeignManifest(ManifestError):
    """A manifest of another program, or of newer tools: not to be overwritten blindly."""


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def entry(path, data):
    return {"path": path, "size": len(data), "sha256": sha256(data)}


def walk(root):
    """Every file under root as a relative path with forward slashes, sorted."""
    out = []
    for top, dirs, files in os.walk(root):
        dirs.sort()
        for name in files:
            rel = os.path.relpath(os.path.join(top, name), root)
            out.append(rel.replace(os.sep, "/"))
    out.sort()
    return out


def build(root, version, libraries=None):
    """The manifest of every file under root (except an old manifest.json); libraries:
    {PyPI name: version} of the libraries it ships."""
    files = []
    for path in walk(root):
        if path == NAME:
            continue
        with open(os.path.join(root, path), "rb") as f:
            files.append(entry(path, f.read()))
    return {"format": FORMAT, "game": GAME, "version": version,
            "libraries": dict(libraries or {}), "files": files}


def dumps(manifest):
    """The bytes written to the drive: one file per line, so a person can read a diff."""
    libs = ""
    if "libraries" in manifest:
        libs = '"libraries": %s, ' % json.dumps(manifest["libraries"], sort_keys=True)
    lines = ['{"format": %d, "game": %s, "version": %s, %s"files": [' % (
        manifest["format"], json.dumps(manifest["game"]), json.dumps(manifest["version"]), libs)]
    rows = [json.dumps(f, sort_keys=True) for f in manifest["files"]]
    lines.append(",\n".join(rows))
    lines.append("]}\n")
    return "\n".join(lines).encode("utf-8")


def write(root, manifest):
    with open(os.path.join(root, NAME), "wb") as f:
        f.write(dumps(manifest))


def _check_path(path):
    bad = (not isinstance(path, str) or not path or path.startswith("/") or "\\" in path
           or path == NAME or any(part in ("", ".", "..") for part in path.split("/")))
    if bad:
        raise ManifestError("manifest.json lists a bad path: %r" % (path,))


def loads(data, where="manifest.json"):
    """Parse and validate manifest bytes; ManifestError says what is wrong and what to do."""
    try:
        m = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise ManifestError("%s is damaged (not JSON)" % where)
    if not isinstance(m, dict) or "format" not in m or "game" not in m:
        raise ManifestError("%s is not a game manifest" % where)
    if m["game"] != GAME:
        raise ForeignManifest("%s belongs to another program (%r), not %s" % (where, m["game"], GAME))
    fmt = m["format"]
    if not isinstance(fmt, int) or isinstance(fmt, bool) or fmt < 1:
        raise ManifestError("%s has a bad format number %r" % (where, fmt))
    if fmt > FORMAT:
        raise ForeignManifest("%s was written by newer tools (format %d, these know %d): "
                              "update this checkout" % (where, fmt, FORMAT))
    if not isinstance(m.get("version"), str) or not isinstance(m.get("files"), list):
        raise ManifestError("%s lacks its version or file list" % where)
    libs = m.get("libraries", {})
    if not isinstance(libs, dict) or [k for k, v in libs.items()
                                      if not isinstance(k, str) or not isinstance(v, str)]:
        raise ManifestError("%s has a bad list of libraries" % where)
    seen = set()
    for f in m["files"]:
        if not isinstance(f, dict):
            raise ManifestError("%s has a bad file entry" % where)
        _check_path(f.get("path"))
        size, digest = f.get("size"), f.get("sha256")
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            raise ManifestError("%s: bad size for %s" % (where, f["path"]))
        if not isinstance(digest, str) or len(digest) != 64 or digest.strip("0123456789abcdef"):
            raise ManifestError("%s: bad sha256 for %s" % (where, f["path"]))
        if f["path"] in seen:
            raise ManifestError("%s lists %s twice" % (where, f["path"]))
        seen.add(f["path"])
    return m


def read(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise ManifestError("cannot read %s: %s" % (path, e.strerror or e))
    return loads(data, path)


def by_path(manifest):
    return {f["path"]: f for f in manifest["files"]}


def compare(old, new):
    """(added, changed, removed): sorted path lists taking old to new; old may be None."""
    before = by_path(old) if old else {}
    after = by_path(new)
    added = sorted(p for p in after if p not in before)
    changed = sorted(p for p in after if p in before and
                     (before[p]["size"], before[p]["sha256"]) != (after[p]["size"], after[p]["sha256"]))
    removed = sorted(p for p in before if p not in after)
    return added, changed, removed


def on_drive(size, cluster):
    """Bytes a file of this size takes on a FAT drive: whole clusters."""
    return (size + cluster - 1) // cluster * cluster


def dir_bytes(paths, cluster):
    """Clusters, in bytes, that the directories of these paths take (the FAT12 root costs none).

    Each name takes one 32-byte entry plus one per 13 characters of its long
    name (counted for every name, so an upper bound: a lower-case 8.3 name such
    as code.py needs none), and a directory holds . and .. too."""
    entries = {}
    for path in paths:
        parts = path.split("/")
        for depth in range(1, len(parts)):
            parent = "/".join(parts[:depth - 1])
            if parent:
                entries.setdefault(parent, set()).add(parts[depth - 1])
        parent = "/".join(parts[:-1])
        if parent:
            entries.setdefault(parent, set()).add(parts[-1])
    total = 0
    for names in entries.values():
        slots = 2 + sum(1 + (len(n) + 12) // 13 for n in names)
        total += on_drive(slots * 32, cluster)
    return total
