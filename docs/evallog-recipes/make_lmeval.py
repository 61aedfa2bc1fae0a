"""Generate small lm-eval logs with lm-eval's own command line and a toy model (no network).

Run in a throwaway venv (pip install lm-eval==0.4.13):

    python docs/evallog-recipes/make_lmeval.py OUTDIR

It writes OUTDIR/tasks/ (four task YAMLs and their data, made here from a seed) and runs
``lm_eval run --model toylm`` twice (``skill=0.8,seed=1`` then ``skill=0.5,seed=2``), each
``--log_samples`` into OUTDIR/run/<model folder>/ as lm-eval names it. The tasks:

- ``toy_add`` (multiple choice, ``acc`` and ``acc_norm``), ``toy_sub`` (multiple choice,
  ``acc_norm`` only: a task that logs no ``acc`` beside tasks that do);
- ``toy_gen`` (generation, ``exact_match`` under two filters, ``strict-match`` and
  ``flexible-extract``, as gsm8k's), ``toy_maj`` (generation, 3 repeats, a ``maj@3`` filter
  beside ``take_first``, as gsm8k-cot-self-consistency's).

``toylm`` is registered here: for a multiple-choice request it gives the right continuation the
highest log-likelihood with probability ``skill``; for a generation it answers the sum as
"N" (strict and flexible match), "The answer is N." (flexible only) or a wrong number, drawn
with the seed. lm-eval's ``dummy`` model answers "lol" to every generation, whose
``exact_match`` is 0 under every filter: no comparison.
"""

import json
import random
import re
import sys
from pathlib import Path

from lm_eval.__main__ import cli_evaluate
from lm_eval.api.model import LM
from lm_eval.api.registry import register_model


def _sum(text: str) -> int | None:
    found = re.findall(r"(\d+)\s*([+\-*])\s*(\d+)", text)
    if not found:
        return None
    a, op, b = found[-1]
    return {"+": int(a) + int(b), "-": int(a) - int(b), "*": int(a) * int(b)}[op]


@register_model("toylm")
class ToyLM(LM):
    def __init__(self, skill: float = 0.7, seed: int = 0, **_ignored) -> None:
        super().__init__()
        self.skill = float(skill)
        self.random = random.Random(int(seed))

    @classmethod
    def create_from_arg_string(cls, arg_string, additional_config=None):
        args = dict(part.split("=") for part in arg_string.split(",") if part)
        return cls(**args)

    def loglikelihood(self, requests, disable_tqdm: bool = False):
        out = []
        for request in requests:
            context, continuation = request.arguments
            right = str(_sum(context)) == continuation.strip()
            good = self.random.random() < self.skill
            out.append((-(self.random.random() + (0 if right == good else 2)), False))
        return out

    def generate_until(self, requests, disable_tqdm: bool = False):
        out = []
        for request in requests:
            answer = _sum(request.arguments[0])
            draw = self.random.random()
            if draw < self.skill * 0.6:
                out.append(str(answer))
            elif draw < self.skill:
                out.append(f"The answer is {answer}.")
            else:
                out.append(str(answer + self.random.choice([-2, -1, 1, 3])))
        return out

    def loglikelihood_rolling(self, requests, disable_tqdm: bool = False):
        return [-1.0 for _ in requests]


MC = """task: {name}
dataset_path: json
dataset_kwargs:
  data_files:
    test: {data}
test_split: test
output_type: multiple_choice
doc_to_text: "{{{{question}}}}"
doc_to_choice: "{{{{choices}}}}"
doc_to_target: label
metric_list:
{metrics}"""

GEN = """task: {name}
dataset_path: json
dataset_kwargs:
  data_files:
    test: {data}
test_split: test
output_type: generate_until
doc_to_text: "{{{{question}}}}"
doc_to_target: answer
generation_kwargs:
  until: ["\\n"]
  do_sample: true
repeats: {repeats}
metric_list:
  - metric: exact_match
    aggregation: mean
    higher_is_better: true
filter_list:
{filters}"""

METRIC = "  - metric: {0}\n    aggregation: mean\n    higher_is_better: true\n"
STRICT = """  - name: strict-match
    filter:
      - function: regex
        regex_pattern: "^(-?\\\\d+)$"
      - function: take_first
"""
FLEXIBLE = """  - name: flexible-extract
    filter:
      - function: regex
        regex_pattern: "(-?\\\\d+)"
        group_select: -1
      - function: take_first
"""
MAJORITY = """  - name: maj@3
    filter:
      - function: regex
        regex_pattern: "(-?\\\\d+)"
        group_select: -1
      - function: majority_vote
      - function: take_first
  - name: take_first
    filter:
      - function: regex
        regex_pattern: "(-?\\\\d+)"
        group_select: -1
      - function: take_first
"""


def data(rng: random.Random, op: str, n: int, choices: bool) -> list[dict]:
    rows = []
    for _ in range(n):
        a, b = rng.randint(2, 30), rng.randint(2, 30)
        right = {"+": a + b, "-": a - b}[op]
        if choices:
            options = [right, right + 1, right - 1, right + 2]
            rng.shuffle(options)
            rows.append(
                {
                    "question": f"{a} {op} {b} =",
                    "choices": [str(o) for o in options],
                    "label": options.index(right),
                }
            )
        else:
            rows.append({"question": f"What is {a} {op} {b}?", "answer": str(right)})
    return rows


def write_tasks(tasks: Path) -> None:
    tasks.mkdir(parents=True, exist_ok=True)
    rng = random.Random(2026)
    specs = {
        "toy_add": (
            MC,
            data(rng, "+", 30, True),
            {"metrics": METRIC.format("acc") + METRIC.format("acc_norm")},
        ),
        "toy_sub": (MC, data(rng, "-", 24, True), {"metrics": METRIC.format("acc_norm")}),
        "toy_gen": (GEN, data(rng, "+", 20, False), {"repeats": 1, "filters": STRICT + FLEXIBLE}),
        "toy_maj": (GEN, data(rng, "+", 16, False), {"repeats": 3, "filters": MAJORITY}),
    }
    for name, (template, rows, fields) in specs.items():
        path = tasks / f"{name}.jsonl"
        path.write_text("".join(json.dumps(row) + "\n" for row in rows))
        text = template.format(name=name, data=path.resolve(), **fields)
        (tasks / f"{name}.yaml").write_text(text)


if __name__ == "__main__":
    out = Path(sys.argv[1])
    write_tasks(out / "tasks")
    for args in ("skill=0.8,seed=1", "skill=0.5,seed=2"):
        sys.argv = [
            "lm_eval",
            "run",
            "--model",
            "toylm",
            "--model_args",
            args,
            "--tasks",
            "toy_add,toy_sub,toy_gen,toy_maj",
            "--include_path",
            str(out / "tasks"),
            "--log_samples",
            "--output_path",
            str(out / "run" / args.replace(",", "_")),
        ]
        cli_evaluate()
