"""calculator.logs.long_file: a long per-case file as one LogTable per system."""

from __future__ import annotations

import io

import pytest

from calculator.logs import LogError
from calculator.logs.long_file import LongColumns, read_long_file


def test_every_guessed_column_is_stated_and_the_tables_are_the_logs_long_tables():
    data = (
        b"id,epoch,model,task_name,score_choice\n"
        b"7,1,a,gpqa,C\n007,1,b,gpqa,I\n7,2,a,gpqa,P\n7,2,b,gpqa,\n"
    )
    a, b = read_long_file(data, LongColumns(), name="s.csv")
    assert (a.system, b.system, a.format, a.metrics) == ("a", "b", "long", ("score_choice",))
    assert a.frame["case"].tolist() == ["7", "7"]  # "7" and "007" are one id, as in cases
    assert b.frame["case"].tolist() == ["7", "7"]
    assert a.frame["repeat"].tolist() == [1, 2] and a.frame["task"].tolist() == ["gpqa"] * 2
    assert a.frame["value"].tolist() == [1.0, 0.5]
    assert b.frame["value"].isna().tolist() == [False, True]  # a missing grade: no value
    notes = " ".join(a.notes)
    for column, option in (("model", "--system"), ("id", "--id"), ("epoch", "--repeat")):
        assert f"column {column!r} read as" in notes and f"with {option}" in notes
    assert "'task_name' read as the task" in notes and "'score_choice' read as the outcome" in notes
    assert "Inspect's grades" in notes
    assert a.data_key != b.data_key  # the two systems of one file are not "the same log twice"
    assert a.tasks_named


def test_without_a_task_column_the_task_is_the_files_name_and_not_the_logs_own():
    (a, _) = read_long_file(
        b"id,sys,ok\nq1,a,pass\nq1,b,fail\n", LongColumns(system="sys", outcome="ok"), name="r.csv"
    )
    assert a.tasks == ("r",) and not a.tasks_named
    assert a.frame["repeat"].tolist() == [0]


def test_a_parquet_file_names_the_row_instead_of_a_line():
    pd = pytest.importorskip("pandas")
    buffer = io.BytesIO()
    pd.DataFrame(
        {"id": ["q1", "q1"], "m": ["a", "b"], "ok": [1, 1], "ep": ["1", "two"]}
    ).to_parquet(buffer)
    with pytest.raises(LogError, match=r"r\.parquet, row 2, field 'ep': the repeat 'two'"):
        read_long_file(
            buffer.getvalue(), LongColumns(system="m", outcome="ok", repeat="ep"), name="r.parquet"
        )


def test_a_number_beside_0_and_1_makes_the_outcome_scores_as_in_a_per_case_file():
    a, b = read_long_file(
        b"id,m,f1\nq1,a,0.25\nq1,b,1\n", LongColumns(system="m", outcome="f1"), name="r.csv"
    )
    assert a.frame["value"].tolist() == [0.25] and b.frame["value"].tolist() == [1.0]
