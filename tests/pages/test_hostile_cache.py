"""Nothing one visitor uploads or types reaches another visitor's page through a cache (issue 23,
item 2): the three-systems analysis is cached per file content *and* file name, so the same bytes
uploaded under other names are reported under those names, in this session and in any other.

Each test runs two AppTest sessions of the same process (Streamlit's caches are per process,
shared by every visitor); the expected names are the ones the second session uploaded.
"""

from __future__ import annotations

from apptest_pages import open_page
from streamlit.testing.v1 import AppTest

from ui import compare_words as words

PAGE = "app_pages/cases.py"


def _file(passes: list[int]) -> bytes:
    return b"id,correct\n" + b"".join(f"q{i},{v}\n".encode() for i, v in enumerate(passes))


# Three systems on 20 cases; "strong" passes 18, "middle" 12, "weak" 5.
STRONG = _file([1] * 18 + [0] * 2)
MIDDLE = _file([1] * 12 + [0] * 8)
WEAK = _file([0] * 15 + [1] * 5)


def _upload(files: list[tuple[str, bytes]]) -> AppTest:
    at = open_page(PAGE)
    at.radio(key="cases_mode").set_value(words.MODES[1]).run()
    uploads = [(name, data, "text/csv") for name, data in files]
    at.file_uploader(key="compare_upload").set_value(uploads).run()
    assert not at.exception, at.exception
    return at


def _page_text(at: AppTest) -> str:
    texts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    texts += [b.label for b in at.button if b.key and b.key.startswith("compare_open_")]
    texts += [s.value for s in at.success] + [w.value for w in at.warning]
    return "\n".join(texts).replace("\\", "")  # Markdown escapes


def test_a_second_visitor_never_sees_the_first_visitors_file_names():
    first = _upload([("teacher_strong.csv", STRONG), ("teacher_middle.csv", MIDDLE),
                     ("teacher_weak.csv", WEAK)])  # fmt: skip
    assert "teacher_strong" in _page_text(first)
    second = _upload([("pupil_one.csv", STRONG), ("pupil_two.csv", MIDDLE),
                      ("pupil_three.csv", WEAK)])  # fmt: skip
    shown = _page_text(second)
    assert "teacher" not in shown
    assert "pupil_one" in shown and "pupil_three" in shown


def test_the_same_bytes_under_swapped_names_are_reported_under_the_new_names():
    # The held-out variant: one session, names swapped between the same two contents.
    at = _upload([("good.csv", STRONG), ("bad.csv", WEAK), ("so_so.csv", MIDDLE)])
    swapped = _upload([("bad.csv", STRONG), ("good.csv", WEAK), ("so_so.csv", MIDDLE)])
    del at
    shown = _page_text(swapped)
    # "bad" now holds the 18 passes: every pair button names it first against "good".
    labels = [b.label for b in swapped.button if b.key and b.key.startswith("compare_open_")]
    assert labels, shown
    pairs = {label.replace("\\", "") for label in labels}
    assert any(p.startswith("bad") and "good" in p for p in pairs), pairs
    opened = next(b for b in swapped.button if b.label.replace("\\", "").startswith("bad")
                  and "good" in b.label)  # fmt: skip
    opened.click().run()
    # bad (passes cases 0-17) against good (passes 15-19): only bad passes cases 0-14, only
    # good cases 18 and 19.
    assert [swapped.session_state[key] for key in "bc"] == [15, 2]


def test_opening_a_pair_sets_both_names_with_the_table():
    """Issue 23, item 3: names typed in the calculator before do not stay on an opened pair."""
    at = open_page("app_pages/calculator.py")
    at.text_input(key="name_a").input("old model").run()
    at.text_input(key="name_b").input("new model").run()
    at.switch_page(PAGE).run()
    at.radio(key="cases_mode").set_value(words.MODES[1]).run()
    uploads = [("weak.csv", WEAK, "text/csv"), ("strong.csv", STRONG, "text/csv"),
               ("middle.csv", MIDDLE, "text/csv")]  # fmt: skip
    at.file_uploader(key="compare_upload").set_value(uploads).run()
    at.button(key="compare_open_0").click().run()  # weak vs strong
    assert not at.exception, at.exception
    assert (at.text_input(key="name_a").value, at.text_input(key="name_b").value) == (
        "weak",
        "strong",
    )
    assert [at.session_state[key] for key in "bc"] == [2, 15]
    assert (at.query_params["name_a"], at.query_params["name_b"]) == ("weak", "strong")


def test_opening_the_two_system_table_sets_its_names():
    # The held-out variant: the two-system part of the page, names typed in the other order.
    # The example's two files are named A and B on the per-case page.
    at = open_page("app_pages/calculator.py")
    at.text_input(key="name_a").input("typed first").run()
    at.text_input(key="name_b").input("typed before").run()
    at.switch_page(PAGE).run()
    at.button(key="cases_example").click().run()
    assert not at.exception, at.exception
    at.button(key="cases_to_calculator").click().run()
    assert not at.exception, at.exception
    names = (at.text_input(key="name_a").value, at.text_input(key="name_b").value)
    assert names == ("A", "B")
