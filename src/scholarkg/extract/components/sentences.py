"""Rule-based sentence boundaries for titles and abstracts.

The text of a record is its title, a blank line, then its abstract; ``Doc._.title_end`` is the
character offset where the title ends (0 when the text has no blank line).

A sentence starts after ``.``/``!``/``?`` when the next token does not start in lower case,
and always after a blank line (the break between title and abstract). "e.g.", "i.e.", "et al."
and decimals do not end sentences. The words, offsets and sentences are also kept as plain
lists (:mod:`scholarkg.extract.doctext`) for the other components.
"""

from __future__ import annotations

from spacy.language import Language
from spacy.tokens import Doc

from ..doctext import TITLE_BREAK, info

__all__ = ["SentenceSegmenter", "TITLE_BREAK"]


class SentenceSegmenter:
    """Marks sentence starts and sets ``doc._.title_end``."""

    def __init__(self):
        if not Doc.has_extension("title_end"):
            Doc.set_extension("title_end", default=0)

    def __call__(self, doc: Doc) -> Doc:
        view = info(doc)
        doc._.title_end = view.title_end
        if len(doc):
            for start, _ in view.sents:
                doc[start].is_sent_start = True
        return doc


@Language.factory("scholarkg_sentences")
def make_sentences(nlp: Language, name: str) -> SentenceSegmenter:
    return SentenceSegmenter()
