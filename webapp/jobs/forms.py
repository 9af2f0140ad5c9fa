"""The submit form: a text or a file, a mechanism, and that mechanism's settings."""

from __future__ import annotations

from django import forms

from anonymizer import InvalidSettings, Settings, list_mechanisms
from anonymizer.detection.categories import CATEGORIES
from anonymizer.settings import COMPOSITIONS, DETECTORS
from webapp.jobs.documents import DocumentError, check_text, extract_text

USER_DETECTORS = [d for d in DETECTORS if d != "gold"]


def mechanism_choices() -> list[tuple[str, str]]:
    choices = []
    for info in list_mechanisms():
        reason = info.unavailable_reason()
        label = f"{info.title} — {info.guarantee}"
        if reason:
            label += " (unavailable)"
        choices.append((info.name, label))
    return choices


def default_mechanism() -> str:
    for info in list_mechanisms():
        if info.name == "dp-embed-invert" and info.available:
            return info.name
    return "redact"


class SubmitForm(forms.Form):
    name = forms.CharField(max_length=255, required=False, label="Document name")
    text = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 12}), required=False, strip=False, label="Paste text"
    )
    file = forms.FileField(required=False, label="…or upload .txt, .md, .docx or .pdf")
    mechanism = forms.ChoiceField(choices=())
    epsilon = forms.CharField(initial="16", label="ε (document)")
    delta = forms.FloatField(initial=1e-3, label="δ (document)")
    clip_radius = forms.FloatField(initial=1.5, label="clip radius C")
    num_steps = forms.IntegerField(initial=5, min_value=0, max_value=100, label="corrector steps")
    composition = forms.ChoiceField(choices=[(c, c) for c in COMPOSITIONS], initial="basic")
    metric_unit = forms.FloatField(required=False, label="metric unit u (d-privacy)")
    redact_pii = forms.BooleanField(required=False, initial=True, label="redact detected PII")
    detector = forms.ChoiceField(choices=[(d, d) for d in USER_DETECTORS], initial="regex")
    whitelist_categories = forms.MultipleChoiceField(
        choices=[(c, c) for c in CATEGORIES],
        required=False,
        label="keep these categories",
        widget=forms.SelectMultiple(attrs={"size": 6}),
    )
    allow_list = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
        label="never redact (one per line)",
    )
    deny_list = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
        label="always redact (one per line)",
    )

    SETTING_FIELDS = (
        "mechanism",
        "epsilon",
        "delta",
        "clip_radius",
        "num_steps",
        "composition",
        "metric_unit",
        "redact_pii",
        "detector",
        "whitelist_categories",
        "allow_list",
        "deny_list",
    )

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.fields["mechanism"].choices = mechanism_choices()
        self.fields["mechanism"].initial = default_mechanism()
        self.document_text: str | None = None
        self.document_source = "paste"
        self.rewrite_settings: Settings | None = None

    def clean(self):  # type: ignore[no-untyped-def]
        data = super().clean()
        upload = data.get("file")
        text = data.get("text") or ""
        try:
            if upload is not None:
                if upload.size > 0 and text.strip():
                    raise forms.ValidationError("Paste text or upload a file, not both.")
                self.document_text, self.document_source = extract_text(upload.name, upload.read())
                data["name"] = data.get("name") or upload.name
            elif text.strip():
                self.document_text = check_text(text, "The pasted text")
            else:
                self.add_error("text", "Paste some text or upload a file.")
        except DocumentError as exc:
            self.add_error("file" if upload is not None else "text", str(exc))
        data["name"] = data.get("name") or _default_name(self.document_text)
        self._build_settings(data)
        return data

    def _build_settings(self, data: dict) -> None:
        raw = {k: data.get(k) for k in self.SETTING_FIELDS if k in data}
        if any(k not in data for k in self.SETTING_FIELDS):
            return  # a field already has its own error
        try:
            self.rewrite_settings = Settings.from_mapping(raw)
        except InvalidSettings as exc:
            field = exc.field if exc.field in self.fields else None
            self.add_error(field, exc.message)
            return
        from anonymizer import mechanism_info

        reason = mechanism_info(self.rewrite_settings.mechanism).unavailable_reason()
        if reason:
            self.add_error("mechanism", f"This mechanism is unavailable here: {reason}")


def _default_name(text: str | None) -> str:
    if not text:
        return "untitled"
    first = text.strip().splitlines()[0][:40].strip()
    return first or "untitled"
