"""Plain-Python views of a ``Doc`` shared by the components: words, offsets, sentences.

Creating spaCy ``Token`` objects or asking ``span.sent`` costs far more than list indexing, and
every rule component needs the same facts, so they are computed once per text (by the
sentence component) and kept in ``doc.user_data``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from spacy.tokens import Doc, Span

__all__ = ["DocInfo", "Found", "info", "found", "set_found", "as_spans", "make_doc", "KEY", "TEXT_KEY",
           "TITLE_BREAK", "ROLES_KEY", "LISTED"]

KEY = "scholarkg.info"
TEXT_KEY = "scholarkg.text"  # the text a Doc was made from, when the caller kept it
TITLE_BREAK = "\n\n"
ROLES_KEY = "scholarkg.term_roles"  # term -> its end including a trailing role noun ("the X task")
LISTED = "LISTED"  # the label of a candidate name that is a name only by the names listed with it
_ENDERS = frozenset({".", "!", "?"})


@dataclass(slots=True)
class DocInfo:
    text: str  # doc.text, which spaCy rebuilds from the tokens on every access
    words: list[str]
    lower: list[str]
    idx: list[int]
    space: list[bool]
    sent_of: list[int]  # sentence number of each token
    sents: list[tuple[int, int]]  # token start, end of each sentence
    title_end: int  # character offset where the title ends (0: no title break)

    def sent_bounds(self, i: int) -> tuple[int, int]:
        """Token start and end of the sentence holding token ``i``."""
        return self.sents[self.sent_of[i]]

    def is_sent_start(self, i: int) -> bool:
        return self.sents[self.sent_of[i]][0] == i

    def end_char(self, i: int) -> int:
        """Character offset just after token ``i``."""
        return self.idx[i] + len(self.words[i])


def compute(doc: Doc) -> DocInfo:
    """Words and sentences of ``doc`` (rules in :mod:`~scholarkg.extract.components.sentences`)."""
    from spacy.attrs import IDX, LENGTH

    text = doc.user_data.get(TEXT_KEY)
    if text is None or (len(doc) and len(text) != doc[-1].idx + len(doc[-1].text_with_ws)):
        text = doc.text
    if len(doc):
        arr = doc.to_array([IDX, LENGTH]).tolist()
        idx = [a for a, _ in arr]
        words = [text[a : a + n] for a, n in arr]
    else:
        idx, words = [], []
    lower = [w.lower() for w in words]
    space = [not w.strip() for w in words]
    cut = text.find(TITLE_BREAK)
    starts = []
    boundary = hard = True
    for i, w in enumerate(words):
        if i == 0:
            starts.append(0)
        elif not space[i] and (hard or (boundary and not w[0].islower())):
            starts.append(i)
        if space[i]:
            hard = hard or "\n" in w
            boundary = boundary or hard
        else:
            boundary = w in _ENDERS
            hard = False
    sents = list(zip(starts, starts[1:] + [len(words)]))
    sent_of: list[int] = []
    for k, (s, e) in enumerate(sents):
        sent_of += [k] * (e - s)
    return DocInfo(text, words, lower, idx, space, sent_of, sents, max(cut, 0))


def info(doc: Doc) -> DocInfo:
    """The shared view of ``doc`` (computed on first use)."""
    found = doc.user_data.get(KEY)
    if found is None:
        found = doc.user_data[KEY] = compute(doc)
    return found


def make_doc(nlp, text: str) -> Doc:
    """Tokenize ``text`` and keep it, so the components need not rebuild ``doc.text``."""
    doc = nlp.make_doc(text)
    doc.user_data[TEXT_KEY] = text
    return doc


class Found(NamedTuple):
    """A phrase one component found for a later one: token range, a label, and a payload
    (canonical name, parsed model name, ...). Kept as plain tuples in ``doc.user_data``:
    spaCy ``Span`` objects cost far more to create and read back."""

    start: int
    end: int
    label: str
    key: Any = None


def found(doc: Doc, name: str) -> list[Found]:
    """What the component that writes ``name`` found (``gazetteer``, ``models``, ``candidates``,
    ``terms``, ``classified``); empty when it did not run."""
    return doc.user_data.get("scholarkg." + name, [])


def set_found(doc: Doc, name: str, items: list[Found]) -> None:
    doc.user_data["scholarkg." + name] = items


def as_spans(doc: Doc, name: str) -> list[Span]:
    """The phrases of :func:`found` as spaCy spans, for inspection."""
    return [Span(doc, f.start, f.end, label=f.label, span_id=f.key if isinstance(f.key, str) else "")
            for f in found(doc, name)]
