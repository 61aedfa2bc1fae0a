"""`analyze`: every figure of the calculator for one table.

The numbers only: the words (the report, the reconciliation) are :mod:`calculator.report`'s,
reached through :func:`calculator.report.words.text` and :func:`~calculator.report.words.payload`.
"""

from __future__ import annotations

from dataclasses import dataclass

from calculator._validation import check_choice
from calculator.clustered import Clusters
from calculator.decision import Decision, decide
from calculator.errors import CalculatorError, CalculatorTypeError
from calculator.gates import GateRates, gate_rates
from calculator.intervals import DifferenceInterval, difference_interval
from calculator.mcnemar import (
    CONVENTIONS,
    Chi2TestResult,
    ExactTestResult,
    ZTestResult,
    mcnemar_chi2,
    mcnemar_exact,
    unpaired_z_test,
)
from calculator.odds_ratio import OddsRatio, odds_ratio
from calculator.posterior import BetterProbability, probability_b_better
from calculator.table import PairedTable

__all__ = ["FRAMINGS", "MAX_NAME_LENGTH", "Analysis", "analyze"]

#: "pass": systems pass or fail cases; "correct": classifiers are correct or wrong (errors).
FRAMINGS = ("pass", "correct")
#: Longest name of a system, in characters (the report, the command line and the pages).
MAX_NAME_LENGTH = 60


# Not slotted: with slots, setting a property of a frozen dataclass raises TypeError instead of
# FrozenInstanceError (CPython 3.11's generated __setattr__ names the class before slotting).
@dataclass(frozen=True, kw_only=True)
class Analysis:
    """Every figure the calculator shows for one paired table. Build it with :func:`analyze`."""

    table: PairedTable
    difference: DifferenceInterval
    #: The exact McNemar test (doubled smaller tail): never a mid-p value.
    exact: ExactTestResult
    #: The mid-p value, always computed.
    mid_p: ExactTestResult
    #: The two-sided convention chosen for the report ("doubling" or "mid-p"):
    #: :attr:`binomial` is ``exact`` or ``mid_p`` by it.
    convention: str
    chi2: Chi2TestResult
    unpaired: ZTestResult
    gates: GateRates
    names: tuple[str, str]
    framing: str
    #: The matched-pairs odds ratio b/c, exact or mid-p as the exact test's convention.
    odds_ratio: OddsRatio
    #: The release question's answer: the chosen one-sided/two-sided test, or a margin test.
    decision: Decision
    #: Posterior probability that B is better than A (Jeffreys prior).
    better: BetterProbability

    @property
    def binomial(self) -> ExactTestResult:
        """The binomial test in the chosen convention: ``exact`` or ``mid_p``."""
        return self.mid_p if self.convention == "mid-p" else self.exact

    def __repr__(self) -> str:
        t, diff = self.table, self.difference
        return (
            f"Analysis(a={t.a}, b={t.b}, c={t.c}, d={t.d}; difference={diff.estimate:+.4f} "
            f"[{diff.low:+.4f}, {diff.high:+.4f}] {diff.method} {diff.level:g}; "
            f"exact p={self.binomial.pvalue:.4g} ({self.convention}); "
            f"chi2={_or_none(self.chi2.statistic)} p={self.chi2.pvalue:.4g}; "
            f"unpaired p={self.unpaired.pvalue:.4g}; gates={self.gates.count})"
        )

    def to_dict(self) -> dict[str, object]:
        """The results as plain JSON types; undefined statistics are None, never NaN.

        The numbers; :func:`calculator.report.words.payload` adds the words ("report",
        "reconciliation", the decision's "sentence").

        Beside a cluster-aware decision, P(B better) and the posterior are None: the posterior
        treats cases as independent (:func:`calculator.report.decision.posterior_left_out`).
        """
        t = self.table
        clustered = self.decision.interval_method == "cluster-robust"
        return {
            "table": t.to_dict(),
            "pass_rate": {"A": t.pass_rate_a, "B": t.pass_rate_b},
            "difference": self.difference.to_dict(),
            "odds_ratio": self.odds_ratio.to_dict(),
            # The key predates the convention choice: it holds the binomial test in the
            # chosen convention, and says which.
            "mcnemar_exact": {
                "pvalue": self.binomial.pvalue,
                "log10_pvalue": self.binomial.log10_pvalue,
                "convention": self.convention,
            },
            "mcnemar_mid_p": {
                "pvalue": self.mid_p.pvalue,
                "log10_pvalue": self.mid_p.log10_pvalue,
            },
            "mcnemar_chi2": {
                "statistic": self.chi2.statistic,
                "df": self.chi2.df,
                "pvalue": self.chi2.pvalue,
                "log10_pvalue": self.chi2.log10_pvalue,
                "continuity_correction": self.chi2.continuity_correction,
            },
            "unpaired_z": {
                "statistic": self.unpaired.statistic,
                "pvalue": self.unpaired.pvalue,
                "log10_pvalue": self.unpaired.log10_pvalue,
            },
            "gates": self.gates.to_dict(),
            "decision": self.decision.to_dict(),
            # Left out (null) beside a cluster-aware decision: see posterior_left_out.
            "probability_B_better": None if clustered else self.better.probability_B_better,
            "posterior": None if clustered else self.better.to_dict(),
        }


