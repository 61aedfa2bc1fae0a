"""``cases FILE --system COL``: a long file (one row per case x system) through the logs' path.

A long file of one repeat and one task answers as the equivalent wide file does (the same test,
p, sentence and discordant cases; the logs' JSON adds its "tasks" and its ledger); a task column
gives per-task results equal to the files split by task; every refusal is one line, exit 2.
"""

from __future__ import annotations

import json
import random

import pytest

from calculator.cli import main


def run_cli(capsys, *argv: object) -> tuple[int, str, str]:
    status = main(["cases", *map(str, argv)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def one_line(err: str) -> str:
    assert err.startswith("error: ") and err.count("\n") == 1, err
    return err


def outcomes(n: int, seed: int) -> list[tuple[str, int, int]]:
    rng = random.Random(seed)
    return [(f"c{i}", int(rng.random() < 0.7), int(rng.random() < 0.55)) for i in range(n)]


@pytest.fixture
def wide_and_long(tmp_path):
    rows = outcomes(120, 3)
    wide = tmp_path / "wide.csv"
    wide.write_text("id,A,B\n" + "".join(f"{i},{a},{b}\n" for i, a, b in rows))
    long = tmp_path / "long.csv"
    long.write_text("id,system,ok\n" + "".join(f"{i},A,{a}\n{i},B,{b}\n" for i, a, b in rows))
    return wide, long


def test_one_repeat_and_one_task_answers_as_the_wide_file(capsys, wide_and_long):
    wide, long = wide_and_long
    status_w, out_w, _ = run_cli(capsys, wide, "--id", "id", "--a", "A", "--b", "B", "--json")
    status_l, out_l, _ = run_cli(capsys, long, "--system", "system", "--outcome", "ok", "--json")
    assert status_w == status_l == 0
    w, lo = json.loads(out_w), json.loads(out_l)
    for key in ("table", "mcnemar_exact", "difference", "decision", "report", "discordant_cases"):
        assert lo[key] == w[key], key
    assert lo["analysed_as"] == w["analysed_as"] == "pass/fail"
    # The logs' ledger: the two systems' samples, each row of the file once.
    assert lo["input"]["format"] == "long"
    assert lo["input"]["samples"]["given"] == {"A": 120, "B": 120}
    assert lo["tasks"][0]["repeats"] is False


def test_one_repeat_and_one_task_prints_the_wide_files_sentence_and_p(capsys, wide_and_long):
    wide, long = wide_and_long
    _, text_w, _ = run_cli(capsys, wide, "--id", "id", "--a", "A", "--b", "B")
    _, text_l, _ = run_cli(capsys, long, "--system", "system", "--outcome", "ok")
    table = next(line for line in text_w.splitlines() if line.startswith("table"))
    sentence = next(line for line in text_w.splitlines() if line.startswith("A passes"))
    assert table.removeprefix("table     ") in text_l
    assert sentence in text_l.splitlines()
    # The logs' words: the input is named as a long file's systems, the test per task.
    assert "input     long logs: A = long.csv; B = long.csv" in text_l
    assert "two-sided exact McNemar test, p = " in text_l


def test_a_task_column_gives_per_task_results_equal_to_the_files_split_by_task(capsys, tmp_path):
    parts = {"gpqa": outcomes(80, 1), "mmlu": outcomes(150, 2)}
    header = "task,id,system,ok\n"
    (tmp_path / "all.csv").write_text(
        header
        + "".join(
            f"{task},{i},A,{a}\n{task},{i},B,{b}\n"
            for task, rows in parts.items()
            for i, a, b in rows
        )
    )
    options = ["--system", "system", "--outcome", "ok", "--task", "task", "--json"]
    status, out, _ = run_cli(capsys, tmp_path / "all.csv", *options)
    assert status == 0
    together = {task["task"]: task for task in json.loads(out)["tasks"]}
    assert set(together) == set(parts)
    for task, rows in parts.items():
        alone = tmp_path / f"{task}.csv"
        alone.write_text(
            header + "".join(f"{task},{i},A,{a}\n{task},{i},B,{b}\n" for i, a, b in rows)
        )
        status, out, _ = run_cli(capsys, alone, *options)
        assert status == 0
        (split,) = json.loads(out)["tasks"]
        for key in ("table", "test", "pvalue", "rows_read", "samples"):
            assert together[task][key] == split[key], (task, key)
        assert together[task]["holm_pvalue"] is not None  # adjusted across the two tasks


def write(tmp_path, text: str, name: str = "runs.csv"):
    path = tmp_path / name
    path.write_text(text)
    return path


REFUSALS = [
    pytest.param(
        "id,model,ok\nq1,a,1\nq1,b,0\nq2,a,1\nq2,b,1\nq1,a,0\n",
        ["--system", "model", "--outcome", "ok"],
        ["runs.csv", "line 2 and line 6", "'q1'", "--repeat"],
        id="a case given twice, no repeat column",
    ),
    pytest.param(
        "id,model,ok,ep\nq1,a,1,1\nq1,b,0,1\nq1,a,1,1\n",
        ["--system", "model", "--outcome", "ok", "--repeat", "ep"],
        ["runs.csv", "system, case and repeat", "line 2 and line 4"],
        id="a (system, case, repeat) given twice",
    ),
    pytest.param(
        "id,model,ok\nq1,a,1\nq1,b,0\n",
        ["--system", "model", "--outcome", "ok", "--repeat", "epoch"],
        ["runs.csv", "no column 'epoch'", "the columns are id, model, ok"],
        id="a missing column",
    ),
    pytest.param(
        "id,system,ok\nq1,a,1\nq1,b,0\n",
        ["--system", "system"],
        ["runs.csv", "outcome column named (--outcome COL)", "'ok'"],
        id="an outcome column neither named nor guessable",
    ),
    pytest.param(
        "id,model,ok,ep\nq1,a,1,1\nq1,b,0,first\n",
        ["--system", "model", "--outcome", "ok", "--repeat", "ep"],
        ["runs.csv, line 3, field 'ep'", "'first' is not a whole number", "epoch"],
        id="a repeat that is not a number",
    ),
    pytest.param(
        "id,model,ok,ep\nq1,a,1,1\nq1,b,0,1.5\n",
        ["--system", "model", "--outcome", "ok", "--repeat", "ep"],
        ["runs.csv, line 3, field 'ep'", "not a whole number"],
        id="a repeat that is not a whole number",
    ),
    pytest.param(
        "id,model,ok\nq1,a,1\nq1,b,0\nq1,c,1\n",
        ["--system", "model", "--outcome", "ok"],
        ["runs.csv", "column 'model' holds 3 systems ('a', 'b', 'c')", "`compare`"],
        id="three systems",
    ),
    pytest.param(
        "id,model,ok\nq1,a,1\nq2,a,0\n",
        ["--system", "model", "--outcome", "ok"],
        ["runs.csv", "holds 1 system ('a')"],
        id="one system",
    ),
    pytest.param(  # 1 of 2 rows read: no reading keeps 95% of them (issue #31)
        "id,model,ok\nq1,a,1\nq1,b,maybe\n",
        ["--system", "model", "--outcome", "ok"],
        ["runs.csv ('ok')", "no one reading keeps 95%", "line 3, 'ok' = 'maybe'", "--threshold"],
        id="an outcome that cannot be read",
    ),
    pytest.param(
        "id,model,ok\nq1,a,0.5\nq1,b,maybe\n",
        ["--system", "model", "--outcome", "ok", "--threshold", "0.5"],
        ["runs.csv, line 3, field 'ok'", "'maybe' cannot be read", "a number"],
        id="a value that is no number, with a threshold",
    ),
    pytest.param(
        "id,model,ok\nq1,a,1\nq1,,0\n",
        ["--system", "model", "--outcome", "ok"],
        ["runs.csv, line 3, field 'model'", "no value"],
        id="a row without a system",
    ),
    pytest.param(
        "id,model,ok\nq1,a,1\n,b,0\n",
        ["--system", "model", "--outcome", "ok"],
        ["runs.csv, line 3, field 'id'", "no case id"],
        id="a row without a case id",
    ),
]


@pytest.mark.parametrize(("text", "options", "said"), REFUSALS)
def test_bad_long_files_are_refused_in_one_line_naming_file_line_and_field(
    capsys, tmp_path, text, options, said
):
    status, out, err = run_cli(capsys, write(tmp_path, text), *options)
    assert status == 2 and out == ""
    message = one_line(err)
    for words in said:
        assert words in message, (words, message)


def test_a_system_seen_for_only_some_cases_is_counted_and_held_to_the_5_percent_rule(
    capsys, tmp_path
):
    rows = outcomes(100, 5)
    text = "id,model,ok\n" + "".join(
        f"{i},a,{a}\n" + (f"{i},b,{b}\n" if k >= 10 else "") for k, (i, a, b) in enumerate(rows)
    )
    path = write(tmp_path, text)
    status, _, err = run_cli(capsys, path, "--system", "model", "--outcome", "ok")
    assert status == 2
    assert "10 of a's 100 rows (10.0%) would be left out" in one_line(err)
    assert "--allow-exclusions" in err
    status, out, _ = run_cli(
        capsys, path, "--system", "model", "--outcome", "ok", "--allow-exclusions", "--json"
    )
    assert status == 0
    payload = json.loads(out)
    assert payload["input"]["excluded"]["id_in_one_file_only"] == 10
    assert payload["input"]["samples"]["given"] == {"A": 100, "B": 90}
    assert payload["table"]["n"] == 90


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--group", "id"], "--group names a wide file's clusters"),
        (["--metric", "ok"], "--metric chooses a harness log's metric"),
        (["--filter", "none"], "--filter chooses an lm-eval log's filter"),
        (["--split", "test"], "--split chooses a HELM log's split"),
    ],
)
def test_options_of_other_inputs_are_refused_by_name(capsys, wide_and_long, options, said):
    _, long = wide_and_long
    status, out, err = run_cli(capsys, long, "--system", "system", "--outcome", "ok", *options)
    assert status == 2 and out == ""
    assert said in one_line(err)


