"""A fixed, seeded corpus of malformed and hostile requests for the submit, preview and page
views: broken and extreme settings, bad text, bad and hostile files (zip and XML bombs as
.docx, broken and huge PDFs), raw bodies in odd encodings, and junk query strings.

`build_corpus()` returns the same cases on every run (seeded), so a failure reproduces.
"""

from __future__ import annotations

import io
import random
import zipfile
import zlib
from dataclasses import dataclass, field
from functools import cache

from tests.documents import docx_bytes, pdf_bytes

SEED = 16
MECHANISMS = ["redact", "dp-embed-invert", "santext", "custext", "clusant", "no-such", ""]
NUMBERS = [
    "",
    " ",
    "0",
    "-0",
    "-1",
    "1",
    "0.5",
    "16",
    "1e-320",
    "5e-324",
    "1e-300",
    "1e-10",
    "0.999999999999",
    "1.0000001",
    "1e308",
    "1.7976931348623157e308",
    "1e309",
    "inf",
    "-inf",
    "Infinity",
    "∞",
    "nan",
    "NaN",
    "abc",
    "1,5",
    "0x10",
    "1_000",
    " 3 ",
    "١٢",
    "1e",
    "--1",
    "99999999999999999999999999999",
    "\x00",
    "'; DROP TABLE jobs; --",
    "%s%s%n",
    "9" * 400,
]
CHOICES = {
    "composition": ["basic", "zcdp", "gdp", "", "BASIC", "rdp", "\x00"],
    "detector": ["regex", "none", "regex", "gold", "", "no-such", "presidio\x00"],
    "redact_pii": ["on", "", "off", "maybe"],
    "sanitize_general_words": ["on", "", "1", "yes please"],
}
NUMERIC_FIELDS = [
    "epsilon",
    "delta",
    "clip_radius",
    "metric_unit",
    "num_steps",
    "n_clusters",
    "cluster_size",
    "cluster_push",
    "candidates_per_category",
    "seed",
]
TEXTS = [
    "Mail jane.doe@example.com or call +1 415-555-0188.",
    "Dr. Maria Lopez met John Smith in Paris.",
    "plain words only",
    "ünïcødé — 你好 — مرحبا — 🙂🙂",
]


@dataclass
class Case:
    """One request: `kind` is post (form data), raw (a body and its content type) or get."""

    name: str
    kind: str
    url: str
    data: dict = field(default_factory=dict)
    files: dict[str, tuple[str, bytes]] = field(default_factory=dict)
    body: bytes = b""
    content_type: str = ""


def build_corpus() -> list[Case]:
    rng = random.Random(SEED)
    cases = settings_cases(rng, 720)
    cases += extreme_valid_settings_cases(rng, 240)
    cases += text_cases()
    cases += upload_cases()
    cases += raw_cases()
    cases += get_cases(rng)
    return cases


def settings_cases(rng: random.Random, n: int) -> list[Case]:
    cases = []
    for i in range(n):
        data: dict = {"mechanism": rng.choice(MECHANISMS), "text": rng.choice(TEXTS)}
        for name in rng.sample(NUMERIC_FIELDS, rng.randint(1, len(NUMERIC_FIELDS))):
            data[name] = rng.choice(NUMBERS)
        for name, values in CHOICES.items():
            if rng.random() < 0.5:
                data[name] = rng.choice(values)
        if rng.random() < 0.3:
            data["whitelist_categories"] = rng.choice(
                [["email address"], ["no such category"], ["\x00", ""], ["email address"] * 50]
            )
        if rng.random() < 0.3:
            data[rng.choice(["allow_list", "deny_list", "sensitive_words"])] = rng.choice(
                ["jane", "\n" * 500, "x" * 20_000, "a,b,,c", "\x00"]
            )
        if rng.random() < 0.2:
            data[f"unknown_field_{i % 7}"] = rng.choice(NUMBERS)
        url = "submit_preview" if i % 2 else "submit"
        cases.append(Case(f"settings-{i}", "post", url, data=data))
    return cases


