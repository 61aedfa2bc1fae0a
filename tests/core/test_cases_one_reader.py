"""The two-system reader is the k-system reader with k = 2 (issue 25): on the same files
`load_cases` and `load_systems` keep the same cases with the same outcomes and leave out the same
rows, and a CaseFile built by another reader (as the evaluation-harness readers build them) goes
through both like a file read from disk.

The property tests compare the two readers with each other on random files (cells drawn from
readable, unreadable and missing spellings, ids repeated or absent); the hand-built example is
counted by hand.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given
from hypothesis import strategies as st

from calculator.cases import CaseFile, CaseIssue, OffendingRow, load_cases
from calculator.cases.multi import load_systems

CELLS = ["1", "0", "pass", "no", "maybe", ""]
IDS = ["q1", "q2", "q3", "q4", "7", "07", ""]
# The k-system names of the two-system reasons (rows "absent from the other file" are rows of
# cases with no row for the other system).
SAME = {"missing_value": "missing_value", "unparseable_outcome": "unparseable_outcome",
        "duplicate_id": "duplicate_id", "id_in_one_file_only": "missing_system",
        "partner_excluded": "partner_excluded", "malformed_line": "malformed_line"}  # fmt: skip

rows = st.lists(
    st.tuples(st.sampled_from(IDS), st.sampled_from(CELLS), st.sampled_from(CELLS)),
    min_size=1,
    max_size=12,
)


def csv(header: str, lines: list[str]) -> bytes:
    return ("\n".join([header, *lines]) + "\n").encode()


def same_reading(paired, systems) -> None:
    assert paired.rows_read == systems.rows_read and paired.rows_used == systems.rows_used
    for reason, count in paired.excluded.items():
        assert systems.excluded[SAME[reason]] == count, reason
    assert np.array_equal(np.column_stack([paired.a_pass, paired.b_pass]), systems.outcomes)


@given(rows)
def test_one_file_reads_as_a_wide_file_of_two_systems(drawn):
    data = csv("id,a,b", [",".join(row) for row in drawn])
    paired = load_cases(data, id_column="id", a_column="a", b_column="b",
                        file_names=("r.csv", None))  # fmt: skip
    systems = load_systems(data, id_column="id", systems=["a", "b"], file_names=["r.csv"])
    same_reading(paired, systems)
    assert paired.cases["id"].tolist() == systems.case_ids.tolist()


@given(rows, rows)
def test_two_files_read_as_one_file_per_system(first, second):
    data_a = csv("id,acc", [f"{i},{a}" for i, a, _ in first])
    data_b = csv("id,acc", [f"{i},{b}" for i, _, b in second])
    if data_a == data_b:
        return  # the same file twice is refused by both
    paired = load_cases(data_a, data_b, id_column="id", a_column="acc", b_column="acc",
                        file_names=("a.csv", "b.csv"))  # fmt: skip
    systems = load_systems([data_a, data_b], id_column="id", outcome_column="acc",
                           file_names=["a.csv", "b.csv"])  # fmt: skip
    same_reading(paired, systems)
    assert paired.cases["id"].tolist() == systems.case_ids.tolist()


def harness_file(name: str, outcomes: list[int | None]) -> CaseFile:
    """A CaseFile as a log reader builds it: rows numbered from 1, one record it could not
    read, no lines and no bytes."""
    frame = pd.DataFrame({"doc_id": list(range(len(outcomes))), "acc": outcomes})
    frame.index = pd.RangeIndex(1, len(frame) + 1)
    unread = CaseIssue(kind="malformed_line", file=name, column=None, count=1,
                       examples=(OffendingRow(9, None, "{broken"),),
                       message=f"{name}: 1 record not read.")  # fmt: skip
    return CaseFile(name=name, format="lm-eval", frame=frame, issues=(unread,))


def test_a_case_file_built_by_another_reader_goes_through_both_readers():
    first = harness_file("base.jsonl", [1, 0, 1, None])
    second = harness_file("tuned.jsonl", [1, 1, 0, 1])
    paired = load_cases(first, second, id_column="doc_id", a_column="acc", b_column="acc")
    # doc 3: no outcome in base (missing value), so tuned's row follows it out.
    assert paired.counts == (1, 1, 1, 0)
    assert paired.excluded["malformed_line"] == 2 and paired.excluded["missing_value"] == 1
    assert paired.excluded["partner_excluded"] == 1 and paired.rows_read == 10
    third = harness_file("large.jsonl", [0, 1, 1, 1])
    systems = load_systems([first, second, third], id_column="doc_id", outcome_column="acc")
    assert systems.names == ("base", "tuned", "large")
    assert systems.outcomes.astype(int).tolist() == [[1, 1, 0], [0, 1, 1], [1, 0, 1]]
    assert systems.rows_read == 15 == systems.rows_used + sum(systems.excluded.values())
    (missing,) = [issue for issue in systems.issues if issue.kind == "missing_value"]
    assert missing.examples[0].row == 4 and "row 4" in missing.message  # no lines: rows
