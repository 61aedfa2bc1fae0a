"""Harness logs built to stall, exhaust or confuse the readers (issue 23, second round).

Each log here is written by the test itself, byte by byte where a tool would never write it: a
zstd member whose frame decompresses to far more than the archive declares (a zip bomb), JSON
nested a hundred thousand levels deep, an integer of 5,000 digits, an epoch of 10^30, stats that
are not objects, Infinity as a score. Before the fixes each one either decompressed everything
(hundreds of MB from a 13 kB file) or ended in a bare Python exception (RecursionError, KeyError,
OverflowError, AttributeError, JSONDecodeError, BadZipFile), which the command line reports as a
bug. Now each is refused with a :class:`LogError` naming the file (and member or line), or, for
Infinity, held as a missing value that is counted.
"""

from __future__ import annotations

import io
import json
import math
import struct
import zipfile
import zlib

import pytest
import zstandard  # noqa: E402

from calculator.logs import (  # noqa: E402
    LogError,
    inspect_log,  # noqa: E402
    read_log_data,
)
from calculator.logs import table as log_table  # noqa: E402

HEADER = {"eval": {"task": "t", "model": "m", "scorers": [{"name": "match"}]}}
TIME = "2024-01-01T00-00-00.000000"


def sample(i: int, value: object = "C", epoch: object = 1) -> dict:
    return {"id": f"q{i}", "epoch": epoch, "scores": {"match": {"value": value}}}


def zstd_eval(
    members: list[tuple[str, bytes]],
    *,
    declared: dict[str, int] | None = None,
    content_size: bool = True,
) -> bytes:
    """An .eval archive of zstd members (method 93) as current Inspect writes them, with the
    sizes the central directory declares overridable (what a forged archive does)."""
    out, central = io.BytesIO(), []
    compressor = zstandard.ZstdCompressor(write_content_size=content_size)
    for name, payload in members:
        packed = compressor.compress(payload)
        size = (declared or {}).get(name, len(payload))
        crc, raw, offset = zlib.crc32(payload), name.encode(), out.tell()
        out.write(
            struct.pack(
                "<4sHHHHHIIIHH", b"PK\x03\x04", 63, 0, 93, 0, 0, crc, len(packed), size, len(raw), 0
            )
            + raw
            + packed
        )
        central.append(
            struct.pack(
                "<4sHHHHHHIIIHHHHHII",
                b"PK\x01\x02",
                63,
                63,
                0,
                93,
                0,
                0,
                crc,
                len(packed),
                size,
                len(raw),
                0,
                0,
                0,
                0,
                0,
                offset,
            )
            + raw
        )
    start = out.tell()
    for entry in central:
        out.write(entry)
    out.write(
        struct.pack(
            "<4sHHHHIIH",
            b"PK\x05\x06",
            0,
            0,
            len(central),
            len(central),
            out.tell() - start,
            start,
            0,
        )
    )
    return out.getvalue()


def members(samples: list[dict], header: dict = HEADER) -> list[tuple[str, bytes]]:
    return [("header.json", json.dumps(header).encode())] + [
        (f"samples/{s['id']}_epoch_1.json", json.dumps(s).encode()) for s in samples
    ]


GOOD = [sample(i, "C" if i % 2 else "I") for i in range(1, 20)]


def test_a_well_formed_zstd_log_is_read_by_the_test_builder() -> None:
    table = read_log_data([("ok.eval", zstd_eval(members(GOOD)))])
    assert len(table.frame) == 19 and table.frame["value"].sum() == 10


@pytest.mark.parametrize("content_size", [True, False], ids=["declared-in-frame", "no-size"])
def test_a_zstd_member_larger_than_its_declared_size_is_refused(content_size: bool) -> None:
    # 20 MB of JSON packed into a few kB, declared as 100 bytes: before, the frame's own content
    # size was trusted over max_output_size and all of it was decompressed and parsed.
    bomb = json.dumps(dict(sample(0), pad="x" * 20_000_000)).encode()
    data = zstd_eval(
        members(GOOD) + [("samples/q0_epoch_1.json", bomb)],
        declared={"samples/q0_epoch_1.json": 100},
        content_size=content_size,
    )
    assert len(data) < 100_000
    with pytest.raises(LogError, match=r"bomb\.eval: member samples/q0_epoch_1\.json .*100 bytes"):
        read_log_data([("bomb.eval", data)])


