"""Model names: a known family followed by version, size and variant.

"Qwen 3-4B", "LLaMA-3-8b", "Llama 3.1 8B Instruct", "GPT-4o", "Qwen-2.5 series", and a network named
by its depth before the family ("a 1001-layer ResNet" is ResNet-1001). One regular
expression over the text finds a family name from the gazetteer at a word start, then
:data:`~scholarkg.extract.modelnames.SUFFIX_RE` reads what follows. Matches that do not end
on a token boundary are dropped. Results are kept as :class:`~scholarkg.extract.doctext.Found`
``(start, end, "Model", ModelName)`` under ``"models"``.
"""

from __future__ import annotations

import re

from spacy.language import Language
from spacy.tokens import Doc

from ..doctext import Found, info, set_found
from ...model import EntityType
from ..gazetteer import load_gazetteer
from ..modelnames import SUFFIX_RE, parse_model_name

__all__ = ["ModelNameFinder", "SPANS_KEY"]

SPANS_KEY = "models"
# A number written after a space that is too large for a version ("Qwen 2.5" is one, "30.4" is not)
_SCORE_LIKE = re.compile(r"^\d{2,}(?:\.\d+)?$|^\d+\.\d{2,}$")
# Families whose variants are named by depth: "a 1001-layer ResNet" is ResNet-1001, "16-layer VGG" VGG-16
_DEPTH_FAMILIES = frozenset({"ResNet", "ResNeXt", "Wide ResNet", "DenseNet", "VGG"})
_DEPTH_BEFORE = re.compile(r"(?<![\w\-])(\d{1,4})-layers?\s+$")


def _trie_pattern(words) -> str:
    """One regular expression for many literal words, factored by common prefixes (fast to match).

    Longer words are preferred at each branch, as a longest-first alternation would.
    """
    trie: dict = {}
    for word in words:
        node = trie
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: dict) -> str:
        ends = "" in node
        branches = [re.escape(ch) + build(child) for ch, child in sorted(node.items()) if ch]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if ends else body

    return build(trie)


class ModelNameFinder:
    def __init__(self):
        gaz = load_gazetteer()
        self.family_of: dict[str, str] = {}
        for entry in gaz.of_type(EntityType.MODEL):
            for name in entry.names:
                self.family_of[name] = entry.canonical
        alternatives = _trie_pattern(self.family_of)
        # Case-sensitive: "BERT" and "Llama" are names, "bert" and "llama" are not.
        self.pattern = re.compile(rf"(?<![\w\-])(?:{alternatives})(?![a-zA-Z])")

    def __call__(self, doc: Doc) -> Doc:
        view = info(doc)
        text = view.text
        start_of = end_of = None
        out: list[Found] = []
        for m in self.pattern.finditer(text):
            family_text = m.group(0)
            family = self.family_of.get(family_text)
            if family is None:
                continue
            if start_of is None:
                start_of = {c: i for i, c in enumerate(view.idx)}
                end_of = {view.end_char(i): i for i in range(len(view.idx))}
            start = start_of.get(m.start())
            if start is None:
                continue
            tail = SUFFIX_RE.match(text, m.end())
            end = tail.end() if tail else m.end()
            if tail and tail.group("sep1") == " " and _SCORE_LIKE.match(tail.group("version") or ""):
                end = m.end()  # "StarCoder 30.4" in a results list: a score, not a version
            # back off to the longest prefix that ends on a token boundary
            while end >= m.end() and end not in end_of:
                end -= 1
            if end < m.end():
                continue
            parsed = parse_model_name(text[m.start() : end], family_text, family)
            depth = _DEPTH_BEFORE.search(text, max(0, m.start() - 12), m.start())
            if depth is not None and family in _DEPTH_FAMILIES and not parsed.version and not parsed.sizes and (
                    depth.start() in start_of):
                start = start_of[depth.start()]
                parsed = parse_model_name(f"{family_text}-{depth.group(1)}", family_text, family)
            out.append(Found(start, end_of[end] + 1, EntityType.MODEL.value, parsed))
        set_found(doc, SPANS_KEY, out)
        return doc


@Language.factory("scholarkg_model_names")
def make_model_names(nlp: Language, name: str) -> ModelNameFinder:
    return ModelNameFinder()
