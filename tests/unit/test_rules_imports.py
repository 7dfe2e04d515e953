"""The rules' import graph: every module imports on its own, the module-level graph has no cycle, no private name
crosses a module, and the rules import nothing from the web, the database or the event store.

Imports inside functions (made lazily, to dodge a cycle) are read too: the cycles they still close are listed in
LAZY_CYCLES, so that none is added and each one removed is noticed (decision 0029 says what remains).
"""
from __future__ import annotations

import ast
import importlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "service" / "rules"
FORBIDDEN = ("flask", "psycopg", "eventsourcing", "sqlalchemy", "web", "projections")

# cycles closed only by imports inside functions (strongly connected groups of modules), still to be untied
LAZY_CYCLES: set[frozenset[str]] = set()  # the last one (perspective ↔ ruleset) is untied: the ruleset masks
# through lockdown.masking, and perspective.perspective_view's fallback to Lockdown is the only way back


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(RULES.rglob("*.py")):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = path
    return out


MODULES = _modules()


def _imports(name: str, path: Path, top_level_only: bool) -> list[tuple[str, tuple[str, ...]]]:
    """(module, names) of each import of ``name``; a package's own parent is not counted (importing a submodule
    always runs its package first)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    out = []
    for n in nodes:
        if isinstance(n, ast.ImportFrom) and n.module and n.level == 0:
            out.append((n.module, tuple(a.name for a in n.names)))
        elif isinstance(n, ast.Import):
            out += [(a.name, ()) for a in n.names]
    return out


def _graph(top_level_only: bool) -> dict[str, set[str]]:
    graph = {}
    for name, path in MODULES.items():
        deps = set()
        for module, names in _imports(name, path, top_level_only):
            if module in MODULES and not name.startswith(module + "."):
                deps.add(module)
            deps |= {f"{module}.{n}" for n in names if f"{module}.{n}" in MODULES}
        graph[name] = deps - {name}
    return graph


def _cycles(graph: dict[str, set[str]]) -> set[frozenset[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), set()

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                found.add(frozenset(group))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def test_the_module_level_import_graph_has_no_cycle():
    assert _cycles(_graph(top_level_only=True)) == set()


def test_no_new_cycle_through_imports_inside_functions():
    cycles = _cycles(_graph(top_level_only=False))
    assert cycles <= LAZY_CYCLES, f"a new import cycle: {[sorted(c) for c in cycles - LAZY_CYCLES]}"
    assert cycles == LAZY_CYCLES, f"untied: {[sorted(c) for c in LAZY_CYCLES - cycles]} — take it off LAZY_CYCLES"


def test_no_private_name_is_imported_across_modules():
    crossing = [f"{name}: from {module} import {n}" for name, path in MODULES.items()
                for module, names in _imports(name, path, top_level_only=False)
                if module.startswith("service.") for n in names if n.startswith("_") and n != "_"]  # _: gettext
    assert crossing == []


def test_the_rules_import_no_door_or_store():
    found = [f"{name}: {module}" for name, path in MODULES.items()
             for module, _ in _imports(name, path, top_level_only=False) if module.split(".")[0] in FORBIDDEN]
    assert found == []


def test_the_kit_imports_no_ruleset():
    kit = [n for n in MODULES if n.startswith("service.rules.kit")]
    found = [f"{name}: {dep}" for name in kit for dep in _graph(top_level_only=False)[name]
             if dep.startswith("service.rules.lockdown")]
    assert found == []


@pytest.mark.parametrize("name", ["service.rules.kit.replace", "service.rules.kit.catalogue", "service.rules.kit.facts",
                                  "service.rules.lockdown.state", "service.rules.lockdown.facts",
                                  "service.rules.lockdown.apply", "service.rules.lockdown.checks",
                                  "service.rules.lockdown.inputs", "service.rules.lockdown.generate",
                                  "service.rules.lockdown.turns", "service.rules.lockdown.hidden_information",
                                  "service.rules.lockdown.unknowns", "service.rules.lockdown.fact_types"])
def test_a_module_imports_on_its_own(name):
    """A fresh import of the module alone (no other rules module loaded first) succeeds."""
    saved = {k: v for k, v in sys.modules.items() if k.startswith("service")}
    for k in saved:
        del sys.modules[k]
    try:
        importlib.import_module(name)
    finally:
        for k in [k for k in sys.modules if k.startswith("service")]:
            del sys.modules[k]
        sys.modules.update(saved)


def test_web_and_projections_speak_only_the_ruleset_interface():
    """Issue 10 part 1: web/ and projections/ import no ruleset's package (not even inside a function), so a second
    ruleset needs no change outside its own (the statistics ask ``Ruleset.step_statistics``: decision 0040)."""
    packages = {p.name for p in RULES.iterdir() if (p / "__init__.py").exists()} - {"kit"}  # the rulesets' packages
    found = []
    for folder in ("web", "projections"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            found += [f"{name}: {module}" for module, names in _imports(name, path, top_level_only=False)
                      for dep in [module, *(f"{module}.{n}" for n in names)]
                      if dep.split(".")[:2] == ["service", "rules"] and len(dep.split(".")) > 2
                      and dep.split(".")[2] in packages]
    assert packages and found == []
