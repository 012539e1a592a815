"""Gazetteer layer: two spaCy ``SpanRuler`` instances over the project's gazetteer.

Names with an upper-case letter are matched on exact token text (``ORTH``: "GAIA" but not
"gaia"); all-lower-case names on lower-cased text (``LOWER``: "in-context learning" also in
"In-Context Learning"). Each match goes to ``doc.spans["gazetteer"]`` with the entity type as
label and the canonical name as ``span.id_``. Model names are left to ``scholarkg_model_names``,
which also reads the version and size that follow them.
"""

from __future__ import annotations

from spacy.language import Language
from spacy.pipeline import SpanRuler
from spacy.tokens import Doc
from spacy.util import filter_spans

from ...model import EntityType
from ..gazetteer import Gazetteer, load_gazetteer

__all__ = ["GazetteerRuler", "SPANS_KEY"]

SPANS_KEY = "gazetteer"


def _patterns(gazetteer: Gazetteer, *, lower: bool) -> list[dict]:
    out = []
    for entry in gazetteer.entries:
        if entry.type is EntityType.MODEL:
            continue
        for name in entry.names:
            if (name == name.lower()) == lower:
                out.append({"label": entry.type.value, "pattern": name, "id": entry.canonical})
    return out


class GazetteerRuler:
    """Runs an exact-case and a lower-case phrase ruler; keeps the longest matches."""

    def __init__(self, nlp: Language, name: str):
        gaz = load_gazetteer()
        self.exact = SpanRuler(nlp, f"{name}_exact", spans_key=SPANS_KEY, phrase_matcher_attr="ORTH",
                               overwrite=False, validate=False)
        self.lower = SpanRuler(nlp, f"{name}_lower", spans_key=SPANS_KEY, phrase_matcher_attr="LOWER",
                               overwrite=False, validate=False)
        self.exact.add_patterns(_patterns(gaz, lower=False))
        self.lower.add_patterns(_patterns(gaz, lower=True))

    def __call__(self, doc: Doc) -> Doc:
        doc.spans[SPANS_KEY] = []
        doc = self.lower(self.exact(doc))
        doc.spans[SPANS_KEY] = filter_spans(doc.spans[SPANS_KEY])
        return doc


@Language.factory("scholarkg_gazetteer")
def make_gazetteer_ruler(nlp: Language, name: str) -> GazetteerRuler:
    return GazetteerRuler(nlp, name)
