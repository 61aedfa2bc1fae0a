"""A refusal and a bug read differently on the command line.

Every deliberate refusal of the library is a :class:`calculator.errors.CalculatorError`; the
command line turns exactly these (and its usage errors, and files it cannot read) into one line
on stderr with exit status 2. Any other exception is a bug in the calculator: one line that says
so, with exit status 3, never 1 (a failed release gate) and never 2 (the input's fault).
"""

from __future__ import annotations

import importlib

import pytest

from calculator.cli import EXIT_BUG, main
from calculator.errors import CalculatorError

WIDE = "id,A,B,C\n1,1,0,1\n2,0,1,1\n3,1,1,0\n"


def refusals(folder) -> list[tuple[str, list[str], str]]:
    """One refused input per subcommand: (module, arguments, words of the message)."""
    wide = folder / "wide.csv"
    wide.write_text(WIDE)
    return [
        ("table", ["table", "0", "0", "0", "0"], "empty"),
        ("cases", ["cases", str(wide), "--a", "A", "--b", "Z"], "no column 'Z'"),
        ("compare", ["compare", str(wide), "--systems", "A,A,B"], "twice"),
        ("plan", ["plan", "--p10", "0.7", "--p01", "0.6"], "must be at most 1"),
        ("teach", ["teach", "--n", "10", "--p10", "0.7", "--p01", "0.6"], "must be at most 1"),
    ]


@pytest.mark.parametrize("which", range(5))
def test_a_refusal_from_each_subcommand_is_a_calculator_error_exit_2_one_line(
    tmp_path, capsys, monkeypatch, which
):
    name, argv, words = refusals(tmp_path)[which]
    module = importlib.import_module(f"calculator.cli.{name}")
    raised: list[BaseException] = []
    original = module.run

    def watched(args):
        try:
            return original(args)
        except BaseException as error:
            raised.append(error)
            raise

    monkeypatch.setattr(module, "run", watched)
    status = main(argv)
    err = capsys.readouterr().err
    assert status == 2 and err.startswith("error: ") and words in err
    assert err.count("\n") == 1 and "bug" not in err
    assert len(raised) == 1 and isinstance(raised[0], CalculatorError)


@pytest.mark.parametrize("name", ["table", "cases", "compare", "plan", "teach"])
def test_a_value_error_that_is_not_a_refusal_is_reported_as_a_bug(
    tmp_path, capsys, monkeypatch, name
):
    # Before, every ValueError (a numpy or pandas one included) read as bad input, exit 2.
    def broken(_args):
        raise ValueError("operands could not be broadcast together")

    monkeypatch.setattr(importlib.import_module(f"calculator.cli.{name}"), "run", broken)
    argv = dict((module, args) for module, args, _ in refusals(tmp_path))[name]
    status = main(argv)
    captured = capsys.readouterr()
    assert status == EXIT_BUG == 3 and captured.out == ""
    assert captured.err.startswith("internal error (ValueError: operands could not be broadcast")
    assert "this is a bug in the calculator, not in the input" in captured.err
    assert captured.err.count("\n") == 1


def test_a_value_error_deep_in_the_library_is_a_bug_not_bad_input(capsys, monkeypatch):
    import calculator.cli.table

    def broken(*_args, **_kwargs):
        raise ValueError("math domain error")

    monkeypatch.setattr(calculator.cli.table, "compare", broken)
    assert main(["table", "60", "15", "5", "20"]) == EXIT_BUG
    assert capsys.readouterr().err.startswith("internal error (ValueError: math domain error)")


def test_a_type_refusal_is_still_a_type_error():
    # Callers that caught TypeError for a value of the wrong type keep working.
    from calculator import mcnemar_chi2
    from calculator.errors import CalculatorTypeError

    with pytest.raises(CalculatorTypeError) as caught:
        mcnemar_chi2(1, 2, correction="yes")
    assert isinstance(caught.value, TypeError) and isinstance(caught.value, CalculatorError)


def test_a_case_file_error_is_a_calculator_error():
    from calculator.cases import CaseFileError

    assert issubclass(CaseFileError, CalculatorError)


def test_a_scores_file_with_no_pair_of_scores_is_refused_naming_file_and_columns(tmp_path, capsys):
    # Every row lacks one of the two scores: the input's fault (exit 2), not a bug (exit 3).
    path = tmp_path / "scores.csv"
    path.write_text("id,a,b\n1,0.5,\n2,,0.7\n3,0.2,\n")
    assert main(["cases", str(path), "--a", "a", "--b", "b"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "internal error" not in err
    assert "scores.csv" in err and "3 rows read" in err and "'a' and 'b'" in err


def _raises_of(path) -> list[tuple[int, str]]:
    import ast

    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            called = node.exc.func
            if isinstance(called, ast.Name) and called.id in ("ValueError", "TypeError"):
                found.append((node.lineno, called.id))
    return found


def test_the_library_refuses_only_with_calculator_errors():
    # A bare ValueError or TypeError would reach the command line as a bug (exit 3); every
    # refusal is a CalculatorError or a subclass (CalculatorTypeError is also a TypeError).
    import pathlib

    import calculator

    root = pathlib.Path(calculator.__file__).parent
    bare = {
        str(path.relative_to(root)): raises
        for path in sorted(root.rglob("*.py"))
        if (raises := _raises_of(path))
    }
    assert bare == {}
