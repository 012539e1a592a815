"""Pure functions on entity names: spelling-insensitive keys and model-name structure.

Two names that a researcher reads as the same thing get the same :func:`canonical_key`:
case, width, hyphens versus spaces, British versus American spelling and letter-digit joins
("Qwen2.5" / "Qwen-2.5" / "qwen 2.5") do not matter. The key depends only on the name itself,
never on which other papers were read, so it is stable across runs and record orders.

>>> canonical_key("Group Relative Policy Optimisation")
'group relative policy optimization'
>>> canonical_key("LLaMA-3-8b") == canonical_key("Llama 3 8B")
True
>>> canonical_key("pre-training") == canonical_key("pretraining")
True
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

__all__ = [
    "canonical_key",
    "match_key",
    "americanise",
    "is_acronym",
    "acronym_letters",
    "singular",
]

# British -> American endings, applied word by word (only to words long enough to be safe).
_SPELLING = (
    (re.compile(r"isation(s?)$"), r"ization\1"),
    (re.compile(r"ising$"), "izing"),
    (re.compile(r"(?<=[a-z]{3})(al|im|gn|an|er|il|en|on|t|at)ise([ds]?|rs?)$"), r"\1ize\2"),
    (re.compile(r"yse([ds]?)$"), r"yze\1"),
    (re.compile(r"(?<=[a-z]{2})(i|l|b|v)our(s?)$"), r"\1or\2"),
    (re.compile(r"^modelling$"), "modeling"),
    (re.compile(r"^labelling$"), "labeling"),
    (re.compile(r"^labelled$"), "labeled"),
    (re.compile(r"^travelling$"), "traveling"),
    (re.compile(r"^centre(s?)$"), r"center\1"),
)
_SAFE_WORDS = frozenset(
    "promise premise exercise expertise noise raise rise wise otherwise likewise precise "
    "concise advise revise surprise comprise enterprise franchise paradise compromise "
    "merchandise disguise treatise anise".split()
)
# Prefixes written joined, hyphenated or spaced: "pre-training", "pretraining", "pre training".
_JOINED_PREFIXES = ("pre", "post", "multi", "non", "co", "re", "sub", "semi", "bi")
_PREFIX_RE = re.compile(r"\b(" + "|".join(_JOINED_PREFIXES) + r") (?=[a-z])")
_SEPARATORS = re.compile(r"(?:[@*|!?#~\s\-\u2010-\u2015\u2190-\u21ff_/·,:;'’`\"()\[\]{}]|(?<!\d)\.|\.(?!\d))+")
_LETTER_DIGIT = re.compile(r"(?<=[a-z])(?=\d)|(?<=\d)(?=[a-z]{2,})")
_ACRONYM = re.compile(r"(?=[^a-z]*[A-Z])[A-Za-z0-9\-&.+/]{2,15}")


_SPELLING_HINTS = ("is", "ys", "our", "ll", "centre")


@lru_cache(maxsize=65536)
def americanise(word: str) -> str:
    """American spelling of one lower-case word (``optimisation`` -> ``optimization``)."""
    if len(word) < 5 or word in _SAFE_WORDS or not any(h in word for h in _SPELLING_HINTS):
        return word
    for pattern, repl in _SPELLING:
        new = pattern.sub(repl, word)
        if new != word:
            return new
    return word


def _words(text: str) -> list[str]:
    text = unicodedata.normalize("NFKC", text).casefold()
    text = text.replace("\\%", "%").replace("$", "").replace("^", " ")
    parts = [p for p in _SEPARATORS.split(text) if p]
    return [americanise(p) for p in parts]


@lru_cache(maxsize=65536)
def canonical_key(name: str) -> str:
    """A readable key that is the same for every spelling of one name.

    Lower case, American spelling, any run of punctuation or spaces as one space, a space
    between letters and the digits that follow them, common prefixes joined to their word.

    >>> canonical_key("BrowseComp-ZH") == canonical_key("BrowseComp-zh")
    True
    >>> canonical_key("Qwen2.5") == canonical_key("Qwen-2.5")
    True
    >>> canonical_key("WMT14 En→De") == canonical_key("WMT14 En-De")
    True
    """
    text = " ".join(_words(name))
    text = _LETTER_DIGIT.sub(" ", text)
    text = _PREFIX_RE.sub(r"\1", text)
    return re.sub(r"\s+", " ", text).strip()


def match_key(name: str) -> str:
    """Letters and digits only, as the shared scorer compares names (``"Pass@1"`` -> ``"pass1"``)."""
    return re.sub(r"[^0-9a-z]+", "", unicodedata.normalize("NFKC", name).casefold())


def is_acronym(text: str) -> bool:
    """True for short forms such as ``GRPO``, ``RAG``, ``E-GRPO``, ``QA``, ``CNNs``.

    >>> is_acronym("GRPO"), is_acronym("RAG"), is_acronym("CNNs"), is_acronym("Exam")
    (True, True, True, False)
    """
    if not 2 <= len(text) <= 15 or not _ACRONYM.fullmatch(text):
        return False
    upper = sum(c.isupper() for c in text)
    letters = sum(c.isalpha() for c in text)
    return letters > 0 and upper >= 2 and upper >= letters / 2


def acronym_letters(text: str) -> str:
    """Upper-case letters of a short form, without a plural ``s``: ``CNNs`` -> ``CNN``."""
    if text.endswith("s") and text[:-1].isupper():
        text = text[:-1]
    return "".join(c for c in text if c.isalnum()).upper()


@lru_cache(maxsize=65536)
def singular(word: str) -> str:
    """Crude singular of an English noun, enough for head-noun lookups."""
    lower = word.lower()
    if len(lower) > 4 and lower.endswith("ies"):
        return lower[:-3] + "y"
    if len(lower) > 4 and lower.endswith(("sses", "shes", "ches", "xes")):
        return lower[:-2]
    if len(lower) > 3 and lower.endswith("s") and not lower.endswith(("ss", "us", "is")):
        return lower[:-1]
    return lower