EXTREME = {
    "epsilon": ["5e-324", "1e-300", "1e-12", "0.001", "1e5", "1e300", "1e308", "inf"],
    "delta": ["5e-324", "1e-300", "1e-12", "0.5", "0.999999999999"],
    "clip_radius": ["5e-324", "1e-300", "1e-10", "1e10", "1e300", "1e308"],
    "metric_unit": ["", "5e-324", "1e-300", "1e300", "1e308"],
    "cluster_push": ["5e-324", "1e-300", "1e300", "inf"],
    "composition": ["basic", "zcdp", "gdp"],
}


def extreme_valid_settings_cases(rng: random.Random, n: int) -> list[Case]:
    """Values each field accepts, pushed to the edges, so the privacy maths itself is hit."""
    cases = []
    for i in range(n):
        data = {
            "mechanism": rng.choice(["dp-embed-invert", "santext", "custext", "clusant"]),
            "detector": "regex",
            "text": rng.choice(TEXTS) * rng.choice([1, 3]),
            "num_steps": "1",
            "n_clusters": "4",
            "candidates_per_category": "50",
            "redact_pii": "on",
            **{name: rng.choice(values) for name, values in EXTREME.items()},
        }
        url = "submit_preview" if i % 2 else "submit"
        cases.append(Case(f"extreme-{i}", "post", url, data=data))
    return cases


def text_cases() -> list[Case]:
    texts = {
        "empty": "",
        "spaces": "   \n\t  ",
        "nul": "abc\x00def",
        "controls": "".join(chr(c) for c in range(1, 32)) * 20,
        "bell-heavy": "a\x07" * 1000,
        "over-limit": "a" * 2_000_001,
        "near-limit": ("Contact jane@example.com. " * 73_000)[:1_900_000],
        "one-long-line": "x" * 300_000,
        "newlines": "\n" * 100_000 + "a",
        "rtl-emoji": "\u202e\u200f🙂" * 5000,
        "combining": "e\u0301" * 50_000,
        "only-pii": "jane@example.com " * 2000,
    }
    cases = []
    for name, text in texts.items():
        for url in ("submit", "submit_preview"):
            data = {"mechanism": "redact", "detector": "regex", "text": text}
            cases.append(Case(f"text-{name}-{url}", "post", url, data=data))
    return cases


def upload_cases() -> list[Case]:
    files = {
        "empty.txt": b"",
        "binary.txt": bytes(range(256)) * 40,
        "nul.txt": b"hello\x00world",
        "invalid-utf8.txt": b"caf\xe9 \xff\xfe\xfd",
        "utf16-no-bom.txt": "Mail jane@example.com today.".encode("utf-16-le"),
        "utf16-be-no-bom.txt": "Mail jane@example.com today.".encode("utf-16-be"),
        "utf16-bom.txt": "Mail jane@example.com today.".encode("utf-16"),
        "utf16-odd.txt": "Mail".encode("utf-16-le") + b"\x00",
        "huge.txt": b"a" * 2_000_001,
        "huge.md": b"# title\n" + b"word " * 500_000,
        "noext": b"hello",
        "x.exe": b"MZ\x90\x00",
        "../../etc/passwd.txt": b"root:x:0:0",
        ("a" * 300) + ".txt": b"long name",
        "random.docx": random.Random(1).randbytes(5000),
        "text-as.docx": b"just text, not a zip",
        "zip-without-document.docx": _zip({"hello.txt": b"hi"}),
        "zip-bomb.docx": _zip_bomb(),
        "zip-total-bomb.docx": _zip_total_bomb(),
        "zip-many-members.docx": _zip_many_members(),
        "xml-billion-laughs.docx": _docx_xml(_billion_laughs()),
        "xml-deep-nesting.docx": _docx_xml(b"<a>" * 100_000 + b"</a>" * 100_000),
        "xml-malformed.docx": _docx_xml(b"<w:document><w:body><w:p>"),
        "xml-external-entity.docx": _docx_xml(_external_entity()),
        "docx-too-much-text.docx": _long_text_docx(),
        "valid.docx": docx_bytes(["Mail jane@example.com today."]),
        "truncated.docx": docx_bytes(["Mail jane@example.com today."])[:2000],
        "random.pdf": b"%PDF-1.4\n" + random.Random(2).randbytes(5000),
        "not-a.pdf": b"hello",
        "truncated.pdf": pdf_bytes(["Mail jane@example.com"])[:300],
        "stream-bomb.pdf": _pdf_stream_bomb(),
        "many-pages.pdf": _pdf_many_pages(200),
        "no-text.pdf": pdf_bytes([]),
        "broken-xref.pdf": pdf_bytes(["hello"]).replace(b"xref", b"xrfe"),
        "valid.pdf": pdf_bytes(["Mail jane@example.com today."]),
    }
    cases = []
    for name, data in files.items():
        for url in ("submit", "submit_preview"):
            form = {"mechanism": "redact", "detector": "regex"}
            cases.append(
                Case(f"upload-{name[:40]}-{url}", "post", url, form, {"file": (name, data)})
            )
    both = {"mechanism": "redact", "text": "pasted too"}
    cases.append(Case("upload-and-text", "post", "submit", both, {"file": ("a.txt", b"hi")}))
    return cases


