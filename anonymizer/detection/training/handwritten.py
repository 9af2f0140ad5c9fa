"""Hand-written training documents (`bench/train_hand/handwritten_train_*.txt`) as NER
training examples, and their mix with the generated corpus.

Gold spans of the categories the NER learns (`synth.NER_LABELS`) become its labels. Gold spans
of every other category (emails, phones, ids, dates, ages, handles...) are marked *missing*,
not `O`: the annotators chose one category for a string ("kev_99" a handle, "14" an age,
"ACME-4471" an internal id), which says nothing about whether a person or organisation reading
of its tokens would be wrong, and the few hand documents are repeated many times in the mix,
so a wrong `O` there would be learnt hard; the rules cover those categories anyway. Every
other token is `O` (the build refuses a gold string left unmarked elsewhere in its document,
word-bounded, so an unmarked name or place is one the annotator judged not PII; a short gold
name inside another word, "Cal" in "call", leaves that word `O`, as it should), except where
en_core_web_md finds a date, law, event, work or product, which stays that label (rehearsal,
as for the generated corpus). md's own places (LOC, FAC) are not rehearsed here: a place the
annotator did not mark is not one to redact.

Long documents are cut at line breaks that no gold span crosses, so a batch stays small.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from anonymizer.detection.training.synth import NER_LABELS

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.training import Example

HAND_DIR = Path(__file__).resolve().parents[3] / "bench" / "train_hand"
HAND_GLOB = "handwritten_train_*.txt"
MAX_PIECE_CHARS = 2000
# md's labels kept where the hand gold has nothing: what is not PII (places are left out)
HAND_REHEARSED = frozenset({"DATE", "EVENT", "LAW", "WORK_OF_ART", "PRODUCT"})


def hand_files(directory: Path = HAND_DIR) -> list[Path]:
    """The built hand-written training files that hold at least one document, sorted."""
    return [p for p in sorted(directory.glob(HAND_GLOB)) if p.stat().st_size > 0]


def load_hand_docs(paths: Sequence[Path]) -> list[dict[str, Any]]:
    """Every document of `paths` ({id, genre, text, spans}), in file order."""
    from bench.dev_sets import handwritten_dev

    return [doc for path in paths for doc in handwritten_dev(path)]


def split_long(doc: dict[str, Any], max_chars: int = MAX_PIECE_CHARS) -> list[dict[str, Any]]:
    """`doc` cut into pieces of at most `max_chars` (where the lines allow) at line breaks
    outside every gold span; each piece keeps its spans, offsets made relative to it."""
    text, spans = doc["text"], doc["spans"]
    if len(text) <= max_chars:
        return [doc]
    inside = [False] * (len(text) + 1)
    for s in spans:
        for i in range(s["start"], s["end"]):
            inside[i] = True
    cuts = [i + 1 for i, c in enumerate(text) if c == "\n" and not inside[i]]
    bounds, start, last_cut = [], 0, None
    for cut in cuts:
        if cut - start > max_chars and last_cut is not None and last_cut > start:
            bounds.append((start, last_cut))
            start = last_cut
        last_cut = cut
    bounds.append((start, len(text)))
    pieces = []
    for n, (lo, hi) in enumerate(bounds):
        piece_spans = [
            {**s, "start": s["start"] - lo, "end": s["end"] - lo}
            for s in spans
            if lo <= s["start"] and s["end"] <= hi
        ]
        pieces.append({**doc, "id": f"{doc['id']}#{n}", "text": text[lo:hi], "spans": piece_spans})
    return pieces


def hand_examples(
    nlp: Language, docs: Sequence[dict[str, Any]], annotator: Language | None = None
) -> list[Example]:
    """One training example per piece of each document (see the module docstring)."""
    from spacy.tokens import Doc, Span
    from spacy.training import Example
    from spacy.util import filter_spans

    pieces = [piece for doc in docs for piece in split_long(doc)]
    annotator = annotator or nlp
    examples = []
    for piece, pred in zip(pieces, annotator.pipe([p["text"] for p in pieces]), strict=True):
        reference = Doc(
            nlp.vocab, words=[t.text for t in pred], spaces=[bool(t.whitespace_) for t in pred]
        )
        labelled, missing = [], []
        for s in piece["spans"]:
            label = NER_LABELS.get(s["label"], "")
            span = reference.char_span(s["start"], s["end"], label=label, alignment_mode="expand")
            if span is not None:
                (labelled if label else missing).append(span)
        labelled = filter_spans(labelled)
        taken = {i for span in labelled for i in range(span.start, span.end)}
        missing = [s for s in filter_spans(missing) if taken.isdisjoint(range(s.start, s.end))]
        taken |= {i for span in missing for i in range(span.start, span.end)}
        rehearsed = [
            Span(reference, ent.start, ent.end, label=ent.label_)
            for ent in pred.ents
            if ent.label_ in HAND_REHEARSED and taken.isdisjoint(range(ent.start, ent.end))
        ]
        reference.set_ents(labelled + rehearsed, missing=missing, default="outside")
        examples.append(Example(nlp.make_doc(piece["text"]), reference))
    return examples


def boosted(
    hand: Sequence[Any], labels_of: Callable[[Any], set[str]], boost: Sequence[str], factor: int
) -> list[Any]:
    """`hand` with every item whose `labels_of` meets `boost` repeated `factor` times (in
    place, so the order stays seeded by `oversampled`): label-balanced sampling of the pieces
    holding the labels weakest on unseen text. The items themselves are not changed."""
    if factor < 1:
        raise ValueError(f"factor must be at least 1, not {factor}")
    wanted = set(boost)
    return [x for x in hand for _ in range(factor if labels_of(x) & wanted else 1)]


def example_labels(example: Example) -> set[str]:
    """The NER labels of an example's gold entities."""
    return {ent.label_ for ent in example.reference.ents}


def oversampled(
    generated: Sequence[Any], hand: Sequence[Any], share: float, seed: int
) -> list[Any]:
    """`generated` plus whole copies of `hand` (and a seeded sample for the remainder) so
    that hand-written examples make up about `share` of the result, in a seeded order."""
    if not hand or share <= 0:
        return list(generated)
    if not 0 < share < 1:
        raise ValueError(f"share must lie in [0, 1), not {share}")
    rng = random.Random(seed)
    wanted = round(share / (1 - share) * len(generated))
    copies, rest = divmod(max(wanted, len(hand)), len(hand))
    mixed = [*generated, *(list(hand) * copies), *rng.sample(list(hand), rest)]
    rng.shuffle(mixed)
    return mixed
