"""Random-weight stand-ins for the dp-embed-invert models, for tests and benchmarks (no download).

`size="base"` has the published architectures (GTR-t5-base encoder, T5-base hypothesiser and
corrector with vec2text's gtr__nq__32 settings), so it costs the same FLOPs as the real models;
`size="tiny"` keeps the 768-wide embedding vec2text's corrector requires and shrinks the rest.
A Unigram tokenizer trained with `tokenizers` on generated sentences stands in for T5's
SentencePiece vocabulary. Random weights rarely emit end-of-sequence, so generation runs to
its 128-token limit: timings are an upper bound on what the real models take.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import torch
import transformers

from anonymizer.models.gtr_vec2text import (
    EMBEDDING_DIM,
    InversionPipeline,
    build_corrector,
    build_inverter,
)

_WORDS = (
    "the of and to in is was for on that with as by at from his her an which are be this "
    "or had not but what all were when we there can more if no out so said who will up one "
    "about time new year people work made after first two day way many may could life house "
    "world school state family student group country problem hand part place case week "
    "company system program question government number night point home water room mother "
    "area money story fact month lot right study book eye job word business issue side kind "
    "head service friend father power hour game line end member law car city community name "
    "president team minute idea kid body information back parent face others level office "
    "door health person art war history party result change morning reason research girl "
    "guy moment air teacher force education meeting contract invoice patient doctor report "
    "Monday Friday London Paris Berlin Jane John Maria Doe Smith Acme bank account email"
).split()


def standin_sentences(n: int, seed: int = 0) -> list[str]:
    """Generated English-like sentences: tokenizer training data and benchmark input."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        words = [rng.choice(_WORDS) for _ in range(rng.randint(4, 18))]
        if rng.random() < 0.3:
            words.insert(rng.randrange(len(words)), str(rng.randint(1, 9999)))
        out.append(" ".join(words).capitalize() + rng.choice(".?!,;"))
    return out


def train_standin_tokenizer(vocab_size: int = 600, seed: int = 0) -> transformers.T5TokenizerFast:
    """A T5-style Unigram tokenizer (`</s>` appended, `<pad>` = 0, `</s>` = 1, `<unk>` = 2)."""
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors
    from tokenizers.trainers import UnigramTrainer

    tokenizer = Tokenizer(models.Unigram())
    tokenizer.normalizer = normalizers.NFKC()
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace()
    tokenizer.decoder = decoders.Metaspace()
    trainer = UnigramTrainer(
        vocab_size=vocab_size, special_tokens=["<pad>", "</s>", "<unk>"], unk_token="<unk>"
    )
    tokenizer.train_from_iterator(standin_sentences(4000, seed), trainer)
    tokenizer.post_processor = processors.TemplateProcessing(
        single="$A </s>", pair="$A </s> $B </s>", special_tokens=[("</s>", 1)]
    )
    return transformers.T5TokenizerFast(
        tokenizer_object=tokenizer,
        eos_token="</s>",
        pad_token="<pad>",
        unk_token="<unk>",
        extra_ids=0,
    )


def backbone_config(size: str, vocab_size: int) -> transformers.T5Config:
    """T5-base (as `t5-base`'s config.json) or a tiny T5 for the hypothesiser and corrector."""
    common = dict(
        vocab_size=vocab_size,
        pad_token_id=0,
        eos_token_id=1,
        decoder_start_token_id=0,
        feed_forward_proj="relu",
        tie_word_embeddings=True,
    )
    if size == "base":
        return transformers.T5Config(
            d_model=768,
            d_kv=64,
            d_ff=3072,
            num_layers=12,
            num_decoder_layers=12,
            num_heads=12,
            relative_attention_num_buckets=32,
            dropout_rate=0.1,
            **common,
        )
    return transformers.T5Config(
        d_model=64,
        d_kv=16,
        d_ff=128,
        num_layers=2,
        num_decoder_layers=2,
        num_heads=4,
        relative_attention_num_buckets=8,
        dropout_rate=0.0,
        **common,
    )


