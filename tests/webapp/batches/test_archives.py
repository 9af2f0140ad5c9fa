"""Batch uploads: which archives are read, and every way a hostile one is refused."""

import io
import zipfile

import pytest

from tests.documents import docx_bytes
from webapp.batches.archives import BatchError, batch_uploads, read_zip, unsafe_member_name


def make_zip(members: dict[str, bytes], *, compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_a_zip_of_documents_gives_each_member_in_order():
    data = make_zip(
        {
            "a.txt": b"alpha",
            "docs/b.md": b"# beta",
            "c.docx": docx_bytes(["gamma"]),
            "d.pdf": b"%PDF",
        }
    )
    uploads = read_zip("batch.zip", data)
    assert [u.name for u in uploads] == ["a.txt", "docs/b.md", "c.docx", "d.pdf"]
    assert uploads[0].data == b"alpha"


def test_folders_and_os_litter_are_skipped():
    data = make_zip(
        {
            "docs/": b"",
            "docs/a.txt": b"alpha",
            "__MACOSX/docs/._a.txt": b"\x00\x05",
            "docs/.DS_Store": b"\x00",
            "Thumbs.db": b"\x00",
        }
    )
    assert [u.name for u in read_zip("batch.zip", data)] == ["docs/a.txt"]


def test_several_files_are_the_documents_themselves():
    uploads = batch_uploads([("a.txt", b"a"), ("b.txt", b"b"), ("c.pdf", b"%PDF")])
    assert [u.name for u in uploads] == ["a.txt", "b.txt", "c.pdf"]


def test_a_zip_together_with_other_files_is_refused():
    with pytest.raises(BatchError, match="either one .zip or the documents"):
        batch_uploads([("a.txt", b"a"), ("more.zip", make_zip({"b.txt": b"b"}))])


def test_no_files_is_refused():
    with pytest.raises(BatchError, match="Choose the files"):
        batch_uploads([])


@pytest.mark.parametrize(
    "name",
    ["../evil.txt", "docs/../../evil.txt", "/etc/passwd.txt", "C:/win.txt", "..\\evil.txt",
     "a\\..\\..\\b.txt"],
)  # fmt: skip
def test_path_traversal_in_member_names_is_refused(name):
    assert unsafe_member_name(name)
    with pytest.raises(BatchError, match="points outside the archive"):
        read_zip("evil.zip", make_zip({"ok.txt": b"fine", name: b"x"}))


@pytest.mark.parametrize("name", ["a.txt", "dir/b.md", "x..y.txt", "deep/er/c.pdf"])
def test_ordinary_names_are_safe(name):
    assert not unsafe_member_name(name)


@pytest.mark.parametrize("inner", ["more.zip", "more.tar.gz", "x.7z", "y.rar"])
def test_nested_archives_are_refused(inner):
    with pytest.raises(BatchError, match="nested archives are not accepted"):
        read_zip("outer.zip", make_zip({"a.txt": b"a", inner: b"PK"}))


def test_unsupported_members_are_refused_by_name():
    with pytest.raises(BatchError, match="'photo.png', which is not a supported document"):
        read_zip("batch.zip", make_zip({"a.txt": b"a", "photo.png": b"\x89PNG"}))


def test_a_zip_bomb_is_refused_from_the_directory_before_decompressing(settings):
    bomb = make_zip({"bomb.txt": b"a" * 1_500_000})
    with pytest.raises(BatchError, match="looks like a zip bomb"):
        read_zip("bomb.zip", bomb)
    settings.MAX_ZIP_RATIO = 10_000
    assert read_zip("bomb.zip", bomb)[0].data == b"a" * 1_500_000  # the ratio is what refused it


def test_a_member_over_the_document_limit_is_refused(settings):
    settings.MAX_DOCUMENT_BYTES = 1000
    with pytest.raises(BatchError, match="the limit is 1,000 bytes per document"):
        read_zip("big.zip", make_zip({"big.txt": b"x" * 1001}, compression=zipfile.ZIP_STORED))


def test_members_together_over_the_batch_limit_are_refused(settings):
    settings.BATCH_MAX_TOTAL_BYTES = 2500
    data = make_zip({f"{i}.txt": b"y" * 1000 for i in range(3)}, compression=zipfile.ZIP_STORED)
    with pytest.raises(BatchError, match="expands to 3,000 bytes"):
        read_zip("many.zip", data)


def test_too_many_documents_are_refused(settings):
    settings.BATCH_MAX_DOCUMENTS = 3
    with pytest.raises(BatchError, match="holds 4 documents; a batch may hold at most 3"):
        read_zip("many.zip", make_zip({f"{i}.txt": b"t" for i in range(4)}))
    with pytest.raises(BatchError, match="at most 3"):
        batch_uploads([(f"{i}.txt", b"t") for i in range(4)])


def test_too_many_entries_are_refused_before_anything_is_read(settings):
    settings.BATCH_MAX_ZIP_ENTRIES = 10
    data = make_zip({f"d{i}/": b"" for i in range(11)})
    with pytest.raises(BatchError, match="has 11 entries"):
        read_zip("dirs.zip", data)


def test_a_zip_of_nothing_but_folders_is_refused():
    with pytest.raises(BatchError, match="holds no documents"):
        read_zip("empty.zip", make_zip({"a/": b"", "b/": b""}))


def test_a_member_that_lies_about_its_size_is_refused():
    data = bytearray(make_zip({"a.txt": b"0123456789"}, compression=zipfile.ZIP_STORED))
    # shrink the declared size in the central directory (offset 24 of its record) to 4 bytes
    central = data.rfind(b"PK\x01\x02")
    data[central + 24 : central + 28] = (4).to_bytes(4, "little")
    with pytest.raises(BatchError, match="more than its declared size|cannot be read"):
        read_zip("liar.zip", bytes(data))


def test_a_password_protected_member_is_refused():
    data = bytearray(make_zip({"a.txt": b"secret"}, compression=zipfile.ZIP_STORED))
    central = data.rfind(b"PK\x01\x02")
    data[central + 8] |= 0x1  # the "encrypted" general-purpose flag
    with pytest.raises(BatchError, match="password-protected"):
        read_zip("locked.zip", bytes(data))


@pytest.mark.parametrize("data", [b"not a zip", b"PK\x03\x04broken", b""])
def test_an_unreadable_zip_is_refused(data):
    with pytest.raises(BatchError, match="not a readable .zip"):
        read_zip("broken.zip", data)


def test_a_zip_over_the_upload_limit_is_refused(settings):
    settings.BATCH_MAX_ZIP_BYTES = 100
    with pytest.raises(BatchError, match="may be at most 100 bytes"):
        read_zip("big.zip", make_zip({"a.txt": b"z" * 500}, compression=zipfile.ZIP_STORED))
