"""The fast NER decoder finds exactly the entities spaCy's own parser finds, with the shipped
weights and with random ones, and the comparison fails for a decoder that breaks a rule."""

from __future__ import annotations

import numpy as np
import pytest

from anonymizer.detection import learned
from anonymizer.detection.learned import LearnedNerDetector
from anonymizer.detection.ner_decode import GreedyNerDecoder, unsupported_reason
from bench import dev_sets

HOSTILE_TEXTS = [
    "",
    "Lagos",
    "   ",
    "Dear Amara Okonkwo",
    "Amara\n\n\nOkonkwo  \n  Lagos Nigeria \n",
    "Mr  Tobias   van der Berg of Rotterdam went to see Wanjiru Kamau in Nairobi.\n" * 3,
    "\t\tACME CORP LTD\t\t14 Cherry Lane, Bristol BS1 4DJ\t\t",
    "München Zürich São Paulo Łódź 北京 Ковальчук",
]


def spacy_entities(nlp, texts: list[str], sentence_starts: int = 0) -> list[list[tuple]]:
    docs = [_doc(nlp, t, sentence_starts) for t in texts]
    ner = nlp.get_pipe("ner")
    return [[(e.start, e.end, e.label_) for e in doc.ents] for doc in ner.pipe(docs)]


def decoded_entities(
    decoder: GreedyNerDecoder, nlp, texts: list[str], batch: int, sentence_starts: int = 0
) -> list[list[tuple]]:
    docs = [_doc(nlp, t, sentence_starts) for t in texts]
    out: list[list[tuple]] = []
    for start in range(0, len(docs), batch):
        out += decoder.entities(docs[start : start + batch])
    return out


def _doc(nlp, text: str, sentence_starts: int):
    """The tokenized text, with a sentence start set every `sentence_starts` tokens."""
    doc = nlp.make_doc(text)
    if sentence_starts:
        for i in range(sentence_starts, len(doc), sentence_starts):
            doc[i].is_sent_start = True
    return doc


@pytest.fixture(scope="module")
def shipped():
    nlp = learned._build_pipeline()
    return nlp, GreedyNerDecoder(nlp.get_pipe("ner"))


@pytest.fixture(scope="module")
def dev_texts() -> list[str]:
    docs = (
        dev_sets.handwritten_dev(dev_sets.HANDWRITTEN_OPEN)
        + dev_sets.handwritten_dev(dev_sets.HANDWRITTEN_HARD)
        + dev_sets.corpus_dev(40)
    )
    return [d["text"] for d in docs] + HOSTILE_TEXTS


@pytest.mark.parametrize("batch", [1, 7, 32])
def test_the_shipped_model_decodes_to_spacy_s_entities(shipped, dev_texts, batch) -> None:
    nlp, decoder = shipped
    expected = spacy_entities(nlp, dev_texts)
    assert sum(map(len, expected)) > 2000
    assert decoded_entities(decoder, nlp, dev_texts, batch) == expected


def random_ner(seed: int, labels: tuple[str, ...]):
    """A blank English pipeline with a small NER of random weights (upper layer included,
    which spaCy starts at zero): it finds many entities of every length."""
    import spacy

    nlp = spacy.blank("en")
    ner = nlp.add_pipe(
        "ner",
        config={
            "model": {
                "@architectures": "spacy.TransitionBasedParser.v2",
                "state_type": "ner",
                "extra_state_tokens": False,
                "hidden_width": 16,
                "maxout_pieces": 2,
                "use_upper": True,
                "nO": None,
                "tok2vec": {
                    "@architectures": "spacy.HashEmbedCNN.v2",
                    "pretrained_vectors": None,
                    "width": 24,
                    "depth": 2,
                    "embed_size": 300,
                    "window_size": 1,
                    "maxout_pieces": 3,
                    "subword_features": True,
                },
            }
        },
    )
    for label in labels:
        ner.add_label(label)
    nlp.initialize()
    rng = np.random.default_rng(seed)
    for node in (ner.model.get_ref("lower"), ner.model.get_ref("upper")):
        for name in ("W", "b", "pad"):
            if node.has_param(name):
                value = node.get_param(name)
                node.set_param(name, rng.normal(0, 1, value.shape).astype(np.float32))
    return nlp


@pytest.mark.parametrize(
    ("seed", "labels", "sentence_starts"),
    [(1, ("PERSON", "ORG", "GPE"), 0), (2, ("A",), 5), (3, tuple("ABCDEFG"), 3)],
)
def test_random_weights_decode_to_spacy_s_entities(dev_texts, seed, labels, sentence_starts):
    nlp = random_ner(seed, labels)
    texts = dev_texts[:40] + HOSTILE_TEXTS
    expected = spacy_entities(nlp, texts, sentence_starts)
    lengths = {e - s for ents in expected for s, e, _ in ents}
    longest = min(4, sentence_starts or 4)  # an entity stops at a sentence start
    assert sum(map(len, expected)) > 500 and max(lengths) >= longest and 1 in lengths
    decoder = GreedyNerDecoder(nlp.get_pipe("ner"))
    assert decoded_entities(decoder, nlp, texts, 16, sentence_starts) == expected


class IgnoresWhiteSpace(GreedyNerDecoder):
    """Broken on purpose: lets an entity begin on a white-space token."""

    def _closed_choices(self, features, space, cannot_continue):
        return super()._closed_choices(features, np.zeros_like(space), cannot_continue)


class RunsOnPastTheEnd(GreedyNerDecoder):
    """Broken on purpose: lets an entity run on into a sentence start or the next document."""

    def _entity_end(self, features, start, label, cannot_continue):
        last_token = np.zeros_like(cannot_continue)
        last_token[-1] = True
        return super()._entity_end(features, start, label, cannot_continue & last_token)


@pytest.mark.parametrize("broken", [IgnoresWhiteSpace, RunsOnPastTheEnd])
def test_the_comparison_catches_a_decoder_that_breaks_a_transition_rule(dev_texts, broken):
    nlp = random_ner(3, tuple("ABCDEFG"))
    texts = dev_texts[:40] + HOSTILE_TEXTS
    expected = spacy_entities(nlp, texts, sentence_starts=3)
    decoder = broken(nlp.get_pipe("ner"))
    assert decoded_entities(decoder, nlp, texts, 16, sentence_starts=3) != expected


def test_a_component_it_cannot_decode_is_refused_and_the_detector_uses_spacy_s_parse():
    nlp = random_ner(1, ("PERSON",))
    ner = nlp.get_pipe("ner")
    assert unsupported_reason(ner) is None
    ner.cfg["beam_width"] = 4
    assert unsupported_reason(ner) == "beam search"
    with pytest.raises(ValueError, match="beam search"):
        GreedyNerDecoder(ner)

    fast, slow = LearnedNerDetector(), LearnedNerDetector()
    slow.__dict__["decoder"] = None  # the cached property: spaCy's own parse
    texts = ["Amara Okonkwo flew from Lagos to see Tobias.", "hey it's wanjiru, call me"]
    assert fast.decoder is not None
    assert fast.all_many(texts) == slow.all_many(texts)
    assert any(d.category == "full person name" for d in fast.all_many(texts)[0])
