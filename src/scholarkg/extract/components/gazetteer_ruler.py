"""Gazetteer layer: two spaCy ``PhraseMatcher`` instances over the project's gazetteer.

Names with an upper-case letter are matched on exact token text (``ORTH``: "GAIA" but not
"gaia"); all-lower-case names on lower-cased text (``LOWER``: "in-context learning" also in
"In-Context Learning"). A joined name is also found with only its first letter capitalised
("Pubmed", "Imagenet", "Wordnet"), unless that spelling is an English word. The longest matches win; they are kept as
:class:`~scholarkg.extract.doctext.Found` ``(start, end, type, canonical name)`` under ``"gazetteer"``. Model names are left to
``scholarkg_model_names``, which also reads the version and size that follow them.
"""

from __future__ import annotations

import re

from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc

from ...model import EntityType
from ..doctext import Found, set_found
from ..gazetteer import Gazetteer, load_gazetteer
from ..lexicon import is_english

__all__ = ["GazetteerRuler", "SPANS_KEY"]

SPANS_KEY = "gazetteer"


_SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
_LETTER_DIGITS = re.compile(r"(?<=[A-Za-z])\d+")


def _subscripted(entry, name: str) -> str | None:
    """A metric's name with the digits after a letter as subscripts ("F1" -> "F₁"), as LaTeX
    abstracts write it (``F$_1$``, decoded by :mod:`scholarkg.tex`); None when it has none."""
    if entry.type is not EntityType.METRIC:
        return None  # "H2O" (a method) is also water, "H₂O"
    written = _LETTER_DIGITS.sub(lambda m: m.group().translate(_SUBSCRIPTS), name)
    return written if written != name else None


def _written_lower(entry, name: str) -> bool:
    """A capitalised long form of a method with a short form ("Soft Actor-Critic" / SAC)."""
    words = name.replace("-", " ").split()
    return (entry.type is EntityType.METHOD and len(words) >= 2 and all(w[:1].isupper() and w[1:].islower()
            for w in words) and any(a.isupper() and len(a) >= 2 for a in entry.names))


_JOINED = re.compile(r"^[A-Z][a-z]+[A-Z]")


def _first_capital_only(name: str) -> str | None:
    """How prose often writes a joined name: "PubMed" as "Pubmed", "CiteSeer" as "Citeseer".
    Only for one-word names of five letters or more that begin with a capitalised word part
    ("PubMed", not "MMLU" or "IoU"), and not when the spelling is an English word ("Frames")."""
    if len(name) < 5 or not _JOINED.match(name) or not name.isalnum():
        return None
    written = name[0] + name[1:].lower()
    return None if is_english(written) else written


class GazetteerRuler:
    """Phrase matching of every known name; keeps the longest non-overlapping matches."""

    def __init__(self, nlp: Language, gazetteer: Gazetteer | None = None):
        gaz = gazetteer or load_gazetteer()
        self.exact = PhraseMatcher(nlp.vocab, attr="ORTH")
        self.lower = PhraseMatcher(nlp.vocab, attr="LOWER")
        self.entry_of: dict[int, tuple[str, str]] = {}  # match id -> (type, canonical)
        by_key: dict[tuple[str, bool], list[str]] = {}
        for entry in gaz.entries:
            if entry.type is EntityType.MODEL:
                continue
            for name in entry.names:
                by_key.setdefault((entry.canonical, name == name.lower()), []).append(name)
                scripted = _subscripted(entry, name)
                if scripted is not None:
                    by_key.setdefault((entry.canonical, scripted == scripted.lower()), []).append(scripted)
                plain = _first_capital_only(name)
                if plain is not None and plain not in entry.names:
                    by_key.setdefault((entry.canonical, False), []).append(plain)
                if _written_lower(entry, name):
                    # "soft actor-critic", "proximal policy optimization": a method's long form is
                    # written in lower case as often as capitalised
                    by_key.setdefault((entry.canonical, True), []).append(name.lower())
        types = {e.canonical: e.type.value for e in gaz.entries if e.type is not EntityType.MODEL}
        for (canonical, lower), names in sorted(by_key.items()):
            key = f"{types[canonical]}\x1f{canonical}"
            match_id = nlp.vocab.strings.add(key)
            self.entry_of[match_id] = (types[canonical], canonical)
            docs = [nlp.make_doc(n) for n in names]
            (self.lower if lower else self.exact).add(key, docs)

    def __call__(self, doc: Doc) -> Doc:
        matches = self.exact(doc) + self.lower(doc)
        matches.sort(key=lambda m: (-(m[2] - m[1]), m[1]))
        taken: set[int] = set()
        out = []
        for match_id, start, end in matches:
            if any(i in taken for i in range(start, end)):
                continue
            taken.update(range(start, end))
            type_, canonical = self.entry_of[match_id]
            out.append(Found(start, end, type_, canonical))
        out.sort()
        set_found(doc, SPANS_KEY, out)
        return doc


@Language.factory("scholarkg_gazetteer")
def make_gazetteer_ruler(nlp: Language, name: str) -> GazetteerRuler:
    return GazetteerRuler(nlp)