def test_a_and_b_name_the_systems_whatever_the_rows_order(capsys, wide_and_long, tmp_path):
    # The systems were A and B in the order of the file's first rows: a file whose rows put B
    # first compared B against A, and a gate read the wrong way round.
    wide, long = wide_and_long
    lines = long.read_text().splitlines()
    flipped = tmp_path / "flipped.csv"
    flipped.write_text("\n".join([lines[0], lines[2], lines[1], *lines[3:]]) + "\n")
    _, out_w, _ = run_cli(capsys, wide, "--id", "id", "--a", "A", "--b", "B", "--json")
    named = ("--system", "system", "--outcome", "ok")
    for options in (["--a", "A", "--b", "B"], ["--a", "A"], ["--b", "B"]):
        status, out, err = run_cli(capsys, flipped, *named, *options, "--json")
        assert status == 0, err
        assert json.loads(out)["decision"] == json.loads(out_w)["decision"]
    status, out, _ = run_cli(capsys, flipped, *named)
    assert "A = 'B', B = 'A': the systems in the order they first appear" in out


def test_the_gate_waits_for_the_systems_to_be_named(capsys, wide_and_long):
    _, long = wide_and_long
    named = ("--system", "system", "--outcome", "ok")
    status, out, err = run_cli(capsys, long, *named, "--fail-if-worse")
    assert status == 2 and out == ""
    assert "name which system of the long file is A and which is B with --a NAME" in one_line(err)
    status, _, err = run_cli(capsys, long, *named, "--fail-if-worse", "--a", "A", "--b", "B")
    assert status in (0, 1), err


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--a", "C"], "--a 'C': no such system in column 'system' of"),
        (["--a", "A", "--b", "A"], "--a and --b name the same system, 'A'"),
    ],
)
def test_a_system_named_wrong_is_refused(capsys, wide_and_long, options, said):
    _, long = wide_and_long
    status, out, err = run_cli(capsys, long, "--system", "system", "--outcome", "ok", *options)
    assert status == 2 and out == ""
    assert said in one_line(err)


