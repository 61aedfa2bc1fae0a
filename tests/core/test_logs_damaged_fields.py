"""Log fields of a type or size no harness writes (hostile review 4: C1, C2, C3).

Before the fixes each of these ended in a bare Python exception that the command line reports as
a bug (exit 3) and the page as a traceback: a 400-digit integer (under Python's limit of 4,300
digits, so json reads it) overflowed float() in every reader (OverflowError); an lm-eval record
with ``metrics`` holding a list, ``filter`` a number or ``doc_hash`` a number ended in TypeError
or pyarrow's ArrowTypeError; Inspect questions scored on 1 to 43 epochs overflowed the lcm of the
repeat counts (lcm(1..43) = 9,419,588,158,802,421,600 > 2^63 - 1, computed with math.lcm).
Now each is a LogError naming the file, the line, record or sample, and the field.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from calculator.errors import CalculatorError
from calculator.logs import LogError, pair_logs, read_log_data
from calculator.logs.inspect_log import grade_value
from calculator.logs.pairing import MAX_LATTICE, share_numerators
from calculator.logs.table import as_float, repeat_number

BIG = 10**400 - 1  # 400 nines: json reads it, float() cannot
TIME = "2024-01-01T00-00-00"


def lm_eval(records: list[dict], name: str = f"samples_t_{TIME}.jsonl") -> tuple[str, bytes]:
    return name, ("\n".join(json.dumps(r) for r in records) + "\n").encode()


def record(i: int, **fields: object) -> dict:
    return {"doc_id": i, "doc": {}, "resps": [], "filter": "none", "acc": i % 2, **fields}


def test_the_overflow_is_what_float_does_with_400_digits() -> None:
    with pytest.raises(OverflowError):
        float(BIG)
    assert math.lcm(*range(1, 44)) > 2**63 - 1


@pytest.mark.parametrize(
    ("field", "value", "shown"),
    [
        ("metrics", [["acc"]], "'metrics' is a list holding a list"),
        ("metrics", {"acc": 1}, "'metrics' is an object"),
        ("filter", 1, "'filter' is 1"),
        ("filter", ["none"], "'filter' is a list"),
        ("doc_hash", 5, "'doc_hash' is 5"),
        ("doc_hash", 2**63, "'doc_hash' is 9223372036854775808"),
        ("doc_id", None, "'doc_id' is null"),
        ("doc_id", [1], "'doc_id' is a list"),
    ],
)
def test_an_lm_eval_field_of_another_type_is_refused_naming_line_and_field(
    field: str, value: object, shown: str
) -> None:
    records = [record(i) for i in range(5)]
    records[3][field] = value
    with pytest.raises(LogError, match=rf"samples_t_{TIME}\.jsonl, line 4: field {shown}"):
        read_log_data([lm_eval(records)])


def test_an_lm_eval_json_array_names_the_record() -> None:
    records = [record(i) for i in range(5)]
    records[2]["filter"] = 7
    data = json.dumps(records).encode()
    with pytest.raises(LogError, match=r"\.jsonl, record 3: field 'filter' is 7, where lm-eval"):
        read_log_data([(f"samples_t_{TIME}.jsonl", data)])


def test_a_huge_integer_lm_eval_value_is_refused_naming_line_and_metric() -> None:
    records = [record(i) for i in range(5)]
    records[4]["acc"] = BIG
    with pytest.raises(LogError, match=r"line 5, field 'acc': an integer of 400 digits"):
        read_log_data([lm_eval(records)])


def test_numbers_a_float_holds_are_still_read() -> None:
    records = [record(i) for i in range(40)]
    records[0]["acc"] = 2**70  # read as a float (1.18e21): a score, not a pass
    table = read_log_data([lm_eval(records)])
    assert table.frame["value"].iloc[0] == float(2**70)


def inspect_log(model: str, big: object, where: str) -> tuple[str, bytes]:
    samples = [{"id": i, "epoch": 1, "scores": {"m": {"value": "CI"[i % 2]}}} for i in range(20)]
    if where == "score":
        samples[5]["scores"]["m"]["value"] = big
    elif where == "dict":
        samples[5]["scores"]["m"]["value"] = {"x": big}
    elif where == "epoch":
        samples[5]["epoch"] = big
    log = {"eval": {"task": "t", "model": model}, "samples": samples}
    return f"{model[-1]}.json", json.dumps(log).encode()


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ("score", r"a\.json: sample '5', epoch 1, field 'scores\.m\.value': an integer of 400"),
        ("dict", r"a\.json: sample '5', epoch 1, field 'scores\.m\.value\.x': an integer of 400"),
        (
            "epoch",
            r"a\.json: sample '5', field 'epoch': the repeat number 9{40} is outside 0 to",
        ),
    ],
)
def test_a_huge_integer_in_an_inspect_log_is_refused_naming_sample_and_field(
    where: str, message: str
) -> None:
    with pytest.raises(LogError, match=message):
        read_log_data([inspect_log("m/a", BIG, where)])


def helm_run(mean: object = 1, trial: object = 0) -> bytes:
    instances = [
        {
            "instance_id": f"id{i}",
            "train_trial_index": trial if i == 1 else 0,
            "stats": [
                {"name": {"name": "exact_match", "split": "test"}, "mean": mean if i == 1 else 0}
            ],
        }
        for i in range(20)
    ]
    return json.dumps(instances).encode()


@pytest.mark.parametrize(
    ("run", "message"),
    [
        (
            {"mean": BIG},
            r"run/per_instance_stats\.json: instance 'id1', stat 'exact_match', field 'mean': "
            "an integer of 400 digits",
        ),
        (
            {"trial": BIG},
            r"run/per_instance_stats\.json: instance 'id1', field 'train_trial_index': the "
            "repeat number 9{40} is outside",
        ),
    ],
)
def test_a_huge_integer_in_a_helm_run_is_refused_naming_instance_and_field(
    run: dict, message: str
) -> None:
    with pytest.raises(LogError, match=message):
        read_log_data([("run/per_instance_stats.json", helm_run(**run))])


def test_the_one_refusal_of_a_number_too_large_is_a_calculator_error() -> None:
    assert as_float(2**1000, "x") == float(2**1000)
    with pytest.raises(CalculatorError, match=r"^here: an integer of 400 digits"):
        as_float(BIG, "here")
    with pytest.raises(LogError, match="^score: an integer of 400 digits"):
        grade_value(BIG, lambda: "score")
    with pytest.raises(LogError, match="outside 0 to"):
        repeat_number(BIG, 0, "x")
    with pytest.raises(LogError, match="outside 0 to"):
        repeat_number(-BIG, 0, "x")


def epochs_log(model: str, seed: int) -> tuple[str, bytes]:
    """Question q scored on epochs 1..q+1 of 43 (the others errored): counts 1 to 43."""
    rng = np.random.default_rng(seed)
    samples = []
    for q in range(43):
        for epoch in range(1, 44):
            sample: dict = {"id": f"q{q}", "epoch": epoch}
            if epoch <= q + 1:
                sample["scores"] = {"m": {"value": "CI"[int(rng.integers(2))]}}
            samples.append(sample)
    log = {"eval": {"task": "t", "model": model}, "samples": samples}
    return f"{model[-1]}.json", json.dumps(log).encode()


def test_repeat_counts_whose_lcm_passes_64_bits_leave_out_the_share_test_alone() -> None:
    # hostile 4, C3 "should: as H3": the whole comparison was refused, where only the pass
    # shares' exact test needs the lattice; the task is analysed by question, and says so.
    from calculator.logs import analyze_logs
    from calculator.report.logs import report_lines

    a = read_log_data([epochs_log("m/a", 1)])
    b = read_log_data([epochs_log("m/b", 2)])
    paired = pair_logs(a, b)
    (task,) = paired.tasks
    assert task.shares is None and task.shares_too_fine
    (analysed,) = analyze_logs(paired).tasks
    assert analysed.shares is None and analysed.by_question_exact is not None
    lines = "\n".join(report_lines(analyze_logs(paired)))
    assert (
        "its exact test is left out, the shares lying on a grid of 1/9,007,199,254,740,992 or finer"
        in lines
    )
    with pytest.raises(LogError, match=r"scored repeats \(1 to 43, 43 different"):
        share_numerators(*(np.asarray(x) for x in task.share_counts))


def test_share_numerators_below_the_bound_are_exact() -> None:
    # lcm(1..36) = 144,403,552,893,600 <= 2^53; question k passes once of k + 1 in A, never in B.
    counts = np.arange(1, 37)
    lcm = math.lcm(*counts.tolist())
    assert lcm <= MAX_LATTICE
    numerators, step = share_numerators(
        np.ones(36, dtype=np.int64), counts, np.zeros(36, dtype=np.int64), counts
    )
    assert numerators.tolist() == [lcm // k for k in counts.tolist()]
    assert step == 1.0 / lcm