def test_a_deflate_member_with_a_forged_size_is_refused() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, payload in members(GOOD):
            archive.writestr(name, payload)
    data = bytearray(buffer.getvalue())
    data[14:18] = b"\0\0\0\0"  # the first member's CRC, as a forger who changed it leaves it
    at = data.find(b"PK\x01\x02")
    data[at + 16 : at + 20] = b"\0\0\0\0"
    with pytest.raises(LogError, match=r"forged\.eval: member header\.json"):
        read_log_data([("forged.eval", bytes(data))])


def test_an_archive_of_more_members_than_the_limit_is_refused_before_listing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(inspect_log, "MAX_MEMBERS", 10)
    with pytest.raises(LogError, match=r"many\.eval: a zip archive of 20 members, over .* 10"):
        read_log_data([("many.eval", zstd_eval(members(GOOD)))])


@pytest.mark.parametrize(
    ("member", "payload", "message"),
    [
        ("samples/q0_epoch_1.json", b'{"id": "q0", "scores": ' + b"[" * 100_000, "nested too"),
        ("samples/q0_epoch_1.json", b"{not json", "not valid JSON"),
        ("samples/q0_epoch_1.json", b"[1, 2]", "not a JSON object"),
        ("samples/q0_epoch_1.json", b'{"id": ' + b"9" * 5000 + b"}", "cannot be read"),
    ],
    ids=["deep", "not-json", "not-object", "huge-integer"],
)
def test_a_damaged_member_is_refused_naming_it(member: str, payload: bytes, message: str) -> None:
    data = zstd_eval(members(GOOD) + [(member, payload)])
    with pytest.raises(LogError, match=rf"x\.eval: member {member}.*{message}"):
        read_log_data([("x.eval", data)])


def test_a_header_without_an_eval_spec_is_refused() -> None:
    with pytest.raises(LogError, match=r"x\.eval: member header\.json has no eval spec"):
        read_log_data([("x.eval", zstd_eval(members(GOOD, header={"eval": []})))])


@pytest.mark.parametrize("epoch", [10**30, -1, 1e300], ids=["10^30", "negative", "1e300"])
def test_an_epoch_outside_the_repeat_range_is_refused(epoch: object) -> None:
    data = zstd_eval(members(GOOD + [sample(0, epoch=epoch)]))
    with pytest.raises(LogError, match=rf"outside 0 to {log_table.MAX_REPEAT:,}"):
        read_log_data([("x.eval", data)])


@pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan])
def test_a_repeat_number_that_is_not_finite_is_refused(value: float) -> None:
    with pytest.raises(LogError, match="not a whole number"):
        log_table.repeat_number(value, 0, "x")


def lm_eval_lines(values: list[str]) -> bytes:
    lines = [
        f'{{"doc_id": {i}, "doc": {{}}, "resps": [], "filter": "none", "metrics": ["acc"], '
        f'"acc": {value}}}'
        for i, value in enumerate(values)
    ]
    return ("\n".join(lines) + "\n").encode()


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (b'{"doc_id": 0, "resps": ' + b"[" * 50_000 + b"]" * 50_000 + b"}", "nested too"),
        (b'{"doc_id": ' + b"9" * 5000 + b', "resps": []}', "cannot be read"),
    ],
    ids=["deep", "huge-integer"],
)
def test_an_lm_eval_line_that_json_cannot_hold_is_refused_naming_the_line(
    line: bytes, message: str
) -> None:
    data = lm_eval_lines(["1", "0"]) + line + b"\n"
    with pytest.raises(LogError, match=rf"samples_t_{TIME}\.jsonl, line 3: .*{message}"):
        read_log_data([(f"samples_t_{TIME}.jsonl", data)])


def test_a_deeply_nested_first_line_is_refused_naming_it() -> None:
    data = b'{"doc_id": 0, "resps": ' + b"[" * 100_000 + b"\n"
    with pytest.raises(LogError, match=r"deep\.jsonl, line 1: JSON nested too deeply"):
        read_log_data([("deep.jsonl", data)])


def test_a_deeply_nested_json_log_is_refused() -> None:
    with pytest.raises(LogError, match=r"deep\.json(, line 1)?: JSON nested too deeply"):
        read_log_data([("deep.json", b"[" * 100_000 + b"]" * 100_000)])


