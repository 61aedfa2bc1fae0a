"""Reading three or more systems' per-case outcomes: wide, long, and one file per system.

Every expected table below is counted by hand from the file written in the test.
"""

import json

import numpy as np
import pytest

from calculator.cases import CaseFileError
from calculator.cases.multi import load_systems
from calculator.cases.systems_result import SYSTEM_EXCLUSION_REASONS


def balanced(cases):
    """rows read = rows used + rows excluded, the reader's bookkeeping promise."""
    assert set(cases.excluded) == set(SYSTEM_EXCLUSION_REASONS)
    assert cases.rows_read == cases.rows_used + sum(cases.excluded.values())


def issue(cases, kind):
    found = [i for i in cases.issues if i.kind == kind]
    assert found, f"no {kind} finding in {[i.kind for i in cases.issues]}"
    return found[0]


def test_wide_file_reads_one_column_per_system():
    data = b"id,a,b,c\nq1,1,0,pass\nq2,0,0,fail\nq3,1,1,yes\n"
    cases = load_systems(data, id_column="id", file_names=["runs.csv"])
    assert cases.layout == "wide" and cases.names == ("a", "b", "c")
    assert cases.outcomes.astype(int).tolist() == [[1, 0, 1], [0, 0, 0], [1, 1, 1]]
    assert cases.case_ids.tolist() == ["q1", "q2", "q3"]
    balanced(cases)


def test_wide_file_excludes_rows_with_a_missing_or_unreadable_outcome_and_repeated_ids():
    data = (
        b"id,a,b,c\n"
        b"q1,1,0,1\n"  # used
        b"q2,1,,0\n"  # b missing
        b"q3,1,maybe,0\n"  # b unreadable
        b"q4,1,1,0\n"  # id twice: both copies out
        b"q4,0,1,0\n"
        b",1,1,1\n"  # no id
        b"q7,0,1,1\n"  # used
    )
    cases = load_systems(data, id_column="id", systems=["a", "b", "c"], file_names=["w.csv"])
    assert cases.n == 2 and cases.case_ids.tolist() == ["q1", "q7"]
    assert cases.excluded["missing_value"] == 2  # q2's outcome, the row without an id
    assert cases.excluded["unparseable_outcome"] == 1
    assert cases.excluded["duplicate_id"] == 2
    assert cases.cases_missing_system == 1
    finding = issue(cases, "unparseable_outcome")
    assert finding.column == "b" and finding.examples[0].row == 3
    assert finding.examples[0].value == "maybe"
    balanced(cases)


def test_long_file_joins_rows_on_id_and_reports_incomplete_cases():
    data = (
        b"id,system,outcome\n"
        b"1,x,1\n1,y,0\n1,z,1\n"  # complete
        b"2,x,1\n2,y,1\n"  # no z row
        b"3,x,0\n3,y,1\n3,z,oops\n"  # z unreadable: x and y rows follow it out
        b"4,x,1\n4,x,0\n4,y,1\n4,z,1\n"  # (4, x) twice
        b"5,z,0\n5,y,0\n5,x,1\n"  # complete, rows in another order
        b"6,w,1\n"  # a system not chosen
    )
    cases = load_systems(
        data, system_column="system", outcome_column="outcome", systems=["x", "y", "z"],
        file_names=["long.csv"],
    )  # fmt: skip
    assert cases.layout == "long"
    assert cases.case_ids.tolist() == ["1", "5"]
    assert cases.outcomes.astype(int).tolist() == [[1, 0, 1], [1, 0, 0]]
    excluded = cases.excluded
    assert excluded["missing_system"] == 2
    assert excluded["unparseable_outcome"] == 1
    assert excluded["duplicate_id"] == 2
    assert excluded["other_system"] == 1
    # id 3: x and y follow z out; id 4: y and z follow the duplicated x out.
    assert excluded["partner_excluded"] == 4
    assert cases.rows_used == 6
    assert (cases.cases_missing_system, cases.cases_with_excluded_row) == (1, 2)
    assert issue(cases, "missing_system").examples[0].value == "no row for 'z'"
    balanced(cases)


