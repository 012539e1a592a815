"""Text cleaning applied to every field on ingest.

Records come from scraped pages and dumps. Before any text reaches the extractor or the
graph it is made safe to store and serialise:

- UTF-8 text that was mis-decoded as Latin-1 or Windows-1252 somewhere upstream
  (``"Ï\x80"`` for ``"π"``, ``"â€™"`` for ``"’"``) is repaired;
- lone UTF-16 surrogates (from JSON escapes such as ``"\\ud800"``) become U+FFFD;
- NUL and other C0/C1 control characters (except tab and newline) are removed;
- zero-width spaces and byte-order marks are removed (joiners used by scripts are kept);
- text is put in Unicode NFC form;
- fields longer than :data:`MAX_FIELD_CHARS` are cut, and the caller is told.

Each function returns the cleaned text and a list of short notes on what was changed, so a
reader can report them against the record and field they came from.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["MAX_FIELD_CHARS", "clean", "clean_line", "strip_markup", "unwrap"]

MAX_FIELD_CHARS = 20_000

# A UTF-8 lead byte followed by continuation bytes, each shown as its Latin-1/cp1252 character.
_MOJIBAKE = re.compile(r"[\u00c2-\u00f4][\u0080-\u00bf\u20ac\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u017d\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u017e\u0178]{1,3}")
_SURROGATES = re.compile(r"[\ud800-\udfff]")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_INVISIBLE = re.compile(r"[\u200b\u2060\ufeff\ufffe\uffff]")
_SPACES = re.compile(r"[ \t\r\f\v\u00a0]+")
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]*(?:\s[^<>]*)?/?>")


def clean(text: str, *, limit: int = MAX_FIELD_CHARS) -> tuple[str, list[str]]:
    """Return ``text`` made safe to store, with notes on what changed.

    >>> clean("a\\x00b\\u200b c")
    ('ab c', ['removed 1 control character(s)', 'removed 1 invisible character(s)'])
    """
    notes: list[str] = []
    text, n = _repair_mojibake(text)
    if n:
        notes.append(f"repaired {n} mis-decoded character(s)")
    text, n = _SURROGATES.subn("\ufffd", text)
    if n:
        notes.append(f"replaced {n} lone surrogate(s) with U+FFFD")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text, n = _CONTROL.subn("", text)
    if n:
        notes.append(f"removed {n} control character(s)")
    text, n = _INVISIBLE.subn("", text)
    if n:
        notes.append(f"removed {n} invisible character(s)")
    text = unicodedata.normalize("NFC", text).strip()
    if len(text) > limit:
        notes.append(f"cut from {len(text):,} to {limit:,} characters")
        text = text[:limit].rstrip()
    return text, notes


def _repair_mojibake(text: str) -> tuple[str, int]:
    count = 0

    def fix(m: re.Match[str]) -> str:
        nonlocal count
        run = m.group(0)
        for codec in ("latin-1", "cp1252"):
            try:
                fixed = run.encode(codec).decode("utf-8")
            except (UnicodeEncodeError, UnicodeDecodeError):
                continue
            if len(fixed) == 1:
                count += 1
                return fixed
        return run

    if not any("\u00c2" <= c <= "\u00f4" for c in text):
        return text, 0
    return _MOJIBAKE.sub(fix, text), count


def clean_line(text: str, *, limit: int = 2_000) -> tuple[str, list[str]]:
    """Like :func:`clean`, and also fold all whitespace into single spaces (titles, names)."""
    text, notes = clean(text, limit=limit)
    return _SPACES.sub(" ", text.replace("\n", " ")).strip(), notes


def strip_markup(text: str) -> str:
    """Remove HTML tags from a title; TeX is kept as written (``P$^2$-MOPD``).

    >>> strip_markup("Deep <i>learning</i> for <b>all</b>")
    'Deep learning for all'
    """
    return _TAG.sub("", text)


def unwrap(text: str | None) -> str | None:
    """Join hard-wrapped lines (arXiv abstracts are wrapped at 80 columns) into one paragraph.

    >>> unwrap("  A fully differential\ncalculation is\n  presented. ")
    'A fully differential calculation is presented.'
    """
    if text is None:
        return None
    return re.sub(r"\s*\n\s*", " ", text).strip()
