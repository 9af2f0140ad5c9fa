"""dp-embed-invert rewrites around exactly the reviewed (gold) spans, through the real models."""

from anonymizer.mechanisms.dp_embed_invert import DpEmbedInvertMechanism
from anonymizer.review import added_span, reviewed_settings

TEXT = "Manchester is where Jane Doe met the Landlord, who wrote to jane@example.com."


def test_the_rewrite_keeps_exactly_the_reviewed_spans_as_placeholders(tiny_models, invert_settings):
    gold = [added_span(0, 10, "location"), added_span(20, 28, "full person name")]
    settings = reviewed_settings(invert_settings)
    result = DpEmbedInvertMechanism().rewrite(TEXT, settings, gold=gold)
    pii = [(s.text, s.placeholder) for s in result.spans if s.is_pii]
    assert pii == [("Manchester", "[LOCATION]"), ("Jane Doe", "[PERSON]")]
    assert result.output.startswith("[LOCATION]") and "[PERSON]" in result.output
    # the email was not reviewed in, so it went through the noised chunks, not a placeholder
    assert "[EMAIL]" not in result.output and result.receipt.n_chunks >= 2