def test_long_file_takes_every_system_in_order_of_appearance_by_default():
    data = b"case_id,model,ok\n1,b,1\n1,a,0\n1,c,1\n2,a,1\n2,b,1\n2,c,0\n"
    cases = load_systems(data, system_column="model", file_names=["l.csv"])
    assert cases.names == ("b", "a", "c")
    assert cases.id_column == "case_id" and cases.outcome_columns == ("ok",)
    assert cases.outcomes.astype(int).tolist() == [[1, 0, 1], [1, 1, 0]]


def test_one_file_per_system_joined_on_id(tmp_path):
    paths = []
    for name, rows in {
        "model_a.jsonl": ['{"doc_id": 0, "acc": 1}', '{"doc_id": 1, "acc": 0}',
                          '{"doc_id": 2, "acc": 1}'],
        "model_b.jsonl": ['{"doc_id": 2, "acc": 0}', '{"doc_id": 0, "acc": 1}',
                          '{"doc_id": 1, "acc": 1}'],
        "model_c.jsonl": ['{"doc_id": 0.0, "acc": 0}', '{"doc_id": 1, "acc": 1}'],
    }.items():  # fmt: skip
        path = tmp_path / name
        path.write_text("\n".join(rows) + "\n")
        paths.append(path)
    cases = load_systems(paths)
    assert cases.layout == "files"
    assert cases.names == ("model_a", "model_b", "model_c")
    assert cases.id_column == "doc_id"
    assert cases.case_ids.tolist() == ["0", "1"]  # 0.0 and 0 are one id
    assert cases.outcomes.astype(int).tolist() == [[1, 1, 0], [0, 1, 1]]
    assert cases.excluded["missing_system"] == 2  # doc 2 in a and b, not in c
    issue(cases, "missing_system")
    assert {finding.file for finding in cases.issues if finding.kind == "missing_system"} == {
        "model_a.jsonl",
        "model_b.jsonl",
    }
    balanced(cases)


def test_the_lm_evaluation_harness_samples_read_as_one_file_per_system():
    cases = load_systems(
        ["tests/data/samples_gsm8k_model_a.jsonl", "tests/data/samples_gsm8k_model_b.jsonl"],
        id_column="doc_id",
        outcome_column="exact_match",
    )
    assert cases.names == ("samples_gsm8k_model_a", "samples_gsm8k_model_b")
    result = cases.compare()
    assert result.n == cases.n > 0
    balanced(cases)


def test_cases_compare_and_summary_are_strict_json():
    data = b"id,a,b,c\n1,1,0,0\n2,1,1,0\n3,0,1,1\n4,1,0,0\n"
    cases = load_systems(data, id_column="id", file_names=["w.csv"])
    result = cases.compare(adjust="bonferroni")
    assert result.family_size == 3 and result.adjust == "bonferroni"
    summary = json.loads(json.dumps(cases.input_summary(), allow_nan=False))
    assert summary["cases_used"] == 4 and summary["layout"] == "wide"
    assert summary["rows_read"] == 4


def test_compare_refuses_when_no_case_is_complete():
    data = b"id,system,ok\n1,a,1\n2,b,0\n3,c,1\n"
    cases = load_systems(data, system_column="system", file_names=["l.csv"])
    assert cases.n == 0
    balanced(cases)
    with pytest.raises(ValueError, match="no case has a usable outcome for every one"):
        cases.compare()


@pytest.mark.parametrize(
    ("data", "options", "error", "match"),
    [
        (b"id,a,b\n1,1,0\n", {"systems": ["a", "zz"]}, CaseFileError, "no column 'zz'"),
        (b"id,s,o\n1,a,1\n", {"system_column": "s", "systems": ["a", "q"]}, ValueError,
         "no system 'q'"),
        (b"id,a,note\n1,1,x\n", {"id_column": "id"}, ValueError, "needs 2 to 50"),
        (b"id,s,o\n1,a,1\n1,b,0\n", {"system_column": "s", "systems": ["a", "a"]}, ValueError,
         "twice"),
        (b"x,s,o\n1,a,1\n1,b,0\n", {"system_column": "s"}, ValueError, "case id"),
    ],
)  # fmt: skip
def test_unusable_choices_are_refused_with_one_clear_message(data, options, error, match):
    with pytest.raises(error, match=match):
        load_systems(data, file_names=["f.csv"], **options)


