"""One escaper for text from users (calculator/text.py), the same on every surface.

Before, four functions escaped such text, with two definitions of "hidden": the command line's
(every character that str.isprintable refuses), the page's (the same, written again), the
per-case reader's column names (C0/C1 controls and bidirectional marks only, so a no-break space
or a zero-width space in a column name showed as a plain space or as nothing) and the URL
check's (C0 controls only, written as "?").
"""

from __future__ import annotations

import pathlib

from hypothesis import given
from hypothesis import strategies as st

from calculator.cases.names import column_names, system_names
from calculator.text import clip, has_hidden, printable
from ui.params import check_query

ROOT = pathlib.Path(__file__).resolve().parents[2]
HOSTILE = ["acc\u202e", "no\u00a0break", "zero\u200bwidth", "tab\there", "bell\x07", "\x1b[2J"]


def test_column_names_are_escaped_as_the_command_line_prints_them() -> None:
    # The old reader left "no\u00a0break" and "zero\u200bwidth" as they were.
    shown, issue = column_names(["id", *HOSTILE], "r.csv")
    assert shown[1:] == [printable(name) for name in HOSTILE]
    assert all(name.isprintable() for name in shown)
    assert issue is not None and issue.count == len(HOSTILE)


def test_system_labels_are_escaped_the_same_way() -> None:
    shown, _ = system_names(["zero\u200bwidth", "plain"], "f.csv", "system")
    assert shown[0] == "zero\\u200bwidth" == printable("zero\u200bwidth")


def test_a_link_refuses_control_characters_in_a_name_and_keeps_format_ones() -> None:
    # A control character (C0, DEL and, unlike the old check, C1 such as NEL) is no part of a
    # name; a zero-width space or a direction mark is kept and shown escaped (printable).
    for name in ("a\nb", "a\x1bb", "a\x85b"):
        assert "name_a" in check_query({"name_a": name}).rejected, repr(name)
    for name in ("model\u202e", "a\u200bb", "model v2"):
        assert "name_a" not in check_query({"name_a": name}).rejected, repr(name)


def test_no_second_escaper_in_the_code() -> None:
    # One home: only calculator/text.py asks str.isprintable or writes unicode escapes.
    others = [
        path.relative_to(ROOT)
        for folder in ("calculator", "ui", "app_pages")
        for path in (ROOT / folder).rglob("*.py")
        if path.name != "text.py"
        and (
            "isprintable(" in (source := path.read_text(encoding="utf-8"))
            or "unicode_escape" in source
        )
    ]
    assert not others, others


@given(st.text())
def test_printable_output_shows_as_itself_and_keeps_printable_text(text: str) -> None:
    shown = printable(text)
    assert shown.isprintable()
    assert has_hidden(text) == (shown != text)
    if not has_hidden(text):
        assert shown == text


@given(st.text(), st.integers(2, 100))
def test_clip_keeps_short_text_and_marks_a_cut(text: str, limit: int) -> None:
    cut = clip(text, limit)
    assert len(cut) <= limit
    assert cut == text or (cut.endswith("…") and text.startswith(cut[:-1]))


def test_the_systems_loader_names_systems_as_they_show(tmp_path: pathlib.Path) -> None:
    # The page made the names of load_systems printable again (a dataclasses.replace of the
    # result); the loader's names already are, from wide and long files alike.
    import pandas as pd

    from calculator.cases import CaseFile
    from calculator.cases.multi import load_systems

    hidden = ["a\u202eb", "zero\u200bwidth", "plain"]
    wide = pd.DataFrame({"id": [1, 2, 3], **{name: [1, 0, 1] for name in hidden}})
    long = pd.DataFrame(
        {"id": [k for k in (1, 2, 3) for _ in hidden], "system": hidden * 3, "ok": [1, 0, 1] * 3}
    )
    for frame, options in ((wide, {}), (long, {"system_column": "system", "outcome_column": "ok"})):
        source = CaseFile(name="f.csv", frame=frame, format="csv")
        cases = load_systems(source, id_column="id", **options)
        assert all(name.isprintable() for name in cases.names), cases.names
        assert "a\\u202eb" in cases.names
