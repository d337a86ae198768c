"""The game's names, given the firmware's own for the board (tools/users/bundle.py).

Every name a module uses stays in a board's RAM for good once the module is loaded
(interned: on a PyBadge 1,180 names took 22 KB at the table, 17% of the heap), unless
the firmware already has that name in its flash. So the bundle gives each name the game
defines one of the firmware's names that the game does not use: the program means the
same (a consistent renaming, one name for one name), and most of its names cost nothing.

    texts, mapping = rename(texts, firmware_names(), protected)

texts: {path: source} of every module of the program (the game and, for the device suite,
its tests; tools/users/bundle.py renames the third-party libraries it ships apart, then the names
both spell). What keeps its name (protected): Python's keywords, built-in
names and the attributes of built-in types, the firmware's API (the device suite's
stand-ins, tests/device/firmware, follow the documented one), names spelt out in a string
anywhere (getattr, key tables, module paths; a library's keys of its own **kwargs are
renamed with the keywords they spell instead), class names (they show in error messages),
module and package names, dunder names, names given by const() (a compiled module keeps
none of them), and a test's name (the device suite finds its tests by their names). Where
the firmware's names run out, a name gets a short one instead.

The firmware's names come from the pinned PyPI package circuitpython-stubs (its stubs of
the modules every board the game knows has) and from the board's Python itself (the
methods of its built-in types, read from the measuring MicroPython).
"""

import ast
import builtins
import io
import keyword
import os
import tokenize

# Firmware modules in every build of the boards the game knows (SAMD51 PyBadge and PyGamer,
# ESP32-S3 Feather): their names are in the firmware's flash. (Stub folder <module>-stubs.)
FIRMWARE_MODULES = (
    "analogio", "audiocore", "audioio", "audiomixer", "bitbangio", "bitmaptools", "board", "busdisplay",
    "busio", "countio", "digitalio", "displayio", "fontio", "fourwire", "keypad", "microcontroller",
    "neopixel_write", "nvm", "onewireio", "pwmio", "rainbowio", "rotaryio", "rtc", "storage",
    "supervisor", "synthio", "terminalio", "touchio", "usb_cdc", "usb_hid", "usb_midi", "vectorio",
    "warnings", "zlib")
BUILT_IN_TYPES = (str, bytes, bytearray, list, tuple, dict, set, frozenset, int, float, object,
                  BaseException, Exception, memoryview, range, slice, type)
_SHORT = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def stub_names(modules=FIRMWARE_MODULES):
    """Class, function, method, argument and attribute names of the firmware's modules, from
    the stubs (typing's names among them are no firmware names: harmless, see rename())."""
    names = set()
    for module in modules:
        folder = _stub_folder(module)
        if folder is None:
            continue
        for root, _dirs, files in os.walk(folder):
            for f in files:
                if f.endswith(".pyi"):
                    with open(os.path.join(root, f)) as fh:
                        tree = ast.parse(fh.read())
                    for node in ast.walk(tree):
                        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
                            names.add(node.name)
                        elif isinstance(node, ast.arg):        # keywords the firmware parses
                            names.add(node.arg)
                        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                            names.add(node.target.id)          # attributes and constants
                    names.add(module)
    return set(n for n in names if n.isidentifier() and not n.startswith("_"))


def class_members(module, cls):
    """The names of a firmware class's methods and attributes, from its stub: what a library's
    Python subclass of it (adafruit_display_text's Label is a displayio.Group) must not take
    for a name of its own."""
    folder = _stub_folder(module)
    out = set()
    if folder is None:
        return out
    with open(os.path.join(folder, "__init__.pyi")) as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    out.add(item.name)
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    out.add(item.target.id)
    return out


def _stub_folder(module):
    import sysconfig
    for base in (sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]):
        path = os.path.join(base, module + "-stubs")
        if os.path.isdir(path):
            return path
    return None


def type_method_names():
    """Names of the built-in types' methods (CPython's: a superset of the board's)."""
    out = set()
    for t in BUILT_IN_TYPES:
        out |= set(dir(t))
    return out


def firmware_names():
    """Names the firmware keeps in flash that the game may take for its own: the stubs' and
    the board's Python's own first (surely there), then CPython's built-in types' methods
    (some of which the board lacks: such a name then costs RAM, as any other would)."""
    not_ours = set(dir(builtins)) | set(keyword.kwlist)
    sure = stub_names() | core_names()
    return (sorted(n for n in sure - not_ours if not n.startswith("_"))
            + sorted(n for n in type_method_names() - sure - not_ours if not n.startswith("_")))


