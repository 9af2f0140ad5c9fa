""".docx in, .docx out: the document's text in reading order, and the same file with the
rewrite's replacements made in place, formatting kept and metadata stripped.

python-docx has no API for footnotes, endnotes or text boxes and drops run boundaries
when text is set, so this works on the WordprocessingML parts directly (lxml): every `w:t`
is a slot with an offset into the extracted text, and a replacement that covers several
runs goes into the first run and empties the covered part of the others, so each run keeps
its formatting. Tracked changes are accepted first (deleted text never reaches the output),
and detected strings are also replaced wherever else they occur in the package (hyperlink
targets, field codes, alt text, titles).
"""

from __future__ import annotations

import io
import re
import zipfile
from bisect import bisect_right
from dataclasses import dataclass
from posixpath import basename

from lxml import etree

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
W15 = "http://schemas.microsoft.com/office/word/2012/wordml"
CT = "http://schemas.openxmlformats.org/package/2006/content-types"
REL = "http://schemas.openxmlformats.org/package/2006/relationships"
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
WML = "application/vnd.openxmlformats-officedocument.wordprocessingml."
# Reading order of the parts that hold text; the main document comes in several flavours.
PART_ORDER = ("header", "main", "footnotes", "endnotes", "footer", "comments")
MAX_UNCOMPRESSED_BYTES = 64 * 1024 * 1024
MAX_MEMBERS = 5000
REVIEWER = "Reviewer"
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)
_FIXED = {f"{{{W}}}tab": "\t", f"{{{W}}}br": "\n", f"{{{W}}}cr": "\n", f"{{{W}}}noBreakHyphen": "-"}
_CORE_CLEARED = (
    "creator",
    "lastModifiedBy",
    "revision",
    "lastPrinted",
    "created",
    "modified",
    "keywords",
    "description",
    "subject",
    "category",
    "contentStatus",
    "identifier",
)
_APP_CLEARED = ("Company", "Manager", "HyperlinkBase", "Template", "TotalTime")
_SCRUBBED_ATTRIBUTES = {"Target", "descr", "title", "tooltip", "name", f"{{{W}}}tooltip"}


class DocxError(ValueError):
    """The file is not a .docx this module can read."""


@dataclass(frozen=True)
class Edit:
    """Replace text[start:end] of the extracted text by `text`."""

    start: int
    end: int
    text: str


@dataclass
class _Slot:
    start: int
    length: int
    element: etree._Element | None  # a w:t, or None for tabs, breaks and separators


class _Package:
    """The zip members, with the text-bearing XML parts parsed and tracked changes accepted."""

    def __init__(self, data: bytes, max_bytes: int = MAX_UNCOMPRESSED_BYTES) -> None:
        try:
            archive = zipfile.ZipFile(io.BytesIO(data))
            infos = archive.infolist()
        except (zipfile.BadZipFile, OSError, ValueError) as exc:
            raise DocxError(f"not a .docx (zip) file: {exc}") from None
        if len(infos) > MAX_MEMBERS or sum(i.file_size for i in infos) > max_bytes:
            raise DocxError("the .docx unpacks to more than the allowed size")
        self.infos = infos
        self.members = {info.filename: archive.read(info) for info in infos}
        if "[Content_Types].xml" not in self.members:
            raise DocxError("not a Word document ([Content_Types].xml is missing)")
        self.trees: dict[str, etree._Element] = {}
        self.text_parts = self._text_parts()
        if not any(kind == "main" for kind, _ in self.text_parts):
            raise DocxError("not a Word document (no main document part)")
        for _, name in self.text_parts:
            accept_tracked_changes(self.tree(name))

    def tree(self, name: str) -> etree._Element:
        if name not in self.trees:
            try:
                self.trees[name] = etree.fromstring(self.members[name], _PARSER)
            except etree.XMLSyntaxError as exc:
                raise DocxError(f"{name} is not well-formed XML: {exc}") from None
        return self.trees[name]

    def _text_parts(self) -> list[tuple[str, str]]:
        types = self.tree("[Content_Types].xml")
        found = []
        for override in types.iter(f"{{{CT}}}Override"):
            name = override.get("PartName", "").lstrip("/")
            kind = _part_kind(override.get("ContentType", ""))
            if kind and name in self.members:
                found.append((kind, name))
        return sorted(found, key=lambda kn: (PART_ORDER.index(kn[0]), _natural(kn[1])))

    def to_bytes(self) -> bytes:
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
            for info in self.infos:
                if info.filename not in self.members:
                    continue
                body = self.members[info.filename]
                if info.filename in self.trees:
                    body = etree.tostring(
                        self.trees[info.filename], xml_declaration=True, encoding="UTF-8"
                    )
                archive.writestr(info.filename, body)
        return out.getvalue()