def analyze(
    a: int,
    b: int,
    c: int,
    d: int,
    *,
    level: float = 0.95,
    ci_method: str = "agresti-min",
    correction: bool = False,
    convention: str = "doubling",
    gates: int = 1,
    alpha: float = 0.05,
    rho: float = 0.0,
    names: tuple[str, str] = ("A", "B"),
    framing: str = "pass",
    alternative: str = "two-sided",
    margin: float | None = None,
    question: str | None = None,
    clusters: Clusters | None = None,
) -> Analysis:
    """Analyse a paired table: difference with interval, McNemar's tests, unpaired test, gates.

    Parameters
    ----------
    a, b, c, d : int
        Both pass, only A passes, only B passes, both fail. n must be at least 1.
    level : float
        Confidence level of the interval, strictly between 0 and 1.
    ci_method : str
        One of :data:`calculator.CI_METHODS`.
    correction : bool
        Continuity-correct the chi-square statistic.
    convention : {"doubling", "mid-p"}
        Two-sided convention of the binomial test the report uses (``binomial``); ``exact`` is
        always the doubled-tail exact test and ``mid_p`` always the
        mid-p value.
    gates, alpha, rho
        Number of release gates, each gate's level, and the correlation between gates.
    names : (str, str)
        Names of systems A and B used in the report (1 to 60 characters each).
    framing : {"pass", "correct"}
        Words of the report: pass/fail, or correct/wrong with error rates for classifiers.
        Never changes a number.
    alternative : {"two-sided", "greater", "less"}
        The decision's test without a margin: "greater" asks whether B's pass rate is higher
        than A's. The ``exact``, ``mid_p`` and ``chi2`` results stay two-sided.
    margin : float or None
        Delta in pass rate (0.01 = one point): the decision becomes Tango's score test of
        non-inferiority of B (or of `question`) at level `alpha`.
    question : {"different", "better", "worse", "non-inferior", "equivalent"} or None
        The release question (see :func:`calculator.decision.resolve_question`); by default
        it follows from `alternative` and `margin`. A question other than "different" adds
        the decision's sentence to the report.
    clusters : Clusters, optional
        The cases by cluster (:class:`calculator.clustered.Clusters`): the decision, and so
        the release gate, then uses the cluster-aware test for every question, and its
        sentence is added to the report.

    Returns
    -------
    Analysis

    Raises
    ------
    TypeError, ValueError
        With a message naming the argument and what it allows.

    Examples
    --------
    >>> r = analyze(60, 15, 5, 20, gates=6)
    >>> round(r.exact.pvalue, 3), round(r.chi2.statistic, 2), round(r.unpaired.pvalue, 3)
    (0.041, 5.0, 0.123)
    >>> sorted(r.to_dict())[:3]
    ['decision', 'difference', 'gates']
    """
    table = PairedTable(a, b, c, d)
    if table.n == 0:
        raise CalculatorError("The table is empty (a + b + c + d = 0): enter at least one case.")
    check_choice(framing, "framing", FRAMINGS)
    names = _check_names(names)
    difference = difference_interval(
        table.a, table.b, table.c, table.d, level=level, method=ci_method
    )
    check_choice(convention, "convention", CONVENTIONS)
    exact = mcnemar_exact(table.b, table.c)
    mid_p = mcnemar_exact(table.b, table.c, convention="mid-p")
    chi2 = mcnemar_chi2(table.b, table.c, correction=correction)
    unpaired = unpaired_z_test(table.a, table.b, table.c, table.d)
    gate_figures = gate_rates(gates, alpha, rho)
    decision = decide(
        table,
        difference,
        question=question,
        alternative=alternative,
        margin=margin,
        alpha=alpha,
        convention=convention,
        names=names,
        framing=framing,
        clusters=clusters,
    )
    return Analysis(
        table=table,
        difference=difference,
        exact=exact,
        mid_p=mid_p,
        convention=convention,
        chi2=chi2,
        unpaired=unpaired,
        gates=gate_figures,
        names=names,
        framing=framing,
        odds_ratio=odds_ratio(
            table.b,
            table.c,
            level=level,
            method="exact" if convention == "doubling" else "mid-p",
        ),
        decision=decision,
        better=probability_b_better(table.b, table.c),
    )


def _or_none(value: float | None) -> str:
    return "None" if value is None else f"{value:.4g}"


def _check_names(names: object) -> tuple[str, str]:
    if not isinstance(names, tuple | list) or len(names) != 2:
        raise CalculatorTypeError(f"`names` must be a pair of strings, but got {names!r}.")
    checked = []
    for which, name in zip(("A", "B"), names, strict=True):
        if not isinstance(name, str):
            raise CalculatorTypeError(
                f"The name of system {which} must be a string, but got {name!r}."
            )
        name = " ".join(name.split())  # one line, single spaces
        if not 1 <= len(name) <= MAX_NAME_LENGTH:
            raise CalculatorError(
                f"The name of system {which} must have 1 to {MAX_NAME_LENGTH} characters, "
                f"but got {len(name)}."
            )
        checked.append(name)
    return checked[0], checked[1]
