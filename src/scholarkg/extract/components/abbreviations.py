"""Abbreviation detector: "Agents' Last Exam (ALE)", "RAG (Retrieval-Augmented Generation)".

The long form is found with the Schwartz & Hearst (2003) letter-matching rule: every letter
or digit of the short form must appear in the long form, right to left, and the first one at
the start of a word; the long form is at most ``min(n + 5, 2n)`` words for ``n`` short-form
characters. Every later use of a defined short form in the same text is linked too.

Declares ``Doc._.abbreviations`` (short-form spans, definitions first) and
``Span._.long_form`` (the long-form span of a short form, or ``None``).
"""

from __future__ import annotations

from spacy.language import Language
from spacy.tokens import Doc, Span

from ..concepts import EDGE_WORDS
from ..doctext import info
from ..names import acronym_letters, is_acronym

__all__ = ["AbbreviationDetector", "find_long_form"]

_OPEN, _CLOSE = "([", ")]"
_STOP_LEFT = frozenset({".", ";", ":", "(", ")", "[", "]", "\n", "\n\n"})


def _letters_match(short: str, long: str) -> int | None:
    """Schwartz-Hearst: index in ``long`` where the long form starts, or None."""
    s = [c.lower() for c in short if c.isalnum()]
    if not s:
        return None
    lower = long.lower()
    li = len(lower) - 1
    for si in range(len(s) - 1, -1, -1):
        c = s[si]
        while li >= 0:
            at_word_start = li == 0 or not lower[li - 1].isalnum()
            if lower[li] == c and (si > 0 or at_word_start):
                break
            li -= 1
        if li < 0:
            return None
        li -= 1
    return li + 1


def find_long_form(short: Span, candidate: Span) -> Span | None:
    """The shortest right-aligned part of ``candidate`` whose letters spell ``short``."""
    letters = acronym_letters(short.text)
    if not letters:
        return None
    end = candidate.end
    while end > candidate.start and not candidate.doc[end - 1].text[-1:].isalnum():
        end -= 1
    if end == candidate.start:
        return None
    candidate = candidate.doc[candidate.start : end]
    start_char = _letters_match(letters, candidate.text)
    if start_char is None:
        return None
    span = candidate.doc.char_span(candidate.start_char + start_char, candidate.end_char, alignment_mode="expand")
    if span is None or len(span) == 0:
        return None
    first = span[0]
    if not first.text[:1].isalnum() or first.text.lower() in {"the", "a", "an", "our", "of", "and", "we"}:
        # "the Agents' Last Exam" never starts a long form: drop leading function words.
        rest = [t for t in span if t.text.lower() not in {"the", "a", "an", "our"}]
        if not rest:
            return None
        span = candidate.doc[rest[0].i : span.end]
    if span.text.lower() == short.text.lower() or len(span.text) <= len(short.text):
        return None
    if all(t.text.lower() in EDGE_WORDS and t.text != "A" for t in span):
        return None  # "state-of-the-art (SOTA)": a judgement or a count names nothing ("Improved A" may)
    return span


def _short_form_ok(span: Span) -> bool:
    text = span.text
    if len(span) == 1:
        return is_acronym(text) or (any(c.isupper() for c in text[1:]) and len(text) <= 12)
    # "(Agentic CPT)": a word and an acronym
    return len(span) <= 3 and is_acronym(span[-1].text)


class AbbreviationDetector:
    """Finds "long form (SF)" and "SF (long form)" in each sentence, then every use of SF."""

    def __init__(self, max_words: int = 10):
        self.max_words = max_words
        for name, owner, default in (("abbreviations", Doc, None), ("long_form", Span, None)):
            if not owner.has_extension(name):
                owner.set_extension(name, default=default)

    def definitions(self, doc: Doc) -> list[tuple[Span, Span]]:
        found: list[tuple[Span, Span]] = []
        view = info(doc)
        words = view.words
        n = len(words)
        i = 0
        while i < n:
            if words[i] not in _OPEN:
                i += 1
                continue
            close = next((j for j in range(i + 1, min(n, i + 12)) if words[j] in _CLOSE), None)
            if close is None or close == i + 1:
                i += 1
                continue
            inner = doc[i + 1 : close]
            sent_start = view.sent_bounds(i)[0]
            pair = None
            if close - i - 1 <= 3 and _short_form_ok(inner):
                k = len(acronym_letters(inner.text))
                left = i
                limit = max(sent_start, i - min(k + 5, 2 * k, self.max_words + 2))
                while left > limit and words[left - 1] not in _STOP_LEFT:
                    left -= 1
                if left < i:
                    long = find_long_form(inner, doc[left:i])
                    if long is not None:
                        pair = (inner, long)
            elif close - i - 1 >= 2 and i > sent_start and is_acronym(words[i - 1]):
                short = doc[i - 1 : i]
                long = find_long_form(short, inner)
                if long is not None and long.start == inner.start:
                    pair = (short, long)
            if pair is None and close - i - 1 >= 4 and words[close - 2] == "," and is_acronym(words[close - 1]):
                # "a new framework (Consistent Rank Logits, CORAL)": both forms inside the brackets
                short = doc[close - 1 : close]
                long = find_long_form(short, doc[i + 1 : close - 2])
                if long is not None and long.start == i + 1:
                    pair = (short, long)
            if pair is not None:
                found.append(pair)
            i = close + 1
        found += self._stands_for(doc, words)
        return found

    @staticmethod
    def _stands_for(doc: Doc, words: list[str]) -> list[tuple[Span, Span]]:
        """ "BERT, which stands for Bidirectional Encoder Representations from Transformers"."""
        out = []
        for i in range(2, len(words) - 2):
            if words[i + 1] != "for" or words[i] not in {"stands", "stand", "short"}:
                continue
            j = i - 1
            while j > 0 and words[j] in {",", "which", "that", "(", "is"}:
                j -= 1
            if not is_acronym(words[j]):
                continue
            end = i + 2
            while end < len(words) and end - i <= 12 and words[end] not in {",", ".", ";", ")", "(", ":"}:
                end += 1
            candidate = doc[i + 2 : end]
            if len(candidate) >= 2:
                long = find_long_form(doc[j : j + 1], candidate)
                if long is not None and long.start == candidate.start:
                    out.append((doc[j : j + 1], long))
        return out

    def __call__(self, doc: Doc) -> Doc:
        text = info(doc).text
        pairs = self.definitions(doc) if "(" in text or "[" in text or " for " in text else []
        shorts: list[Span] = []
        by_text: dict[str, Span] = {}
        for short, long in pairs:
            short._.long_form = long
            shorts.append(short)
            by_text.setdefault(short.text, long)
        if by_text:
            defined = {s.start for s in shorts}
            for i, word in enumerate(info(doc).words):
                long = by_text.get(word)
                if long is not None and i not in defined and not (long.start <= i < long.end):
                    span = doc[i : i + 1]
                    span._.long_form = long
                    shorts.append(span)
        doc._.abbreviations = shorts
        return doc


@Language.factory("scholarkg_abbreviations", default_config={"max_words": 10})
def make_abbreviations(nlp: Language, name: str, max_words: int) -> AbbreviationDetector:
    return AbbreviationDetector(max_words=max_words)
