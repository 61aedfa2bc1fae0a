"""Issue 11 on the command line: mid-p never labelled exact, the odds ratio with its exact
interval, the release gate's one-sided false-alarm rate stated, numbers keeping their sign."""

import pytest

from calculator.cli import main


def test_mid_p_convention_is_not_labelled_exact(capsys):
    assert main(["table", "70", "4", "12", "14", "--convention", "mid-p"]) == 0
    out = capsys.readouterr().out
    assert "McNemar mid-p       0.0490" in out  # three figures near alpha
    assert "exact McNemar p" not in out
    assert "exact two-sided McNemar test (mid-p)" not in out


def test_odds_ratio_line_with_the_exact_interval_and_infinite_end(capsys):
    # StatsDirect's example (Armitage & Berry 1994, p. 127): R' = 6, 1.335744 to 55.197091.
    assert main(["table", "20", "12", "2", "16"]) == 0
    assert "odds ratio b/c      6.00, 95% CI 1.34 to 55.2 (exact conditional)" in (
        capsys.readouterr().out
    )
    assert main(["table", "0", "5", "0", "0"]) == 0
    assert "to ∞" in capsys.readouterr().out


def test_newcombe_limit_below_zero_keeps_its_minus_sign(capsys):
    assert main(["table", "70", "4", "12", "14", "--ci-method", "newcombe"]) == 0
    out = capsys.readouterr().out
    assert "to -0.006 (Newcombe)" in out
    assert "+0.0 (Newcombe)" not in out


def test_release_gate_help_states_its_one_sided_false_alarm_rate(capsys):
    with pytest.raises(SystemExit):
        main(["cases", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "at most alpha/2" in out
