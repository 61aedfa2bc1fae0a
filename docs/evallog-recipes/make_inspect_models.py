"""Generate Inspect logs of three mock models on one small local dataset (no network, no model):
the several-models case that the shared real Inspect log (one model) lacks.

Run in a throwaway venv: pip install inspect-ai; python make_inspect_models.py OUTDIR
Each model is Inspect's ``mockllm`` provider under its own name, replying from a fixed list, so
the logs are Inspect's own format as ``inspect eval`` writes it (one epoch; scorer ``match``).
"""

import sys

from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import match
from inspect_ai.solver import generate

out = sys.argv[1]
N = 24
answers = [str(k * 7 % 13) for k in range(N)]
samples = [
    Sample(id=f"q{k:02d}", input=f"What is {k} * 7 mod 13?", target=a)
    for k, a in enumerate(answers)
]

#: Which questions each model answers right: strong on 22 of 24, middling on 13, weak on 3.
RIGHT = {
    "strong": lambda k: k not in (5, 17),
    "middling": lambda k: k % 2 == 0 or k == 23,
    "weak": lambda k: k in (0, 8, 16),
}


def model(name: str):
    usage = ModelUsage(input_tokens=5, output_tokens=1, total_tokens=6)
    replies = [a if RIGHT[name](k) else "x" for k, a in enumerate(answers)]
    outputs = [ModelOutput.from_content(model=f"mockllm/{name}", content=r) for r in replies]
    for o in outputs:
        o.usage = usage
    return get_model(f"mockllm/{name}", custom_outputs=outputs)


for name in RIGHT:
    inspect_eval(
        Task(dataset=samples, solver=[generate()], scorer=match(), name="mod13"),
        model=model(name),
        log_dir=f"{out}/{name}",
        display="none",
        max_connections=1,
    )