def raw_cases() -> list[Case]:
    form = "mechanism=redact&detector=regex&text=Mail+jane%40example.com"
    bodies = [
        ("utf16-form", form.encode("utf-16"), "application/x-www-form-urlencoded; charset=utf-16"),
        ("latin1-form", b"text=caf\xe9", "application/x-www-form-urlencoded; charset=latin-1"),
        ("bogus-charset", form.encode(), "application/x-www-form-urlencoded; charset=nope"),
        ("invalid-utf8", b"mechanism=redact&text=%ff%fe%fd", "application/x-www-form-urlencoded"),
        ("surrogate", b"mechanism=redact&text=%ed%a0%80abc", "application/x-www-form-urlencoded"),
        ("raw-nul", b"mechanism=redact&text=a\x00b", "application/x-www-form-urlencoded"),
        ("no-boundary", b"--x\r\n", "multipart/form-data"),
        ("bad-boundary", b"garbage", "multipart/form-data; boundary=zzz"),
        ("truncated-multipart", _multipart()[:-40], "multipart/form-data; boundary=BOUNDARY"),
        ("utf16-multipart", _multipart(), "multipart/form-data; boundary=BOUNDARY; charset=utf-16"),
        ("json", b'{"mechanism": "redact", "text": "hi"}', "application/json"),
        ("empty", b"", "application/x-www-form-urlencoded"),
        (
            "many-fields",
            "&".join(f"f{i}=1" for i in range(5000)).encode(),
            "application/x-www-form-urlencoded",
        ),
        ("huge-field", b"text=" + b"a" * 3_100_000, "application/x-www-form-urlencoded"),
        ("xml", b"<?xml version='1.0'?><a/>", "text/xml"),
    ]
    cases = []
    for name, body, content_type in bodies:
        for url in ("submit", "submit_preview", "submit_params"):
            cases.append(
                Case(f"raw-{name}-{url}", "raw", url, body=body, content_type=content_type)
            )
    return cases


def get_cases(rng: random.Random) -> list[Case]:
    junk = ["", "-", "abc", "-1", "0", "99999999999999999999", "1e5", "\x00", "%00", "2020-13-45"]
    params = ["sort", "page", "q", "mechanism", "state", "from", "to"]
    cases = []
    for i in range(60):
        query = {p: rng.choice(junk) for p in rng.sample(params, rng.randint(1, len(params)))}
        cases.append(Case(f"history-{i}", "get", "history", data=query))
    for i, value in enumerate(junk):
        cases.append(Case(f"submit-from-job-{i}", "get", "submit", data={"from_job": value}))
        cases.append(Case(f"params-{i}", "get", "submit_params", data={"mechanism": value}))
        cases.append(Case(f"spans-{i}", "get", "job_detail", data={"spans": value}))
    return cases


