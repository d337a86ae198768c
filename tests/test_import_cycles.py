"""No import cycles in engine/ or lib/: each module's imports, at its top or inside a function,
lead down and never back to it.

A package's own __init__ is not counted as an import of its submodules' (Python runs it first
for any of them); `from package import name` counts the submodule `name` when there is one,
else the package. engine/rules.py loads a rule set's state class by its name (rules.ROWS) and
imports none of them itself: the rule sets import the registry, not the other way round."""

import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TREES = (("engine", ROOT), ("lib", os.path.join(ROOT, "lib")))     # (folder, what names are relative to)


def modules():
    """{dotted name: path} of every module under engine/ and lib/."""
    out = {}
    for folder, base in TREES:
        for here, _dirs, files in os.walk(os.path.join(ROOT, folder)):
            for f in files:
                if f.endswith(".py"):
                    path = os.path.join(here, f)
                    name = os.path.relpath(path, base)[:-3].replace(os.sep, ".")
                    if name.endswith(".__init__"):
                        name = name[:-len(".__init__")]
                    out[name] = path
    return out


def imports_of(source, known):
    """The known modules a source imports, anywhere in it."""
    out = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            subs = [node.module + "." + a.name for a in node.names if node.module + "." + a.name in known]
            out.update(subs)
            if node.module in known and len(subs) < len(node.names):
                out.add(node.module)
    return out


def cycles(graph):
    """The strongly connected groups of more than one module, or of one importing itself
    (Tarjan's algorithm, iterative: no recursion limit to meet)."""
    index, low, stack, on, found = {}, {}, [], set(), []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                group = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    group.append(w)
                    if w == v:
                        break
                if len(group) > 1 or v in graph[v]:
                    found.append(sorted(group))
    return found


def test_no_import_cycles_in_the_engine_or_the_app():
    known = modules()
    graph = {}
    for name, path in known.items():
        with open(path, encoding="utf-8") as f:
            graph[name] = imports_of(f.read(), known) - {name}
    assert "engine.rules" in graph and "binocle.app" in graph
    assert cycles(graph) == []


def test_the_check_finds_a_cycle():
    known = {"a", "b", "c", "p", "p.q"}
    assert imports_of("import a\ndef f():\n    from b import x\n", known) == {"a", "b"}
    assert imports_of("from p import q", known) == {"p.q"}
    assert imports_of("from p import q, other", known) == {"p.q", "p"}
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set(), "c": {"a"}}) == []
