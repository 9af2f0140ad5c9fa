"""Finding, fetching and loading the dp-embed-invert models (tiny stand-ins, offline)."""

from __future__ import annotations

import json
import shutil
import types
from pathlib import Path

import numpy as np
import pytest

from anonymizer.errors import InvalidSettings
from anonymizer.models import cli as models_cli
from anonymizer.models.resolver import (
    ROLES,
    ROLES_BY_NAME,
    MissingModel,
    ResolvedModel,
    is_published,
    model_ref,
    model_source,
    resolve_all,
    resolve_role,
)


@pytest.fixture(scope="module")
def pipeline(tiny_models):

    from anonymizer.models.gtr_vec2text import load_pipeline, select_device

    found, missing = resolve_all()
    assert not missing
    return load_pipeline(found, select_device(None))  # the GPU where there is one, as in production


def test_loaded_weights_are_bit_identical_to_the_saved_models(tiny_models, pipeline):
    import torch

    standins = tiny_models.standins
    for loaded, built in (
        (pipeline.inverter, standins.inverter),
        (pipeline.corrector, standins.corrector),
        (pipeline.encoder, standins.encoder_model.encoder),
    ):
        got, want = loaded.state_dict(), built.state_dict()
        assert got.keys() == want.keys()
        assert all(torch.equal(got[k].cpu(), want[k]) for k in want)
        assert not any(t.is_meta for t in got.values())
    # the hypothesiser re-embeds its hypotheses with the encoder role itself
    assert pipeline.inverter.embedder is pipeline.encoder


def test_the_loader_is_cached_per_process(tiny_models, pipeline):

    from anonymizer.models.gtr_vec2text import load_pipeline

    assert load_pipeline(resolve_all()[0], pipeline.device) is pipeline


def test_embeddings_are_the_mask_mean_of_the_t5_encoder_states(tiny_models, pipeline):
    import torch
    import transformers

    texts = ["A short one.", "A much longer sentence about the meeting with Jane on Monday."]
    directory = tiny_models.directory / "encoder"
    tokenizer = transformers.AutoTokenizer.from_pretrained(directory)
    model = transformers.T5EncoderModel.from_pretrained(directory).eval()
    expected = []
    for text in texts:  # one at a time: no padding at all
        ids = tokenizer(text, return_tensors="pt")
        with torch.no_grad():
            states = model(**ids).last_hidden_state[0]
        expected.append(states.mean(dim=0).double().numpy())
    batched = pipeline.embed(texts, batch_size=8)  # padded together, masked out of the mean
    np.testing.assert_allclose(batched, np.stack(expected), rtol=1e-5, atol=1e-6)
    assert batched.shape == (2, 768)
    assert not np.allclose(np.linalg.norm(batched, axis=1), 1.0)  # not normalised


@pytest.fixture(scope="module")
def vec2text_corrector(pipeline, tmp_path_factory):
    """vec2text's own Corrector (a transformers.Trainer) around the loaded models."""
    import evaluate
    import vec2text

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(evaluate, "load", lambda *a, **k: None)  # offline; metrics are not used
        mp.chdir(tmp_path_factory.mktemp("trainer"))  # Trainer may create ./tmp_trainer
        yield vec2text.load_corrector(pipeline.inverter, pipeline.corrector)


@pytest.mark.parametrize(("num_steps", "beam_width"), [(0, 0), (1, 0), (2, 2)])
def test_the_correction_loop_gives_what_vec2text_gives(
    pipeline, vec2text_corrector, num_steps, beam_width
):
    """Our step-by-step loop against vec2text's `Corrector.generate` on the same models, with
    `invert_embeddings`' generation settings (at 16 instead of 128 tokens, for speed)."""
    import torch

    from anonymizer.models.gtr_vec2text import GENERATION_KWARGS

    corrector = vec2text_corrector
    settings = {**corrector.gen_kwargs, "min_length": 1, "max_length": 16}
    assert settings == GENERATION_KWARGS  # max_length is 16 in these tests, 128 otherwise
    noisy = np.random.default_rng(3).normal(0, 0.05, (3, 768)).astype(np.float32)
    frozen = torch.as_tensor(noisy, device=pipeline.device)  # where vec2text put the models too
    if num_steps == 0:  # invert_embeddings(num_steps=None)
        ids = corrector.inversion_trainer.generate(
            inputs={"frozen_embeddings": frozen}, generation_kwargs=settings
        )
    else:
        corrector.return_best_hypothesis = beam_width > 0
        ids = corrector.generate(
            inputs={"frozen_embeddings": frozen},
            generation_kwargs=settings,
            num_recursive_steps=num_steps,
            sequence_beam_width=beam_width,
        )
    theirs = corrector.tokenizer.batch_decode(ids, skip_special_tokens=True)
    ours = pipeline.invert(noisy, num_steps=num_steps, batch_size=8, sequence_beam_width=beam_width)
    assert ours == theirs
    assert any(text.strip() for text in ours)


def test_generation_settings_are_those_of_vec2text_invert_embeddings(tiny_models):
    import inspect

    import vec2text

    source = inspect.getsource(vec2text.api.invert_embeddings)
    assert 'gen_kwargs["min_length"] = 1' in source and 'gen_kwargs["max_length"] = 128' in source
    defaults = {
        "early_stopping": False,
        "num_beams": 1,
        "do_sample": False,
        "no_repeat_ngram_size": 0,
        "min_length": 1,
        "max_length": 128,
    }
    assert tiny_models.generation_kwargs == defaults  # as defined, before the tests' patch


