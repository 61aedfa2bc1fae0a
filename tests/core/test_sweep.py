"""The both-pass sweep: flat McNemar lines, a moving unpaired line, equal to the scalar tests."""

import numpy as np
import pytest

from calculator import both_pass_sweep, mcnemar_chi2, mcnemar_exact, unpaired_z_test


def test_sweep_matches_scalar_tests_at_every_a():
    a_values = np.arange(0, 301, 7)
    sweep = both_pass_sweep(a_values, 15, 5, 20, convention="mid-p", correction=True)
    for index, a in enumerate(a_values):
        assert sweep.exact_pvalue[index] == mcnemar_exact(15, 5, convention="mid-p").pvalue
        assert sweep.chi2_pvalue[index] == mcnemar_chi2(15, 5, correction=True).pvalue
        unpaired = unpaired_z_test(int(a), 15, 5, 20)
        assert sweep.unpaired_pvalue[index] == pytest.approx(unpaired.pvalue, rel=1e-12)
        assert sweep.unpaired_log10[index] == pytest.approx(unpaired.log10_pvalue, rel=1e-12)


def test_mcnemar_lines_are_flat_and_unpaired_line_moves():
    sweep = both_pass_sweep(np.arange(0, 1000), 15, 5, 20)
    assert np.ptp(sweep.exact_pvalue) == 0 and np.ptp(sweep.chi2_pvalue) == 0
    # from 0.0098 at a = 0 to 0.19 at a = 999: the unpaired p depends on the agreeing cases
    assert sweep.unpaired_pvalue[0] < 0.01 < 0.19 < sweep.unpaired_pvalue[-1]


def test_sweep_handles_the_empty_and_all_concordant_tables():
    sweep = both_pass_sweep([0, 1, 2], 0, 0, 0)
    assert np.all(sweep.unpaired_pvalue == 1.0)
    assert np.all(sweep.exact_pvalue == 1.0)
    assert np.all(np.isfinite(sweep.unpaired_log10))


def test_sweep_log10_stays_finite_for_huge_counts():
    sweep = both_pass_sweep([0, 10**9], 0, 10**9, 0)
    assert np.all(np.isfinite(sweep.unpaired_log10)) and np.all(np.isfinite(sweep.exact_log10))
    assert np.all(sweep.exact_log10 < -300)


@pytest.mark.parametrize("bad", [[-1], [1.5], [np.nan], [[1, 2]], ["x"]])
def test_sweep_rejects_bad_a_values(bad):
    with pytest.raises((TypeError, ValueError), match="a_values"):
        both_pass_sweep(bad, 1, 2, 3)
