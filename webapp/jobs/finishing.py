"""What happens to a result between the mechanism and the stored job (inside `complete_job`'s
transaction): the user's operator with their salt and pseudonym set, the restore mapping,
the receipt's record of choices and review, and the output in the original's format."""

from __future__ import annotations

import logging
from dataclasses import replace

from anonymizer import RewriteResult, Settings
from anonymizer.choices import choices_record
from anonymizer.formats.docx import DocxError, Edit, rewrite_docx
from anonymizer.operators import apply_operator, config_from_settings, operator_record
from anonymizer.review import mark_reviewed
from webapp.jobs import mappings
from webapp.jobs.models import OutputFile, Review, RewriteJob
from webapp.jobs.review import chosen_settings, summary_of

log = logging.getLogger(__name__)
DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


def finalise(job: RewriteJob, result: RewriteResult) -> RewriteResult:
    """The result as stored: operator applied for this user, choices recorded, files kept."""
    rewrite_settings = Settings.from_mapping(job.settings)
    review = Review.objects.filter(job=job).select_related("document").first()
    chosen = chosen_settings(review) if review is not None else rewrite_settings
    salt = mappings.user_salt(job.owner)
    config = config_from_settings(rewrite_settings, salt=salt, salt_scope="your secret salt")
    memory = None
    if job.pseudonym_set_id is not None and config.name in ("numbered", "fake"):
        memory = mappings.load_memory(job.pseudonym_set, salt)
    result, mapping = apply_operator(result, config, memory)
    if memory is not None:
        mappings.save_memory(job.pseudonym_set, memory)
    if mapping:
        mappings.store_mapping(job, config.name, mapping)
    receipt = result.receipt
    if review is not None:
        receipt = mark_reviewed(receipt, summary_of(review, job.owner.get_username()))
    record = operator_record(config, len(mapping), bool(mapping))
    if job.pseudonym_set_id is not None and memory is not None:
        record["consistent_across"] = "a named set of your documents"
    details = {
        **receipt.details,
        "operator": record,
        "choices": choices_record(chosen, result.spans, reviewed=review is not None),
        "restore_mapping": bool(mapping),
    }
    result = replace(result, receipt=replace(receipt, details=details))
    _store_original_format(job, result)
    return result


def docx_edits(result: RewriteResult) -> tuple[list[Edit], dict[str, str]]:
    """Edits over the original text, and the replaced PII strings to scrub elsewhere."""
    edits, scrub, cursor = [], {}, 0
    for span in result.spans:
        end = cursor + len(span.text)
        if span.output_text != span.text:
            edits.append(Edit(cursor, end, span.output_text))
            if span.is_pii:
                scrub[span.text] = span.output_text
        cursor = end
    return edits, scrub


def _store_original_format(job: RewriteJob, result: RewriteResult) -> None:
    document = job.document
    if document.source != "docx" or not document.original_file:
        return
    edits, scrub = docx_edits(result)
    try:
        data = rewrite_docx(
            bytes(document.original_file), edits, expected_text=result.original, scrub=scrub
        )
    except DocxError as exc:
        log.warning("job %s: no .docx output (%s)", job.pk, exc)
        return
    OutputFile.objects.update_or_create(
        job=job, defaults={"extension": "docx", "content_type": DOCX_TYPE, "data": data}
    )
