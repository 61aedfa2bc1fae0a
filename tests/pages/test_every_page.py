"""Smoke test: every page listed in app.py opens under AppTest without an exception.

The list is read from app.py itself (each ``st.Page("app_pages/....py", ...)`` call), so a page
is tested the day it is added there.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from apptest_pages import APP, open_page

ROOT = Path(APP).parent


def listed_pages() -> list[str]:
    """The script path of every ``st.Page(...)`` call in app.py, in order."""
    tree = ast.parse(Path(APP).read_text(encoding="utf-8"))
    return [
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "Page"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ]


def test_app_lists_pages_that_exist() -> None:
    pages = listed_pages()
    assert "app_pages/calculator.py" in pages  # the parser finds the pages at all
    assert len(pages) == len(set(pages))
    for page in pages:
        assert (ROOT / page).is_file(), page


@pytest.mark.parametrize("page", listed_pages())
def test_page_opens_without_an_exception(page: str) -> None:
    at = open_page(page)  # asserts no exception
    assert at.title, f"{page} shows no title"
    assert not at.error, [error.value for error in at.error]