def test_infinity_as_a_score_is_a_missing_value_and_never_a_pass() -> None:
    # json reads Infinity and 1e999 as inf; before, inf passed any --threshold and was shown
    # as "inf" in messages. The row stays (counted as missing by the pairing), its value NaN.
    data = lm_eval_lines(["Infinity", "-Infinity", "1e999", "NaN", "1", "0", "-0.0", "5e-324"])
    table = read_log_data([(f"samples_t_{TIME}.jsonl", data)])
    values = table.frame["value"].tolist()
    assert len(values) == 8
    assert all(math.isnan(v) for v in values[:4])
    assert values[4:] == [1.0, 0.0, 0.0, 5e-324]


def helm_instances(stats: object) -> bytes:
    good = {"name": {"name": "em", "split": "test"}, "mean": 1.0}
    rows = [{"instance_id": f"id{i}", "train_trial_index": 0, "stats": [good]} for i in range(5)]
    rows.append({"instance_id": "id9", "train_trial_index": 0, "stats": stats})
    return json.dumps(rows).encode()


@pytest.mark.parametrize("stats", [["em"], [{"name": "em", "mean": 1}], {"em": 1}])
def test_helm_stats_that_are_not_objects_are_refused(stats: object) -> None:
    with pytest.raises(LogError, match=r"instance 'id9': its stats are not a list of objects"):
        read_log_data([("per_instance_stats.json", helm_instances(stats))])


def test_inspect_json_samples_that_are_not_objects_are_refused() -> None:
    document = dict(HEADER, samples=[sample(1), "q2"])
    with pytest.raises(LogError, match=r"log\.json: its samples are not a list of objects"):
        read_log_data([("log.json", json.dumps(document).encode())])


