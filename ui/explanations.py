"""Explanations shown in the calculator page's folded sections: plain Markdown and LaTeX.

Each section is a title, then a list of parts; a part is either Markdown text or a LaTeX formula
(marked by :class:`Formula`). The page renders them in expanders.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["Formula", "SECTIONS"]


class Formula(NamedTuple):
    """A formula for ``st.latex``."""

    latex: str


SECTIONS: tuple[tuple[str, tuple[str | Formula, ...]], ...] = (
    (
        "What the numbers mean",
        (
            "**The table.** Each case was scored once for each system. Cell *a* counts cases "
            "both systems pass, *d* cases both fail; *b* and *c* are the cases where exactly "
            "one of them passes. Only *b* and *c* can tell the systems apart, so they are "
            "highlighted.",
            "**Difference.** The gap between the two pass rates, in percentage points, with a "
            "confidence interval. It answers *how much* better, which a p-value alone does not.",
            "**McNemar chi-square.** A large-sample test that compares *b* with *c*. Without the "
            "continuity correction its p can fall a little below the exact one and, with few "
            "discordant cases, its real false-positive rate can exceed α slightly.",
            "**Exact McNemar p.** If the systems were equally good, each discordant case would "
            "be a coin flip between them. The exact p is the chance of a split at least as "
            "lopsided as the one observed, given the number of discordant cases (the test "
            "conditions on it). It is not the probability that the systems are equally good.",
            "**Which p to report.** Fagerland, Lydersen & Laake (2013) compared them: the exact "
            "test's false-positive rate never exceeds α, but the test is conservative and misses "
            "real differences more often; the mid-p value is the usual compromise, its "
            "false-positive rate at or below α in every setting they studied; the uncorrected "
            "chi-square is fine when a false-positive rate slightly above α is acceptable. The "
            "continuity-corrected chi-square is conservative, like the exact test.",
            "**Unpaired p.** What you would get by pretending the two systems were tested on "
            "different cases. It is the wrong test for paired data and is shown only so you can "
            "see how much the pairing matters. It is not always the more cautious of the two: "
            "for the table 1, 1, 7, 12 its p is smaller than McNemar's.",
        ),
    ),
    (
        "Formulas",
        (
            "Pass rates, their difference, and the number of discordant cases:",
            Formula(r"p_A = \frac{a + b}{n},\quad p_B = \frac{a + c}{n},"),
            Formula(r"p_A - p_B = \frac{b - c}{n},\quad m = b + c"),
            "McNemar's chi-square statistic (1 degree of freedom), without and with "
            "Edwards' continuity correction:",
            Formula(r"X^2 = \frac{(b - c)^2}{b + c},"),
            Formula(r"X^2_{cc} = \frac{\max(0,\ |b - c| - 1)^2}{b + c}"),
            "Exact test: under equal pass rates, *b* given *m* is binomial with probability "
            "one half. With k = min(b, c), the doubling convention gives",
            Formula(r"p = \min\Bigl(1,\ 2 \sum_{j=0}^{k} \binom{m}{j} 2^{-m}\Bigr)"),
            "and the mid-p version counts the observed split only half; when b = c every split "
            "is at least as extreme as the observed one, so the mid-p is 1 less half the "
            "observed split's probability:",
            Formula(
                r"p_{mid} = 2\,P[\mathrm{Bin}(m, \tfrac12) \le k]"
                r" - P[\mathrm{Bin}(m, \tfrac12) = k]\quad (b \ne c),"
            ),
            Formula(r"p_{mid} = 1 - \tfrac12\,P[\mathrm{Bin}(m, \tfrac12) = k]\quad (b = c)"),
            "Agresti-Min interval (the default): add one half to every cell, then use the "
            "Wald formula on the adjusted table (n* = n + 2, b* = b + ½, c* = c + ½):",
            Formula(
                r"\frac{b^* - c^*}{n^*} \pm z_{1-\alpha/2}\,"
                r"\frac{\sqrt{(b^* + c^*) - (b^* - c^*)^2 / n^*}}{n^*}"
            ),
            "Unpaired two-proportion z-test, with the pooled rate p̄ = (p_A + p_B)/2:",
            Formula(r"z = \frac{p_A - p_B}{\sqrt{\bar p (1 - \bar p)\, 2 / n}}"),
            "Many gates, each at level α, on a change that does nothing (independent gates), "
            "and the per-gate levels that hold the overall rate at α:",
            Formula(r"P(\text{at least one false alarm}) = 1 - (1 - \alpha)^m \le m\alpha,"),
            Formula(
                r"\alpha_{Bonf} = \frac{\alpha}{m},\quad \alpha_{Sidak} = 1 - (1 - \alpha)^{1/m}"
            ),
        ),
    ),
    (
        "Assumptions and pitfalls",
        (
            "- **Cases must be independent.** Several cases cut from one document, user or "
            "session may succeed or fail together; counting them separately may then make the "
            "p-value too small, or, when cases within a group disagree in opposite directions, "
            "too large. The per-case page's cluster-adjusted test takes the groups into account.",
            "- **No significant difference is not the same as no difference.** With few "
            "discordant cases the test has little power; look at the width of the interval.",
            "- **Fix the gates in advance.** Choosing which checks count after seeing the "
            "results, or adding gates until one fires, inflates the false-alarm rate.",
            "- **Decide the sample size first.** Re-running the test as cases arrive and "
            "stopping once p dips below 0.05 (optional stopping) produces false positives.",
            "- **Measurement comes first.** If the tasks or the grader are wrong, a tiny p only "
            "says precisely that the systems differ on the wrong question.",
        ),
    ),
    (
        "Correlated gates",
        (
            "Gates that look at overlapping data tend to fire together. With the gates' test "
            "statistics equicorrelated at ρ, the chance of at least one false alarm falls from "
            "1 − (1 − α)^m at ρ = 0 to exactly α at ρ = 1 (the gates then always agree), and "
            "m·α bounds it whatever the dependence. Move the ρ slider to see how much the "
            "correction is worth.",
        ),
    ),
)