def _part_kind(content_type: str) -> str | None:
    if not content_type.startswith(WML):
        return None
    rest = content_type[len(WML) :]
    if rest.endswith(".main+xml"):
        return "main"
    kind = rest.removesuffix("+xml")
    return kind if kind in PART_ORDER else None


def _natural(name: str) -> list:
    return [int(t) if t.isdecimal() else t for t in re.split(r"(\d+)", name)]


def accept_tracked_changes(root: etree._Element) -> None:
    """Deleted and moved-away text is removed; inserted text is kept without its wrapper;
    formatting-change records (which name their author) are dropped."""
    for tag in ("del", "moveFrom", "rPrChange", "pPrChange", "sectPrChange", "tblPrChange"):
        for element in list(root.iter(f"{{{W}}}{tag}")):
            element.getparent().remove(element)
    for tag in ("ins", "moveTo"):
        for element in list(root.iter(f"{{{W}}}{tag}")):
            parent = element.getparent()
            index = parent.index(element)
            for offset, child in enumerate(list(element)):
                parent.insert(index + offset, child)
            parent.remove(element)


def _slots(package: _Package) -> tuple[str, list[_Slot]]:
    """The extracted text and its slots: paragraphs end with a newline, parts are separated
    by a blank line."""
    slots: list[_Slot] = []
    pieces: list[str] = []
    offset = 0

    def add(text: str, element: etree._Element | None) -> None:
        nonlocal offset
        if text:
            slots.append(_Slot(offset, len(text), element))
            pieces.append(text)
            offset += len(text)

    for index, (_, name) in enumerate(package.text_parts):
        if index and offset:
            add("\n\n", None)
        first_paragraph = True
        for element in package.tree(name).iter():
            tag = element.tag
            if tag == f"{{{W}}}p":
                if not first_paragraph:
                    add("\n", None)
                first_paragraph = False
            elif tag == f"{{{W}}}t":
                add(element.text or "", element)
            elif tag in _FIXED:
                add(_FIXED[tag], None)
    return "".join(pieces), slots


def docx_text(data: bytes, max_bytes: int = MAX_UNCOMPRESSED_BYTES) -> str:
    """The document's text: headers, body (tables in place), footnotes, endnotes, footers and
    comments, in that order."""
    return _slots(_Package(data, max_bytes))[0]


def rewrite_docx(
    data: bytes,
    edits: list[Edit],
    *,
    expected_text: str | None = None,
    scrub: dict[str, str] | None = None,
) -> bytes:
    """The .docx with the edits made in place, `scrub`'s strings replaced everywhere else in
    the package, and personal metadata removed. `expected_text` guards against offsets that
    belong to another extraction."""
    package = _Package(data)
    text, slots = _slots(package)
    if expected_text is not None and text != expected_text.replace("\r\n", "\n"):
        raise DocxError("the document's text differs from the text that was rewritten")
    _apply_edits(slots, sorted(edits, key=lambda e: e.start))
    scrub_everywhere(package, scrub or {})
    strip_metadata(package)
    return package.to_bytes()


def _apply_edits(slots: list[_Slot], edits: list[Edit]) -> None:
    starts = [s.start for s in slots]
    per_slot: dict[int, list[tuple[int, int, str]]] = {}
    for edit in edits:
        first = max(0, bisect_right(starts, edit.start) - 1)
        placed = False
        for i in range(first, len(slots)):
            slot = slots[i]
            if slot.start >= edit.end:
                break
            if slot.element is None or slot.start + slot.length <= edit.start:
                continue
            lo = max(0, edit.start - slot.start)
            hi = min(slot.length, edit.end - slot.start)
            per_slot.setdefault(i, []).append((lo, hi, "" if placed else edit.text))
            placed = True
    for i, changes in per_slot.items():
        element = slots[i].element
        assert element is not None
        original = element.text or ""
        out, cursor = [], 0
        for lo, hi, replacement in changes:
            out.append(original[cursor:lo])
            out.append(replacement)
            cursor = hi
        out.append(original[cursor:])
        element.text = "".join(out)
        element.set(XML_SPACE, "preserve")


