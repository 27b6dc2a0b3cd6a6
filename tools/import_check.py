"""Fail on an import circle in the desktop tools or the firmware.

Usage: python tools/import_check.py [--graph]     (--graph: every import edge, then the check)

Each module's imports are read with ast, at the top and inside functions alike (a
function's import is a circle too, only a later one), and resolved to the modules
of this repository: host_tools/ as the desktop imports it, firmware/ as the board
does (firmware/ is its import path: `bobing.rules`, `board.sim`, `sim.run`).  Two
kinds of circle fail, each named with the imports that close it:
- modules that import each other, directly or round a ring (a -> b -> a);
- parts that do: host_tools' folders (commands/, sync/, sim/... and each module at
  its top, cli.py, args.py...), the firmware's folders (bobing/, board/, sim/...).
Only circles that touch CHECKED count.  Exit status 1 on a circle, else 0.
"""

import ast
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (folder on the import path, its packages and modules in the graph, how many
# leading names make a part: host_tools.sync.db is in part host_tools.sync)
TREES = (
    ("", ("host_tools",), 2),
    ("firmware", ("app", "board", "bobing", "display", "sim", "boot", "bowl", "main"), 1),
)
SKIP = ("host_tools/shim", "host_tools/firmware")  # the CPython stand-ins, an install's copy of firmware/
# A circle counts when one of its modules or parts is in one of these packages.
CHECKED = ("host_tools", "bobing", "board", "app", "display", "sim", "boot", "bowl", "main")


def modules():
    """{dotted name: (path, part)} of every module of TREES."""
    found = {}
    for folder, tops, depth in TREES:
        base = os.path.join(ROOT, folder)
        for top in tops:
            if os.path.isfile(os.path.join(base, top + ".py")):
                found[top] = (os.path.join(base, top + ".py"), top)
                continue
            for here, dirs, files in os.walk(os.path.join(base, top)):
                rel = os.path.relpath(here, ROOT)
                dirs[:] = sorted(d for d in dirs if d != "__pycache__" and os.path.join(rel, d) not in SKIP)
                package = os.path.relpath(here, base).replace(os.sep, ".")
                for name in sorted(files):
                    if not name.endswith(".py") or name == "manifest.py":
                        continue
                    dotted = package if name == "__init__.py" else package + "." + name[:-3]
                    names = dotted.split(".")
                    part = ".".join(names[:depth]) if len(names) > depth else dotted
                    found[dotted] = (os.path.join(here, name), part)
    return found


def imports(dotted, path, known):
    """[(imported module, line)] of a module's imports that are modules of `known`."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    package = dotted if path.endswith("__init__.py") else dotted.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            # `from a import b`: the module a.b if there is one, else a's name b
            targets = [
                base + "." + alias.name if base + "." + alias.name in known else base for alias in node.names
            ]
        else:
            continue
        for target in targets:
            while target and target not in known:  # import a.b.c of a package a.b
                target = target.rpartition(".")[0]
            if target and target != dotted:
                out.append((target, node.lineno))
    return out


def graph():
    """({module: {module it imports: where}}, {module: part})."""
    known = modules()
    edges = {}
    for dotted, (path, _) in known.items():
        edges[dotted] = {}
        for target, line in imports(dotted, path, known):
            where = "%s:%d" % (os.path.relpath(path, ROOT), line)
            edges[dotted].setdefault(target, where)
    return edges, {name: part for name, (_, part) in known.items()}


def parts_graph(edges, part):
    """The same edges between parts, each with one import that makes it."""
    out = {}
    for source, targets in edges.items():
        out.setdefault(part[source], {})
        for target, where in targets.items():
            if part[source] != part[target]:
                out[part[source]].setdefault(part[target], "%s imports %s" % (where, target))
    return out


def knots(edges):
    """The strongly connected components of more than one node (Tarjan), sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(edges) + 100))
    for node in sorted(edges):
        if node not in index:
            visit(node)
    return sorted(found)


def ring(edges, knot):
    """A shortest circle through the knot's first node: [a, b, ..., a]."""
    start = knot[0]
    came = {start: None}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for target in sorted(edges[node]):
            if target == start:
                path = [node]
                while came[path[-1]] is not None:
                    path.append(came[path[-1]])
                return [*reversed(path), start]
            if target in knot and target not in came:
                came[target] = node
                queue.append(target)
    raise AssertionError("no circle through %s" % start)


def checked(names):
    return any(name == p or name.startswith(p + ".") for name in names for p in CHECKED)


def circles(edges, what):
    """[(knot, text)] of the circles of a graph that touch CHECKED."""
    out = []
    for knot in knots(edges):
        if not checked(knot):
            continue
        path = ring(edges, knot)
        lines = ["%s circle: %s" % (what, " -> ".join(path))]
        lines += ["    %s -> %s: %s" % (a, b, edges[a][b]) for a, b in zip(path, path[1:], strict=False)]
        if len(knot) > len(path) - 1:
            lines.append("    (one ring of a knot of %d: %s)" % (len(knot), ", ".join(knot)))
        out.append((knot, "\n".join(lines)))
    return out


def main(argv):
    edges, part = graph()
    if "--graph" in argv:
        for source in sorted(edges):
            for target in sorted(edges[source]):
                print("%s -> %s  (%s)" % (source, target, edges[source][target]))
    found = circles(edges, "module") + circles(parts_graph(edges, part), "part")
    for _, text in found:
        print(text)
    if found:
        print("import_check: import circles (tools/import_check.py says how to read them)", file=sys.stderr)
        return 1
    print("import_check: no import circle in %s (%d modules)" % (", ".join(CHECKED), len(edges)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
