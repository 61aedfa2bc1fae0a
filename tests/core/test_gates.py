"""False-alarm rates of several gates, Bonferroni and Sidak levels."""

import math

import numpy as np
import pytest
from scipy import integrate, special, stats

from calculator import false_alarm_rate, gate_rates
from calculator.gates import MAX_GATES


def test_seed_page_six_gates():
    # The original calculator page: 6 gates at alpha 0.05 -> 26.5%; Bonferroni 0.0083; Sidak 0.0085;
    # union bound 6 * 0.05 = 0.30, as that page prints them.
    g = gate_rates(6, 0.05)
    assert round(100 * g.false_alarm, 1) == 26.5
    assert round(g.bonferroni_alpha, 4) == 0.0083
    assert round(g.sidak_alpha, 4) == 0.0085
    assert g.union_bound == pytest.approx(0.30)


def test_independent_gates_closed_form():
    for count in (1, 2, 10, 50, 10_000):
        assert gate_rates(count, 0.05).false_alarm == pytest.approx(1 - 0.95**count, rel=1e-12)


def test_one_gate_is_alpha_whatever_the_correlation():
    for rho in (0.0, 0.3, 0.7, 0.999, 0.99999999, 1 - 1e-16, 1.0):
        assert gate_rates(1, 0.05, rho).false_alarm == pytest.approx(0.05, abs=1e-9)
        assert gate_rates(1, 0.5, rho).false_alarm == pytest.approx(0.5, abs=1e-9)


def test_sidak_level_gives_exactly_alpha_overall_for_independent_gates():
    for count in (2, 6, 10_000):
        g = gate_rates(count, 0.05)
        assert false_alarm_rate(count, g.sidak_alpha) == pytest.approx(0.05, rel=1e-9)
        assert false_alarm_rate(count, g.bonferroni_alpha) <= 0.05


def test_ten_thousand_gates():
    g = gate_rates(10_000, 0.05)
    assert g.false_alarm == pytest.approx(1.0)
    assert g.bonferroni_alpha == pytest.approx(5e-6)
    # -expm1(log1p(-alpha)/m) keeps digits that 1 - (1 - alpha)**(1/m) loses.
    assert g.sidak_alpha == pytest.approx(-math.expm1(math.log(0.95) / 10_000), rel=1e-14)
    assert g.union_bound == 1.0


# Independent implementation: scipy.stats.multivariate_normal.cdf (Genz's algorithm) of the box
# [-z*, z*]^m for an equicorrelated normal vector; the false-alarm rate is 1 minus it.
@pytest.mark.parametrize(("count", "rho"), [(2, 0.3), (3, 0.5), (3, 0.8), (4, 0.95)])
def test_correlated_gates_match_multivariate_normal_box_probability(count, rho):
    alpha = 0.05
    critical = special.ndtri(1 - alpha / 2)
    cov = np.full((count, count), rho) + (1 - rho) * np.eye(count)
    box = stats.multivariate_normal(mean=np.zeros(count), cov=cov, seed=1).cdf(
        np.full(count, critical), lower_limit=np.full(count, -critical)
    )
    assert false_alarm_rate(count, alpha, rho) == pytest.approx(1 - box, abs=2e-4)


# Independent implementation: adaptive quadrature (scipy.integrate.quad) of the equicorrelated-
# normal integral.
@pytest.mark.parametrize("rho", [0.1, 0.5, 0.6, 0.9, 0.99, 0.999, 0.99999])
@pytest.mark.parametrize(("count", "alpha"), [(2, 0.05), (6, 0.05), (50, 0.05), (10**5, 1e-4)])
def test_correlated_gates_match_adaptive_quadrature(count, alpha, rho):
    critical = special.ndtri(1 - alpha / 2)
    scale = math.sqrt(1 - rho)

    def integrand(w):
        inside = special.ndtr((critical - math.sqrt(rho) * w) / scale) - special.ndtr(
            (-critical - math.sqrt(rho) * w) / scale
        )
        return stats.norm.pdf(w) * inside**count

    edge, width = critical / math.sqrt(rho), scale / math.sqrt(rho)
    cuts = sorted(
        {-12.0, 12.0}
        | {
            min(12.0, max(-12.0, side * edge + k * width))
            for side in (-1, 1)
            for k in range(-15, 16)
        }
    )
    no_alarm = sum(
        integrate.quad(integrand, low, high, limit=400, epsabs=1e-14)[0]
        for low, high in zip(cuts, cuts[1:], strict=False)
    )
    assert false_alarm_rate(count, alpha, rho) == pytest.approx(1 - no_alarm, abs=1e-7)


def test_correlation_lowers_the_rate_towards_alpha():
    rates = [false_alarm_rate(6, 0.05, rho) for rho in (0.0, 0.2, 0.5, 0.8, 0.95, 1.0)]
    assert all(earlier > later for earlier, later in zip(rates, rates[1:], strict=False))
    assert rates[0] == pytest.approx(1 - 0.95**6)
    assert rates[-1] == 0.05


def test_false_alarm_rate_is_vectorised():
    counts = np.arange(1, 51)
    rates = false_alarm_rate(counts, 0.05 / counts, 0.4)
    assert rates.shape == (50,)
    assert np.all((rates > 0) & (rates <= 0.05 + 1e-9))
    for count in (1, 7, 50):
        assert rates[count - 1] == pytest.approx(false_alarm_rate(count, 0.05 / count, 0.4))


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"count": 0, "alpha": 0.05}, ValueError, "`gates` must be an integer from 1"),
        ({"count": 2.5, "alpha": 0.05}, ValueError, "`gates`"),
        ({"count": MAX_GATES + 1, "alpha": 0.05}, ValueError, "`gates`"),
        ({"count": "6", "alpha": 0.05}, TypeError, "`gates`"),
        ({"count": 6, "alpha": 0.0}, ValueError, "`alpha` must be a number strictly between"),
        (
            {"count": 6, "alpha": 0.05, "rho": -0.1},
            ValueError,
            "`rho` must be a number from 0 to 1",
        ),
        ({"count": 6, "alpha": 0.05, "rho": math.nan}, ValueError, "`rho`"),
    ],
)
def test_gate_rates_validates(kwargs, error, match):
    with pytest.raises(error, match=match):
        gate_rates(**kwargs)
