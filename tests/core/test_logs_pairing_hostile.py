"""What is paired across harness logs (hostile review 4: S1, S2, S5).

S1: a task that only one lm-eval log holds vanished from both the count of unpaired rows and the
list of tasks only one log holds, because the filter was chosen among the tasks both logs hold
(the other task's rows were dropped with its filter); `compare` did the same when the log that
lacks the task came first. S2: `compare` of three or more lm-eval logs never checked doc_hash.
S5: `--filter strict-match` headed a report in which a task logged under another filter only was
analysed under that one. The counts asserted are the rows of the generated logs, counted here.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from calculator.cli import main
from calculator.logs import LogError, pair_logs, read_log, read_log_data
from calculator.logs.systems import load_log_systems

GENERATED = Path(__file__).resolve().parents[1] / "data" / "evallogs" / "generated" / "lm-eval"


def copied(tmp_path: Path, seed: int, name: str, drop: str | None = None) -> Path:
    """A copy of a generated lm-eval results folder, without `drop`'s samples file."""
    folder = tmp_path / name
    shutil.copytree(GENERATED / f"dummy-seed{seed}", folder)
    for results in folder.glob("results_*.json"):
        results.unlink()
    if drop is not None:
        for file in folder.glob(f"samples_{drop}_*"):
            file.unlink()
    return folder


def acc_rows(folder: Path, task: str) -> int:
    """The rows of `task` logging "acc" in a copied folder, counted with json."""
    (file,) = folder.glob(f"samples_{task}_*")
    records = [json.loads(line) for line in file.read_text().splitlines() if line.strip()]
    return sum("acc" in record for record in records)


def test_a_task_only_one_log_holds_is_counted_as_unpaired_not_dropped(tmp_path: Path) -> None:
    a = copied(tmp_path, 1, "a")
    b = copied(tmp_path, 2, "b", drop="toy_mul")
    left_out, total = acc_rows(a, "toy_mul"), acc_rows(a, "toy_mul") + acc_rows(a, "toy_add")
    assert (left_out, total) == (20, 50)
    share = f"{left_out / total:.1%}"
    with pytest.raises(LogError, match=rf"{left_out} of a's {total} rows \({share}\)"):
        pair_logs(read_log(a), read_log(b))
    paired = pair_logs(read_log(a), read_log(b), allow_exclusions=True)
    assert paired.unpaired_tasks == (("toy_mul",), ())
    assert not any("toy_mul" in note for note in paired.notes)  # it logs acc: not that note
    # toy_gen is judged on its own metric (issue #32), exact_match, which is 0 throughout.
    assert any(
        "task 'toy_gen' is left out: none of its metrics (exact_match)" in note
        for note in paired.notes
    )


def test_the_refusal_lists_no_empty_reason(tmp_path: Path) -> None:
    a = copied(tmp_path, 1, "a")
    b = copied(tmp_path, 2, "b", drop="toy_mul")
    with pytest.raises(LogError) as refused:
        pair_logs(read_log(a), read_log(b))
    assert "(1 task only in a's log)" in str(refused.value)  # review 4, C1: plural()
    assert "; )" not in str(refused.value)


@pytest.mark.parametrize("order", [("b", "a", "a2"), ("a", "a2", "b"), ("a", "b", "a2")])
def test_compare_refuses_a_missing_task_whatever_the_order(
    tmp_path: Path, order: tuple[str, ...]
) -> None:
    folders = {
        "a": copied(tmp_path, 1, "a"),
        "a2": copied(tmp_path, 2, "a2"),
        "b": copied(tmp_path, 2, "b", drop="toy_mul"),
    }
    logs = [read_log(folders[name]) for name in order]
    with pytest.raises(LogError, match=r"20 of a's 50 rows \(40.0%\) would be left out"):
        load_log_systems(logs)


def reversed_ids(source: Path, target: Path) -> None:
    """A copy of an lm-eval folder with each file's doc_ids reversed: every doc_id names
    another document, whose doc_hash differs."""
    target.mkdir()
    for file in source.glob("samples_*.jsonl"):
        records = [json.loads(line) for line in file.read_text().splitlines() if line.strip()]
        ids = [record["doc_id"] for record in records][::-1]
        for record, doc_id in zip(records, ids, strict=True):
            record["doc_id"] = doc_id
        (target / file.name).write_text("\n".join(map(json.dumps, records)) + "\n")