def _zip(members: dict[str, bytes], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


CONTENT_TYPES = (
    b'<?xml version="1.0" encoding="UTF-8"?>'
    b'<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    b'<Default Extension="rels" '
    b'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    b'<Default Extension="xml" ContentType="application/xml"/>'
    b'<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-'
    b'officedocument.wordprocessingml.document.main+xml"/></Types>'
)
RELS = (
    b'<?xml version="1.0" encoding="UTF-8"?>'
    b'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    b'<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    b'relationships/officeDocument" Target="word/document.xml"/></Relationships>'
)
W_NS = b'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def _docx_xml(document_xml: bytes) -> bytes:
    """A minimal .docx whose main part is the given XML."""
    return _zip(
        {
            "[Content_Types].xml": CONTENT_TYPES,
            "_rels/.rels": RELS,
            "word/document.xml": document_xml,
        }
    )


def _paragraphs(text: bytes, n: int) -> bytes:
    paragraph = b"<w:p><w:r><w:t>" + text + b"</w:t></w:r></w:p>"
    return b"<w:document " + W_NS + b"><w:body>" + paragraph * n + b"</w:body></w:document>"


@cache
def _long_text_docx() -> bytes:
    """Ordinary, poorly compressible text past the document limit (2.5 million characters)."""
    rng = random.Random(3)
    words = [bytes(rng.choices(range(97, 123), k=rng.randint(2, 9))) for _ in range(5000)]
    paragraphs = [b" ".join(rng.choices(words, k=800)) for _ in range(500)]
    body = b"".join(b"<w:p><w:r><w:t>" + p + b"</w:t></w:r></w:p>" for p in paragraphs)
    return _docx_xml(b"<w:document " + W_NS + b"><w:body>" + body + b"</w:body></w:document>")


@cache
def _zip_bomb() -> bytes:
    """A .docx whose main part is 30 MB of one repeated byte (compresses about 1000:1)."""
    return _zip(
        {
            "[Content_Types].xml": CONTENT_TYPES,
            "_rels/.rels": RELS,
            "word/document.xml": b" " * 30_000_000,
        }
    )


@cache
def _zip_total_bomb() -> bytes:
    """Many parts just under the per-part ratio check that together expand past the limit."""
    part = (b"<w:p>" + bytes(range(32, 127)) * 9 + b"</w:p>") * 950
    return _zip({f"word/media/part{i}.xml": part for i in range(60)} | {"word/document.xml": b""})


@cache
def _zip_many_members() -> bytes:
    return _zip({f"word/p{i}.xml": b"" for i in range(1500)} | {"word/document.xml": b""})


def _billion_laughs() -> bytes:
    entities = b'<!ENTITY l0 "ha">' + b"".join(
        b'<!ENTITY l%d "%s">' % (i, b"&l%d;" % (i - 1) * 10) for i in range(1, 10)
    )
    return (
        b'<?xml version="1.0"?><!DOCTYPE w:document [' + entities + b"]>"
        b"<w:document " + W_NS + b"><w:body><w:p><w:r><w:t>&l9;</w:t></w:r></w:p>"
        b"</w:body></w:document>"
    )


def _external_entity() -> bytes:
    return (
        b'<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        b"<w:document " + W_NS + b"><w:body><w:p><w:r><w:t>&x;</w:t></w:r></w:p>"
        b"</w:body></w:document>"
    )


def _pdf(objects: list[bytes]) -> bytes:
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for i, obj in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % i + obj + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(
        b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    )
    return out.getvalue()


@cache
def _pdf_stream_bomb() -> bytes:
    """One page whose content stream inflates from about 200 kB to 200 MB."""
    stream = zlib.compress(b"0 0 m " * 35_000_000, 9)
    return _pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
            b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream)
            + stream
            + b"\nendstream",
        ]
    )


def _pdf_many_pages(n: int) -> bytes:
    kids = b" ".join(b"%d 0 R" % (i + 3) for i in range(n))
    pages = [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"] * n
    return _pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, n),
        ]
        + pages
    )


def _multipart() -> bytes:
    return (
        b"--BOUNDARY\r\n"
        b'Content-Disposition: form-data; name="mechanism"\r\n\r\nredact\r\n'
        b"--BOUNDARY\r\n"
        b'Content-Disposition: form-data; name="file"; filename="a.txt"\r\n'
        b"Content-Type: text/plain\r\n\r\n" + "hé".encode("utf-16") + b"\r\n--BOUNDARY--\r\n"
    )
