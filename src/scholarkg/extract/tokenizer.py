"""The project's tokenizer: spaCy's English rules, adjusted for names in ML abstracts.

- Hyphenated words stay one token ("E-GRPO", "BrowseComp-ZH", "LLaMA-3-8b", "multi-hop"), so a
  name is never matched inside a longer name.
- Common hyphenated modifiers are split off ("BERT-based" -> "BERT", "-based").
- Names with digits stay whole ("GSM8K", not "GSM8" + "K"); a full stop after one is split off.
- TeX wrappers are split off ("\\emph{Search" -> "\\emph{", "Search"; "Less}" -> "Less", "}").

Registered as ``scholarkg.tokenizer.v1`` so a saved pipeline's config names it.
"""

from __future__ import annotations

import re

import spacy
from spacy.lang.en import English
from spacy.tokenizer import Tokenizer
from spacy.util import compile_infix_regex, compile_prefix_regex, compile_suffix_regex

__all__ = ["create_tokenizer", "MODIFIER_SUFFIXES"]

MODIFIER_SUFFIXES = (
    "based|like|style|driven|free|aware|guided|enhanced|augmented|specific|level|wise|only|"
    "centric|oriented|agnostic|dependent|independent|powered|generated|labeled|labelled|tuned|"
    "trained|scale|sized|type|related|inspired|derived|equipped|friendly"
)


def _infixes() -> list[str]:
    # Drop the rule that splits hyphens between letters; keep every other infix rule.
    rules = [rule for rule in English.Defaults.infixes if "(?:-|–|—|--|---|——|~)" not in rule]
    # "3-4B" and "LLaMA-3-8b" stay whole: no split of a hyphen between digits either.
    return [r"(?<=[0-9])[+\*^](?=[0-9-])" if r == r"(?<=[0-9])[+\-\*^](?=[0-9-])" else r for r in rules]


def _exceptions(rules: dict) -> dict:
    # Emoticons such as "):" or ":P" would swallow the brackets of "(ECL): a framework".
    return {k: v for k, v in rules.items() if any(c.isalpha() for c in k) and not re.search(r"[():;=]", k)
            or k == "..."}


def _units_after_numbers_only(rule: str) -> str:
    """spaCy splits units off numbers ("8K" -> "8", "K"); inside a name ("GSM8K") it must not."""
    if rule.startswith("(?<=[0-9])(?:km|"):
        return "(?<=(?<![A-Za-z])[0-9])" + rule[len("(?<=[0-9])"):]
    return rule


@spacy.registry.tokenizers("scholarkg.tokenizer.v1")
def create_tokenizer():
    def make(nlp) -> Tokenizer:
        prefixes = [r"\\[A-Za-z]+\{", r"\{", *English.Defaults.prefixes]
        # "YOLOv8-L." and "AlignX." at the end of a sentence: the full stop is not part of the name
        suffixes = [rf"-(?:{MODIFIER_SUFFIXES})", r"\}", r"(?<=[a-z0-9]-[A-Z])\.", r"(?<=[0-9][A-Z])\.",
                    r"(?<=[a-z][A-Z])\.",
                    *map(_units_after_numbers_only, English.Defaults.suffixes)]
        return Tokenizer(
            nlp.vocab,
            rules=_exceptions(nlp.Defaults.tokenizer_exceptions),
            prefix_search=compile_prefix_regex(prefixes).search,
            suffix_search=compile_suffix_regex(suffixes).search,
            infix_finditer=compile_infix_regex(_infixes()).finditer,
            token_match=nlp.Defaults.token_match,
            url_match=nlp.Defaults.url_match,
        )

    return make


# Kept for callers that want to check a string the way the tokenizer sees it.
SPLIT_MODIFIER = re.compile(rf"-(?:{MODIFIER_SUFFIXES})$")
