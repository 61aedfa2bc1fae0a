"""The sentences of the anytime-valid test (:class:`calculator.anytime.AnytimeAnalysis`): what
it says, what it buys (stop or look whenever you like) and what it costs (a larger p than the
exact test's at a number of cases fixed in advance), and its confidence sequence beside the
fixed-n interval. The page and the command line take them from here
(:func:`calculator.report.words.text`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from calculator.report.formatting import (
    format_confidence,
    format_percent,
    format_points,
    format_pvalue,
    format_ratio,
    plural,
)

if TYPE_CHECKING:
    from calculator.anytime import AnytimeAnalysis, AnytimeTest
    from calculator.confidence_sequence import ConfidenceSequence
    from calculator.monitor import Monitor

__all__ = [
    "anytime_gate_payload",
    "anytime_gate_verdict",
    "anytime_lines",
    "anytime_sentence",
    "mixture_name",
    "null_words",
    "monitor_lines",
    "monitor_sentence",
    "sequence_sentence",
]


#: The anytime-valid gate's test, as its verdict and its JSON name it.
ANYTIME_GATE_TEST = "one-sided anytime-valid test"


def null_words(alternative: str, names: tuple[str, str] = ("A", "B"), framing: str = "pass") -> str:
    """The null hypothesis an e-value is evidence against, in the systems' names and the
    outcome's words (`framing` "pass" or "correct").

    Examples
    --------
    >>> null_words("less", ("old", "new"), "correct")
    'new is correct no less often than old'
    """
    a, b = names
    verb, plural_verb = ("passes", "pass") if framing == "pass" else ("is correct", "are correct")
    return {
        "two-sided": f"{a} and {b} {plural_verb} equally often",
        "greater": f"{b} {verb} no more often than {a}",
        "less": f"{b} {verb} no less often than {a}",
    }[alternative]


def _only(names: tuple[str, str], framing: str) -> str:
    """ "only A passes" (or "only A is correct")."""
    return f"only {names[0]} {'passes' if framing == 'pass' else 'is correct'}"


def mixture_name(
    prior_shape: float, alternative: str = "two-sided", names: tuple[str, str] = ("A", "B")
) -> str:
    """The mixing distribution in words: the e-value is always named with it.

    Examples
    --------
    >>> mixture_name(1.0)
    'the uniform (Beta(1, 1)) mixture'
    >>> mixture_name(0.5, "greater")
    'the Beta(0.5, 0.5) mixture restricted to B-favouring splits'
    """
    shape = f"{prior_shape:g}"
    name = "uniform (Beta(1, 1))" if prior_shape == 1 else f"Beta({shape}, {shape})"
    side = {
        "two-sided": "",
        "greater": f" restricted to {names[1]}-favouring splits",
        "less": f" restricted to {names[0]}-favouring splits",
    }[alternative]
    return f"the {name} mixture{side}"


def evalue_text(test: AnytimeTest) -> str:
    """E for reading: three significant figures, or its log10 beyond 1e6 and below 1e-6."""
    if -6 <= test.log10_evalue <= 6 and test.evalue is not None:
        return format_ratio(test.evalue)
    return f"10^{test.log10_evalue:.2f}"


def anytime_sentence(result: AnytimeAnalysis) -> str:
    """What the anytime-valid test says, what it buys and what it costs, in one paragraph.

    Examples
    --------
    >>> from calculator.anytime import anytime_analysis
    >>> print(anytime_sentence(anytime_analysis(35, 15)))  # doctest: +NORMALIZE_WHITESPACE
    Anytime-valid test (e-value of the uniform (Beta(1, 1)) mixture over the share of
    disagreements that favour A): against "A and B pass equally often" it is E = 9.81, an
    anytime-valid p of 0.102, not below α = 0.05. This p stays valid under any stopping
    rule: you may look after every case and stop whenever you like, as long as the order of the
    cases is not chosen by their outcomes. The price is a larger p at a fixed number of cases:
    the exact McNemar test, valid only when the number of cases is fixed before looking, gives
    0.007 on these 50 discordant pairs.
    """
    test, alpha, names = result.test, result.alpha, result.names
    p = format_pvalue(test.pvalue, test.log10_pvalue, alpha=alpha)
    verdict = "below" if result.rejects else "not below"
    if test.discordant == 0:
        return (
            "Anytime-valid test: with no discordant pairs the e-value is 1 and the "
            "anytime-valid p is 1; no case tells the systems apart yet."
        )
    source = "the largest e-value over the pairs seen" if test.running else "the final counts"
    fixed = format_pvalue(result.fixed_n_pvalue, result.fixed_n_log10_pvalue, alpha=alpha)
    pairs = "discordant pair" if test.discordant == 1 else "discordant pairs"
    text = (
        f"Anytime-valid test (e-value of "
        f"{mixture_name(test.prior_shape, test.alternative, names)} over the share of "
        f"disagreements that favour {names[0]}): against "
        f'"{null_words(test.alternative, names, result.framing)}" '
        f"it is E = {evalue_text(test)}, an anytime-valid p of {p}"
        f"{'' if not test.running else f' (from {source})'}, {verdict} α = {alpha:g}. "
        "This p stays valid under any stopping rule: you may look after every case and stop "
        "whenever you like, as long as the order of the cases is not chosen by their outcomes."
    )
    if result.fixed_n_log10_pvalue < test.log10_pvalue:
        text += (
            " The price is a larger p at a fixed number of cases: the exact McNemar test, valid "
            f"only when the number of cases is fixed before looking, gives {fixed} on these "
            f"{test.discordant:,} {pairs}."
        )
    return text


def sequence_sentence(
    sequence: ConfidenceSequence, names: tuple[str, str] = ("A", "B"), framing: str = "pass"
) -> str:
    """The confidence sequence for the split, beside the fixed-n interval, and the difference's.

    Examples
    --------
    >>> from calculator.confidence_sequence import confidence_sequence
    >>> print(sequence_sentence(confidence_sequence(35, 15, n=100)))
    ... # doctest: +NORMALIZE_WHITESPACE
    95% confidence sequence for the share of disagreements where only A passes: 48.3% to
    86.9% (the fixed-n Clopper-Pearson interval: 55.4% to 82.1%). With probability at least 95%
    the sequence holds the true share at every number of cases at once. For the pass-rate
    difference A − B, with the share of cases the systems
    disagree on: -4.3 to +50.2 points (each part at level 97.5%, together at least 95%).
    """
    level = format_confidence(sequence.level)
    where = f"the share of disagreements where {_only(names, framing)}"
    if sequence.low is None or sequence.high is None:
        share = (
            f"{level} confidence sequence for {where}: "
            "empty (no share fits every look; with an unchanging share this happens with "
            f"probability at most {format_percent(1 - sequence.level)})."
        )
    else:
        share = (
            f"{level} confidence sequence for {where}: {format_percent(sequence.low)} to "
            f"{format_percent(sequence.high)} (the fixed-n "
            f"Clopper-Pearson interval: {format_percent(sequence.fixed_low)} to "
            f"{format_percent(sequence.fixed_high)}). With probability at least {level} the "
            "sequence holds the true share at every number of cases at once."
        )
    if sequence.difference_low is None or sequence.difference_high is None:
        return share
    half = format_confidence(1 - (1 - sequence.level) / 2)
    rate = "pass-rate" if framing == "pass" else "accuracy"
    return (
        f"{share} For the {rate} difference {names[0]} − {names[1]}, with the share of cases "
        f"the systems disagree on: {format_points(sequence.difference_low)} to "
        f"{format_points(sequence.difference_high)} points (each part at level {half}, "
        f"together at least {level})."
    )


def anytime_lines(result: AnytimeAnalysis) -> list[str]:
    """The figures as the text report lists them, one a line."""
    test, sequence = result.test, result.sequence
    p = format_pvalue(test.pvalue, test.log10_pvalue, alpha=result.alpha)
    lines = [
        f"anytime-valid p     {p} (e-value {evalue_text(test)}, "
        f"{mixture_name(test.prior_shape, test.alternative)}; valid under any stopping rule)",
    ]
    if sequence.low is not None and sequence.high is not None:
        lines.append(
            f"confidence sequence {format_percent(sequence.low)} to "
            f"{format_percent(sequence.high)} of disagreements favour A "
            f"({format_confidence(sequence.level)}, every n; fixed-n "
            f"{format_percent(sequence.fixed_low)} to {format_percent(sequence.fixed_high)})"
        )
    return lines


def monitor_lines(monitor: Monitor) -> list[str]:
    """One line a look: cases seen, b and c, the e-value, the anytime p and the sequence.

    Examples
    --------
    >>> from calculator.monitor import monitor_outcomes
    >>> a, b = [True] * 30 + [False] * 10, [False] * 30 + [True] * 10
    >>> print("\\n".join(monitor_lines(monitor_outcomes(a, b, every=5))))
    cases  only A  only B  e-value  anytime p  confidence sequence (95%, share favouring A)
        5       5       0     5.33      0.188  38.4% to 100.0%
       10      10       0     93.1      0.011  58.3% to 100.0%
    """
    lines = [
        "cases  only A  only B  e-value  anytime p  confidence sequence "
        f"({format_confidence(monitor.level)}, share favouring A)"
    ]
    for i in range(monitor.cases.size):
        log10_e = float(monitor.log10_evalue[i])
        e_text = format_ratio(10**log10_e) if -6 <= log10_e <= 6 else f"10^{log10_e:.2f}"
        p = format_pvalue(
            float(monitor.pvalue[i]), float(monitor.log10_pvalue[i]), alpha=monitor.alpha
        )
        low, high = float(monitor.low[i]), float(monitor.high[i])
        sequence = "empty" if low != low else f"{format_percent(low)} to {format_percent(high)}"
        lines.append(
            f"{monitor.cases[i]:>5,}  {monitor.only_a[i]:>6,}  {monitor.only_b[i]:>6,}  "
            f"{e_text:>7}  {p:>9}  {sequence}"
        )
    return lines


def monitor_sentence(monitor: Monitor) -> str:
    """Where the monitor stopped, and what that claim is worth.

    Examples
    --------
    >>> from calculator.monitor import monitor_outcomes
    >>> a, b = [True] * 30 + [False] * 10, [False] * 30 + [True] * 10
    >>> print(monitor_sentence(monitor_outcomes(a, b, every=5)))  # doctest: +NORMALIZE_WHITESPACE
    Monitored every 5 cases with the e-value of the uniform (Beta(1, 1)) mixture: it reached
    1/α = 20 by case 10 (anytime-valid p 0.011 against "A and B pass equally often"), so
    the monitor stopped there. Stopping at the first such look keeps the chance of a false
    alarm at or below α = 0.05 however often one looks.
    """
    name = mixture_name(monitor.prior_shape, monitor.alternative)
    every = "case" if monitor.every == 1 else plural(monitor.every, "case")
    start = f"Monitored every {every} with the e-value of {name}"
    threshold = f"{1 / monitor.alpha:.4g}"
    if monitor.crossed_at is None:
        last = int(monitor.cases[-1])
        p = format_pvalue(float(monitor.pvalue[-1]), float(monitor.log10_pvalue[-1]))
        return (
            f"{start}: it did not reach 1/α = {threshold} in the {last:,} cases read "
            f"(anytime-valid p {p}). The monitor may go on as cases arrive: the p stays valid "
            "however long it runs."
        )
    i = monitor.crossed_at
    p = format_pvalue(float(monitor.pvalue[i]), float(monitor.log10_pvalue[i]))
    return (
        f"{start}: it reached 1/α = {threshold} by case {int(monitor.cases[i]):,} "
        f'(anytime-valid p {p} against "{null_words(monitor.alternative)}"), so the monitor '
        "stopped there. Stopping at the first such look keeps the chance of a false alarm at "
        f"or below α = {monitor.alpha:g} however often one looks."
    )


def anytime_gate_verdict(result: AnytimeAnalysis) -> str:
    """The anytime-valid gate's verdict (:func:`calculator.release.anytime_gate`), naming its
    test and what its re-runs may do.

    Examples
    --------
    >>> from calculator import analyze
    >>> from calculator.release import anytime_gate
    >>> print(anytime_gate_verdict(anytime_gate(analyze(50, 40, 10, 0))))
    ... # doctest: +NORMALIZE_WHITESPACE
    FAIL: B is worse than A at α = 0.05 (one-sided anytime-valid test, e-value of the uniform
    (Beta(1, 1)) mixture restricted to A-favouring splits, anytime-valid p = 2.3e-04). Re-run
    as the file grows, the gate fails when B is in truth no worse than A with probability at
    most α over all its runs together, if cases are added in an order not chosen by their
    outcomes.
    """
    test, alpha = result.test, result.alpha
    name_a, name_b = result.names
    fails = result.rejects
    verdict = f"FAIL: {name_b} is worse" if fails else f"pass: {name_b} is not shown worse"
    p = format_pvalue(test.pvalue, test.log10_pvalue, alpha=alpha)
    return (
        f"{verdict} than {name_a} at α = {alpha:g} ({ANYTIME_GATE_TEST}, e-value of "
        f"{mixture_name(test.prior_shape, test.alternative, result.names)}, anytime-valid "
        f"p = {p}). Re-run as the file grows, the gate fails when {name_b} is in truth no worse "
        f"than {name_a} with probability at most α over all its runs together, if cases are "
        "added in an order not chosen by their outcomes."
    )


def anytime_gate_payload(result: AnytimeAnalysis) -> dict[str, object]:
    """The anytime-valid gate for the JSON's "gate" key, in the form of every gate's
    (:func:`calculator.report.gate.gate_payload`), with the e-value beside the p."""
    return {
        "verdict": "fail" if result.rejects else "pass",
        "fails": result.rejects,
        "test": ANYTIME_GATE_TEST,
        "pvalue": result.test.pvalue,
        "pvalue_is_bound": False,
        "alpha": result.alpha,
        "sentence": anytime_gate_verdict(result),
        "anytime_valid": True,
        "log10_evalue": result.test.log10_evalue,
        "prior_shape": result.test.prior_shape,
    }
