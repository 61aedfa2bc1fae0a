"""`mcnemar cases` on hostile harness logs: exit 2 and one line on stderr naming the file.

Before the fixes of issue 23's second round these ended with exit 3 ("internal error ... this is a
bug"): RecursionError, JSONDecodeError, KeyError, OverflowError and int-conversion ValueError
escaped the log readers. The logs are written by the test (see tests/core/test_logs_hostile.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from calculator.cli import main  # noqa: E402
from tests.core.test_logs_hostile import GOOD, HEADER, members, sample, zstd_eval  # noqa: E402


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


HOSTILE = {
    "deep.eval": zstd_eval(members(GOOD) + [("samples/q0_epoch_1.json", b"[" * 100_000)]),
    "broken.eval": zstd_eval(members(GOOD) + [("samples/q0_epoch_1.json", b"{nope")]),
    "nospec.eval": zstd_eval(members(GOOD, header={"x": 1})),
    "epoch.eval": zstd_eval(members(GOOD + [sample(0, epoch=10**30)])),
    "bomb.eval": zstd_eval(
        members(GOOD) + [("samples/q0_epoch_1.json", json.dumps(sample(0)).encode() * 1000)],
        declared={"samples/q0_epoch_1.json": 10},
    ),
    "samples_t_2024-01-01T00-00-00.000000.jsonl": b'{"doc_id": 0, "resps": '
    + b"[" * 100_000
    + b"\n",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_log_is_refused_with_exit_2_and_one_line_naming_it(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hostile = tmp_path / name
    hostile.write_bytes(HOSTILE[name])
    good = tmp_path / "good.eval"
    good.write_bytes(zstd_eval(members(GOOD, header=HEADER)))
    status, out, err = run(capsys, "cases", str(hostile), str(good))
    assert status == 2, err
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"error: {name}") and "internal error" not in err


def test_a_damaged_field_is_exit_2_naming_file_line_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Hostile review 4 (C1, C2): each of these was exit 3 ("internal error ... OverflowError",
    # TypeError, ArrowTypeError) before the readers checked the fields' types and sizes.
    from tests.core.test_logs_damaged_fields import BIG, lm_eval, record

    good = tmp_path / "samples_t_2024-01-02T00-00-00.jsonl"
    good.write_bytes(lm_eval([record(i) for i in range(6)])[1])
    for field, value, shown in (
        ("acc", BIG, "line 6, field 'acc': an integer of 400 digits"),
        ("metrics", [["acc"]], "line 6: field 'metrics' is a list holding a list"),
        ("filter", 1, "line 6: field 'filter' is 1"),
        ("doc_hash", 5, "line 6: field 'doc_hash' is 5"),
    ):
        records = [record(i) for i in range(6)]
        records[5][field] = value
        name, data = lm_eval(records)
        (tmp_path / name).write_bytes(data)
        status, out, err = run(capsys, "cases", str(tmp_path / name), str(good))
        assert status == 2 and out == "" and err.count("\n") == 1, err
        assert err.startswith(f"error: {name}, {shown}"), err
