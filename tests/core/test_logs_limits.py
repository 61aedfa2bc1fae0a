"""Logs within every bound on bytes that would still take minutes or gigabytes (hostile review 4,
H1 and H2), refused by a bound on the work itself, before the work is done.

H1: a 150 kB ``.eval`` whose sample member decompresses to just under the member limit of
``[[[]]],[[[]]],...`` parsed into 4.3 GB (a minute of CPU); JSON text costs some 40 bytes of
Python objects per byte when it is all small containers. The values of a text are now counted
(commas and brackets outside strings) before it is parsed: one document holds at most
``jsontext.MAX_VALUES``, one system's logs ``jsontext.MAX_LOG_VALUES`` in all.

H2: an lm-eval log of 40 metrics per record built a row of six Python lists per metric (30 MB
took 35 s of CPU); a system's long table now stops at ``table.MAX_ROWS`` rows, refused while it
is read. The tests shrink the limits (monkeypatch) and count the work done, never the time: the
time and memory are measured in benchmarks/bench_limits.py.
"""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from calculator.logs import LogError, jsontext, read_log_data
from calculator.logs import table as log_table
from calculator.logs.lmeval import read_lm_eval

HEADER = {"eval": {"task": "t", "model": "m", "scorers": [{"name": "match"}]}}
TIME = "2024-01-01T00-00-00.000000"


def eval_log(samples: list[bytes]) -> bytes:
    """An .eval archive (deflate members) holding `samples` as its sample members."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("header.json", json.dumps(HEADER))
        for i, member in enumerate(samples):
            archive.writestr(f"samples/q{i}_epoch_1.json", member)
    return out.getvalue()


def sample(i: int, padding: str = "") -> bytes:
    head = f'{{"id": "q{i}", "epoch": 1, "scores": {{"match": {{"value": "{"CI"[i % 2]}"}}}}'
    return (head + (f', "messages": [{padding}]' if padding else "") + "}").encode()


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The length of every text json.loads is given."""
    lengths: list[int] = []
    loads = json.loads

    def counting(data, *args, **kwargs):
        lengths.append(len(data))
        return loads(data, *args, **kwargs)

    monkeypatch.setattr(jsontext.json, "loads", counting)
    return lengths


def test_a_member_of_too_many_values_is_refused_before_it_is_parsed(
    monkeypatch: pytest.MonkeyPatch, parsed: list[int]
) -> None:
    monkeypatch.setattr(jsontext, "MAX_VALUES", 1_000)
    nested = ",".join(["[[[]]]"] * 400)  # 1,200 arrays in 2,800 bytes
    data = eval_log([sample(0, nested), sample(1)])
    with pytest.raises(
        LogError, match=r"a\.eval: member samples/q0_epoch_1\.json: .*over the limit of 1,000"
    ):
        read_log_data([("a.eval", data)])
    assert max(parsed) < 1_000  # the member itself never reached the parser


def test_commas_and_brackets_inside_strings_are_not_counted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(jsontext, "MAX_VALUES", 100)
    text = json.dumps(["a, [b], {c}" * 200, 'an "escaped" quote, [x]' * 50])
    assert jsontext.count_values(text) == 3  # the array and its two strings
    assert jsontext.parse_json(text.encode(), "x.json")[1].startswith('an "escaped"')


def test_an_unterminated_string_does_not_hide_the_lines_after_it() -> None:
    # A quote opened on one line and closed three lines later is no string in JSON; counted
    # as one, it would hide the arrays between from the count.
    text = '["x\n' + "[[], [], []],\n" * 10 + '"]'
    assert jsontext.count_values(text, limit=0) >= 40


def test_the_members_of_one_archive_share_one_budget(
    monkeypatch: pytest.MonkeyPatch, parsed: list[int]
) -> None:
    monkeypatch.setattr(jsontext, "MAX_VALUES", 1_000)
    monkeypatch.setattr(jsontext, "MAX_LOG_VALUES", 3_000)
    members = [sample(i, ",".join(["0"] * 700)) for i in range(8)]  # each under 1,000
    with pytest.raises(LogError, match=r"over 3,000 JSON values .* in all"):
        read_log_data([("a.eval", eval_log(members))])
    assert sum(n > 1_000 for n in parsed) <= 5  # stopped at the fifth member of eight


def test_the_lines_of_an_lm_eval_file_share_one_budget(
    monkeypatch: pytest.MonkeyPatch, parsed: list[int]
) -> None:
    monkeypatch.setattr(jsontext, "MAX_LOG_VALUES", 500)
    record = {"doc_id": 0, "doc": 0, "acc": 1}
    lines = [json.dumps({**record, "doc_id": i, "x": list(range(10))}) for i in range(100)]
    data = "\n".join(lines).encode()
    with pytest.raises(LogError, match=rf"samples_t_{TIME}\.jsonl: .*over 500 JSON values"):
        read_log_data([(f"samples_t_{TIME}.jsonl", data)])
    assert len(parsed) <= 1  # refused before the lines are parsed (the first line sniffed)


