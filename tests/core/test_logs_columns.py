"""guess_columns never proposes a constant or bookkeeping column (issue 21): hypothesis over
generated log exports, and the two real files the issue names."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator.cases import guess_columns, load_cases, read_case_file
from calculator.cases.columns import is_bookkeeping

LOGS = Path(__file__).resolve().parents[1] / "data" / "evallogs"

# Bookkeeping columns that harness exports carry (Inspect's samples_df, HELM's flattened stats,
# lm-eval's samples), each with a generator of plausible values (0/1 included on purpose).
BOOKKEEPING = {
    "epoch": st.integers(1, 3),
    "train_trial_index": st.integers(0, 1),
    "sample_index": st.integers(0, 1),
    "num_references": st.integers(0, 4),
    "num_output_tokens": st.integers(0, 1),
    "model_usage.input_tokens": st.integers(0, 500),
    "total_time": st.floats(0, 2, allow_nan=False),
    "working_time": st.integers(0, 1),
    "inference_runtime": st.floats(0, 1, allow_nan=False),
    "batch_size": st.integers(1, 1),
    "retries": st.integers(0, 1),
    "prompt_truncated": st.integers(0, 1),
    "finish_reason_stop": st.integers(0, 1),
    "doc_hash": st.sampled_from(["ab", "cd"]),
    "training_co2_cost": st.floats(0, 1, allow_nan=False),
}


@st.composite
def log_exports(draw):
    rows = draw(st.integers(10, 40))
    names = draw(
        st.lists(st.sampled_from(sorted(BOOKKEEPING)), min_size=1, max_size=8, unique=True)
    )
    frame = {"id": [f"q{k}" for k in range(rows)]}
    for name in names:
        frame[name] = draw(st.lists(BOOKKEEPING[name], min_size=rows, max_size=rows))
    # A constant column of an outcome-looking name and values.
    constant = draw(st.sampled_from(["max_prob", "score", "correct"]))
    frame[constant] = [draw(st.sampled_from([0, 1]))] * rows
    # Sometimes a real outcome column.
    real = draw(st.booleans())
    if real:
        values = draw(
            st.lists(st.integers(0, 1), min_size=rows, max_size=rows).filter(
                lambda v: len(set(v)) == 2
            )
        )
        frame["exact_match"] = values
    order = draw(st.permutations(list(frame)))
    return pd.DataFrame({name: frame[name] for name in order}), real, constant


@given(log_exports())
def test_no_constant_or_bookkeeping_column_is_ever_proposed(export):
    frame, real, constant = export
    guess = guess_columns(frame)
    proposed = set(guess.outcome_columns) | set(guess.score_columns)
    assert not any(is_bookkeeping(column) for column in proposed)
    assert constant not in guess.score_columns
    # A constant column is an outcome only after one that varies (a system passing every case
    # beside one that does not), never on its own.
    assert guess.outcome_columns == (("exact_match", constant) if real else ())


def test_a_system_passing_every_case_is_proposed_beside_one_that_varies():
    frame = pd.DataFrame({"id": range(20), "old": [1] * 19 + [0], "new": [1] * 20})
    assert guess_columns(frame).outcome_columns == ("old", "new")
    assert guess_columns(frame[["id", "new"]]).outcome_columns == ()


def test_helm_stats_read_as_json_propose_no_outcome():
    # Before: train_trial_index (always 0) was guessed, and two runs gave "both fail 100".
    path = LOGS / "helm" / "bbq_openai_gpt-4o-2024-05-13_per_instance_stats.json"
    assert guess_columns(read_case_file(path).frame).outcome_columns == ()
    other = LOGS / "helm" / "bbq_meta_llama-3-8b-chat_per_instance_stats.json"
    with pytest.raises(ValueError, match="cannot tell which column holds A's outcomes"):
        load_cases(path, other)


def test_an_inspect_export_never_proposes_its_epoch(tmp_path):
    # Inspect's samples_df exported to CSV: epoch is always 1; the score is C/I text.
    rows = ["id,epoch,score_choice,total_time"] + [
        f"q{k},1,{'C' if k % 3 else 'I'},{0.5 + k / 10}" for k in range(20)
    ]
    path = tmp_path / "samples.csv"
    path.write_text("\n".join(rows) + "\n")
    guess = guess_columns(read_case_file(path).frame)
    assert "epoch" not in guess.outcome_columns and "total_time" not in guess.score_columns
