"""What the Decision section says on the page (AppTest): the same sentences the command line
prints (tests/cli/test_decision_statements_cli.py), read from the page itself.
"""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from ui.widgets.decision import ANSWER_PREFIX

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TIMEOUT = 60


def run_app(query: dict[str, str]) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update(query)
    return at.run()


def unescape(markdown: str) -> str:
    return re.sub(r"\\(.)", r"\1", markdown)


def answer(at: AppTest) -> str:
    prefix = unescape(ANSWER_PREFIX)
    found = [unescape(m.value)[len(prefix) :] for m in at.markdown if unescape(m.value).startswith(prefix)]
    assert len(found) == 1, found
    return found[0]


def page_text(at: AppTest) -> str:
    parts = [unescape(m.value) for m in at.markdown] + [unescape(c.value) for c in at.caption]
    return "\n".join(parts)


def test_failed_noninferiority_far_below_the_margin_says_b_is_worse_by_more():
    at = run_app({"question": "non-inferior", "margin": "1"})  # the default table 60, 15, 5, 20
    assert not at.exception
    sentence = answer(at)
    assert "these cases show that B is worse than A by more than 1 point" in sentence
    assert "does not show that B is worse" not in sentence
