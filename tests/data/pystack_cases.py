"""Known cases for the pystack model of tools/checks/pystack.py: what each kind of call takes from
CircuitPython's Python stack.

    micropython tests/data/pystack_cases.py        (a CircuitPython with MICROPY_ENABLE_PYSTACK)

prints "<case>: <bytes in use>" for each case, micropython.pystack_use() read inside the call.
tests/test_pystack.py runs this file under the model (which gives `use`) and holds what
CircuitPython 10.2.1's unix port, 32-bit, printed.
"""

try:
    from micropython import pystack_use as use
except ImportError:
    pass                                 # the model's (tools/checks/pystack.py)


def plain():
    return use()


def two_args(a, b):
    return use()


def with_locals(a, b, c):
    d = a + b
    e = d * c
    return use() + 0 * e


def guarded():
    try:
        return use()
    except ValueError:
        return -1


def guarded_twice():
    try:
        try:
            return use()
        finally:
            pass
    except ValueError as e:
        return e


def outer():
    return plain()


def gen():
    yield use()


def spread(*args, **kw):
    return use()


def make(n):
    def inner():
        return use() + 0 * n
    return inner


class Thing:
    def method(self, x):
        return use()

    def __call__(self, x):
        return use()


class Made:
    def __init__(self, x):
        self.seen = use()


class Body:
    seen = use()


t = Thing()
t.kept = t.method
m = t.method
args = (1, 2, 3)
print("module:", use())
print("plain:", plain())
print("two arguments:", two_args(1, 2))
print("locals:", with_locals(1, 2, 3))
print("try:", guarded())
print("try in try, except as:", guarded_twice())
print("a call in a call:", outer())
print("method:", t.method(1))
print("bound method:", m(1))
print("bound method, keyword:", m(x=1))
print("bound method in an attribute:", t.kept(1))
print("getattr(obj, name)():", getattr(t, "method")(1))
print("callable instance:", t(1))
print("__init__:", Made(1).seen)
print("class body:", Body.seen)
print("generator:", next(gen()))
print("f(*args):", spread(*args))
print("f(**kw):", spread(**{"a": 1, "b": 2}))
print("obj.m(*args):", t.method(*(1,)))
print("closure:", make(2)())
print("list comprehension:", [use() for _ in range(1)][0])
print("generator expression:", next(use() for _ in range(1)))
print("lambda:", (lambda: use())())