@pytest.mark.parametrize("position", [0, 1, 2])
def test_compare_checks_every_logs_doc_hash(tmp_path: Path, position: int) -> None:
    folders = [copied(tmp_path, 1, "a"), copied(tmp_path, 2, "b")]
    reversed_ids(GENERATED / "dummy-seed2", tmp_path / "c")
    folders.insert(position, tmp_path / "c")
    with pytest.raises(LogError, match=r"documents differ between .*c's.* logs .*doc_hash"):
        load_log_systems([read_log(folder) for folder in folders])


def record(doc_id: int, flt: str, value: int, task: str) -> dict:
    return {
        "doc_id": doc_id,
        "doc": {"q": doc_id},
        "resps": [["x"]],
        "filter": flt,
        "metrics": ["exact_match"],
        "doc_hash": f"{task}{doc_id}",
        "exact_match": value,
    }


def filtered_folder(folder: Path, time: str, pattern: str) -> Path:
    """gsm8k under strict-match and flexible-extract, gsm8k_cot under flexible-extract only;
    `pattern` gives the values by doc_id."""
    folder.mkdir()
    for task, filters in (
        ("gsm8k", ("strict-match", "flexible-extract")),
        ("gsm8k_cot", ("flexible-extract",)),
    ):
        rows = [
            record(i, flt, int(pattern[(i + k) % len(pattern)]), task)
            for i in range(12)
            for k, flt in enumerate(filters)
        ]
        text = "\n".join(map(json.dumps, rows)) + "\n"
        (folder / f"samples_{task}_{time}.jsonl").write_text(text)
    return folder


