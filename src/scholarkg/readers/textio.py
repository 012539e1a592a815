r"""Input files as text, the same way for every reader: encodings, bad bytes and line ends.

- **Byte-order marks** say the encoding: UTF-8, UTF-16 (LE/BE) and UTF-32 (LE/BE); the mark
  is not part of the text. Without one, a file is UTF-8.
- **Bytes that do not decode** become U+FFFD, and are counted so the reader can report them.
- **Latin-1 fall-back**: a UTF-8 file (or, for line-based formats, a line) that is not valid
  UTF-8, holds no valid multi-byte UTF-8 sequence at all, and has bad bytes that are not even
  shaped like UTF-8 (a lead byte and its continuation bytes) was written in a single-byte
  encoding; it is read as Windows-1252 (Latin-1 for the five bytes Windows-1252 leaves
  undefined), and the reader says so in a note. Text that mixes valid UTF-8 with bad bytes, or
  whose bad bytes are UTF-8-shaped (an encoded surrogate), stays UTF-8, the bad bytes replaced.
- **Line ends**: CR LF, CR alone and LF each end a line; the text handed on has LF only.

Bad bytes are first decoded to lone surrogates U+DC00-U+DCFF (one per byte, as the
``surrogateescape`` error handler does for UTF-8, but for every codec); no valid decoding gives
a lone surrogate, so afterwards they mark exactly the bytes that did not decode, and the
original byte is still known for the fall-back.

>>> decode(b"caf\xc3\xa9\r\nna\xefve\rend")
Decoded(text='café\nna\ufffdve\nend', encoding='utf-8', replaced=1, latin1=False)
>>> decode(b"na\xefve caf\xe9").text
'naïve café'
>>> decode("\ufeffA\r\nb".encode("utf-16-le")).text
'A\nb'
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

__all__ = ["Decoded", "decode", "decode_head", "iter_lines", "sniff_encoding"]

_BOMS = (  # UTF-32 first: its little-endian mark begins with UTF-16's
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_HANDLER = "scholarkg-mark"
_MARK = re.compile(r"[\udc00-\udcff]")
_MARK_RUN = re.compile(r"[\udc00-\udcff]+")
_UTF8_SHAPE = re.compile(rb"(?:[\xc0-\xf7][\x80-\xbf]{1,3})+")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
_LINE_END = re.compile(r"\r\n|\r|\n")
_CHUNK = 1 << 20


_LATIN1 = "scholarkg-latin1"


def _mark(error: UnicodeDecodeError) -> tuple[str, int]:
    return "".join(chr(0xDC00 + b) for b in error.object[error.start : error.end]), error.end


def _latin1(error: UnicodeDecodeError) -> tuple[str, int]:
    """The bytes Windows-1252 leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D), as Latin-1 reads them."""
    return error.object[error.start : error.end].decode("latin-1"), error.end


codecs.register_error(_HANDLER, _mark)
codecs.register_error(_LATIN1, _latin1)


@dataclass(frozen=True)
class Decoded:
    text: str
    encoding: str
    replaced: int  # bytes that did not decode, now U+FFFD
    latin1: bool  # read as Windows-1252 / Latin-1 instead of UTF-8


def sniff_encoding(head: bytes) -> tuple[str, int]:
    """The encoding a file's first bytes declare by a byte-order mark (UTF-8 without one), and the mark's length."""
    for bom, encoding in _BOMS:
        if head.startswith(bom):
            return encoding, len(bom)
    return "utf-8", 0


def _single_byte(marked: str) -> str:
    """UTF-8-decoded text whose only non-ASCII characters are marks, read again as Windows-1252."""
    return marked.encode("utf-8", errors="surrogateescape").decode("cp1252", errors=_LATIN1)


def _utf8_shaped(marked: str) -> bool:
    """True if every run of bad bytes has the shape of UTF-8 (lead byte, continuation bytes): an
    encoded surrogate or an over-long form is damaged UTF-8, not Latin-1."""
    for run in _MARK_RUN.finditer(marked):
        if not _UTF8_SHAPE.fullmatch(run.group().encode("utf-8", errors="surrogateescape")):
            return False
    return True


def _finish(marked: str, encoding: str, *, fallback: bool) -> tuple[str, int, bool]:
    """(text, bytes replaced, read as Latin-1) for decoded text that may hold marks."""
    if not _MARK.search(marked):
        return marked, 0, False
    if fallback and encoding == "utf-8" and not _NON_ASCII.search(_MARK.sub("", marked)) and not _utf8_shaped(marked):
        return _single_byte(marked), 0, True
    text, replaced = _MARK.subn("\ufffd", marked)
    return text, replaced, False


def decode(data: bytes, *, fallback: bool = True) -> Decoded:
    """A whole file's bytes as text (see the module docstring)."""
    encoding, bom = sniff_encoding(data[:4])
    marked = _LINE_END.sub("\n", data[bom:].decode(encoding, errors=_HANDLER))
    text, replaced, latin1 = _finish(marked, encoding, fallback=fallback)
    return Decoded(text, "windows-1252" if latin1 else encoding, replaced, latin1)


def decode_head(head: bytes) -> str:
    """The first bytes of a file as text, for telling its format (a character cut at the end is dropped)."""
    encoding, bom = sniff_encoding(head[:4])
    decoder = codecs.getincrementaldecoder(encoding)(errors=_HANDLER)
    marked = _LINE_END.sub("\n", decoder.decode(head[bom:], final=False))
    return _finish(marked, encoding, fallback=True)[0]


def iter_lines(fh: BinaryIO) -> Iterator[tuple[int, str, int, bool]]:
    """``(line number, text, bytes replaced, read as Latin-1)`` for each line of a binary file.

    Lines are decoded as they are read (memory stays bounded by the longest line); the
    Latin-1 fall-back is decided line by line.
    """
    head = fh.read(4)
    encoding, bom = sniff_encoding(head)
    decoder = codecs.getincrementaldecoder(encoding)(errors=_HANDLER)
    pending = decoder.decode(head[bom:])
    number = 0
    while True:
        data = fh.read(_CHUNK)
        pending += decoder.decode(data, final=not data)
        start = 0
        for end in _LINE_END.finditer(pending):
            if end.group() == "\r" and end.end() == len(pending) and data:
                break  # a CR at the end of a chunk may be the first half of CR LF
            number += 1
            yield number, *_finish(pending[start : end.start()], encoding, fallback=True)
            start = end.end()
        pending = pending[start:]
        if not data:
            break
    if pending:
        number += 1
        yield number, *_finish(pending, encoding, fallback=True)
