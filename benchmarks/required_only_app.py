"""The calculator page cut to what the product requires it to show: the variant that
`content_check.py` measures beside the shipped page and the chart floor (issue 15).

    streamlit run benchmarks/required_only_app.py   # from the repository root

The page keeps its title and introduction, every input (names and framing, the four cells,
the test options, the gates' inputs), the headline, the 2 x 2 table with its four result cards
(difference with its interval, chi-square, exact or mid-p, unpaired), the chart of p against
the both-pass count, and the gates' three cards and chart: the outputs the product description
lists, drawn as shipped. Left out, each drawing nothing: the worked examples, the odds-ratio
section, the Decision section, the teaching sections, the report, the share link and the
explanations. If this variant misses a speed target, no change to those sections can meet it:
the target is below what the required content costs in Streamlit's page, measured in the same
run.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from app_variant import run_without  # noqa: E402

LEFT_OUT = (
    "ui.widgets.calculator_inputs:worked_examples",
    "ui.widgets.odds_ratio:odds_ratio_section",
    "ui.widgets.decision:decision_section",
    "ui.widgets.teaching:teaching_sections",
    "ui.widgets.calculator_results:report",
    "ui.widgets.calculator_results:share_link",
    "ui.widgets.calculator_results:explanations",
)

run_without(LEFT_OUT)