def test_a_filter_asked_for_that_a_task_lacks_is_named_not_claimed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = filtered_folder(tmp_path / "A", "2024-06-01T00-00-00", "1101")
    b = filtered_folder(tmp_path / "B", "2024-06-02T00-00-00", "0110")
    c = filtered_folder(tmp_path / "C", "2024-06-03T00-00-00", "1000")
    paired = pair_logs(read_log(a), read_log(b), filter="strict-match")
    assert paired.task_filters == {"gsm8k": "strict-match", "gsm8k_cot": "flexible-extract"}
    for argv in (["cases", str(a), str(b)], ["compare", str(a), str(b), str(c)]):
        assert main([*argv, "--filter", "strict-match"]) == 0
        out = capsys.readouterr().out
        assert "filter    strict-match\n" not in out
        assert "filter    by task: strict-match (gsm8k); flexible-extract (gsm8k_cot)" in out
        assert "asked for, 'strict-match', is not logged for 1 task (gsm8k_cot)" in out
    assert main(["compare", str(a), str(b), str(c), "--filter", "strict-match", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)["input"]
    assert payload["filters_by_task"] == paired.task_filters  # "filter" is the one asked for
    assert main(["cases", str(a), str(b), "--filter", "flexible-extract"]) == 0
    assert "filter    flexible-extract\n" in capsys.readouterr().out


# --- P1: the folder walk follows no symbolic link -------------------------------------------


def test_a_link_to_a_file_outside_the_folder_is_not_read(tmp_path: Path) -> None:
    # Before: Path.is_file() follows links, so A's only entry, a link to a samples file outside
    # A, was read as A's log with no note (docs/RELIABILITY.md: "symbolic links not followed").
    source = next((GENERATED / "dummy-seed1").glob("samples_toy_add_*"))
    (tmp_path / "outside").mkdir()
    outside = tmp_path / "outside" / source.name
    shutil.copy(source, outside)
    (tmp_path / "A").mkdir()
    (tmp_path / "A" / source.name).symlink_to(outside)
    (tmp_path / "A" / "linkdir").symlink_to(tmp_path / "outside", target_is_directory=True)
    with pytest.raises(LogError, match=r"2 symbolic links under the folder not followed"):
        read_log(tmp_path / "A")


def test_a_folder_with_logs_and_a_link_reads_the_logs_and_notes_the_link(tmp_path: Path) -> None:
    folder = copied(tmp_path, 1, "a", drop="toy_mul")
    source = next((GENERATED / "dummy-seed1").glob("samples_toy_mul_*"))
    (folder / source.name).symlink_to(source)
    table = read_log(folder)
    assert table.tasks == ("toy_add", "toy_gen")
    assert "a: 1 symbolic link under the folder not followed" in " ".join(table.notes)


# --- S3: Inspect samples under one id are the same question only if their inputs agree --------


def inspect_log(model: str, subject: str, *, messages: bool = False) -> tuple[str, bytes]:
    """An Inspect JSON log of task mmlu whose 40 samples (ids 1..40, as Inspect numbers a
    dataset without ids) ask about `subject`; with `messages`, each input is a user message
    with a message id of this run's own."""
    samples = []
    for i in range(1, 41):
        text = f"[{subject}] question {i}?"
        question = [{"id": f"{model}-{i}", "role": "user", "content": text}] if messages else text
        value = "CI"[(i * (3 if model.endswith("a") else 5)) % 7 % 2]
        samples.append({"id": i, "epoch": 1, "input": question, "scores": {"m": {"value": value}}})
    spec = {"task": "mmlu", "task_args": {"subjects": subject}, "model": model}
    return f"{model[-1]}.json", json.dumps({"eval": spec, "samples": samples}).encode()


def test_inspect_logs_of_other_questions_under_the_same_ids_are_refused() -> None:
    # Before: paired as 40 cases (task mmlu, p reported) with no note: the review's S3.
    a = read_log_data([inspect_log("m/a", "anatomy")])
    b = read_log_data([inspect_log("m/b", "astronomy")])
    with pytest.raises(
        LogError, match=r"^40 of 40 samples differ .* same task and id \(a digest of each"
    ):
        pair_logs(a, b)
    c = read_log_data([inspect_log("m/c", "anatomy")])
    with pytest.raises(LogError, match=r"samples differ between m/a's and m/b's logs"):
        load_log_systems([a, c, b])


def test_inspect_logs_of_the_same_questions_pair_whatever_the_message_ids() -> None:
    a = read_log_data([inspect_log("m/a", "anatomy", messages=True)])
    b = read_log_data([inspect_log("m/b", "anatomy")])  # text input: the user's message
    paired = pair_logs(a, b)
    assert paired.tasks[0].cases.n == 40


def test_an_eval_archive_is_checked_by_its_samples_inputs_too() -> None:
    from tests.core.test_logs_hostile import members, zstd_eval

    def archive(model: str, subject: str) -> tuple[str, bytes]:
        samples = json.loads(inspect_log(model, subject)[1])["samples"]
        header = {"eval": {"task": "mmlu", "model": model}}
        return f"{model[-1]}.eval", zstd_eval(members(samples, header))

    a = read_log_data([archive("m/a", "anatomy")])
    with pytest.raises(LogError, match=r"^40 of 40 samples differ"):
        pair_logs(a, read_log_data([archive("m/b", "astronomy")]))
    assert pair_logs(a, read_log_data([archive("m/b", "anatomy")])).tasks[0].cases.n == 40


def test_an_input_moved_to_the_attachments_is_the_same_question() -> None:
    # Inspect may keep long text as "attachment://<key>" with the text in the sample's
    # attachments; the same question inline in another log is the same question.
    name, data = inspect_log("m/a", "anatomy")
    log = json.loads(data)
    for sample in log["samples"]:
        key = f"k{sample['id']}"
        sample["attachments"] = {key: sample["input"]}
        sample["input"] = f"attachment://{key}"
    a = read_log_data([(name, json.dumps(log).encode())])
    assert pair_logs(a, read_log_data([inspect_log("m/b", "anatomy")])).tasks[0].cases.n == 40
    with pytest.raises(LogError, match="40 of 40 samples differ"):
        pair_logs(a, read_log_data([inspect_log("m/b", "astronomy")]))
