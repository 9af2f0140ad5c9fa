""".docx in place and PDF line joining, on real files built here."""

import io
import re
import zipfile

import pytest

from anonymizer.formats.docx import DocxError, Edit, docx_text, rewrite_docx
from anonymizer.formats.pdf import join_wrapped_lines, pdf_pages_text
from tests.documents import rich_docx_bytes

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
FOOTNOTES = (
    f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:footnotes xmlns:w="{W}">'
    '<w:footnote w:id="1"><w:p><w:r><w:t xml:space="preserve">Witness: </w:t></w:r>'
    "<w:r><w:t>Mary Major</w:t></w:r></w:p></w:footnote></w:footnotes>"
)


def _with_extras(data: bytes) -> bytes:
    """Add a footnotes part, a tracked deletion and an insertion, and a mailto hyperlink."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for name in source.namelist():
            body = source.read(name)
            if name == "[Content_Types].xml":
                body = body.replace(
                    b"</Types>",
                    b'<Override PartName="/word/footnotes.xml" ContentType="application/'
                    b'vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"/></Types>',
                )
            if name == "word/document.xml":
                body = body.replace(
                    b"</w:body>",
                    b'<w:p><w:del w:id="9" w:author="John Smith"><w:r><w:delText>Old tenant '
                    b'Mary Major</w:delText></w:r></w:del><w:ins w:id="10" w:author="John Smith">'
                    b"<w:r><w:t>New text</w:t></w:r></w:ins></w:p>"
                    b'<w:p><w:hyperlink r:id="rIdMail"><w:r><w:t>write</w:t></w:r></w:hyperlink>'
                    b"</w:p></w:body>",
                )
            if name == "word/_rels/document.xml.rels":
                body = body.replace(
                    b"</Relationships>",
                    b'<Relationship Id="rIdMail" Type="http://schemas.openxmlformats.org/'
                    b'officeDocument/2006/relationships/hyperlink" Target="mailto:jane.doe@'
                    b'example.com" TargetMode="External"/></Relationships>',
                )
            target.writestr(name, body)
        target.writestr("word/footnotes.xml", FOOTNOTES)
    return out.getvalue()


def _replace_all(text: str, pairs: dict[str, str]) -> list[Edit]:
    edits = []
    for needle, replacement in pairs.items():
        edits += [
            Edit(m.start(), m.end(), replacement) for m in re.finditer(re.escape(needle), text)
        ]
    return edits


PII = {
    "Jane Doe": "[PERSON_1]",
    "jane.doe@example.com": "[EMAIL_1]",
    "Mary Major": "[PERSON_2]",
    "Manchester": "[LOCATION_1]",
}


def test_the_text_has_headers_body_tables_in_place_notes_footers_and_comments_in_order():
    text = docx_text(_with_extras(rich_docx_bytes()))
    order = [
        "Confidential — prepared for Jane Doe",
        "Dear Jane Doe, the deposit",
        "Tenant\nJane Doe\nEmail\njane.doe@example.com\nSigned by Jane Doe in Manchester.",
        "New text",
        "Witness: Mary Major",
        "Questions: jane.doe@example.com",
        "Ask Jane Doe to initial",
    ]
    positions = [text.index(part) for part in order]
    assert positions == sorted(positions)
    assert "Old tenant" not in text  # tracked deletions are accepted, not read


def test_replacements_land_in_every_part_and_no_original_remains_anywhere():
    data = _with_extras(rich_docx_bytes())
    text = docx_text(data)
    out = rewrite_docx(data, _replace_all(text, PII), expected_text=text, scrub=PII)
    archive = zipfile.ZipFile(io.BytesIO(out))
    for name in archive.namelist():
        body = archive.read(name)
        for needle in (b"Jane", b"jane.doe", b"Mary Major", b"John Smith", b"Manchester"):
            assert needle not in body, (name, needle)
    rewritten = docx_text(out)
    assert "Witness: [PERSON_2]" in rewritten and "Questions: [EMAIL_1]" in rewritten
    assert b"mailto:[EMAIL_1]" in archive.read("word/_rels/document.xml.rels")


def test_formatting_of_the_runs_survives():
    import docx

    data = rich_docx_bytes()
    text = docx_text(data)
    out = rewrite_docx(data, _replace_all(text, PII), expected_text=text)
    paragraph = docx.Document(io.BytesIO(out)).paragraphs[0]
    assert [(r.text, bool(r.bold)) for r in paragraph.runs][:2] == [
        ("Dear ", False),
        ("[PERSON_1]", True),
    ]
    assert paragraph.runs[2].text.startswith(", the deposit")


def test_metadata_is_stripped():
    import docx

    out = rewrite_docx(rich_docx_bytes(), [])
    properties = docx.Document(io.BytesIO(out)).core_properties
    assert (properties.author, properties.last_modified_by, properties.revision) == ("", "", 0)
    comments = zipfile.ZipFile(io.BytesIO(out)).read("word/comments.xml")
    assert b"John Smith" not in comments and b'w:author="Reviewer"' in comments


def test_offsets_from_another_extraction_are_refused():
    with pytest.raises(DocxError, match="differs"):
        rewrite_docx(rich_docx_bytes(), [], expected_text="something else")


@pytest.mark.parametrize("data", [b"not a zip", b"PK\x03\x04broken"])
def test_unreadable_files_raise_a_docx_error(data):
    with pytest.raises(DocxError):
        docx_text(data)


# --- PDF ------------------------------------------------------------------------------


def test_a_wrapped_iban_is_joined_into_one_line():
    page = (
        "Please pay the deposit into the landlord's account with IBAN GB82 WEST 1234 5698\n"
        "7654 32 before Friday, and keep the transfer receipt for your own records.\n"
        "Regards,\nThe agent"
    )
    assert join_wrapped_lines(page) == (
        "Please pay the deposit into the landlord's account with IBAN GB82 WEST 1234 5698 "
        "7654 32 before Friday, and keep the transfer receipt for your own records.\n"
        "Regards,\nThe agent"
    )


def test_hyphenation_is_undone_and_hyphenated_identifiers_are_kept():
    page = (
        "The tenancy agreement between both parties was signed last week, and the agree-\n"
        "ment reference printed on the first page of the contract is REF-\n"
        "2024-0077, which you should quote in every letter you send to us."
    )
    joined = join_wrapped_lines(page)
    assert "the agreement reference" in joined and "REF-2024-0077," in joined


def test_short_lines_like_an_address_block_keep_their_breaks():
    page = "Jane Doe\n12 High Street\nManchester M1 1AA\n\n" + "x" * 20
    assert join_wrapped_lines(page) == page


def test_pages_are_separated_by_a_blank_line():
    assert pdf_pages_text(["one", "two"]) == "one\n\ntwo"
