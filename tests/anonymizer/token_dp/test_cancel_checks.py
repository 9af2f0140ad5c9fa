"""Building a candidate set reports progress batch by batch, so a cancel stops it early."""

import pytest

from anonymizer import Settings
from anonymizer.errors import Cancelled
from anonymizer.mechanisms.token_sanitizers import SanTextMechanism
from anonymizer.token_dp.candidates import ENCODE_BATCH


def test_a_cancel_during_the_candidate_build_stops_it_between_batches(embedder):
    settings = Settings(
        mechanism="santext",
        detector="none",
        sensitive_words=("Landlord",),
        candidates_per_category=4 * ENCODE_BATCH,
        seed=1,
    )
    stages = []

    def progress(fraction: float, stage: str) -> None:
        stages.append(stage)
        if stage.startswith("embedding custom candidates"):
            raise Cancelled("stop")

    with pytest.raises(Cancelled):
        SanTextMechanism(embedder).rewrite("The Landlord signs.", settings, progress)
    assert stages[-1] == f"embedding custom candidates {ENCODE_BATCH:,}/{4 * ENCODE_BATCH:,}"
    assert embedder.calls == 1  # stopped after the first of four batches