_CORE_SCRIPT = """
out = set()
for t in (str, bytes, bytearray, list, tuple, dict, set, frozenset, int, float, object,
          BaseException, memoryview, range, slice, type):
    for n in dir(t):
        out.add(n)
for m in %r:
    try:
        mod = __import__(m)
    except Exception:
        continue
    out.add(m)
    for n in dir(mod):
        out.add(n)
        v = getattr(mod, n, None)
        if isinstance(v, type):
            for k in dir(v):
                out.add(k)
print(" ".join(sorted(out)))
"""
CORE_MODULES = ("sys", "gc", "micropython", "math", "struct", "array", "collections", "errno", "io",
                "json", "re", "random", "time", "os", "binascii", "builtins")


def core_names():
    """Names of the board's Python itself (the built-in types and core modules), read from
    the measuring MicroPython once and kept beside the virtual environment."""
    import sys
    cache = os.path.join(sys.prefix, "share", "binocle", "core-names.txt")
    try:
        with open(cache) as f:
            return set(f.read().split())
    except OSError:
        pass
    from tools import mpy
    status, out, _err = mpy.run_source(_CORE_SCRIPT % (CORE_MODULES,))
    if status != 0:
        return set()                      # no MicroPython here: fewer names, the same program
    names = set(out.split())
    try:
        os.makedirs(os.path.dirname(cache), exist_ok=True)
        with open(cache, "w") as f:
            f.write(" ".join(sorted(names)))
    except OSError:
        pass
    return names


def identifiers(text):
    """Every name token of a module's source."""
    return [t.string for t in tokenize.generate_tokens(io.StringIO(text).readline)
            if t.type == tokenize.NAME]


def keyword_keys(tree):
    """The string constants a function uses as keys of its own **kwargs: `"k" in kwargs`,
    `"k" not in kwargs`, `kwargs["k"]`, `kwargs.get("k")` (pop, setdefault). Such a string
    spells one of the function's keywords, so it is renamed with that keyword (a library
    sets its padding's defaults so) instead of keeping the keyword's name."""
    out = []
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or fn.args.kwarg is None:
            continue
        kw = fn.args.kwarg.arg

        def is_kw(node):
            return isinstance(node, ast.Name) and node.id == kw

        def key(node):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.isidentifier():
                out.append(node)
        for node in ast.walk(fn):
            if isinstance(node, ast.Compare) and len(node.ops) == 1 and \
                    isinstance(node.ops[0], (ast.In, ast.NotIn)) and is_kw(node.comparators[0]):
                key(node.left)
            elif isinstance(node, ast.Subscript) and is_kw(node.value):
                key(node.slice)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    is_kw(node.func.value) and node.func.attr in ("get", "pop", "setdefault") and node.args:
                key(node.args[0])
    return out


def apply_keyword_keys(text, mapping):
    """A library's source with its **kwargs keys (keyword_keys) renamed as mapping renames
    the keywords they spell."""
    lines = text.splitlines(keepends=True)
    keys = [n for n in keyword_keys(ast.parse(text)) if n.value in mapping]
    for node in sorted(keys, key=lambda n: (n.lineno, n.col_offset), reverse=True):
        line = lines[node.lineno - 1]
        old = line[node.col_offset:node.end_col_offset]
        if node.lineno != node.end_lineno or ast.literal_eval(old) != node.value:
            raise ValueError("a keyword's key (line %d) is not one plain string" % node.lineno)
        lines[node.lineno - 1] = line[:node.col_offset] + repr(mapping[node.value]) + line[node.end_col_offset:]
    return "".join(lines)


