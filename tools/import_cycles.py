#!/usr/bin/env python3
"""Lists the import cycles between the modules of src/ (exit 1 if there is any).

    python3 tools/import_cycles.py [--src src] [--graph]

A module is a file (`src/games/blokus/mcts.rs` is `games::blokus::mcts`, a `mod.rs` is its
folder's module). Module A imports module B when A names a path into B: `use crate::...`,
`use super::...`, `use self::...` or a `crate::...`/`super::...` path in its code, resolved to
the deepest module file that exists (`crate::games::blokus::board::Board` -> games::blokus::board).
Declaring a child (`mod x;`) is not an import. Test modules (`#[cfg(test)] mod tests { ... }` to
the end of the file) are left out: tests may look anywhere. A cycle is a ring of modules each
importing the next, as the strongly connected components of that graph show.
"""
import argparse
import os
import re
import sys

PATH = re.compile(r"\b(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)+)")
USE_GROUP = re.compile(r"\buse\s+(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)*)::\{([^;]*)\};", re.S)


def module_files(src):
    """{module path tuple: file}."""
    modules = {}
    for root, _, files in os.walk(src):
        for name in files:
            if not name.endswith(".rs"):
                continue
            rel = os.path.relpath(os.path.join(root, name), src)[:-3].split(os.sep)
            if rel in (["lib"], ["main"]):
                path = ()
            elif rel[-1] == "mod":
                path = tuple(rel[:-1])
            else:
                path = tuple(rel)
            if rel == ["main"]:
                continue
            modules[path] = os.path.join(root, name)
    return modules


def without_tests(text):
    at = re.search(r"#\[cfg\(test\)\]\s*mod\s+tests\s*\{", text)
    return text[:at.start()] if at else text


def without_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def resolve(module, root, parts, modules):
    """The deepest existing module named by root::parts seen from `module`."""
    if root == "crate":
        base = ()
    elif root == "self":
        base = module
    else:
        base = module[:-1]
        while parts and parts[0] == "super":
            base, parts = base[:-1], parts[1:]
    path = base + tuple(parts)
    while path not in modules and path:
        path = path[:-1]
    return path


def imports(module, text, modules):
    found = set()
    code = without_comments(without_tests(text))
    for root, prefix, group in USE_GROUP.findall(code):
        head = [p for p in prefix.split("::") if p]
        for item in re.split(r"[,{}\s]+", group):
            item = item.split(" as ")[0].strip()
            if item and item != "self":
                found.add(resolve(module, root, head + item.split("::"), modules))
            elif item == "self":
                found.add(resolve(module, root, head, modules))
    for root, rest in PATH.findall(code):
        parts = [p for p in rest.split("::") if p]
        found.add(resolve(module, root, parts, modules))
    found.discard(module)
    # A module's own ancestors are reached through `super`, but naming only the parent (to reach
    # a sibling through it) resolves to the sibling above; the crate root alone is no import.
    found.discard(())
    return found


def cycles(graph):
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in graph:
        if v not in index:
            visit(v)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", default=os.path.join(os.path.dirname(__file__), "..", "src"))
    ap.add_argument("--graph", action="store_true", help="print every module's imports")
    args = ap.parse_args()
    modules = module_files(args.src)
    graph = {}
    for module, path in modules.items():
        with open(path, encoding="utf-8") as f:
            graph[module] = imports(module, f.read(), modules)
    name = lambda m: "::".join(m) or "crate"
    if args.graph:
        for module in sorted(graph):
            print(f"{name(module)} -> {', '.join(sorted(name(m) for m in graph[module]))}")
    found = cycles(graph)
    for component in found:
        print("cycle: " + ", ".join(name(m) for m in component))
        for m in component:
            inside = sorted(name(w) for w in graph[m] if w in component)
            print(f"    {name(m)} imports {', '.join(inside)}")
    print(f"{len(modules)} modules, {len(found)} import cycles")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
