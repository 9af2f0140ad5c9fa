"""Load and run the GTR encoder and the vec2text hypothesiser and corrector (imports torch).

Only code that is about to run the models imports this module; `resolver` finds the files
without torch.

vec2text 0.0.13 builds its sub-models by hub name inside `__init__` (`t5-base`, `gtr_base`),
which would download ~1.3 GB of weights that its own checkpoint then overwrites. We construct
its classes with those loaders redirected to the resolved roles, on the meta device, and load
the checkpoint's tensors with `assign=True`: the same modules and weights as
`InversionModel.from_pretrained`, with no network access and no throw-away initialisation.

vec2text's `Corrector` is a `transformers.Trainer`, but inference needs only four of its
methods, so `_CorrectionSteps` binds those to our models. That keeps Trainer's
accelerate/device set-up and its `evaluate.load` metric downloads out of inference, and lets us
run the correction loop one step at a time (progress, micro-batches) as `Corrector.generate`
does.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import math
import os
import threading
import types
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
import transformers
from vec2text.models import CorrectorEncoderModel, InversionModel
from vec2text.models.config import InversionConfig
from vec2text.trainers.corrector import Corrector

from anonymizer.errors import AnonymizerError, InvalidSettings
from anonymizer.models.resolver import ResolvedModel

if not os.environ.get("TORCH_LOGS"):
    # importing vec2text.experiments turns torch dynamo's INFO logging on process-wide
    torch._logging.set_logs()

logger = logging.getLogger(__name__)

EMBEDDING_DIM = 768  # vec2text's CorrectorEncoderModel hard-codes this embedder width
# What vec2text.api.invert_embeddings passes to generate(): greedy, 1..128 tokens.
GENERATION_KWARGS: dict[str, Any] = {
    "early_stopping": False,
    "num_beams": 1,
    "do_sample": False,
    "no_repeat_ngram_size": 0,
    "min_length": 1,
    # A lower cap (ANONYMIZER_GENERATION_MAX_LENGTH) keeps random-weight stand-ins fast in tests;
    # the published models end their 32-token texts long before 128.
    "max_length": int(os.environ.get("ANONYMIZER_GENERATION_MAX_LENGTH", "128")),
}
_TIED_T5_EMBEDDINGS = (
    "shared.weight",
    "encoder.embed_tokens.weight",
    "decoder.embed_tokens.weight",
)

# (units done, units in all, stage) -- called before each unit of work starts
ProgressHook = Callable[[int, int, str], None]


class ModelLoadError(AnonymizerError):
    """The weights are there but do not make a working model (wrong shapes, missing tensors)."""


def select_device(requested: str | None) -> torch.device:
    """CUDA when present unless settings name a device; a named CUDA device must exist."""
    if requested in (None, "", "auto"):
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    device = torch.device(requested)
    if device.type == "cuda":
        if not torch.cuda.is_available():
            raise InvalidSettings("device", f"{requested} requested but CUDA is not available")
        if device.index is not None and device.index >= torch.cuda.device_count():
            raise InvalidSettings("device", f"{requested}: only {torch.cuda.device_count()} GPU(s)")
    return device


class InversionPipeline:
    """The three models on one device: embed texts, invert (noised) embeddings back to text."""

    def __init__(
        self,
        encoder: torch.nn.Module,
        encoder_tokenizer: transformers.PreTrainedTokenizerBase,
        inverter: InversionModel,
        corrector: CorrectorEncoderModel,
        device: torch.device,
    ) -> None:
        self.device = device
        self.encoder = encoder.to(device).eval()
        self.encoder_tokenizer = encoder_tokenizer
        self.inverter = inverter.to(device).eval()
        self.corrector = corrector.to(device).eval()
        self.decoder_tokenizer = inverter.tokenizer
        self._steps = _CorrectionSteps(self.inverter, self.corrector, device)

    def embed(
        self,
        texts: Sequence[str],
        batch_size: int,
        on_batch: Callable[[int, int], None] | None = None,
    ) -> np.ndarray:
        """Mean-pooled T5-encoder states over the attention mask (vec2text's `mean_pool`), as
        float64 rows. Nothing is truncated: segmentation already bounds each chunk's length."""
        rows = []
        n_batches = math.ceil(len(texts) / batch_size)
        with torch.inference_mode():
            for b in range(n_batches):
                if on_batch is not None:
                    on_batch(b, n_batches)
                batch = self.encoder_tokenizer(
                    list(texts[b * batch_size : (b + 1) * batch_size]),
                    padding=True,
                    truncation=False,
                    return_tensors="pt",
                ).to(self.device)
                hidden = self.encoder(
                    input_ids=batch["input_ids"], attention_mask=batch["attention_mask"]
                ).last_hidden_state
                mask = batch["attention_mask"][..., None].to(hidden.dtype)
                pooled = (hidden * mask).sum(dim=1) / mask.sum(dim=1)
                rows.append(pooled.double().cpu().numpy())
        return np.concatenate(rows) if rows else np.zeros((0, EMBEDDING_DIM))

    def invert(
        self,
        embeddings: np.ndarray,
        *,
        num_steps: int,
        batch_size: int,
        sequence_beam_width: int = 0,
        progress: ProgressHook | None = None,
    ) -> list[str]:
        """Text for each embedding row: the hypothesiser, then `num_steps` corrector steps
        (0 = hypothesiser only), micro-batched by `batch_size` rows."""
        n_batches = math.ceil(len(embeddings) / batch_size)
        units = 1 + num_steps
        texts: list[str] = []
        with torch.inference_mode():
            for b in range(n_batches):
                suffix = f" (batch {b + 1}/{n_batches})" if n_batches > 1 else ""

                def report(unit: int, stage: str, b: int = b, suffix: str = suffix) -> None:
                    if progress is not None:
                        progress(b * units + unit, n_batches * units, stage + suffix)

                frozen = torch.as_tensor(
                    embeddings[b * batch_size : (b + 1) * batch_size], dtype=torch.float32
                ).to(self.device)
                ids = self._steps.run(frozen, num_steps, sequence_beam_width, report)
                texts.extend(self.decoder_tokenizer.batch_decode(ids, skip_special_tokens=True))
        return texts


class _CorrectionSteps:
    """vec2text's `Corrector` inference methods bound to our models (no Trainer around them)."""

    _get_hypothesis_uncached = Corrector._get_hypothesis_uncached
    _generate_with_beam = Corrector._generate_with_beam
    embed_generated_hypothesis = Corrector.embed_generated_hypothesis
    get_frozen_embeddings = Corrector.get_frozen_embeddings

    def __init__(
        self, inverter: InversionModel, corrector: CorrectorEncoderModel, device: torch.device
    ) -> None:
        self.model = corrector
        self.inversion_trainer = types.SimpleNamespace(
            model=inverter, call_embedding_model=inverter.call_embedding_model
        )
        self.tokenizer = inverter.tokenizer
        self.embedder_tokenizer = inverter.embedder_tokenizer
        self.args = types.SimpleNamespace(device=device)
        self.initial_hypothesis_str = None
        self.return_best_hypothesis = False

    def run(
        self,
        frozen: torch.Tensor,
        num_steps: int,
        sequence_beam_width: int,
        report: Callable[[int, str], None],
    ) -> torch.Tensor:
        """Token ids after the hypothesis and `num_steps` corrections, as `invert_embeddings`
        gives them (num_steps=0 takes its hypothesiser-only branch)."""
        if num_steps == 0:
            report(0, "inverting (hypothesiser only)")
            return self.inversion_trainer.model.generate(
                inputs={"frozen_embeddings": frozen}, generation_kwargs=dict(GENERATION_KWARGS)
            )
        self.return_best_hypothesis = sequence_beam_width > 0
        width = sequence_beam_width or 1
        generation_kwargs = dict(GENERATION_KWARGS)
        report(0, "hypothesising")
        frozen, hyp_ids, hyp_mask, hyp_embedding = self._get_hypothesis_uncached(
            inputs={"frozen_embeddings": frozen}
        )
        inputs = {
            "frozen_embeddings": frozen,
            "hypothesis_input_ids": hyp_ids,
            "hypothesis_attention_mask": hyp_mask,
            "hypothesis_embedding": hyp_embedding,
        }
        pad = self.model.encoder_decoder.config.pad_token_id
        # Corrector.generate's loop without its early stop, which never fires in 0.0.13
        # (it compares against a best score it never records).
        for step in range(num_steps):
            report(1 + step, f"correcting step {step + 1}/{num_steps}")
            ids, hyp_embedding, _ = self._generate_with_beam(
                inputs=inputs,
                generation_kwargs=generation_kwargs,
                num_recursive_steps=num_steps - step,
                num_recursive_steps_so_far=step,
                sequence_beam_width=width,
            )
            inputs["hypothesis_input_ids"] = ids
            inputs["hypothesis_attention_mask"] = (ids != pad).int()
            inputs["hypothesis_embedding"] = hyp_embedding
        return ids


# ---- building vec2text's models ----------------------------------------------------------------


@contextlib.contextmanager
def _redirected_vec2text_loaders(
    backbone_config: transformers.T5Config,
    embedder: torch.nn.Module | None,
    embedder_tokenizer: Any,
    tokenizer: Any,
) -> Iterator[None]:
    """Make vec2text's constructors use our sub-models instead of loading hub names."""
    from vec2text.models import corrector_encoder, inversion

    def seq2seq(*_args: Any, **_kwargs: Any) -> transformers.T5ForConditionalGeneration:
        return transformers.T5ForConditionalGeneration(backbone_config)

    replacements = [
        (inversion, "load_encoder_decoder", seq2seq),
        (inversion, "load_embedder_and_tokenizer", lambda *a, **k: (embedder, embedder_tokenizer)),
        (inversion, "load_tokenizer", lambda *a, **k: tokenizer),
        (
            corrector_encoder,
            "transformers",
            types.SimpleNamespace(
                AutoModelForSeq2SeqLM=types.SimpleNamespace(from_pretrained=seq2seq)
            ),
        ),
    ]
    saved = [(module, name, getattr(module, name)) for module, name, _ in replacements]
    printed = io.StringIO()
    try:
        for module, name, value in replacements:
            setattr(module, name, value)
        with contextlib.redirect_stdout(printed):  # vec2text prints; stdout may carry JSON
            yield
    finally:
        for module, name, value in saved:
            setattr(module, name, value)
        if printed.getvalue().strip():
            logger.debug("vec2text: %s", printed.getvalue().strip())


def build_inverter(
    config: InversionConfig,
    *,
    encoder: torch.nn.Module,
    encoder_tokenizer: Any,
    backbone_config: transformers.T5Config,
    decoder_tokenizer: Any,
    empty: bool,
) -> InversionModel:
    """vec2text's hypothesiser around our encoder; `empty` leaves its own tensors on the meta
    device for `load_checkpoint` (random weights otherwise: stand-ins for tests, benchmarks)."""
    with _redirected_vec2text_loaders(
        backbone_config, encoder, encoder_tokenizer, decoder_tokenizer
    ):
        with torch.device("meta") if empty else contextlib.nullcontext():
            return InversionModel(config)


def build_corrector(
    config: InversionConfig, *, backbone_config: transformers.T5Config, empty: bool
) -> CorrectorEncoderModel:
    with _redirected_vec2text_loaders(backbone_config, None, None, None):
        with torch.device("meta") if empty else contextlib.nullcontext():
            return CorrectorEncoderModel(config)


def read_state_dict(path: Path) -> dict[str, torch.Tensor]:
    """All tensors of a checkpoint directory (safetensors preferred; sharded or single file)."""
    from safetensors.torch import load_file

    if (path / "model.safetensors").is_file():
        return load_file(path / "model.safetensors")
    for index, load in (
        ("model.safetensors.index.json", load_file),
        ("pytorch_model.bin.index.json", _torch_load),
    ):
        if (path / index).is_file():
            shards = sorted(set(json.loads((path / index).read_text())["weight_map"].values()))
            state: dict[str, torch.Tensor] = {}
            for shard in shards:
                state.update(load(path / shard))
            return state
    return _torch_load(path / "pytorch_model.bin")


def _torch_load(path: Path) -> dict[str, torch.Tensor]:
    return torch.load(path, map_location="cpu", weights_only=True)


def load_checkpoint(model: torch.nn.Module, path: Path) -> None:
    """Fill an `empty` vec2text model from its checkpoint, keeping its embedder (the resolved
    encoder role) as it is; fails if any tensor is left without weights."""
    state = {k: v for k, v in read_state_dict(path).items() if not k.startswith("embedder.")}
    tied = [f"encoder_decoder.{name}" for name in _TIED_T5_EMBEDDINGS]
    present = next((state[k] for k in tied if k in state), None)
    if present is not None:  # safetensors keeps one name of a tied group
        for key in tied:
            state.setdefault(key, present)
    result = model.load_state_dict(state, strict=False, assign=True)
    model.encoder_decoder.tie_weights()
    if result.unexpected_keys:
        logger.warning(
            "%s: ignored %d unexpected tensors, e.g. %s",
            path,
            len(result.unexpected_keys),
            result.unexpected_keys[:3],
        )
    empty = [name for name, t in [*model.named_parameters(), *model.named_buffers()] if t.is_meta]
    if empty:
        raise ModelLoadError(
            f"the checkpoint in {path} has no weights for {len(empty)} tensors of "
            f"{type(model).__name__} (e.g. {', '.join(empty[:3])}); is it the right model?"
        )


def _load_tokenizer(path: Path) -> transformers.PreTrainedTokenizerBase:
    tokenizer = transformers.AutoTokenizer.from_pretrained(path)
    if tokenizer.pad_token is None:  # as vec2text's load_tokenizer does
        tokenizer.pad_token = tokenizer.eos_token
    return tokenizer


def _build_pipeline(models: Mapping[str, ResolvedModel], device: torch.device) -> InversionPipeline:
    encoder_path = models["encoder"].path
    encoder_tokenizer = _load_tokenizer(encoder_path)
    # vec2text's `gtr_base` embedder is the T5 stack of the GTR checkpoint: no Dense, no norm.
    encoder = transformers.T5EncoderModel.from_pretrained(encoder_path).encoder
    if encoder.config.d_model != EMBEDDING_DIM:
        raise ModelLoadError(
            f"the encoder in {encoder_path} is {encoder.config.d_model}-dimensional; vec2text's "
            f"corrector only accepts {EMBEDDING_DIM}-dimensional embeddings"
        )
    backbone_config = transformers.T5Config.from_pretrained(models["backbone"].path)
    decoder_tokenizer = _load_tokenizer(models["backbone"].path)
    inverter_config = InversionConfig.from_pretrained(models["inverter"].path)
    corrector_config = InversionConfig.from_pretrained(models["corrector"].path)
    for role, config in (("inverter", inverter_config), ("corrector", corrector_config)):
        if getattr(config, "embedder_model_api", None):
            raise ModelLoadError(f"the {role} in {models[role].path} inverts an API embedder")
    inverter = build_inverter(
        inverter_config,
        encoder=encoder,
        encoder_tokenizer=encoder_tokenizer,
        backbone_config=backbone_config,
        decoder_tokenizer=decoder_tokenizer,
        empty=True,
    )
    load_checkpoint(inverter, models["inverter"].path)
    corrector = build_corrector(corrector_config, backbone_config=backbone_config, empty=True)
    load_checkpoint(corrector, models["corrector"].path)
    return InversionPipeline(encoder, encoder_tokenizer, inverter, corrector, device)


_PIPELINES: dict[tuple[tuple[tuple[str, str], ...], str], InversionPipeline] = {}
_LOCK = threading.Lock()


def load_pipeline(models: Mapping[str, ResolvedModel], device: torch.device) -> InversionPipeline:
    """The pipeline for these model files on this device, loaded once per process and kept."""
    key = (tuple(sorted((role, str(m.path)) for role, m in models.items())), str(device))
    with _LOCK:
        if key not in _PIPELINES:
            threads = os.environ.get("ANONYMIZER_TORCH_THREADS")
            if threads:
                torch.set_num_threads(int(threads))
            logger.info("loading dp-embed-invert models on %s", device)
            _PIPELINES[key] = _build_pipeline(models, device)
        return _PIPELINES[key]
