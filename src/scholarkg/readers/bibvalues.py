"""BibTeX field values: ``{braced}``, ``"quoted"``, numbers and ``@string`` macros joined by ``#``.

bibtexparser's splitter hands each field over as written (``conf # " 2020"``). Its own
string middleware replaces only a value that is one macro name as a whole, and does not
expand macros used inside other ``@string`` definitions, so the concatenation grammar is
evaluated here. It is also where a hostile file could make reading explode: each ``@string``
of a doubling chain (``@string{b = a # a}``, ``@string{c = b # b}``, ...) doubles the text, so a
1 KB file would expand to gigabytes. The sizes and nesting depth of macros are therefore
computed from their definitions, before anything is expanded, and a value is expanded only
when it fits :data:`MAX_VALUE_CHARS` and :data:`MAX_DEPTH` and the file's expansion budget
(proportional to the file's size). Reading stays linear in the size of the input.

>>> m = Macros(budget=1_000)
>>> m.define("conf", '"Proc. ACL"')
>>> m.expand('conf # " 2020"')
('Proc. ACL 2020', [])
"""

from __future__ import annotations

import re

from ..text import MAX_FIELD_CHARS

__all__ = ["Macros", "BadValue", "MAX_VALUE_CHARS", "MAX_DEPTH", "MONTHS"]

# Longer values would be cut on ingest anyway (text.clean cuts at 4 x MAX_FIELD_CHARS).
MAX_VALUE_CHARS = 4 * MAX_FIELD_CHARS
MAX_DEPTH = 32  # macros defined in terms of macros, this many levels deep at most
# BibTeX's standard styles define the month macros.
MONTHS = {
    "jan": "January", "feb": "February", "mar": "March", "apr": "April", "may": "May", "jun": "June",
    "jul": "July", "aug": "August", "sep": "September", "oct": "October", "nov": "November", "dec": "December",
}

_BRACES = re.compile(r"(?<!\\)[{}]")
_QUOTE_OR_BRACE = re.compile(r'(?<!\\)["{}]')
_NAME = re.compile(r"[^\s#{}\"'(),=%]+")
_SPACE = re.compile(r"\s*")


class BadValue(ValueError):
    """A field value that cannot be read or expanded (the message says why)."""


def _parts(raw: str) -> list[tuple[bool, str]]:
    """``raw`` as ``(is_macro, text)`` parts; raises BadValue for a malformed value."""
    parts: list[tuple[bool, str]] = []
    i, n = 0, len(raw)
    while True:
        i = _SPACE.match(raw, i).end()
        if i >= n:
            raise BadValue("value expected after '#'" if parts else "empty value")
        ch = raw[i]
        if ch == "{":
            end = _closing_brace(raw, i)
            parts.append((False, raw[i + 1 : end]))
            i = end + 1
        elif ch == '"':
            end = _closing_quote(raw, i)
            parts.append((False, raw[i + 1 : end]))
            i = end + 1
        else:
            m = _NAME.match(raw, i)
            if not m:
                raise BadValue(f"unexpected {ch!r} in the value")
            word = m.group()
            parts.append((False, word) if word.isdigit() else (True, word.lower()))
            i = m.end()
        i = _SPACE.match(raw, i).end()
        if i >= n:
            return parts
        if raw[i] != "#":
            raise BadValue(f"'#' expected between the parts of the value, found {raw[i]!r}")
        i += 1


def _closing_brace(raw: str, start: int) -> int:
    depth = 0
    for m in _BRACES.finditer(raw, start):
        depth += 1 if m.group() == "{" else -1
        if depth == 0:
            return m.start()
    raise BadValue("unbalanced braces")


def _closing_quote(raw: str, start: int) -> int:
    depth = 0
    for m in _QUOTE_OR_BRACE.finditer(raw, start + 1):
        ch = m.group()
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth < 0:
                raise BadValue("unbalanced braces in a quoted value")
        elif depth == 0:
            return m.start()
    raise BadValue("unterminated quoted value")


class Macros:
    """The ``@string`` macros of one file, in order of definition, with bounded expansion.

    ``budget`` is the number of characters all expansions of the file may produce together.
    """

    def __init__(self, budget: int):
        self.budget = budget
        # name -> (parts, size, depth); refused definitions are in ``_refused`` with the reason
        self._defs: dict[str, tuple[list[tuple[bool, str]], int, int]] = {}
        self._refused: dict[str, str] = {}
        self._expanded: dict[str, str] = {}

    def define(self, name: str, raw: str) -> None:
        """Define macro ``name`` as ``raw``; raises BadValue if it is malformed or nested too
        deep (then using it later is an error too). Only sizes are computed, nothing expanded."""
        key = name.strip().lower()
        self._expanded.pop(key, None)
        self._refused.pop(key, None)
        self._defs.pop(key, None)
        try:
            parts = _parts(raw)
            literal, from_macros, depth = self._measure(parts)
        except BadValue as exc:
            self._refused[key] = getattr(exc, "root", str(exc))
            raise
        self._defs[key] = (parts, literal + from_macros, depth)

    def _measure(self, parts: list[tuple[bool, str]]) -> tuple[int, int, int]:
        """Characters written out in ``parts``, characters its macros add, and its macro depth."""
        literal, from_macros, depth = 0, 0, 0
        for is_macro, text in parts:
            if not is_macro:
                literal += len(text)
                continue
            if text in self._refused:
                error = BadValue(f"uses @string {text!r}, which cannot be used ({self._refused[text]})")
                error.root = self._refused[text]
                raise error
            known = self._defs.get(text)
            if known is None:
                literal += len(MONTHS.get(text, text))
                continue
            from_macros += known[1]
            depth = max(depth, known[2] + 1)
        if depth > MAX_DEPTH:
            raise BadValue(f"@string macros nested more than {MAX_DEPTH} deep")
        return literal, from_macros, depth

    def expand(self, raw: str) -> tuple[str, list[str]]:
        """The text of a field value, and the names of the macros it uses that are neither
        defined nor standard (kept as written). Raises BadValue (nothing expanded) if the value
        cannot be read, its macros add more than :data:`MAX_VALUE_CHARS`, or the file's
        expansion budget is spent. Text written out in the value itself is never limited here
        (it is in the file; the text cleaning caps long fields)."""
        parts = _parts(raw)
        _, from_macros, _ = self._measure(parts)
        if from_macros > MAX_VALUE_CHARS:
            raise BadValue(f"its @string macros expand to {from_macros:,} characters, "
                           f"more than the {MAX_VALUE_CHARS:,} a value may have")
        self._charge(from_macros)
        undefined = [t for m, t in parts if m and t not in self._defs and t not in MONTHS]
        return "".join(self._text(is_macro, text) for is_macro, text in parts), undefined

    def _charge(self, size: int) -> None:
        if size > self.budget:
            raise BadValue("the file's @string macros expand to more text than the file can hold; value not expanded")
        self.budget -= size

    def _text(self, is_macro: bool, name: str) -> str:
        if not is_macro:
            return name
        known = self._defs.get(name)
        if known is None:
            return MONTHS.get(name, name)
        done = self._expanded.get(name)
        if done is None:  # each macro is expanded once; its size was charged with the first value using it
            done = self._expanded[name] = "".join(self._text(m, t) for m, t in known[0])
        return done
