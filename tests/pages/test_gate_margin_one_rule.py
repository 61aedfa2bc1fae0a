"""One rule for a release gate's margin on the page and the command line (statistics 4, B7).

Before: with the question "non-inferior" at a 20-point margin the per-case page said "As a
release gate (command line: cases --fail-if-worse --margin 20pt) this comparison passes", while
that very command is refused (exit 2): a gate takes margins up to 10 points
(:data:`calculator.release.GATE_MARGIN_LIMIT`). Now both read
:func:`calculator.release.gate_margin_too_wide` and the page words no verdict there.

The table 60, 15, 5, 20 is the review's t60.csv: its 90% Tango interval for A - B,
+2.8 to +17.6 points, lies below +20 points, so the decision's answer is "non-inferior".
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from calculator import analyze
from calculator.cli import main
from ui.decision_words import gate_sentence
from ui.words import Wording


def t60(tmp_path: Path) -> Path:
    rows = [(1, 1)] * 60 + [(1, 0)] * 15 + [(0, 1)] * 5 + [(0, 0)] * 20
    path = tmp_path / "t60.csv"
    path.write_text("id,A,B\n" + "".join(f"c{i},{a},{b}\n" for i, (a, b) in enumerate(rows)))
    return path


def test_a_margin_the_command_line_refuses_gets_no_gate_verdict_on_the_page() -> None:
    decision = analyze(60, 15, 5, 20, margin=0.20).decision
    assert decision.reject  # the answer itself: shown non-inferior at 20 points
    for fails in (False, True):
        sentence = gate_sentence(Wording(), decision, fails=fails)
        assert "passes" not in sentence and "fails" not in sentence
        assert "has no verdict at a margin of 20 points" in sentence
        assert "more than the 10 points a release gate takes" in sentence


def test_page_and_command_line_give_the_same_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["cases", str(t60(tmp_path)), "--id", "id", "--a", "A", "--b", "B"]
    assert main([*argv, "--fail-if-worse", "--margin", "20pt"]) == 2
    refusal = capsys.readouterr().err
    reason = "lets the gate pass B up to 20 points worse than A, more than the 10 points"
    assert reason in refusal
    sentence = gate_sentence(Wording(), analyze(60, 15, 5, 20, margin=0.20).decision, fails=False)
    assert reason in sentence


def test_at_the_limit_both_give_a_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 10 points: the 90% Tango interval's lower end -17.6 is below -10, so the gate fails.
    argv = ["cases", str(t60(tmp_path)), "--id", "id", "--a", "A", "--b", "B"]
    assert main([*argv, "--fail-if-worse", "--margin", "10pt"]) == 1
    sentence = gate_sentence(Wording(), analyze(60, 15, 5, 20, margin=0.10).decision, fails=True)
    assert "this comparison fails: B is not shown non-inferior" in sentence


def test_the_cases_page_words_no_verdict_above_the_limit(tmp_path: Path) -> None:
    from apptest_pages import open_page

    from ui.widgets import cases_files as files

    at = open_page("app_pages/cases.py")
    uploader = at.file_uploader(key=files.UPLOAD_KEYS[0])
    uploader.set_value(("t60.csv", t60(tmp_path).read_bytes(), "text/csv")).run()
    next(w for w in at.radio if w.key and w.key.startswith("cases_question")).set_value(
        "non-inferior"
    ).run()
    next(w for w in at.number_input if w.key and w.key.startswith("cases_margin")).set_value(
        20.0
    ).run()
    assert not at.exception
    text = "\n".join(re.sub(r"\\(.)", r"\1", m.value) for m in at.markdown)
    gate = [line for line in text.splitlines() if "As a release gate" in line]
    assert gate and "has no verdict at a margin of 20 points" in gate[0]
    assert "this comparison passes" not in text
