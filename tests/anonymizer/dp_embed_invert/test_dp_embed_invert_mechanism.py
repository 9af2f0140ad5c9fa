"""The dp-embed-invert pipeline end to end on tiny stand-in models (offline, CPU)."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import anonymizer
from anonymizer import cli
from anonymizer.errors import Cancelled, MechanismUnavailable
from anonymizer.mechanisms.dp_embed_invert import (
    NAME,
    DpEmbedInvertMechanism,
    clip_to_radius,
)
from anonymizer.models.resolver import ROLES_BY_NAME, resolve_role
from anonymizer.models.tokens import encoder_token_counter
from anonymizer.registry import mechanism_info
from anonymizer.settings import Settings

REPO = Path(__file__).resolve().parents[3]


def _python_path() -> str:
    """The repository first, then the PYTHONPATH the suite runs with (an env without a venv)."""
    return os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))


mechanism = DpEmbedInvertMechanism()


@pytest.fixture(scope="module")
def long_run(tiny_models, long_text):
    """One unseeded rewrite of the 2,000-word document at max_len 32 (hypothesiser only)."""
    settings = Settings(detector="regex", num_steps=0, batch_size=32, max_len=32)
    results, traces = mechanism.rewrite_many_with_trace([long_text], settings)
    return settings, results[0], traces[0]


def test_clip_to_radius_shrinks_long_rows_into_the_ball_and_keeps_short_ones():
    rng = np.random.default_rng(0)
    rows = rng.normal(size=(200, 768)) * rng.uniform(0, 0.2, size=(200, 1))
    rows[0] = 0.0
    rows[1] *= 1.5 / np.linalg.norm(rows[1])  # exactly on the boundary
    clipped = clip_to_radius(rows, 1.5)
    norms, clipped_norms = np.linalg.norm(rows, axis=1), np.linalg.norm(clipped, axis=1)
    assert np.all(clipped_norms <= 1.5)
    inside = norms < 1.5 * (1 - 1e-9)
    assert inside.sum() > 20 and (~inside).sum() > 20
    np.testing.assert_array_equal(clipped[inside], rows[inside])
    np.testing.assert_allclose(clipped_norms[~inside], 1.5, rtol=1e-9)
    cosine = np.sum(clipped[~inside] * rows[~inside], axis=1) / (
        clipped_norms[~inside] * norms[~inside]
    )
    np.testing.assert_allclose(cosine, 1.0, rtol=1e-12)


def test_placeholders_and_pass_through_text_are_kept_in_order(
    tiny_models, invert_settings, contact_text
):
    result = anonymizer.rewrite(contact_text, invert_settings)
    assert "".join(s.text for s in result.spans) == contact_text
    assert result.output == "".join(s.output_text for s in result.spans)
    placeholders = [s.placeholder for s in result.spans if s.is_pii]
    assert placeholders == ["[PERSON]", "[EMAIL]", "[PHONE]"]
    positions = [result.output.index(p) for p in placeholders]
    assert positions == sorted(positions)
    chunks = [s for s in result.spans if s.chunk_idx is not None]
    assert [s.chunk_idx for s in chunks] == list(range(result.n_chunks))
    assert all(s.rewritten is not None for s in chunks)
    for span in result.spans:
        if not span.is_pii and span.chunk_idx is None:
            assert span.output_text == span.text  # pass-through piece, copied verbatim
    # each rewritten chunk keeps its own edge whitespace, e.g. the paragraph break
    assert "\n\n" in result.output


def test_k_and_sigma_are_those_plan_announces(tiny_models, invert_settings, contact_text):
    plan = anonymizer.plan(contact_text, invert_settings)
    result = anonymizer.rewrite(contact_text, invert_settings)
    assert result.receipt.n_chunks == plan.receipt.n_chunks >= 4
    assert result.receipt.sigma == plan.receipt.sigma > 0
    assert result.receipt.epsilon_per_chunk == plan.receipt.epsilon_per_chunk
    assert result.receipt.models == plan.receipt.models
    assert [s.text for s in result.spans] == [s.text for s in plan.spans]
    assert result.receipt.mechanism == NAME
    assert result.receipt.notion == "(eps,delta)-DP"


def test_plan_counts_with_the_encoder_tokenizer_when_it_is_installed(
    tiny_models, invert_settings, contact_text, no_models, monkeypatch
):
    plan = anonymizer.plan(contact_text, invert_settings)  # no_models: heuristic counter
    assert any("heuristic tokenizer" in c for c in plan.receipt.caveats)
    assert plan.receipt.models["encoder"] == "sentence-transformers/gtr-t5-base (not installed)"
    monkeypatch.setenv("ANONYMIZER_MODEL_DIR", str(tiny_models.directory))
    plan = anonymizer.plan(contact_text, invert_settings)
    assert not any("heuristic tokenizer" in c for c in plan.receipt.caveats)


def test_every_clipped_embedding_lies_in_the_ball(long_run):
    settings, _, trace = long_run
    raw_norms = np.linalg.norm(trace.raw, axis=1)
    assert np.all(
        raw_norms > settings.clip_radius
    )  # the tiny encoder's norms are ~10: clipping works
    assert np.all(np.linalg.norm(trace.clipped, axis=1) <= settings.clip_radius)
    np.testing.assert_allclose(
        trace.clipped, trace.raw * (settings.clip_radius / raw_norms)[:, None]
    )


def test_the_added_noise_has_the_planned_standard_deviation(long_run):
    """Σz²/σ² ~ χ²(n) for n = 768·K iid N(0, σ²) samples; two-sided 1e-6 test (±1.6 % on σ)."""
    from scipy.stats import chi2

    _, result, trace = long_run
    noise = trace.noise.ravel()
    sigma = result.receipt.sigma
    assert trace.noise.shape == (result.receipt.n_chunks, 768)
    n = noise.size
    statistic = float(np.sum(noise**2)) / sigma**2
    low, high = chi2.ppf([0.5e-6, 1 - 0.5e-6], n)
    assert low < statistic < high, (statistic / n, low / n, high / n)
    assert abs(noise.mean()) < 5 * sigma / math.sqrt(n)


def test_a_2000_word_document_is_rewritten_without_dropping_text(long_run, long_text):
    settings, result, _ = long_run
    assert len(long_text.split()) >= 2000
    assert "".join(span.text for span in result.spans) == long_text
    assert result.receipt.n_chunks > 60
    chunks = [s for s in result.spans if s.chunk_idx is not None]
    assert len(chunks) == result.receipt.n_chunks
    assert all(s.rewritten is not None for s in chunks)
    count = encoder_token_counter(resolve_role(ROLES_BY_NAME["encoder"]))
    assert max(count(s.text) for s in chunks) <= settings.max_len
    assert any(s.is_pii for s in result.spans)


def test_unseeded_runs_differ_and_seeded_runs_repeat(tiny_models, invert_settings, contact_text):
    runs = [mechanism.rewrite_many_with_trace([contact_text], invert_settings) for _ in range(2)]
    assert not np.allclose(runs[0][1][0].noise, runs[1][1][0].noise)
    assert not any(results[0].receipt.seeded for results, _ in runs)
    seeded = invert_settings.with_changes(seed=1234)
    runs = [mechanism.rewrite_many_with_trace([contact_text], seeded) for _ in range(2)]
    np.testing.assert_array_equal(runs[0][1][0].noise, runs[1][1][0].noise)
    assert runs[0][0][0].output == runs[1][0][0].output
    assert all(results[0].receipt.seeded for results, _ in runs)
    assert any("NOT private" in c for c in runs[0][0][0].receipt.caveats)


def test_epsilon_infinity_adds_no_noise(tiny_models, invert_settings, contact_text):
    results, traces = mechanism.rewrite_many_with_trace(
        [contact_text], invert_settings.with_changes(epsilon=math.inf)
    )
    np.testing.assert_array_equal(traces[0].noisy, traces[0].clipped)
    assert results[0].receipt.notion == "none"
    assert results[0].receipt.sigma == 0


def test_rewrite_many_batches_documents_with_their_own_k_and_sigma(tiny_models, invert_settings):
    texts = [
        "Short note for Jane Doe.",
        "A longer letter. It has several sentences, and mentions jane@example.com twice: "
        "jane@example.com. The meeting is on Monday in London at the bank office.",
        "No PII at all, only words about the weather and the week ahead.",
    ]
    seeded = invert_settings.with_changes(seed=5, batch_size=4)
    stages: list[str] = []
    batched, batched_traces = mechanism.rewrite_many_with_trace(
        texts, seeded, lambda f, s: stages.append(s)
    )
    assert len(batched) == 3
    assert any("(batch 2/" in s for s in stages)  # chunks of all documents share micro-batches
    for text, result, trace in zip(texts, batched, batched_traces, strict=True):
        single, single_traces = mechanism.rewrite_many_with_trace([text], seeded)
        assert result.original == text
        assert result.receipt.n_chunks == single[0].receipt.n_chunks
        assert result.receipt.sigma == single[0].receipt.sigma
        np.testing.assert_array_equal(trace.noise, single_traces[0].noise)
    assert len({r.receipt.n_chunks for r in batched}) > 1


def test_progress_reports_each_corrector_step(tiny_models, invert_settings, contact_text):
    calls: list[tuple[float, str]] = []
    anonymizer.rewrite(
        contact_text, invert_settings.with_changes(num_steps=3), lambda f, s: calls.append((f, s))
    )
    stages = [s for _, s in calls]
    assert stages[0] == "detecting"
    assert "encoding" in stages and "hypothesising" in stages
    assert [s for s in stages if s.startswith("correcting")] == [
        "correcting step 1/3",
        "correcting step 2/3",
        "correcting step 3/3",
    ]
    assert calls[-1] == (1.0, "done")
    fractions = [f for f, _ in calls]
    assert fractions == sorted(fractions) and 0 <= fractions[0] and fractions[-1] == 1.0


def test_a_cancel_raised_by_the_progress_callback_stops_the_rewrite(
    tiny_models, invert_settings, contact_text
):
    seen: list[str] = []

    def cancel_at_second_step(fraction: float, stage: str) -> None:
        seen.append(stage)
        if stage == "correcting step 2/2":
            raise Cancelled("job cancelled")

    with pytest.raises(Cancelled):
        anonymizer.rewrite(contact_text, invert_settings, cancel_at_second_step)
    assert seen[-1] == "correcting step 2/2" and "done" not in seen


def test_receipt_names_each_model_and_where_its_weights_came_from(
    tiny_models, invert_settings, contact_text
):
    receipt = anonymizer.rewrite(contact_text, invert_settings).receipt
    assert set(receipt.models) == {"encoder", "inverter", "corrector", "backbone"}
    for role, ref in receipt.models.items():
        assert ref.startswith(f"local:{tiny_models.directory / role} sha256:")
    assert receipt.details["published_weights"] is False
    assert "not verified as the published weights" in receipt.details["model_sources"]["encoder"]
    import torch

    assert receipt.details["device"] == ("cuda" if torch.cuda.is_available() else "cpu")


def test_missing_weights_make_the_mechanism_unavailable_with_the_fix(
    no_models, invert_settings, contact_text, capsys
):
    reason = mechanism_info(NAME).unavailable_reason()
    assert reason is not None
    for role in ("encoder", "inverter", "corrector", "backbone"):
        assert role in reason
    assert f"`python -m anonymizer models fetch --dir {no_models}`" in reason
    with pytest.raises(MechanismUnavailable, match="models fetch"):
        mechanism.rewrite(contact_text, invert_settings)
    status = cli.main(
        ["--mechanism", NAME, "--detector", "regex", "--text", contact_text, "--steps", "1"]
    )
    assert status == 2
    assert reason in capsys.readouterr().err


def test_the_cli_rewrites_end_to_end_with_the_tiny_models(tiny_models, contact_text, capsys):
    status = cli.main(
        [
            "--mechanism",
            NAME,
            "--detector",
            "regex",
            "--text",
            contact_text,
            "--steps",
            "1",
            "--json",
        ]
    )
    data = json.loads(capsys.readouterr().out)
    assert status == 0
    assert data["n_chunks"] == data["receipt"]["n_chunks"] >= 4
    assert data["receipt"]["mechanism"] == NAME
    assert "[EMAIL]" in data["output"] and "jane.doe@example.com" not in data["output"]


def test_python_m_anonymizer_runs_in_a_fresh_process(tiny_models, contact_text):
    env = {**os.environ, "PYTHONPATH": _python_path(), "OMP_NUM_THREADS": "1"}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "anonymizer",
            "--mechanism",
            NAME,
            "--detector",
            "regex",
            "--steps",
            "0",
            "--text",
            contact_text,
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("=== ORIGINAL ===\n" + contact_text)
    receipt_line = next(line for line in proc.stdout.splitlines() if line.startswith("[DP] "))
    assert f"mechanism={NAME}" in receipt_line and "K=" in receipt_line


def test_the_module_and_plan_need_no_torch(tiny_models, contact_text):
    code = (
        "import sys\n"
        "from anonymizer.mechanisms import dp_embed_invert as m\n"
        "from anonymizer.settings import Settings\n"
        "m.DpEmbedInvertMechanism()\n"
        "assert m.check_available() is None\n"
        "plan = m.DpEmbedInvertMechanism().plan(sys.argv[1], Settings(detector='regex'))\n"
        "assert plan.receipt.n_chunks > 0\n"
        "heavy = [x for x in ('torch', 'transformers', 'vec2text') if x in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    env = {**os.environ, "PYTHONPATH": _python_path()}
    proc = subprocess.run(
        [sys.executable, "-c", code, contact_text],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