def test_a_malformed_line_is_counted_as_read_and_excluded():
    data = b"id,a,b,c\n1,1,0,1\n2,1,0,1,9\n3,0,0,1\n"
    cases = load_systems(data, id_column="id", file_names=["w.csv"])
    assert cases.excluded["malformed_line"] == 1 and cases.n == 2
    balanced(cases)


def test_scores_pass_at_the_threshold():
    data = b"id,system,score\n1,a,0.9\n1,b,0.5\n1,c,0.49\n"
    cases = load_systems(data, system_column="system", threshold=0.5, file_names=["s.csv"])
    assert np.array_equal(cases.outcomes, [[True, True, False]])


# --- Property: the reader against an independent count ---------------------------------------

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

CELLS = ["1", "0", "pass", "FAIL", "maybe", ""]  # readable: 1, 0, pass, FAIL


@given(
    st.integers(2, 4).flatmap(
        lambda k: st.tuples(
            st.just(k),
            st.lists(
                st.lists(st.lists(st.sampled_from(CELLS), max_size=2), min_size=k, max_size=k),
                min_size=1,
                max_size=8,
            ),
            st.randoms(use_true_random=False),
        )
    )
)
def test_long_reader_matches_an_independent_count(drawn):
    k, cases, random = drawn
    systems = [f"s{j}" for j in range(k)]
    rows = [
        (f"c{i}", systems[j], cell)
        for i, per_system in enumerate(cases)
        for j, cells in enumerate(per_system)
        for cell in cells
    ]
    random.shuffle(rows)
    data = "id,system,ok\n" + "".join(f"{i},{s},{c}\n" for i, s, c in rows)
    if not rows:
        return
    if {s for _, s, _ in rows} != set(systems):  # a chosen system with no row: refused
        with pytest.raises(ValueError, match="no system"):
            load_systems(
                data.encode(), system_column="system", outcome_column="ok", systems=systems,
                file_names=["f.csv"],
            )  # fmt: skip
        return
    result = load_systems(
        data.encode(), system_column="system", outcome_column="ok", systems=systems,
        file_names=["f.csv"],
    )  # fmt: skip
    # Independently: a case is used when each system has exactly one row, readable.
    readable = {"1": True, "pass": True, "0": False, "fail": False}
    first_seen = {}
    for position, (case, _, _) in enumerate(rows):
        first_seen.setdefault(case, position)
    expected = []
    for case in sorted(first_seen, key=first_seen.get):
        i = int(case[1:])
        cells = cases[i]
        if all(len(c) == 1 and c[0].lower() in readable for c in cells):
            expected.append((case, [readable[c[0].lower()] for c in cells]))
    assert result.case_ids.tolist() == [case for case, _ in expected]
    assert result.outcomes.tolist() == [flags for _, flags in expected]
    assert result.rows_used == k * len(expected)
    assert result.rows_read == len(rows)
    balanced(result)


def test_the_reader_is_exported_lazily_from_the_package():
    import calculator

    assert calculator.load_systems is load_systems
    assert "load_systems" in calculator.__all__


def test_the_same_file_given_for_two_systems_is_refused():
    # As for two systems (issue 16, item 7): byte-identical files would compare a system with
    # itself and report p = 1 for that pair. Found on `compare s1.csv s2.csv s3.csv`.
    one, other = b"id,acc\n1,1\n2,0\n3,1\n", b"id,acc\n1,0\n2,0\n3,1\n"
    with pytest.raises(CaseFileError, match="same file, byte for byte") as raised:
        load_systems(
            [one, other, one],
            id_column="id",
            outcome_column="acc",
            file_names=["s1.csv", "s2.csv", "s3.csv"],
        )
    assert raised.value.issue.kind == "same_file"


def test_a_long_file_without_any_id_reports_every_row_instead_of_failing():
    # Found while making the two-system reader take this path: with no id at all the join
    # indexed an empty array (IndexError, a traceback on the command line).
    cases = load_systems(
        b"id,system,ok\n,a,1\n,b,0\n", system_column="system", id_column="id", file_names=["l.csv"]
    )
    assert cases.n == 0 and cases.excluded["missing_value"] == 2
    (finding,) = cases.issues
    assert finding.message == "l.csv: 2 rows without an id in 'id' (the first on line 2)."
    balanced(cases)
