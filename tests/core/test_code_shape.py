"""The code's shape (developers' guide, "Layout"): no module over 500 lines, no function over 80
lines of code, and no formatter switched off to get there (``# fmt: skip`` / ``# fmt: off``):
a long piece is split by what it does."""

from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SOURCES = sorted(
    path
    for folder in ("calculator", "ui", "app_pages")
    for path in (ROOT / folder).rglob("*.py")
    if "__pycache__" not in path.parts
) + [ROOT / "app.py"]
MAX_MODULE_LINES = 500
MAX_FUNCTION_CODE_LINES = 80


def code_lines(lines: list[str], node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """The lines of `node` that hold code: not blank, not a comment, not its docstring."""
    count = sum(
        1
        for line in lines[node.lineno - 1 : node.end_lineno]
        if line.strip() and not line.strip().startswith("#")
    )
    first = node.body[0]
    value = first.value if isinstance(first, ast.Expr) else None
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        docstring = lines[first.lineno - 1 : first.end_lineno]
        count -= sum(1 for line in docstring if line.strip())
    return count


def _name(path: pathlib.Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("path", SOURCES, ids=_name)
def test_modules_and_functions_are_short(path: pathlib.Path) -> None:
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert len(lines) <= MAX_MODULE_LINES, f"{_name(path)} has {len(lines)} lines"
    long = [
        (node.name, size)
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and (size := code_lines(lines, node)) > MAX_FUNCTION_CODE_LINES
    ]
    assert not long, f"{_name(path)}: functions over {MAX_FUNCTION_CODE_LINES} lines: {long}"
    switched_off = [
        n for n, line in enumerate(lines, 1) if "fmt: skip" in line or "fmt: off" in line
    ]
    assert not switched_off, f"{_name(path)}: the formatter is switched off at lines {switched_off}"


def test_the_counter_counts_code_only() -> None:
    source = 'def f():\n    """Doc.\n\n    More."""\n    # a comment\n\n    return 1\n'
    node = ast.parse(source).body[0]
    assert isinstance(node, ast.FunctionDef)
    assert code_lines(source.splitlines(), node) == 2  # "def f():" and "return 1"