def scrub_everywhere(package: _Package, replacements: dict[str, str]) -> None:
    """Replace detected strings in every XML part: text nodes and link-like attributes."""
    usable = {k: v for k, v in replacements.items() if _scrubbable(k)}
    if not usable:
        return
    alternatives = "|".join(re.escape(k) for k in sorted(usable, key=len, reverse=True))
    pattern = re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)
    lookup = {k.casefold(): v for k, v in usable.items()}

    def fix(value: str) -> str:
        return pattern.sub(lambda m: lookup.get(m.group().casefold(), m.group()), value)

    for name in list(package.members):
        if not name.endswith((".xml", ".rels")):
            continue
        if not pattern.search(package.members[name].decode("utf-8", "ignore")) and (
            name not in package.trees
        ):
            continue
        root = package.tree(name)
        for element in root.iter():
            if isinstance(element.tag, str) and element.text:
                element.text = fix(element.text)
            for attribute, value in element.attrib.items():
                local = attribute.rsplit("}", 1)[-1]
                if attribute in _SCRUBBED_ATTRIBUTES or local in _SCRUBBED_ATTRIBUTES:
                    element.set(attribute, fix(value))


def _scrubbable(value: str) -> bool:
    """Long enough that replacing it inside XML cannot hit a style id or a size value."""
    stripped = value.strip()
    return len(stripped) >= 4 and not (stripped.isdigit() and len(stripped) < 6)


def strip_metadata(package: _Package) -> None:
    """Authors, editors, revision, dates, company and custom properties go; comment and
    revision authors become "Reviewer"; the first-page thumbnail is dropped."""
    if "docProps/core.xml" in package.members:
        _clear_children(package.tree("docProps/core.xml"), _CORE_CLEARED)
    if "docProps/app.xml" in package.members:
        _clear_children(package.tree("docProps/app.xml"), _APP_CLEARED)
    if "docProps/custom.xml" in package.members:
        root = package.tree("docProps/custom.xml")
        for child in list(root):
            root.remove(child)
    for name in list(package.members):
        if not name.endswith(".xml") or name.startswith("docProps/"):
            continue
        content = package.members[name]
        if b"author" not in content and b"initials" not in content and name not in package.trees:
            continue
        for element in package.tree(name).iter():
            for attribute in list(element.attrib):
                local = attribute.rsplit("}", 1)[-1]
                if local == "author":
                    element.set(attribute, REVIEWER)
                elif local == "initials":
                    element.set(attribute, "R")
                elif local in ("userId", "providerId") and attribute.startswith(f"{{{W15}}}"):
                    element.set(attribute, "")
    _drop_thumbnail(package)
    _neutralise_template(package)


def _clear_children(root: etree._Element, local_names: tuple[str, ...]) -> None:
    for child in list(root):
        if isinstance(child.tag, str) and child.tag.rsplit("}", 1)[-1] in local_names:
            root.remove(child)


def _drop_thumbnail(package: _Package) -> None:
    thumbnails = [n for n in package.members if n.startswith("docProps/thumbnail")]
    if not thumbnails:
        return
    for name in thumbnails:
        del package.members[name]
    if "_rels/.rels" in package.members:
        rels = package.tree("_rels/.rels")
        for rel in list(rels):
            if basename(rel.get("Target", "")).startswith("thumbnail"):
                rels.remove(rel)
    types = package.tree("[Content_Types].xml")
    for override in list(types.iter(f"{{{CT}}}Override")):
        if override.get("PartName", "").lstrip("/") in thumbnails:
            types.remove(override)


def _neutralise_template(package: _Package) -> None:
    """An attached template's path names the author's folders (C:\\Users\\jane\\...)."""
    name = "word/_rels/settings.xml.rels"
    if name not in package.members:
        return
    for rel in package.tree(name).iter(f"{{{REL}}}Relationship"):
        if rel.get("TargetMode") == "External":
            rel.set("Target", "Normal.dotm")
