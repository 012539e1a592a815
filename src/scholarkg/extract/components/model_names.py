"""Model names: a known family followed by version, size and variant.

"Qwen 3-4B", "LLaMA-3-8b", "Llama 3.1 8B Instruct", "GPT-4o", "Qwen-2.5 series". One regular
expression over the text finds a family name from the gazetteer at a word start, then
:data:`~scholarkg.extract.modelnames.SUFFIX_RE` reads what follows. Matches that do not end
on a token boundary are dropped. Results go to ``doc.spans["models"]`` (label ``Model``,
``span.id_`` the canonical label) with ``span._.model_name`` holding the parsed
:class:`~scholarkg.extract.modelnames.ModelName`.
"""

from __future__ import annotations

import re

from spacy.language import Language
from spacy.tokens import Doc, Span

from ...model import EntityType
from ..gazetteer import load_gazetteer
from ..modelnames import SUFFIX_RE, parse_model_name

__all__ = ["ModelNameFinder", "SPANS_KEY"]

SPANS_KEY = "models"


class ModelNameFinder:
    def __init__(self):
        gaz = load_gazetteer()
        self.family_of: dict[str, str] = {}
        for entry in gaz.of_type(EntityType.MODEL):
            for name in entry.names:
                self.family_of[name] = entry.canonical
        names = sorted(self.family_of, key=len, reverse=True)
        alternatives = "|".join(re.escape(n) for n in names)
        # Case-sensitive: "BERT" and "Llama" are names, "bert" and "llama" are not.
        self.pattern = re.compile(rf"(?<![\w\-])(?:{alternatives})(?![a-zA-Z])")
        if not Span.has_extension("model_name"):
            Span.set_extension("model_name", default=None)

    def __call__(self, doc: Doc) -> Doc:
        text = doc.text
        spans: list[Span] = []
        for m in self.pattern.finditer(text):
            family_text = m.group(0)
            family = self.family_of.get(family_text)
            if family is None:
                continue
            tail = SUFFIX_RE.match(text, m.end())
            end = tail.end() if tail else m.end()
            # back off to the longest prefix that ends on a token boundary
            span = None
            while end >= m.end():
                span = doc.char_span(m.start(), end)
                if span is not None:
                    break
                end -= 1
            if span is None:
                continue
            parsed = parse_model_name(span.text, family_text, family)
            span = Span(doc, span.start, span.end, label=EntityType.MODEL.value, span_id=parsed.label)
            span._.model_name = parsed
            spans.append(span)
        doc.spans[SPANS_KEY] = spans
        return doc


@Language.factory("scholarkg_model_names")
def make_model_names(nlp: Language, name: str) -> ModelNameFinder:
    return ModelNameFinder()
