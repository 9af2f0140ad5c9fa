"""The submit form: a text or a file, a mechanism, and only the settings that mechanism takes.

Parameter fields are built from the mechanism registry, so a newly registered mechanism
appears in the form with its own parameters and no change here.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from django import forms
from django.conf import settings as django_settings

from anonymizer import InvalidSettings, Settings, list_mechanisms, mechanism_info
from anonymizer.choices import DETECTOR_HELP, DETECTOR_NONE_WARNING, detector_none_problem
from anonymizer.detection.categories import CATEGORIES
from anonymizer.operators import FAKE_LOCALES, OPERATOR_TITLES
from anonymizer.registry import MechanismInfo
from anonymizer.settings import COMPOSITIONS, DETECTORS, parse_float
from webapp.jobs.documents import DocumentError, check_size, check_text, extract_text
from webapp.operations.mechanisms import reason_for

USER_DETECTORS = [d for d in DETECTORS if d != "gold"]
DEFAULTS = Settings(mechanism="redact")


class EpsilonField(forms.CharField):
    """A positive float or 'inf' (no noise, no guarantee)."""

    def to_python(self, value):  # type: ignore[no-untyped-def]
        value = super().to_python(value)
        if value in self.empty_values:
            return None
        try:
            number = parse_float(value)
        except ValueError:
            raise forms.ValidationError("Enter a number, or inf for no noise.") from None
        if math.isnan(number) or number <= 0:
            raise forms.ValidationError("ε must be a number > 0 (or inf for no noise).")
        return number


def _lines(label: str, help_text: str) -> Callable[[], forms.Field]:
    return lambda: forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
        label=label,
        help_text=help_text,
    )


PARAMETER_FIELDS: dict[str, Callable[[], forms.Field]] = {
    "epsilon": lambda: EpsilonField(
        initial="16", label="ε", help_text="Privacy budget for the whole document; inf = no noise."
    ),
    "delta": lambda: forms.FloatField(
        initial=DEFAULTS.delta, label="δ", help_text="Must lie strictly between 0 and 1."
    ),
    "clip_radius": lambda: forms.FloatField(
        initial=DEFAULTS.clip_radius,
        label="clip radius C",
        help_text="Embeddings are clipped to this L2 norm.",
    ),
    "num_steps": lambda: forms.IntegerField(
        initial=DEFAULTS.num_steps, min_value=0, max_value=100, label="corrector steps"
    ),
    "composition": lambda: forms.ChoiceField(
        choices=[(c, c) for c in COMPOSITIONS],
        initial=DEFAULTS.composition,
        help_text="basic: ε/K per chunk; zcdp: Bun–Steinke; gdp: exact Gaussian composition.",
    ),
    "metric_unit": lambda: forms.FloatField(
        required=False,
        label="metric unit u",
        help_text="Empty: worst-case DP. A number: d-privacy at that L2 distance (weaker).",
    ),
    "redact_pii": lambda: forms.BooleanField(
        required=False, initial=True, label="replace detected PII with placeholders"
    ),
    "detector": lambda: forms.ChoiceField(
        choices=[(d, d) for d in USER_DETECTORS],
        initial=DEFAULTS.detector,
        help_text="What each finds and misses is listed below.",
    ),
    "operator": lambda: forms.TypedChoiceField(
        choices=list(OPERATOR_TITLES.items()),
        required=False,
        empty_value=None,
        initial=DEFAULTS.operator,
        label="replace each span with",
    ),
    "mask_keep_length": lambda: forms.BooleanField(
        required=False,
        initial=True,
        label="masks keep the length (otherwise always ****)",
    ),
    "fake_locale": lambda: forms.TypedChoiceField(
        choices=[(loc, loc) for loc in FAKE_LOCALES],
        required=False,
        empty_value=None,
        initial=DEFAULTS.fake_locale,
        label="locale of realistic fakes",
    ),
    "whitelist_categories": lambda: forms.MultipleChoiceField(
        choices=[(c, c) for c in CATEGORIES],
        required=False,
        label="keep these categories",
        widget=forms.SelectMultiple(attrs={"size": 5}),
    ),
    "allow_list": _lines("never redact", "One string per line."),
    "deny_list": _lines("always redact", "One string per line."),
    "sensitive_words": _lines("also sanitize", "Extra sensitive words, one per line."),
    "n_clusters": lambda: forms.IntegerField(
        initial=DEFAULTS.n_clusters, min_value=1, label="number of clusters"
    ),
    "cluster_size": lambda: forms.IntegerField(
        required=False, min_value=1, label="cluster size h (overrides clusters)"
    ),
    "cluster_push": lambda: EpsilonField(
        initial=str(DEFAULTS.cluster_push), label="cluster push k (inf allowed)"
    ),
    "candidates_per_category": lambda: forms.IntegerField(
        initial=DEFAULTS.candidates_per_category,
        min_value=2,
        max_value=50_000,
        label="candidates per category",
    ),
    "sanitize_general_words": lambda: forms.BooleanField(
        required=False, label="also sanitize general words (SanText vocabulary)"
    ),
    "bayes_remap": lambda: forms.BooleanField(
        required=False,
        label="Bayesian remapping of surrogates",
        help_text="Post-processing, no privacy cost: each drawn surrogate is replaced by the "
        "candidate closest in expectation to the original. Raises similarity at small ε but "
        "maps many strings to the same few surrogates (see the attack audit).",
    ),
    "seed": lambda: forms.IntegerField(
        required=False,
        min_value=0,
        label="seed (testing only)",
        help_text="A seeded run is reproducible and therefore NOT private.",
    ),
}


def may_seed(user) -> bool:  # type: ignore[no-untyped-def]
    """Whether this user gets the seed field. A seeded release is reproducible and so never
    private; only reproducible audits need one, so by default (SEEDED_RUNS = "staff") only
    staff may seed, and a user cannot make a non-private release by mistake."""
    policy = getattr(django_settings, "SEEDED_RUNS", "staff")
    if policy == "all":
        return True
    return policy == "staff" and bool(getattr(user, "is_staff", False))


def mechanism_choices() -> list[tuple[str, str]]:
    choices = []
    for info in list_mechanisms():
        label = f"{info.title} — {info.guarantee}"
        if not info.available:
            label += " (unavailable here)"
        choices.append((info.name, label))
    return choices


def default_mechanism() -> str:
    infos = {i.name: i for i in list_mechanisms()}
    if "dp-embed-invert" in infos and infos["dp-embed-invert"].available:
        return "dp-embed-invert"
    return "redact"


def chosen_mechanism(data) -> MechanismInfo:  # type: ignore[no-untyped-def]
    """The mechanism named in the request data, or the default one."""
    name = (data or {}).get("mechanism") or default_mechanism()
    try:
        return mechanism_info(name)
    except InvalidSettings:
        return mechanism_info(default_mechanism())


class SubmitForm(forms.Form):
    name = forms.CharField(max_length=255, required=False, label="Document name")
    text = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 14}), required=False, strip=False, label="Paste text"
    )
    file = forms.FileField(required=False, label="…or upload .txt, .md, .docx or .pdf")
    document = forms.IntegerField(required=False, widget=forms.HiddenInput)
    mechanism = forms.ChoiceField(choices=())
    pseudonym_set = forms.CharField(
        max_length=64,
        required=False,
        label="keep numbers and fakes consistent across documents named",
        help_text="Optional. Documents rewritten with the same name here share "
        "[PERSON_1]-style numbers and fakes.",
    )

    DOCUMENT_FIELDS = ("name", "text", "file", "document", "pseudonym_set")

    def __init__(
        self,
        *args,
        user=None,
        mechanism: MechanismInfo | None = None,  # type: ignore[no-untyped-def]
        for_preview: bool = False,
        oversized_upload: str | None = None,
        **kwargs,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        self.for_preview = for_preview
        self.oversized_upload = oversized_upload
        self.info = mechanism or chosen_mechanism(self.data if self.is_bound else self.initial)
        self.fields["mechanism"].choices = mechanism_choices()
        self.fields["mechanism"].initial = self.info.name
        for name in self.info.parameters:
            if name in PARAMETER_FIELDS:
                self.fields[name] = PARAMETER_FIELDS[name]()
        if "epsilon" in self.fields and self.info.default_epsilon is not None:  # from the audit
            self.fields["epsilon"].initial = f"{self.info.default_epsilon:g}"
            if self.info.default_epsilon_reason:
                self.fields["epsilon"].help_text += f" Default: {self.info.default_epsilon_reason}."
        if "operator" not in self.info.parameters:
            del self.fields["pseudonym_set"]
        if may_seed(user):
            self.fields["seed"] = PARAMETER_FIELDS["seed"]()
        self.document_text: str | None = None
        self.document_source = "paste"
        self.original_file: bytes | None = None
        self.existing_document = None
        self.rewrite_settings: Settings | None = None

    @property
    def parameter_fields(self) -> list[forms.BoundField]:
        shown = [n for n in self.fields if n not in self.DOCUMENT_FIELDS + ("mechanism",)]
        if "pseudonym_set" in self.fields:
            shown.insert(shown.index("fake_locale") + 1, "pseudonym_set")
        return [self[n] for n in shown]

    @property
    def detector_help(self) -> list[tuple[str, str]]:
        """What each detector option finds and misses (shown under the detector field)."""
        return [(d, DETECTOR_HELP[d]) for d in USER_DETECTORS if d in DETECTOR_HELP]

    @property
    def reviewing(self) -> bool:
        return self.is_bound and "review" in self.data

    @property
    def detector_warning(self) -> str | None:
        settings = self.rewrite_settings
        if settings is not None and settings.detector == "none" and settings.redact_pii:
            if settings.mechanism == "dp-embed-invert":
                return DETECTOR_NONE_WARNING
        return None

    def show_error(self, field: str, message: str) -> None:
        """An error under a field of an unbound form (the no-JS mechanism switch)."""
        if not hasattr(self, "cleaned_data"):
            self.cleaned_data = {}
        self.add_error(field, message)

    @property
    def resubmitting(self) -> str | None:
        """Name of the stored document being resubmitted, if any."""
        source = self.data if self.is_bound else self.initial
        if not source.get("document"):
            return None
        return source.get("name") or "your stored document"

    @property
    def document_fields(self) -> list[forms.BoundField]:
        return [self[n] for n in ("name", "text", "file")]

    def clean(self):  # type: ignore[no-untyped-def]
        data = super().clean()
        self._clean_document(data)
        self._build_settings(data)
        return data

    def _clean_document(self, data: dict) -> None:
        upload, text = data.get("file"), data.get("text") or ""
        document_id = data.get("document")
        if self.oversized_upload:
            self.add_error(
                "file",
                f"{self.oversized_upload!r} is too large; the limit is "
                f"{django_settings.MAX_DOCUMENT_BYTES:,} bytes.",
            )
            return
        try:
            if upload is not None:
                if text.strip():
                    raise DocumentError("Paste text or upload a file, not both.")
                check_size(upload.size, repr(upload.name))
                data_bytes = upload.read()
                self.document_text, self.document_source = extract_text(upload.name, data_bytes)
                if self.document_source == "docx":
                    self.original_file = data_bytes
                data["name"] = data.get("name") or upload.name
            elif text.strip():
                self.document_text = check_text(text, "The pasted text")
            elif document_id:
                self._use_existing_document(document_id, data)
            elif "file" in self.files or self.data.get("file") == "":
                raise DocumentError("The uploaded file is empty.")
            else:
                self.add_error("text", "Paste some text or upload a file.")
        except DocumentError as exc:
            # an upload's problem belongs under the file field, even one Django already refused
            on_file = upload is not None or "file" in self.files
            if not (on_file and self.has_error("file")):
                self.add_error("file" if on_file else "text", str(exc))
        data["name"] = data.get("name") or _default_name(self.document_text)

    def _use_existing_document(self, document_id: int, data: dict) -> None:
        from webapp.jobs.models import Document

        document = Document.objects.filter(owner=self.user, pk=document_id).first()
        if document is None or document.is_purged:
            raise DocumentError("That document is no longer available; paste or upload it again.")
        self.existing_document = document
        self.document_text = document.text
        data["name"] = data.get("name") or document.name

    def _build_settings(self, data: dict) -> None:
        names = [n for n in self.fields if n not in self.DOCUMENT_FIELDS]
        if any(n in self.errors for n in names):
            return
        raw = {n: data.get(n) for n in names if data.get(n) is not None}
        try:
            self.rewrite_settings = Settings.from_mapping({"detector": DEFAULTS.detector, **raw})
        except InvalidSettings as exc:
            self.add_error(exc.field if exc.field in self.fields else None, exc.message)
            return
        except (ValueError, ArithmeticError, TypeError) as exc:
            self.add_error(None, f"These settings cannot be used ({type(exc).__name__}).")
            return
        if self.reviewing and not self.rewrite_settings.redact_pii:
            self.add_error("redact_pii", "A review chooses the spans to replace: turn this on.")
        problem = detector_none_problem(self.rewrite_settings, reviewing=self.reviewing)
        if problem:
            self.add_error("detector" if "detector" in self.fields else None, problem)
        reason = self.info.unavailable_reason()
        if reason and not self.for_preview:
            shown = reason_for(self.user, reason)
            self.add_error("mechanism", f"This mechanism is unavailable here: {shown}")


def keep_upload(user, upload, oversized: str | None = None):  # type: ignore[no-untyped-def]
    """Store an uploaded file as the user's document, checked as on submit (DocumentError)."""
    from webapp.jobs.services import create_document

    if oversized or upload is None:
        raise DocumentError(
            f"{oversized or 'The file'!r} is too large; the limit is "
            f"{django_settings.MAX_DOCUMENT_BYTES:,} bytes."
        )
    check_size(upload.size, repr(upload.name))
    data = upload.read()
    text, source = extract_text(upload.name, data)
    return create_document(
        user,
        name=upload.name,
        text=text,
        source=source,
        original_file=data if source == "docx" else None,
    )


def _default_name(text: str | None) -> str:
    """A neutral name: the document's first words would put personal data into the name,
    which stays in the history, file names and receipts after the original is deleted."""
    if not text:
        return "untitled"
    return f"Pasted text ({len(text.split()):,} words)"
