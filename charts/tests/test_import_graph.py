"""The package's modules import one another in one direction: no cycle, not even one hidden by an import inside a
function (or under ``if TYPE_CHECKING:``). Every module is read with ``ast``, every import statement anywhere in it
counted."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "omb_tx_charts"


def module_names(root: Path) -> dict[str, Path]:
    """Dotted name -> file for every module under ``root`` (a package: ``__init__.py`` names the package)."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = (root.name, *path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``name`` imports, wherever the import statement stands."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                targets.add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module or ""
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                # "from . import analysis" imports a module; "from .tables import Table" a name of one
                targets.add(submodule if submodule in known else base)
    found = set()
    for target in targets:
        # "import a.b.c" loads a.b.c; a name that is not a module of the package is outside it (stdlib, matplotlib)
        while target and target not in known:
            target = target.rpartition(".")[0] if "." in target else ""
        if target and target != name:
            found.add(target)
    return found


def import_graph(root: Path) -> dict[str, set[str]]:
    modules = module_names(root)
    return {name: imports_of(name, path, set(modules)) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected component of more than one module (Tarjan's algorithm), each as a closed path."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for successor in sorted(graph.get(node, ())):
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(_path_through(sorted(component), graph))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return components


def _path_through(component: list[str], graph: dict[str, set[str]]) -> list[str]:
    """One cycle inside ``component``, from its first module back to it: a → b → a."""
    start, members = component[0], set(component)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        node = frontier.pop(0)
        for successor in sorted(graph[node] & members):
            if successor == start:
                return paths[node] + [start]
            if successor not in paths:
                paths[successor] = paths[node] + [successor]
                frontier.append(successor)
    return component


def test_the_package_has_no_import_cycle() -> None:
    graph = import_graph(PACKAGE)
    assert len(graph) > 20, sorted(graph)  # every module was read
    assert "omb_tx_charts.report" in graph["omb_tx_charts.cli"]  # imported inside main(): counted all the same
    found = cycles(graph)
    assert not found, "import cycles: " + "; ".join(" → ".join(cycle) for cycle in found)


def test_a_cycle_hidden_in_a_function_is_found(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("from .b import thing\n")
    (package / "b.py").write_text("def thing():\n    from .sub import c\n    return c\n")
    (package / "sub" / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .. import a\n")
    (package / "d.py").write_text("import pkg.a\nfrom pkg import b\n")
    graph = import_graph(package)
    assert graph == {"pkg": set(), "pkg.sub": set(), "pkg.a": {"pkg.b"}, "pkg.b": {"pkg.sub.c"},
                     "pkg.sub.c": {"pkg.a"}, "pkg.d": {"pkg.a", "pkg.b"}}
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.sub.c", "pkg.a"]]


def test_only_the_report_reaches_into_the_seed_study() -> None:
    """The tool works on any results; the seed study (study/) sits on top of it, entered at one place."""
    graph = import_graph(PACKAGE)
    study = "omb_tx_charts.study"
    reaching = {name for name, targets in graph.items() if not name.startswith(study)
                for target in targets if target == study or target.startswith(study + ".")}
    assert reaching == {"omb_tx_charts.report"}
    assert {t for t in graph["omb_tx_charts.report"] if t.startswith(study)} == {"omb_tx_charts.study.section"}
