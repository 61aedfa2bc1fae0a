"""The layers point one way, read from the source with `ast` (docs/MAINTAINERS.md, "Layers").

Every import counts, at the top of a module or inside a function (a function-local import is
still a dependency; it only hides it from a reader), except those under
``if TYPE_CHECKING:``, which are annotations and never run.

- The number modules (everything in ``calculator/`` but ``report/`` and ``cli/``) import
  neither the words (``calculator.report``), nor the command line, nor the page.
- The words (``calculator/report/``) import neither the command line nor the page.
- Nothing in ``calculator/`` imports Streamlit, Altair or ``ui``; nothing in ``ui/`` imports the
  command line.
- No two modules of ``calculator/`` import each other, directly or round a longer cycle.
"""

from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
CALCULATOR = ROOT / "calculator"
UI = ROOT / "ui"


def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _resolve(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def imports_of(path: pathlib.Path, module: str | None = None) -> set[str]:
    """Every module `path` (named `module`) imports, at any depth, leaving out
    ``if TYPE_CHECKING:`` blocks; ``from package import name`` counts ``package.name`` too, as it
    may be a module."""
    module = module or _module_name(path)
    is_package = path.name == "__init__.py"
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(node, module, is_package)
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def _sources(folder: pathlib.Path) -> list[pathlib.Path]:
    return sorted(path for path in folder.rglob("*.py") if "__pycache__" not in path.parts)


def _within(name: str, *prefixes: str) -> bool:
    return any(name == prefix or name.startswith(f"{prefix}.") for prefix in prefixes)


def _layer(path: pathlib.Path) -> str:
    name = _module_name(path)
    if _within(name, "calculator.report"):
        return "words"
    if _within(name, "calculator.cli") or name == "calculator.__main__":
        return "cli"
    return "numbers"


FORBIDDEN = {
    "numbers": ("calculator.report", "calculator.cli", "ui", "streamlit", "altair"),
    "words": ("calculator.cli", "ui", "streamlit", "altair"),
    "cli": ("ui", "streamlit", "altair"),
}


@pytest.mark.parametrize("path", _sources(CALCULATOR), ids=lambda p: _module_name(p))
def test_each_layer_imports_only_the_ones_below(path: pathlib.Path) -> None:
    layer = _layer(path)
    wrong = sorted(name for name in imports_of(path) if _within(name, *FORBIDDEN[layer]))
    assert not wrong, f"{_module_name(path)} ({layer}) imports {wrong}"


@pytest.mark.parametrize("path", _sources(UI), ids=lambda p: _module_name(p))
def test_the_page_helpers_never_import_the_command_line(path: pathlib.Path) -> None:
    wrong = sorted(name for name in imports_of(path) if _within(name, "calculator.cli"))
    assert not wrong, f"{_module_name(path)} imports {wrong}"


def _graph() -> dict[str, set[str]]:
    modules = {_module_name(path): path for path in _sources(CALCULATOR)}
    return {
        name: {target for target in imports_of(path) if target in modules and target != name}
        for name, path in modules.items()
    }


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of `graph`, as the modules round it, or None (depth-first search)."""
    state: dict[str, int] = {}  # 1 while on the current path, 2 when done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state and (found := visit(target)):
                return found
        state[node] = 2
        path.pop()
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def _parents_of(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    # A package's __init__ re-exporting its submodules is not a cycle with them: an edge from a
    # package to one of its own submodules is left out.
    return {
        name: {target for target in targets if not _within(target, name)}
        for name, targets in graph.items()
    }


def test_no_import_cycle_in_the_library() -> None:
    cycle = _cycle(_parents_of(_graph()))
    assert cycle is None, " -> ".join(cycle or [])


def test_the_reader_sees_function_local_and_relative_imports(tmp_path: pathlib.Path) -> None:
    # The checks above can fail: a hidden import inside a function is counted, a TYPE_CHECKING
    # one is not.
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from calculator.report import words\n"
        "def f():\n    from calculator.cli import cases\n    from . import table\n"
    )
    probe = tmp_path / "probe.py"
    probe.write_text(source, encoding="utf-8")
    found = imports_of(probe, "calculator.probe")
    assert "calculator.cli.cases" in found and "calculator.table" in found
    assert "calculator.report.words" not in found
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None