def defined_and_spelt(text, library=False):
    """(names the module defines, names spelt out in its strings, its class names).
    ValueError for an f-string in the game's own modules: the names in its fields are not
    name tokens. In a library's module (library) those names keep theirs instead, the keys
    of a function's own **kwargs are not spelt names (keyword_keys: renamed with them), a
    public name given by const() is renamed like any other (it stays a global there), and
    so are the name an import takes with `as` and its class names (a board never shows a
    library's class name: a player sees no traceback)."""
    defined, spelt, classes = set(), set(), set()
    tree = ast.parse(text)
    keys = set(id(n) for n in keyword_keys(tree)) if library else set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            if not library:
                raise ValueError("an f-string (line %d): its names would not be renamed" % node.lineno)
            for inner in ast.walk(node):
                if isinstance(inner, ast.Name):
                    spelt.add(inner.id)
                elif isinstance(inner, ast.Attribute):
                    spelt.add(inner.attr)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and \
                isinstance(node.value.func, ast.Name) and node.value.func.id == "const" and \
                not (library and all(isinstance(t, ast.Name) and not t.id.startswith("_")
                                     for t in node.targets)):
            for t in node.targets:                # _NAME = const(n): gone when compiled
                if isinstance(t, ast.Name):
                    spelt.add(t.id)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in keys:
            for part in node.value.split("."):
                if part.isidentifier():
                    spelt.add(part)
        elif isinstance(node, ast.ClassDef):
            (defined if library else classes).add(node.name)
        elif isinstance(node, ast.FunctionDef):
            defined.add(node.name)
        elif isinstance(node, ast.arg):
            defined.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            defined.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            defined.add(node.attr)
        elif library and isinstance(node, ast.alias) and node.asname:
            defined.add(node.asname)              # import time.monotonic as _monotonic
    return defined, spelt, classes


def protected_names(module_paths, api_texts):
    """What keeps its name whatever the program does (see the module docstring)."""
    keep = set(keyword.kwlist) | set(dir(builtins)) | type_method_names()
    keep |= {"self", "cls", "const", "micropython", "native", "viper"}
    for text in api_texts:
        for name in identifiers(text):
            keep.add(name)
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.isidentifier():
                keep.add(node.value)
    for path in module_paths:
        for part in path[:-3].replace("\\", "/").split("/"):
            keep.add(part)
    return keep


def foreign_names(texts):
    """Names the program takes from modules that are not its own: imported by name (from json
    import load) or read from an imported module (json.load). A game name spelt the same must
    keep its name too, or the renaming would rename those as well. texts: {path: source}."""
    own = set()
    for path in texts:
        parts = path[:-3].replace("\\", "/").split("/")
        own.add(parts[1] if parts[0] == "lib" and len(parts) > 1 else parts[0])
    out = set()
    for text in texts.values():
        tree = ast.parse(text)
        modules = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.split(".")[0] not in own:
                        modules.add(a.asname or a.name.split(".")[0])
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module \
                    and node.module.split(".")[0] not in own:
                for a in node.names:
                    out.add(a.name)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules:
                out.add(node.attr)
    return out


def rename(texts, targets, keep, libraries=()):
    """({path: renamed source}, {old: new}) of a program: texts {path: source}; libraries:
    the paths among them of third-party modules (see defined_and_spelt)."""
    defined, spelt, classes = set(), set(), set()
    uses = {}
    for path, text in texts.items():
        d, s, c = defined_and_spelt(text, path in libraries)
        defined |= d
        spelt |= s
        classes |= c
        for name in identifiers(text):
            uses[name] = uses.get(name, 0) + 1
    movable = sorted(n for n in defined if n not in keep and n not in spelt and n not in classes
                     and not n.startswith(("__", "test_")))
    movable.sort(key=lambda n: -uses[n] * len(n))      # the most bytes first
    taken = set(uses) | set(dir(builtins)) | set(keyword.kwlist)   # a target means nothing else
    free = [t for t in targets if t not in taken]
    short = _short_names(taken | set(targets))       # never a name a target already is
    mapping = {}
    for name in movable:
        mapping[name] = free.pop(0) if free else next(short)
    if len(set(mapping.values())) != len(mapping):
        raise ValueError("two names were given one")        # a bug here: refuse to ship it
    out = {}
    for path, text in texts.items():
        out[path] = apply(text, mapping, path in libraries)
    return out, mapping


def _short_names(taken):
    n = 0
    while True:
        s, k = "", n
        while True:
            s = _SHORT[k % len(_SHORT)] + s
            k //= len(_SHORT)
            if not k:
                break
        n += 1
        if s not in taken and not keyword.iskeyword(s):
            yield s


def apply(text, mapping, library=False):
    """The source with its name tokens renamed; everything else (strings, comments) kept, but
    in a library's module (library) the keys of its own **kwargs (apply_keyword_keys)."""
    toks = list(tokenize.generate_tokens(io.StringIO(text).readline))
    lines = text.splitlines(keepends=True)
    # Replace from the end of each line so earlier columns stay valid.
    for t in reversed(toks):
        if t.type == tokenize.NAME and t.string in mapping:
            row, col = t.start
            line = lines[row - 1]
            lines[row - 1] = line[:col] + mapping[t.string] + line[col + len(t.string):]
    text = "".join(lines)
    return apply_keyword_keys(text, mapping) if library else text
