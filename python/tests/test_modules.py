"""The Python package's modules import as layers (issue 71): no module imports one that imports
it back, through the package's ``__init__`` either (``from . import name`` of a name defined
there is an import of it), lazy imports inside functions included (they run too). Read from the
sources with ``ast``, as the page's and the engine's module-graph tests read theirs; imports
under ``if TYPE_CHECKING:`` never run and are left out."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "rowkey_lab"


def _modules() -> dict[str, ast.Module]:
    return {p.stem: ast.parse(p.read_text(encoding="utf-8")) for p in sorted(PACKAGE.glob("*.py"))}


def _type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.Module, modules: set[str]) -> set[str]:
    """The package's modules ``tree`` imports: ``from .m import x`` is ``m``; ``from . import x``
    is ``x`` when it names a module of the package or its compiled ``_engine``, else
    ``__init__``; ``rowkey_lab.m`` the same, absolutely."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking(node):
            for n in node.orelse:
                visit(n)
            return
        if isinstance(node, ast.ImportFrom):
            relative = node.level == 1
            absolute = node.level == 0 and (node.module or "").split(".")[0] == "rowkey_lab"
            if relative or absolute:
                sub = (node.module or "").split(".")
                sub = sub[1:] if absolute else sub
                if sub and sub[0]:
                    found.add(sub[0])
                else:
                    for a in node.names:
                        found.add(a.name if a.name in modules or a.name == "_engine" else "__init__")
        elif isinstance(node, ast.Import):
            for a in node.names:
                parts = a.name.split(".")
                if parts[0] == "rowkey_lab":
                    found.add(parts[1] if len(parts) > 1 else "__init__")
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found & (modules | {"__init__"})


def _circles(graph: dict[str, set[str]]) -> list[str]:
    color: dict[str, str] = {}
    out: list[str] = []

    def visit(u: str, stack: list[str]) -> None:
        color[u] = "open"
        stack.append(u)
        for v in sorted(graph.get(u, ())):
            if color.get(v) == "open":
                out.append(" -> ".join(stack[stack.index(v) :] + [v]))
            elif v not in color:
                visit(v, stack)
        stack.pop()
        color[u] = "done"

    for u in sorted(graph):
        if u not in color:
            visit(u, [])
    return out


def _graph() -> dict[str, set[str]]:
    trees = _modules()
    names = set(trees)
    return {m: _imports(t, names) - {m} for m, t in trees.items()}


def test_no_module_of_the_package_imports_one_that_imports_it_back():
    graph = _graph()
    assert {"__init__", "spark", "_spark", "_spark_rekey", "_args"} <= set(graph)
    assert _circles(graph) == []


def test_the_reader_sees_lazy_imports_the_package_and_circles():
    src = (
        "from . import _engine, helper\n"
        "from . import Design\n"
        "def f():\n    from .other import x\n"
        "if TYPE_CHECKING:\n    from . import typed\n"
    )
    got = _imports(ast.parse(src), {"helper", "other", "typed"})
    assert got == {"helper", "__init__", "other"}
    assert _circles({"a": {"b"}, "b": {"a"}}) == ["a -> b -> a"]
    assert _circles({"a": {"b"}, "b": set()}) == []