def encoder_config(size: str, vocab_size: int) -> transformers.T5Config:
    """GTR-t5-base's encoder (T5-base's) or a one-layer encoder of the same 768 width."""
    if size == "base":
        config = backbone_config("base", vocab_size)
    else:
        config = transformers.T5Config(
            vocab_size=vocab_size,
            d_model=EMBEDDING_DIM,
            d_kv=16,
            d_ff=64,
            num_layers=1,
            num_heads=2,
            relative_attention_num_buckets=8,
            dropout_rate=0.0,
            pad_token_id=0,
            eos_token_id=1,
            decoder_start_token_id=0,
        )
    config.architectures = ["T5EncoderModel"]
    return config


def inversion_config(size: str):  # -> vec2text InversionConfig
    """The published gtr__nq__32 settings, hub names included (the loader must not fetch them)."""
    from vec2text.models.config import InversionConfig

    return InversionConfig(
        model_name_or_path="t5-base",
        embedder_model_name="gtr_base",
        embedder_model_api=None,
        embedder_torch_dtype="float32",
        use_frozen_embeddings_as_input=True,
        max_seq_length=32 if size == "base" else 16,
        num_repeat_tokens=16 if size == "base" else 4,
        embedder_no_grad=True,
        embedder_gaussian_noise_level=0.0,
        embedder_fake_with_zeros=False,
        corrector_ignore_hypothesis_embedding=False,
        encoder_dropout_disabled=False,
        decoder_dropout_disabled=False,
        embeddings_from_layer_n=None,
        use_lora=False,
        freeze_strategy="none",
    )


@dataclass
class Standins:
    tokenizer: transformers.T5TokenizerFast
    encoder_model: transformers.T5EncoderModel
    backbone_config: transformers.T5Config
    inverter: torch.nn.Module
    corrector: torch.nn.Module


def build_standins(size: str = "tiny", seed: int = 0) -> Standins:
    """Encoder, hypothesiser and corrector with random weights (reproducible from `seed`)."""
    if size not in ("tiny", "base"):
        raise ValueError(f"size must be 'tiny' or 'base', got {size!r}")
    torch.manual_seed(seed)
    tokenizer = train_standin_tokenizer(2000 if size == "base" else 600, seed)
    vocab = 32128 if size == "base" else len(tokenizer)  # T5's vocabulary size, as published
    encoder_model = transformers.T5EncoderModel(encoder_config(size, vocab)).eval()
    bb_config = backbone_config(size, vocab)
    inverter = build_inverter(
        inversion_config(size),
        encoder=encoder_model.encoder,
        encoder_tokenizer=tokenizer,
        backbone_config=bb_config,
        decoder_tokenizer=tokenizer,
        empty=False,
    )
    corrector = build_corrector(inversion_config(size), backbone_config=bb_config, empty=False)
    return Standins(tokenizer, encoder_model, bb_config, inverter.eval(), corrector.eval())


def save_standins(standins: Standins, directory: Path) -> Path:
    """Write the four role directories (`encoder/`, `inverter/`, `corrector/`, `backbone/`)
    that `ANONYMIZER_MODEL_DIR` expects, with `save_pretrained` as the published repos were."""
    directory = Path(directory)
    standins.encoder_model.save_pretrained(directory / "encoder")
    standins.tokenizer.save_pretrained(directory / "encoder")
    standins.inverter.save_pretrained(directory / "inverter")
    standins.corrector.save_pretrained(directory / "corrector")
    (directory / "backbone").mkdir(parents=True, exist_ok=True)
    standins.backbone_config.save_pretrained(directory / "backbone")
    standins.tokenizer.save_pretrained(directory / "backbone")
    (directory / "README.txt").write_text("Random-weight stand-ins, not the published models.\n")
    return directory


def standin_pipeline(standins: Standins, device: torch.device) -> InversionPipeline:
    """The stand-ins wired as the loader wires the real models, without a round trip to disk."""
    return InversionPipeline(
        standins.encoder_model.encoder,
        standins.tokenizer,
        standins.inverter,
        standins.corrector,
        device,
    )
