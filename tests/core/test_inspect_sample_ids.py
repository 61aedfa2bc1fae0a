"""Inspect sample ids 1 (a number) and "1" (text) in one log are refused, never merged.

Inspect's ``EvalSample.id`` is ``int | str`` (inspect_ai/log/_log.py, docs "Log File Format"):
1 and "1" are two samples there. Cases are paired here by the id's text, so before the fix the
two became one case: on one epoch a "repeated case" (and left out with --allow-exclusions), on
two epochs the repeats of one question, without a word.
"""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from calculator.cli import main
from calculator.logs import LogError, read_log_data

SPEC = {"task": "t", "model": "m", "scorers": [{"name": "match"}]}


def sample(sample_id: object, epoch: int = 1, value: str = "C") -> dict:
    return {"id": sample_id, "epoch": epoch, "scores": {"match": {"value": value}}}


def json_log(samples: list[dict], model: str = "m") -> bytes:
    return json.dumps({"eval": dict(SPEC, model=model), "samples": samples}).encode()


def eval_log(samples: list[dict]) -> bytes:
    """A deflate .eval archive, as Inspect versions before zstd wrote them."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("header.json", json.dumps({"eval": SPEC}))
        for i, item in enumerate(samples):
            archive.writestr(f"samples/{i}_epoch_{item['epoch']}.json", json.dumps(item))
    return out.getvalue()


@pytest.mark.parametrize("epochs", [(1, 1), (1, 2)], ids=["same-epoch", "two-epochs"])
@pytest.mark.parametrize("build", [json_log, eval_log], ids=["json", "eval"])
def test_a_log_naming_1_and_text_1_is_refused_naming_both(build, epochs):
    data = build([sample(1, epochs[0]), sample("1", epochs[1], "I"), sample(2)])
    with pytest.raises(LogError, match=r"x: samples with ids .*1.* and .*1.* are two samples"):
        read_log_data([("x", data)])


def test_ids_of_one_kind_are_read_as_before():
    table = read_log_data([("x", json_log([sample(1), sample(2), sample(1, 2)]))])
    assert sorted(set(table.frame["case"])) == ["1", "2"]
    table = read_log_data([("x", json_log([sample("1"), sample("01")]))])
    assert sorted(table.frame["case"]) == ["01", "1"]


def test_the_cli_refuses_it_in_one_line(tmp_path, capsys):
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    first.write_bytes(json_log([sample(1), sample("1", 2, "I"), sample(2)], model="a"))
    second.write_bytes(json_log([sample(1, value="I"), sample(2)], model="b"))
    assert main(["cases", str(first), str(second)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "a.json: samples with ids 1 (a number) and '1' (text)" in err
