"""`analyze`: every figure of the calculator for one table, and the paste-ready report."""

from __future__ import annotations

from dataclasses import dataclass

from calculator._validation import check_choice
from calculator.caveats import few_pairs_caveat, zero_width_caveat
from calculator.clustered import Clusters
from calculator.decision import Decision, decide
from calculator.decision_words import unclustered_figures_note
from calculator.errors import CalculatorError, CalculatorTypeError
from calculator.formatting import (
    format_confidence,
    format_level,
    format_p_equals,
    format_percent,
    format_points,
    method_words,
    plural,
)
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
from calculator.reconcile import reconciliation
from calculator.table import PairedTable

__all__ = ["FRAMINGS", "MAX_NAME_LENGTH", "Analysis", "analyze"]

#: "pass": systems pass or fail cases; "correct": classifiers are correct or wrong (errors).
FRAMINGS = ("pass", "correct")
#: Longest name of a system, in characters (the report, the command line and the pages).
MAX_NAME_LENGTH = 60


@dataclass(frozen=True, slots=True, kw_only=True)
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
    report: str
    #: The matched-pairs odds ratio b/c, exact or mid-p as the exact test's convention.
    odds_ratio: OddsRatio
    #: One sentence when the interval and the exact test disagree at the interval's level.
    reconciliation: str | None = None
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

        Beside a cluster-aware decision, P(B better) and the posterior are None: the posterior
        treats cases as independent (:func:`calculator.decision_words.posterior_left_out`).
        """
        t = self.table
        clustered = self.decision.interval_method == "cluster-robust"
        return {
            "table": {"a": t.a, "b": t.b, "c": t.c, "d": t.d, "n": t.n, "discordant": t.discordant},
            "pass_rate": {"A": t.pass_rate_a, "B": t.pass_rate_b},
            "difference": self.difference.to_dict(),
            "odds_ratio": self.odds_ratio.to_dict(),
            "reconciliation": self.reconciliation,
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
            "report": self.report,
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
    binomial = mid_p if convention == "mid-p" else exact
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
    # "No split can reach alpha" is about the two-sided test: not said beside a one-sided or
    # margin decision that reaches it.
    two_sided_caveat = decision.question == "different" or not decision.reject
    report = build_report(
        table, difference, binomial, chi2, gate_figures, names, framing, few_pairs=two_sided_caveat
    )
    # With no discordant pair and no margin the decision only restates the report's sentence.
    if clusters is not None:
        note = unclustered_figures_note(len(clusters.b_counts))
        report = f"{report} {note} {decision.sentence}"
    elif decision.question != "different" and (table.discordant or margin is not None):
        report = f"{report} {decision.sentence}"
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
        report=report,
        odds_ratio=odds_ratio(
            table.b,
            table.c,
            level=level,
            method="exact" if convention == "doubling" else "mid-p",
        ),
        reconciliation=reconciliation(difference, binomial),
        decision=decision,
        better=probability_b_better(table.b, table.c),
    )


def build_report(
    table: PairedTable,
    difference: DifferenceInterval,
    exact: ExactTestResult,
    chi2: Chi2TestResult,
    gates: GateRates,
    names: tuple[str, str],
    framing: str,
    *,
    few_pairs: bool = True,
) -> str:
    """Two to four plain sentences stating the rates, the difference, the tests and conventions.

    `few_pairs`: say when no split of the discordant pairs can reach alpha two-sided (left out
    beside a one-sided or margin decision that is significant).
    """
    name_a, name_b = names
    level = format_confidence(difference.level)
    method = method_words(difference.method, in_parentheses=True)
    passes_a, passes_b = table.a + table.b, table.a + table.c
    if framing == "pass":
        rates = (
            f"{name_a} passes {passes_a:,} of {plural(table.n, 'case')} "
            f"({format_percent(table.pass_rate_a)}) and {name_b} passes {passes_b:,} "
            f"({format_percent(table.pass_rate_b)})"
        )
        effect = (
            f"a pass-rate difference {name_a} − {name_b} of {format_points(difference.estimate)} "
            f"points ({level} CI {format_points(difference.low)} to "
            f"{format_points(difference.high)}, {method})."
        )
        split = f"{table.b:,} passed only by {name_a} and {table.c:,} only by {name_b}"
    else:
        rates = (
            f"{name_a} is wrong on {table.n - passes_a:,} of {plural(table.n, 'case')} "
            f"(error rate {format_percent(1 - table.pass_rate_a)}) and {name_b} on "
            f"{table.n - passes_b:,} ({format_percent(1 - table.pass_rate_b)})"
        )
        # The error-rate difference is minus the pass-rate difference; its interval flips too.
        effect = (
            f"an error-rate difference {name_a} − {name_b} of "
            f"{format_points(-difference.estimate)} points ({level} CI "
            f"{format_points(-difference.high)} to {format_points(-difference.low)}, {method})."
        )
        split = f"{table.c:,} wrong only for {name_a} and {table.b:,} only for {name_b}"
    sentences = [f"{rates}: {effect}"]
    if not difference.contains_estimate:
        sentences.append(
            f"With so few cases the {method} interval, centred on an adjusted estimate, misses "
            "the observed difference; a higher level or the Newcombe or Tango interval avoids "
            "this."
        )
    if table.discordant == 0:
        sentences.append(
            "The two systems agree on every case, so no case tells them apart and McNemar's "
            "tests give p = 1."
        )
    else:
        if exact.convention == "doubling":
            test = "the exact two-sided McNemar test (doubled smaller binomial tail, "
        else:
            test = "the two-sided McNemar mid-p test ("
        corrected = "with" if chi2.continuity_correction else "without"
        alpha = gates.alpha
        sentences.append(
            f"Of the {plural(table.discordant, 'case')} where they disagree, {split}; {test}"
            f"conditional on the {plural(table.discordant, 'discordant pair')}) gives "
            f"{format_p_equals(exact.pvalue, exact.log10_pvalue, alpha=alpha)}, and McNemar's "
            f"chi-square {corrected} continuity correction is {chi2.statistic:.2f} "
            f"(1 df, {format_p_equals(chi2.pvalue, chi2.log10_pvalue, alpha=alpha)})."
        )
    caveats = (
        few_pairs_caveat(table.discordant, gates.alpha, exact.convention) if few_pairs else None,
        zero_width_caveat(difference),
        reconciliation(difference, exact),
    )
    sentences.extend(caveat for caveat in caveats if caveat)
    if gates.count > 1:
        sentences.append(_gates_sentence(gates))
    return " ".join(sentences)


def _gates_sentence(gates: GateRates) -> str:
    """The false-alarm rate of several gates and the per-gate levels that bound it."""
    correlation = "independent" if gates.rho == 0 else f"correlated (ρ = {gates.rho:g})"
    return (
        f"With {gates.count:,} {correlation} release gates each at α = {gates.alpha:g}, the "
        f"chance of at least one false alarm on a change that does nothing is "
        f"{format_percent(gates.false_alarm)}; testing each gate at "
        f"{format_level(gates.bonferroni_alpha)} (Bonferroni) or "
        f"{format_level(gates.sidak_alpha)} (Šidák) keeps "
        f"it at or below {gates.alpha:g}."
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
