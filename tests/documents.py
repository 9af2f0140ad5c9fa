"""Build real .docx and .pdf files for upload tests (python-docx and a minimal PDF writer)."""

import io


def docx_bytes(paragraphs: list[str]) -> bytes:
    import docx

    document = docx.Document()
    for paragraph in paragraphs:
        document.add_paragraph(paragraph)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def pdf_bytes(lines: list[str]) -> bytes:
    """A one-page PDF with the lines as real text (Helvetica), readable by pypdf."""

    def escape(s: str) -> str:
        return s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")

    content = (
        "BT /F1 12 Tf 72 720 Td 14 TL "
        + " ".join(f"({escape(line)}) Tj T*" for line in lines)
        + " ET"
    )
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        "/Resources << /Font << /F1 5 0 R >> >> >>",
        f"<< /Length {len(content)} >>\nstream\n{content}\nendstream",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for i, obj in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(f"{i} 0 obj\n{obj}\nendobj\n".encode("latin-1"))
    xref = out.tell()
    out.write(f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode())
    for offset in offsets:
        out.write(f"{offset:010d} 00000 n \n".encode())
    out.write(
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    )
    return out.getvalue()


def rich_docx_bytes() -> bytes:
    """A letter with a header, a footer, a table, a comment, bold runs inside a name and
    personal metadata (author, last editor, revision, title)."""
    import docx

    document = docx.Document()
    section = document.sections[0]
    section.header.paragraphs[0].text = "Confidential — prepared for Jane Doe"
    section.footer.paragraphs[0].text = "Questions: jane.doe@example.com"
    paragraph = document.add_paragraph("Dear ")
    paragraph.add_run("Jane").bold = True
    paragraph.add_run(" Doe, the deposit goes to IBAN GB82 WEST 1234 5698 7654 32.")
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "Tenant", "Jane Doe"
    table.cell(1, 0).text, table.cell(1, 1).text = "Email", "jane.doe@example.com"
    signed = document.add_paragraph("Signed by Jane Doe in Manchester.")
    document.add_comment(signed.runs, text="Ask Jane Doe to initial", author="John Smith")
    properties = document.core_properties
    properties.author = properties.last_modified_by = "John Smith"
    properties.revision = 7
    properties.title = "Lease for Jane Doe"
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()
