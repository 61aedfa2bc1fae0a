"""Generate small Inspect logs with the mockllm provider (no network, no model).

Run in a throwaway venv: pip install inspect-ai; python make_inspect.py OUTDIR
"""

import sys

from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import (
    CORRECT,
    INCORRECT,
    PARTIAL,
    Score,
    Target,
    accuracy,
    includes,
    match,
    scorer,
)
from inspect_ai.solver import TaskState, generate

out = sys.argv[1]
answers = ["4", "9", "Paris", "blue", "7", "12", "Rome", "green", "3", "100"]
samples = [Sample(id=f"q{k}", input=f"Question {k}?", target=a) for k, a in enumerate(answers)]


@scorer(metrics=[accuracy()])
def graded():
    """C when the output is the target, P when it contains the target's first letter, else I."""

    async def score(state: TaskState, target: Target) -> Score:
        text = state.output.completion.strip()
        if text == target.text:
            return Score(value=CORRECT)
        if target.text[0] in text:
            return Score(value=PARTIAL)
        return Score(value=INCORRECT)

    return score


def task() -> Task:
    return Task(
        dataset=samples, solver=[generate()], scorer=[match(), includes(), graded()], name="mock_qa"
    )


def model(replies):
    usage = ModelUsage(input_tokens=5, output_tokens=1, total_tokens=6)
    outputs = [ModelOutput.from_content(model="mockllm/model", content=r) for r in replies]
    for o in outputs:
        o.usage = usage
    return get_model("mockllm/model", custom_outputs=outputs)


# System A: right on q0..q6 (some epochs wrong on q5, q6); B: right on q0..q4 and q7.
def replies(right, epochs):
    rows = []
    for e in range(epochs):
        for k, a in enumerate(answers):
            rows.append(a if right(k, e) else a[0] + "x")
    return rows


for label, right, epochs, fmt in [
    ("a", lambda k, e: k < 5 or (k in (5, 6) and e != 1), 3, "eval"),
    ("b", lambda k, e: k < 5 or k == 7, 3, "eval"),
    ("b1", lambda k, e: k < 5 or k == 7, 1, "json"),
]:
    inspect_eval(
        task(),
        model=model(replies(right, epochs)),
        epochs=epochs,
        log_dir=f"{out}/{label}",
        log_format=fmt,
        display="none",
        max_connections=1,
        max_samples=1,
    )