def test_a_published_snapshot_in_the_hub_cache_is_recorded_as_repo_at_commit(
    tiny_models, tmp_path, monkeypatch
):
    commit = "0123456789abcdef0123456789abcdef01234567"
    repo = tmp_path / "hub" / "models--jxm--gtr__nq__32"
    shutil.copytree(tiny_models.directory / "inverter", repo / "snapshots" / commit)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(commit)
    monkeypatch.delenv("ANONYMIZER_MODEL_DIR")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    found = resolve_role(ROLES_BY_NAME["inverter"])
    assert isinstance(found, ResolvedModel)
    assert found.source == "hub-cache" and found.revision == commit
    assert model_ref(found) == f"jxm/gtr__nq__32@{commit}"
    assert model_source(found) == "published weights (Hugging Face cache)"
    missing = resolve_role(ROLES_BY_NAME["encoder"])
    assert isinstance(missing, MissingModel) and "Hugging Face cache" in missing.looked_in


def test_a_role_variable_overrides_the_model_directory(tiny_models, monkeypatch, tmp_path):
    monkeypatch.setenv("ANONYMIZER_MODEL_DIR", str(tmp_path))
    monkeypatch.setenv("ANONYMIZER_ENCODER", str(tiny_models.directory / "encoder"))
    found, missing = resolve_all()
    assert list(found) == ["encoder"] and found["encoder"].via == "ANONYMIZER_ENCODER"
    assert [m.role for m in missing] == ["inverter", "corrector", "backbone"]


def test_a_directory_without_weights_is_reported_with_what_it_lacks(
    tiny_models, tmp_path, monkeypatch
):
    partial = tmp_path / "corrector"
    partial.mkdir()
    shutil.copy(tiny_models.directory / "corrector" / "config.json", partial)
    monkeypatch.setenv("ANONYMIZER_CORRECTOR", str(partial))
    result = resolve_role(ROLES_BY_NAME["corrector"])
    assert isinstance(result, MissingModel)
    assert "model.safetensors or pytorch_model.bin" in result.problem


def test_fetch_into_a_directory_writes_a_manifest_that_marks_it_published(
    tiny_models, tmp_path, monkeypatch
):
    """`models fetch --dir` against a fake hub serving the stand-in files."""
    import huggingface_hub

    revisions = {spec.hub_id: f"{i:040x}" for i, spec in enumerate(ROLES)}
    source = {spec.hub_id: tiny_models.directory / spec.role for spec in ROLES}
    downloads: list[list[str]] = []

    class FakeApi:
        def model_info(self, repo_id):
            files = [p.name for p in source[repo_id].iterdir()] + ["flax_model.msgpack"]
            siblings = [types.SimpleNamespace(rfilename=f) for f in files]
            return types.SimpleNamespace(sha=revisions[repo_id], siblings=siblings)

    def fake_snapshot_download(repo_id, revision=None, allow_patterns=None, local_dir=None):
        assert revision == revisions[repo_id] and local_dir is not None
        downloads.append(allow_patterns)
        Path(local_dir).mkdir(parents=True)
        for name in allow_patterns:
            if (source[repo_id] / name).is_file():
                shutil.copy(source[repo_id] / name, local_dir)
        return str(local_dir)

    monkeypatch.setattr(huggingface_hub, "HfApi", FakeApi)
    monkeypatch.setattr(huggingface_hub, "snapshot_download", fake_snapshot_download)
    target = tmp_path / "models"
    assert models_cli.main(["fetch", "--dir", str(target)]) == 0
    assert all("flax_model.msgpack" not in patterns for patterns in downloads)
    monkeypatch.setenv("ANONYMIZER_MODEL_DIR", str(target))
    found, missing = resolve_all()
    assert not missing
    for spec in ROLES:
        assert is_published(found[spec.role])
        assert model_ref(found[spec.role]) == f"{spec.hub_id}@{revisions[spec.hub_id]}"
    manifest = json.loads((target / "inverter" / ".anonymizer-fetch.json").read_text())
    assert manifest["repo_id"] == "jxm/gtr__nq__32" and "model.safetensors" in manifest["sha256"]
    # a changed file is no longer the published weights
    (target / "inverter" / "config.json").write_text('{"edited": true}')
    assert not is_published(found["inverter"])
    assert model_ref(found["inverter"]).startswith("local:")


def test_models_status_lists_every_role_and_exits_1_when_one_is_missing(
    tiny_models, capsys, monkeypatch, tmp_path
):
    assert models_cli.main(["status"]) == 0
    out = capsys.readouterr().out
    assert "dp-embed-invert: available" in out
    for spec in ROLES:
        assert f"{spec.role}" in out
    monkeypatch.setenv("ANONYMIZER_MODEL_DIR", str(tmp_path))
    assert models_cli.main(["status", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert [r["present"] for r in data["roles"]] == [False] * 4
    assert "models fetch --dir" in data["dp-embed-invert"]["reason"]


def test_device_selection_prefers_cuda_and_rejects_a_missing_gpu():
    import torch

    from anonymizer.models.gtr_vec2text import select_device

    assert select_device("cpu") == torch.device("cpu")
    expected = "cuda" if torch.cuda.is_available() else "cpu"
    assert select_device(None).type == expected and select_device("auto").type == expected
    if not torch.cuda.is_available():
        with pytest.raises(InvalidSettings, match="CUDA is not available"):
            select_device("cuda:0")