def test_a_second_file_is_refused_naming_the_long_file(capsys, wide_and_long):
    wide, long = wide_and_long
    status, _, err = run_cli(capsys, long, wide, "--system", "system")
    assert status == 2
    assert f"{long} holds every system's rows: give the long file alone" in one_line(err)


def test_scores_are_compared_as_scores_as_a_per_case_files_are(capsys, tmp_path):
    rng = random.Random(9)
    text = "id,model,f1\n" + "".join(
        f"q{i},a,{rng.random():.3f}\nq{i},b,{rng.random():.3f}\n" for i in range(60)
    )
    path = write(tmp_path, text)
    status, out, _ = run_cli(capsys, path, "--system", "model", "--outcome", "f1", "--json")
    assert status == 0
    assert json.loads(out)["analysed_as"] == "scores"
    status, out, _ = run_cli(
        capsys, path, "--system", "model", "--outcome", "f1", "--threshold", "0.5", "--json"
    )
    assert status == 0
    assert json.loads(out)["analysed_as"] == "pass/fail"


def test_three_systems_compare_the_two_named_and_say_the_third_is_left_out(tmp_path, capsys):
    # The page lets the user pick two of a long file's systems; so does --a with --b, the
    # others stated as left out. The table is recounted here from the rows.
    rng = random.Random(11)
    rows = [(f"q{i}", s, int(rng.random() < 0.6)) for i in range(60) for s in ("x", "y", "z")]
    path = tmp_path / "three.csv"
    path.write_text("id,system,ok\n" + "".join(f"{i},{s},{v}\n" for i, s, v in rows))
    value = {(i, s): v for i, s, v in rows}
    ids = sorted({i for i, _, _ in rows})
    expected = {
        "a": sum(value[i, "z"] and value[i, "x"] for i in ids),
        "b": sum(value[i, "z"] and not value[i, "x"] for i in ids),
        "c": sum(not value[i, "z"] and value[i, "x"] for i in ids),
        "d": sum(not value[i, "z"] and not value[i, "x"] for i in ids),
    }
    given = [path, "--system", "system", "--outcome", "ok", "--a", "z", "--b", "x"]
    status, out, err = run_cli(capsys, *given, "--json")
    assert status == 0, err
    document = json.loads(out)
    assert {cell: document["table"][cell] for cell in "abcd"} == expected
    assert document["input"]["names"] == ["z", "x"]
    assert any("1 other system left out ('y')" in note for note in document["input"]["notes"])
    status, out, _ = run_cli(capsys, *given)
    assert status == 0 and "1 other system left out ('y')" in out
    # One name is not two: refused, saying how to name them.
    status, _, err = run_cli(capsys, *given[:-2])
    assert status == 2
    assert "holds 3 systems ('x', 'y', 'z')" in one_line(err) and "--a and --b" in err