def test_each_line_of_json_lines_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    # A million lines "1" hold a million values and no comma: each line parsed apart costs
    # as much as several values, and is counted so.
    monkeypatch.setattr(jsontext, "MAX_LOG_VALUES", 1_000)
    first = json.dumps({"doc_id": 0, "doc": 0, "acc": 1})
    with pytest.raises(LogError, match="over 1,000 JSON values"):
        read_log_data([(f"samples_t_{TIME}.jsonl", (first + "\n" + "1\n" * 300).encode())])


def test_the_budget_counts_a_folders_files_together(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsontext, "MAX_LOG_VALUES", 2_000)
    files = [
        (
            f"samples_t{k}_{TIME}.jsonl",
            "\n".join(
                json.dumps({"doc_id": i, "doc": [1, 2, 3], "acc": i % 2}) for i in range(50)
            ).encode(),
        )
        for k in range(10)
    ]
    assert len(read_log_data(files[:2]).frame) == 100  # each file about 450 values
    with pytest.raises(LogError, match="over 2,000 JSON values"):
        read_log_data(files)
    read_log_data(files[:2])  # a budget is one read's: the next read starts afresh


def test_an_lm_eval_log_over_the_row_limit_is_refused_while_it_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(log_table, "MAX_ROWS", 100)
    pulled = []

    def records():
        for i in range(1_000):
            pulled.append(i)
            yield {"doc_id": i, "doc": 0, **{f"m{k}": k % 2 for k in range(20)}}

    name = f"samples_t_{TIME}.jsonl"
    with pytest.raises(LogError, match=rf"{name}: .*over 100 rows \(one per case"):
        read_lm_eval([(name, b"")], system="A", records_of={name: records()})
    assert len(pulled) == 6  # 120 rows: the sixth record passes the limit, no more are read


def test_a_log_of_many_metrics_per_record_keeps_every_value_in_its_row() -> None:
    # The reader keeps what a record's rows share once per record: each row must still hold its
    # own record's case, hash and filter, and its own metric's value.
    records = [
        {"doc_id": 7, "doc": 0, "filter": "none", "doc_hash": "h7", "acc": 1, "f1": 0.5},
        {"doc_id": 8, "doc": 0, "filter": "strict", "doc_hash": "h8", "acc": True, "em": "x"},
        {"doc_id": 9, "doc": 0, "metrics": ["bleu", "acc"], "bleu": [["a"], ["b"]], "acc": 0},
    ]
    name = f"samples_t_{TIME}.jsonl"
    table = read_lm_eval([(name, b"x")], system="A", records_of={name: records})
    rows = table.frame[["case", "metric", "value", "hash", "filter"]].astype(object)
    got = [tuple(None if v != v else v for v in row) for row in rows.itertuples(index=False)]
    assert got == [
        ("7", "acc", 1.0, "h7", "none"),
        ("7", "f1", 0.5, "h7", "none"),
        ("8", "acc", 1.0, "h8", "strict"),
        ("8", "em", None, "h8", "strict"),
        ("9", "bleu", None, None, None),
        ("9", "acc", 0.0, None, None),
    ]
    assert table.metrics == ("acc", "f1", "em", "bleu")
    assert table.corpus_metrics == ("bleu",)
    assert set(table.frame["task"]) == {"t"} and set(table.frame["system"]) == {"A"}


def test_a_json_log_is_parsed_once_and_charged_once(
    monkeypatch: pytest.MonkeyPatch, parsed: list[int]
) -> None:
    # The uploads' look for a run summary (an lm-eval results file, a HELM run spec) parsed
    # every one-object JSON file whole and charged it to the log's budget, so an Inspect JSON
    # log of 60% of the budget was refused as over it, and every log was parsed twice.
    monkeypatch.setattr(jsontext, "MAX_LOG_VALUES", 3_000)
    samples = [
        {"id": f"q{i}", "epoch": 1, "scores": {"match": {"value": "C"}}, "x": list(range(12))}
        for i in range(100)
    ]
    log = {"eval": {"task": "t", "model": "m", "scorers": [{"name": "match"}]}, "samples": samples}
    data = json.dumps(log).encode()
    assert 1_500 < jsontext.count_values(data) < 3_000
    table = read_log_data([("log.json", data)])
    assert len(table.frame) == 100
    assert sum(n == len(data) for n in parsed) == 1
