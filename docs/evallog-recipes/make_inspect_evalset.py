"""Generate Inspect eval-set log folders and a renamed task's log with mockllm (no network).

Run in a throwaway venv (pip install inspect-ai==0.3.285):

    python docs/evallog-recipes/make_inspect_evalset.py OUTDIR

- ``OUTDIR/evalset-a/``, ``OUTDIR/evalset-b/``: ``inspect_ai.eval_set`` of two tasks
  (``arith``, ``capitals``: 8 samples each, the ``match`` scorer), once per mock "model" with
  other fixed outputs; each folder holds the two ``.eval`` logs and Inspect's ``logs.json``
  (and ``eval-set.json``). Both are ``mockllm/model``: one model name twice.
- ``OUTDIR/renamed/``: ``arith``'s samples under another task name, ``arith_v2`` (the B replies),
  and ``OUTDIR/changed/``: ``arith_v2`` with one sample's input changed: a rename pairs by
  content, a changed input does not.
"""

import sys

from inspect_ai import Task, eval_set
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import match
from inspect_ai.solver import generate

out = sys.argv[1]
ARITH = [(f"a{k}", f"What is {k} + {k + 3}?", str(2 * k + 3)) for k in range(8)]
CAPITALS = [
    ("c0", "Capital of France?", "Paris"),
    ("c1", "Capital of Italy?", "Rome"),
    ("c2", "Capital of Spain?", "Madrid"),
    ("c3", "Capital of Japan?", "Tokyo"),
    ("c4", "Capital of Egypt?", "Cairo"),
    ("c5", "Capital of Peru?", "Lima"),
    ("c6", "Capital of Kenya?", "Nairobi"),
    ("c7", "Capital of Chile?", "Santiago"),
]


def task(name, rows):
    samples = [Sample(id=i, input=q, target=a) for i, q, a in rows]
    return Task(dataset=samples, solver=[generate()], scorer=[match()], name=name)


def model(rows, right):
    """A mock model answering rows k for which right(k) holds, else a wrong answer."""
    usage = ModelUsage(input_tokens=5, output_tokens=1, total_tokens=6)
    outputs = []
    for k, (_, _, answer) in enumerate(rows):
        reply = answer if right(k) else "no idea"
        output = ModelOutput.from_content(model="mockllm/model", content=reply)
        output.usage = usage
        outputs.append(output)
    return get_model("mockllm/model", custom_outputs=outputs, memoize=False)


RIGHT = {"a": lambda k: k != 3, "b": lambda k: k in (0, 1, 2, 5)}

for label, right in RIGHT.items():
    # eval_set runs its tasks on one model each: one folder per mock "model", the tasks one
    # at a time (the mock's outputs are consumed in order).
    ok, _ = eval_set(
        [task("arith", ARITH), task("capitals", CAPITALS)],
        log_dir=f"{out}/evalset-{label}",
        model=model(ARITH + CAPITALS, lambda k, r=right: r(k % 8)),
        display="none",
        max_tasks=1,
        max_samples=1,
        max_connections=1,
    )
    assert ok, label

renamed = [(i, q, a) for i, q, a in ARITH]
changed = [(i, (q + " Show your work.") if i == "a5" else q, a) for i, q, a in ARITH]
for folder, rows in (("renamed", renamed), ("changed", changed)):
    inspect_eval(
        task("arith_v2", rows),
        model=model(rows, RIGHT["b"]),
        log_dir=f"{out}/{folder}",
        display="none",
        max_samples=1,
        max_connections=1,
    )
