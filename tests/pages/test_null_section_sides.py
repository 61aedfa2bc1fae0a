"""The null section tests in the Decision's direction and names its sides (statistics 4,
round 3's B3).

Before, at ?a=10&b=0&c=5&d=10&question=better&t_null=true the Decision said "B is better ...
one-sided exact McNemar test, p = 0.031" while the null section beside it said "Exact test =
p = 0.062", "Actual size at this m = 0" and "With 5 discordant pairs no result can reach
α = 0.05": all two-sided, without saying so. One-sided, five of five give 1/2^5 = 0.03125
(scipy.stats.binomtest(0, 5, alternative="less").pvalue); two-sided 2/2^5 = 0.0625.
"""

from __future__ import annotations

from test_decision_statements import page_text, run_app

from ui.teaching_words import QUESTIONS


def _metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def test_a_one_sided_decision_gets_a_one_sided_null_section():
    at = run_app({"a": "10", "b": "0", "c": "5", "d": "10", "question": "better", "t_null": "true"})
    assert not at.exception
    shown = _metrics(at)
    assert shown["Exact test, one-sided"] == "p = 0.031"
    assert "no result can reach" not in page_text(at)


def test_a_two_sided_decision_keeps_the_two_sided_null_section_and_says_so():
    at = run_app({"a": "10", "b": "0", "c": "5", "d": "10", "t_null": "true"})
    assert not at.exception
    assert _metrics(at)["Exact test, two-sided"] == "p = 0.062"
    assert "With 5 discordant pairs no result can reach α = 0.05" in page_text(at)


def test_the_quiz_answer_names_the_two_sided_test():
    [answer] = [q.answer for q in QUESTIONS if q.key == "small_m"]
    assert "two-sided" in answer and "1/32 = 0.031" in answer


def test_a_mid_p_size_above_alpha_is_put_down_to_the_mid_p_not_to_whole_values():
    # Statistics 4, round 3's B13: "7.7%, above the nominal α ... because b takes whole values
    # only". With m = 16 the two-sided mid-p rejects at b <= 4 or b >= 12: size
    # 2 * (P(b <= 3) + P(b = 4)) = 2 * 2517 / 65536 = 0.0768 (exact enumeration of Bin(16, 1/2)).
    from calculator.teaching.null_distribution import null_distribution
    from ui.teaching_words import null_summary

    null = null_distribution(16, 4, convention="mid-p")
    assert null.size == 2 * 2517 / 65536
    text = " ".join(null_summary(null))
    assert "7.7%, above the nominal α = 0.05: the mid-p test counts the observed split" in text
    assert "because b takes whole values only" not in text
