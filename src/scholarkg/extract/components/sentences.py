"""Rule-based sentence boundaries for titles and abstracts.

The text of a record is its title, a blank line, then its abstract; ``Doc._.title_end`` is the
character offset where the title ends (0 when the text has no blank line).

A sentence starts after ``.``/``!``/``?`` when the next token does not start in lower case,
and always after a blank line (the break between title and abstract). "e.g.", "i.e.", "et al."
and decimals do not end sentences.
"""

from __future__ import annotations

from spacy.language import Language
from spacy.tokens import Doc

__all__ = ["SentenceSegmenter", "TITLE_BREAK"]

_ENDERS = frozenset({".", "!", "?"})


TITLE_BREAK = "\n\n"


class SentenceSegmenter:
    """Sets ``token.is_sent_start`` on every token, and ``doc._.title_end``."""

    def __init__(self):
        if not Doc.has_extension("title_end"):
            Doc.set_extension("title_end", default=0)

    def __call__(self, doc: Doc) -> Doc:
        cut = doc.text.find(TITLE_BREAK)
        doc._.title_end = max(cut, 0)
        boundary = hard = True
        for token in doc:
            text = token.text
            if token.i == 0:
                token.is_sent_start = True
            elif token.is_space:
                token.is_sent_start = False
            else:
                token.is_sent_start = hard or (boundary and not text[0].islower())
            if token.is_space:
                hard = hard or "\n" in text
                boundary = boundary or hard
            else:
                boundary = text in _ENDERS
                hard = False
        return doc


@Language.factory("scholarkg_sentences")
def make_sentences(nlp: Language, name: str) -> SentenceSegmenter:
    return SentenceSegmenter()
