"""The "three or more systems" part of the per-case page (AppTest), and its pure helpers in
ui/compare_words.py and ui/compare_charts.py.

Expected figures come from :func:`calculator.compare_systems` on the same outcomes (tested
against references in tests/core/test_compare.py) or are counted by hand from the file written.
"""

from __future__ import annotations

import numpy as np
import pytest
from apptest_pages import open_page as open_app_page
from streamlit.testing.v1 import AppTest

from calculator import compare_systems
from calculator.cases.multi import load_systems
from ui import compare_charts as charts
from ui import compare_words as words
from ui.widgets.compare import example_data

PAGE = "app_pages/cases.py"
WIDE = b"id,x,y,z\n" + b"".join(
    f"c{i},{x},{y},{z}\n".encode()
    for i, (x, y, z) in enumerate(
        [(1, 0, 0)] * 9 + [(1, 1, 0)] * 3 + [(0, 0, 1)] + [(1, 1, 1)] * 2 + [(0, 0, 0)]
    )
)


def several(at: AppTest) -> AppTest:
    at.radio(key="cases_mode").set_value(words.MODES[1]).run()
    assert not at.exception, at.exception
    return at


def with_example() -> AppTest:
    at = several(open_app_page(PAGE))
    at.button(key="compare_example").click().run()
    assert not at.exception, at.exception
    return at


def test_two_systems_stay_the_default():
    at = open_app_page(PAGE)
    assert at.radio(key="cases_mode").value == words.MODES[0]
    assert not [b for b in at.button if b.key == "compare_example"]


def test_the_example_shows_q_the_pairs_and_both_charts():
    at = with_example()
    shown = "\n".join(m.value for m in at.markdown).replace("\\", "")  # Markdown escapes
    assert "Cochran's Q = " in shown
    assert "after Holm's adjustment for 6 comparisons" in shown
    cases = load_systems(example_data(), system_column="system", outcome_column="correct",
                         id_column="question", file_names=["four_systems_long.csv"])  # fmt: skip
    assert cases.n == 150 and cases.names == ("base", "tuned", "distilled", "large")
    assert len(at.get("vega_lite_chart")) == 2
    opened = sorted(b.key for b in at.button if b.key.startswith("compare_open_"))
    assert opened == [f"compare_open_{i}" for i in range(6)]  # one button per pair


def test_a_pair_button_opens_its_table_in_the_calculator():
    at = with_example()
    result = load_systems(example_data(), system_column="system", outcome_column="correct",
                          id_column="question", file_names=["x.csv"]).compare()  # fmt: skip
    at.button(key="compare_open_0").click().run()
    assert not at.exception
    table = result.pairs[0].table
    assert [at.session_state[key] for key in "abcd"] == [table.a, table.b, table.c, table.d]


def test_a_wide_upload_is_compared_column_by_column():
    at = several(open_app_page(PAGE))
    at.file_uploader(key="compare_upload").set_value([("wide.csv", WIDE, "text/csv")]).run()
    assert not at.exception, at.exception
    assert at.multiselect(key="compare_columns").value == ["x", "y", "z"]
    at.selectbox(key="compare_id").set_value("id").run()
    exclusions = next(f.value for f in at.dataframe if list(f.value.columns) == ["rows"])
    assert exclusions.loc["rows used", "rows"] == 16
    # x vs z: only x passes 12 cases, only z 1.
    at.selectbox(key="compare_cases_pair").set_value(1).run()
    listed = at.dataframe[-2].value
    assert len(listed) == 12 and listed.iloc[0, 0] == "c0"


# --- pure helpers -------------------------------------------------------------------------------


def result_of(rows, names=("x", "y", "z"), **options):
    return compare_systems(np.array(rows), list(names), **options)


def test_heatmap_frame_is_antisymmetric_and_stars_the_separated_pairs():
    result = result_of([(1, 0, 0)] * 12 + [(0, 1, 1)])
    frame = charts.difference_frame(result).set_index(["row", "column"])
    assert len(frame) == 6
    for (row, column), entry in frame.iterrows():
        assert entry["points"] == pytest.approx(-frame.loc[(column, row), "points"])
        assert entry["label"].endswith("*") == result.pair(row, column).reject
    assert frame.loc[("x", "y"), "label"] == "+84.6*"


def test_heatmap_spec_outlines_the_differing_cells():
    spec = charts.difference_heatmap(result_of([(1, 0, 0)] * 12 + [(0, 1, 1)])).to_dict()
    stroke = spec["layer"][0]["encoding"]["stroke"]
    assert stroke["condition"]["value"] == "black"
    assert "differs" in stroke["condition"]["test"]


def test_ranking_frame_orders_by_pass_rate_with_wilson_limits():
    result = result_of([(0, 1, 1), (0, 1, 0), (1, 1, 0), (0, 1, 0)])
    frame = charts.ranking_frame(result)
    assert frame["system"].tolist() == ["y", "x", "z"]
    assert (frame["low"] <= frame["rate"]).all() and (frame["rate"] <= frame["high"]).all()
    assert charts.ranking_chart(result).to_dict()["layer"][0]["mark"]["type"] == "rule"


def test_ranking_caption_names_the_systems_not_separated():
    result = result_of([(1, 0, 0), (0, 1, 0), (1, 1, 0)])
    caption = words.ranking_caption(result)
    assert caption.startswith("Pass rates with 95% Wilson intervals")
    assert caption.endswith("Not separated after the adjustment: x and y; x and z; y and z.")


def test_exclusion_table_uses_plain_words():
    data = b"id,system,ok\n1,a,1\n1,b,0\n1,c,1\n2,a,1\n2,b,1\n"
    cases = load_systems(data, system_column="system", file_names=["l.csv"])
    table = words.exclusion_table(cases)
    assert table.loc["excluded: the case has no row for some system", "rows"] == 2
    assert table.loc["rows read", "rows"] == 5


def test_one_file_per_system_is_joined_on_the_shared_id():
    at = several(open_app_page(PAGE))
    logs = []
    for name, values in (("m1", [1, 0, 1, 1]), ("m2", [1, 1, 0, 1]), ("m3", [0, 0, 1])):
        text = "doc_id,acc\n" + "".join(f"{i},{v}\n" for i, v in enumerate(values))
        logs.append((f"{name}.csv", text.encode(), "text/csv"))
    at.file_uploader(key="compare_upload").set_value(logs).run()
    assert not at.exception, at.exception
    assert at.selectbox(key="compare_id").value == "doc_id"
    exclusions = next(f.value for f in at.dataframe if list(f.value.columns) == ["rows"])
    # Doc 3 is in m1 and m2 only: its two rows are left out; docs 0-2 use 3 rows each.
    assert exclusions.loc["rows used", "rows"] == 9
    assert exclusions.loc["excluded: the case has no row for some system", "rows"] == 2


def test_the_ranking_shows_each_systems_letters_and_says_what_they_mean():
    at = with_example()
    options = {"system_column": "system", "outcome_column": "correct", "id_column": "question"}
    result = load_systems(example_data(), file_names=["x.csv"], **options).compare()
    captions = "\n".join(c.value for c in at.caption).replace("\\", "")
    assert "the groups of systems not shown different, in rank order" in captions
    frame = charts.ranking_frame(result)
    assert frame["letters"].tolist() == [
        result.letter_display().letters[name] for name in result.ranking
    ]
    layers = charts.ranking_chart(result).to_dict()["layer"]
    assert layers[2]["mark"]["type"] == "text"
    assert layers[2]["encoding"]["text"]["field"] == "letters"