def write_run(folder, task: str, time: str, model: str | None, values: list[int]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    lines = [
        json.dumps({"doc_id": i, "doc": {}, "resps": [], "metrics": ["acc"], "acc": v})
        for i, v in enumerate(values)
    ]
    (folder / f"samples_{task}_{time}.jsonl").write_text("\n".join(lines) + "\n")
    if model is not None:
        results = {"results": {}, "configs": {}, "model_name": model}
        (folder / f"results_{time}.json").write_text(json.dumps(results))


def test_lm_eval_runs_of_two_models_in_one_folder_are_refused(tmp_path) -> None:
    # Before, model-two's task was read as one more task of model-one, silently.
    from calculator.logs import read_log

    write_run(tmp_path / "A" / "m1", "t1", TIME, "model-one", [1, 0, 1, 0])
    write_run(tmp_path / "A" / "m2", "t2", "2024-02-01T00-00-00.000000", "model-two", [0, 1, 1, 0])
    with pytest.raises(LogError, match=r"runs of several models \('model-one' for m1/"):
        read_log(tmp_path / "A")


def test_lm_eval_runs_of_one_model_in_several_folders_are_one_system(tmp_path) -> None:
    from calculator.logs import read_log

    write_run(tmp_path / "A" / "r1", "t1", TIME, "model-one", [1, 0, 1, 0])
    write_run(tmp_path / "A" / "r2", "t2", "2024-02-01T00-00-00.000000", "model-one", [0, 1, 1])
    table = read_log(tmp_path / "A")
    assert table.system == "model-one" and table.tasks == ("t1", "t2") and len(table.frame) == 7


def test_one_task_in_two_folders_of_one_system_is_refused(tmp_path) -> None:
    from calculator.logs import read_log

    write_run(tmp_path / "A" / "r1", "t1", TIME, None, [1, 0, 1, 0])
    write_run(tmp_path / "A" / "r2", "t1", "2024-02-01T00-00-00.000000", None, [0, 1, 1, 0])
    with pytest.raises(LogError, match=r"both hold lm-eval task 't1'"):
        read_log(tmp_path / "A")


def test_an_end_record_understating_the_member_count_does_not_lift_the_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # zipfile lists every entry of the central directory whatever the end record's (16-bit)
    # count says: the bound counts the entries themselves.
    monkeypatch.setattr(inspect_log, "MAX_MEMBERS", 10)
    data = bytearray(zstd_eval(members(GOOD)))
    end = data.rfind(b"PK\x05\x06")
    data[end + 8 : end + 12] = struct.pack("<HH", 1, 1)
    with pytest.raises(LogError, match=r"a zip archive of 20 members"):
        read_log_data([("many.eval", bytes(data))])


def test_an_lm_eval_file_that_is_not_utf8_is_refused_naming_the_byte() -> None:
    data = lm_eval_lines(["1", "0"]) + b'{"doc_id": 9, "resps": ["\xff"]}\n'
    with pytest.raises(LogError, match=rf"samples_t_{TIME}\.jsonl: byte [0-9,]+ is not UTF-8"):
        read_log_data([(f"samples_t_{TIME}.jsonl", data)])


@pytest.mark.parametrize(
    "spec",
    [
        {"task": "t", "model": "m", "scorers": ["match"]},
        {"task": "t", "model": "m", "scorers": {"match": 1}},
    ],
    ids=["names-not-objects", "not-a-list"],
)
def test_a_damaged_scorer_list_leaves_the_order_to_the_samples(spec: dict) -> None:
    document = {"eval": spec, "results": ["x"], "samples": GOOD}
    table = read_log_data([("log.json", json.dumps(document).encode())])
    assert table.metrics == ("match",) and len(table.frame) == 19


def test_a_json_log_keeps_only_the_scores_of_its_samples() -> None:
    from calculator.logs.sources import _sniff

    bulky = [dict(s, messages=[{"content": "x" * 1000}], events=[1.5] * 100) for s in GOOD]
    kind, parsed = _sniff("log.json", json.dumps(dict(HEADER, samples=bulky)).encode())
    assert kind == "inspect"
    # The scores, and the digest of the input that tells questions under one id apart (review 4,
    # S3); never the messages or events.
    kept = {"id", "epoch", "scores", "score", inspect_log._DIGEST}
    assert all(set(s) == kept for s in parsed["samples"])


def test_more_tasks_than_the_limit_are_refused(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    # 4,000 one-document tasks per system took 31 s to pair task by task; the bound is
    # monkeypatched down here so that the test writes a few files only.
    from calculator.logs import read_log, sources

    monkeypatch.setattr(sources, "MAX_TASKS", 3)
    for task in range(4):
        write_run(tmp_path / "A", f"task{task}", TIME, None, [1, 0])
    with pytest.raises(LogError, match=r"hold 4 tasks, over the limit of 3"):
        read_log(tmp_path / "A")
    (tmp_path / "A" / f"samples_task3_{TIME}.jsonl").unlink()
    assert read_log(tmp_path / "A").tasks == ("task0", "task1", "task2")


def test_uploads_over_a_folders_limits_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # A folder read from disk had a bound on its files and bytes; the same files uploaded had
    # none (each file was bounded, not their sum).
    from calculator.logs import sources

    files = [(f"samples_t{k}_{TIME}.jsonl", lm_eval_lines(["1", "0"])) for k in range(4)]
    monkeypatch.setattr(sources, "MAX_FOLDER_BYTES", 3 * len(files[0][1]))
    with pytest.raises(LogError, match=r"the 4 files given as one system are [0-9,]+ bytes"):
        read_log_data(files)
    monkeypatch.setattr(sources, "MAX_FOLDER_BYTES", 10**9)
    monkeypatch.setattr(sources, "_MAX_FILES", 3)
    with pytest.raises(LogError, match=r"4 files given as one system, over the limit of 3"):
        read_log_data(files)
    assert read_log_data(files[:3]).tasks == ("t0", "t1", "t2")


def test_a_folder_with_too_many_entries_is_refused_before_any_file_is_read(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before, every entry under the folder was listed (a home folder given by mistake: all of
    # it) and each JSON file read in full before the file count was checked.
    from calculator.logs import read_log, sources

    for task in range(3):
        write_run(tmp_path / "A" / f"run{task}", f"t{task}", TIME, None, [1, 0])

    def no_reading(path):
        raise AssertionError(f"{path} was read")

    monkeypatch.setattr(sources, "_read", no_reading)
    monkeypatch.setattr(sources, "_MAX_ENTRIES", 5)
    with pytest.raises(LogError, match=r"over 5 files and folders under this folder"):
        read_log(tmp_path / "A")
    monkeypatch.setattr(sources, "_MAX_ENTRIES", 100)
    monkeypatch.setattr(sources, "MAX_FOLDER_BYTES", 20)
    with pytest.raises(LogError, match=r"JSON and .eval files are [0-9,]+ bytes in all"):
        read_log(tmp_path / "A")


def test_a_symbolic_link_loop_in_a_folder_is_not_followed(tmp_path) -> None:
    from calculator.logs import read_log

    write_run(tmp_path / "A", "t1", TIME, None, [1, 0, 1])
    (tmp_path / "A" / "loop").symlink_to(tmp_path / "A", target_is_directory=True)
    (tmp_path / "A" / "up").symlink_to(tmp_path, target_is_directory=True)
    table = read_log(tmp_path / "A")
    assert table.tasks == ("t1",) and len(table.frame) == 3
