"""Options that a path printed nothing of are refused by name, and refusals name what the
command has: what a review of the one-pipeline change found.

- ``--anytime`` and ``--detect`` with ``--format markdown|html``: the report's gate line was
  the exact test's while the exit status was the anytime gate's, and the plan was left out.
- ``--anytime-prior`` for scores or logs (their JSON has no anytime-valid test), and the
  library's ``Ask(anytime_prior=...)`` without ``anytime``.
- ``compare`` with an eval-set folder beside other inputs advised ``--models``, an option of
  ``cases`` only; ``--anytime-prior 0`` named a library argument; ``.eval-set-id`` given as a
  log was "not an evaluation log" rather than what it is.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from shape_writers import cli

from calculator.chooser import Ask, OptionRefused
from calculator.paired_data import of_table
from calculator.workflow import compare

ROOT = Path(__file__).resolve().parents[2]
LM_EVAL = Path("/work/shared/evallogs/lm-eval")
REAL = ROOT / "tests" / "data" / "evallogs" / "real-inspect-models"
NOT_SET = sorted((REAL / "not-set").glob("*.eval"))


@pytest.fixture
def gate_file(tmp_path: Path) -> str:
    # 60 both pass, 22 only a, 8 only b, 10 both fail: the exact test fails the gate (p =
    # 0.016) where the anytime-valid one does not (p = 0.085).
    rows = ["1,1"] * 60 + ["1,0"] * 22 + ["0,1"] * 8 + ["0,0"] * 10
    path = tmp_path / "gate.csv"
    path.write_text("a,b\n" + "\n".join(rows) + "\n")
    return str(path)


@pytest.mark.parametrize("fmt", ["markdown", "html"])
@pytest.mark.parametrize(
    ("options", "named"),
    [(["--fail-if-worse", "--anytime"], "--anytime"), (["--detect", "5"], "--detect")],
)
def test_a_report_that_cannot_carry_an_option_refuses_it(capsys, gate_file, fmt, options, named):
    status, out, err = cli(
        capsys, ["cases", gate_file, "--a", "a", "--b", "b", *options, "--format", fmt]
    )
    assert status == 2 and out == ""
    assert err.startswith(f"error: {named} ") and f"--format {fmt}" in err


def test_the_anytime_gate_still_decides_the_text_and_the_exit_status(capsys, gate_file):
    status, out, _ = cli(
        capsys, ["cases", gate_file, "--a", "a", "--b", "b", "--fail-if-worse", "--anytime"]
    )
    assert status == 0 and "anytime-valid p = 0.085" in out


def test_the_mixture_of_the_anytime_test_is_refused_where_nothing_prints_it(capsys, tmp_path):
    logs = [
        str(LM_EVAL / "output__gpt-4o__samples_winogrande_2024-12-23T14-29-31.806745.jsonl"),
        str(
            LM_EVAL / "output__upstage__SOLAR-10.7B-Instruct-v1.0__samples_winogrande_"
            "2024-12-23T15-04-32.131238.jsonl"
        ),
    ]
    status, out, err = cli(capsys, ["cases", *logs, "--anytime-prior", "3", "--json"])
    assert status == 2 and out == "" and "--anytime-prior" in err and "harness logs" in err
    scores = tmp_path / "s.csv"
    scores.write_text("id,old,new\n" + "".join(f"q{i},{i / 10},{i / 9}\n" for i in range(9)))
    status, out, err = cli(
        capsys,
        [
            "cases",
            str(scores),
            "--id",
            "id",
            "--a",
            "old",
            "--b",
            "new",
            "--anytime-prior",
            "3",
            "--json",
        ],
    )
    assert status == 2 and out == "" and "--anytime-prior" in err and "scores" in err


def test_the_library_refuses_the_mixture_without_the_anytime_gate():
    with pytest.raises(OptionRefused) as refused:
        compare(of_table(60, 22, 8, 10), Ask(anytime_prior=5.0))
    assert (refused.value.option, refused.value.reason) == ("anytime", "prior-without-anytime")
    asked = compare(of_table(60, 22, 8, 10), Ask(gate=True, anytime=True, anytime_prior=5.0))
    assert asked.anytime is not None and asked.anytime.test.prior_shape == 5.0


def test_a_folder_of_several_models_beside_other_logs_is_refused_in_compares_words(capsys):
    status, out, err = cli(capsys, ["compare", str(REAL / "eval-set"), *map(str, NOT_SET)])
    assert status == 2 and out == ""
    assert "--models" not in err  # an option of `cases`, not of `compare`
    assert "eval-set: holds runs of 3 models" in err and "give that folder alone" in err


def test_the_mixture_out_of_range_is_refused_by_the_options_name(capsys):
    status, _, err = cli(capsys, ["table", "60", "15", "5", "20", "--anytime-prior", "0"])
    assert status == 2
    assert "--anytime-prior must be a number from 1e-06 to 1e+06" in err
    assert "prior_shape" not in err


def test_an_eval_sets_identifier_given_as_a_log_is_refused_by_what_it_is(capsys, tmp_path):
    (tmp_path / ".eval-set-id").write_text("CzDPvkooKpp4d24wMPkx5d")
    status, _, err = cli(capsys, ["cases", str(tmp_path / ".eval-set-id"), str(NOT_SET[0])])
    assert status == 2 and "an Inspect eval set's identifier, not a log" in err


def test_a_filter_in_no_log_names_each_log_once(capsys):
    # Every log was checked against the first, the first included: "not in both logs", and
    # the first log named twice.
    logs = [*sorted((REAL / "eval-set").glob("*.eval")), *NOT_SET]
    status, _, err = cli(capsys, ["compare", *map(str, logs), "--filter", "x"])
    assert status == 2 and "--filter 'x' is not in every log" in err
    for model in ("openai/gpt-5", "google/gemini-2.5-flash"):
        assert err.count(f"{model}:") == 1
