"""Pluggable transformer detectors, tested offline on a tiny model built here.

The tiny BERT token classifier has no encoder layers and hand-set weights: the embedding of
each name token points one way and every other token's the other way, so the classifier
tags exactly the names as B-PER. That makes the test able to fail: a wrong label mapping,
wrong offsets or a chunking error all change what comes out.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from anonymizer.detection import transformer
from anonymizer.detection.transformer import (
    GlinerDetector,
    TokenClassificationDetector,
    map_model_label,
    resolve_model,
)
from anonymizer.errors import MechanismUnavailable

NAMES = ["Wanjiru", "Oduya", "Siosaia"]
WORDS = ["met", "with", "and", "at", "the", "office", "today", "we", "later", ".", ","]


def build_tiny_model(path: Path) -> Path:
    import torch
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors
    from transformers import BertConfig, BertForTokenClassification, BertTokenizerFast

    vocab = {
        t: i for i, t in enumerate(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *NAMES, *WORDS])
    }
    tok = Tokenizer(models.WordPiece(vocab, unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=False)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 2), ("[SEP]", 3)]
    )
    fast = BertTokenizerFast(
        tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]",
        sep_token="[SEP]", mask_token="[MASK]", do_lower_case=False,
    )  # fmt: skip
    config = BertConfig(
        vocab_size=len(vocab), hidden_size=4, num_hidden_layers=0, num_attention_heads=1,
        intermediate_size=4, max_position_embeddings=512,
        id2label={0: "O", 1: "B-PER", 2: "I-PER"}, label2id={"O": 0, "B-PER": 1, "I-PER": 2},
    )  # fmt: skip
    model = BertForTokenClassification(config)
    with torch.no_grad():
        emb = model.bert.embeddings
        emb.position_embeddings.weight.zero_()
        emb.token_type_embeddings.weight.zero_()
        emb.word_embeddings.weight[:] = torch.tensor([-1.0, 1.0, 0.0, 0.0])
        for name in NAMES:
            emb.word_embeddings.weight[vocab[name]] = torch.tensor([1.0, -1.0, 0.0, 0.0])
        model.classifier.weight.zero_()
        model.classifier.bias.zero_()
        model.classifier.weight[0, 1] = 5.0  # O follows the "other" direction
        model.classifier.weight[1, 0] = 5.0  # B-PER follows the "name" direction
    model.save_pretrained(path)
    fast.save_pretrained(path)
    return path


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_model(tmp_path_factory.mktemp("tiny-token-model"))


def test_a_local_token_classification_model_finds_the_names_with_our_labels(tiny_model) -> None:
    detector = TokenClassificationDetector(str(tiny_model))
    text = "we met with Wanjiru and Oduya at the office today ."
    found = {text[d.start : d.end]: d.category for d in detector.detect(text)}
    assert found == {"Wanjiru": "full person name", "Oduya": "full person name"}


def test_long_texts_are_chunked_and_offsets_point_into_the_document(tiny_model) -> None:
    detector = TokenClassificationDetector(str(tiny_model))
    filler = "we met at the office today . " * 120  # over the chunk size
    text = filler + "later with Siosaia ." + filler + "and Wanjiru"
    assert len(text) > transformer.CHUNK_CHARS
    found = sorted((d.start, text[d.start : d.end]) for d in detector.detect(text))
    assert found == [(text.index("Siosaia"), "Siosaia"), (text.index("Wanjiru"), "Wanjiru")]


def test_a_configured_label_map_wins(tiny_model) -> None:
    detector = TokenClassificationDetector(str(tiny_model), label_map={"PER": "handle"})
    assert {d.category for d in detector.detect("we met Wanjiru")} == {"handle"}


def test_missing_weights_make_the_detector_unavailable_with_the_fetch_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(MechanismUnavailable, match="huggingface-cli download someone/pii-model"):
        TokenClassificationDetector("someone/pii-model").detect("hello")
    (tmp_path / "not-a-model").mkdir()
    with pytest.raises(MechanismUnavailable, match="config.json"):
        resolve_model(str(tmp_path / "not-a-model"))


def test_model_labels_map_onto_our_categories() -> None:
    assert map_model_label("B-PER") == "full person name"
    assert map_model_label("I-GIVENNAME") == "full person name"
    assert map_model_label("TELEPHONENUM") == "phone number"
    assert map_model_label("EMAIL") == "email address"
    assert map_model_label("LOC") == "location"
    assert map_model_label("SOMETHING_ELSE") == "custom"


class FakeGliner:
    """The two things the detector uses of a GLiNER model: loading and predict_entities."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def predict_entities(self, text: str, labels: list[str], threshold: float) -> list[dict]:
        start = text.find("Oduya")
        hits = [{"start": start, "end": start + 5, "label": "person", "score": 0.9}]
        return [h for h in hits if h["start"] >= 0 and h["label"] in labels]


def test_gliner_results_map_onto_our_categories(tiny_model) -> None:
    detector = GlinerDetector(str(tiny_model), loader=FakeGliner)
    text = "we met Oduya"
    assert [(text[d.start : d.end], d.category, d.source) for d in detector.detect(text)] == [
        ("Oduya", "full person name", "gliner")
    ]


def test_gliner_without_its_package_says_how_to_install_it(
    tiny_model, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "gliner", None)
    with pytest.raises(MechanismUnavailable, match=r"pip install -e '\.\[gliner\]'"):
        GlinerDetector(str(tiny_model)).detect("hello")
