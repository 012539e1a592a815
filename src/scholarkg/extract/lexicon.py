"""How common a word is in English, from the word-frequency table of the ``wordfreq`` package.

A coined name ("KAIROS", "GemFilter", "Mirothinker") is rare or absent in general English; a
capitalised English word ("FRAMES", "GENERATIVE", "Creation") is common. The table ships with
the package and is read offline on first use.

>>> is_english("generative"), is_english("gemfilter")
(True, False)
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["zipf", "is_english", "english_parts"]

_ENGLISH = 3.0  # Zipf frequency: about once per 10 million words
_CAMEL = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


@lru_cache(maxsize=65536)
def zipf(word: str) -> float:
    """Zipf frequency of ``word`` in English (0 for a word the table does not know)."""
    from wordfreq import zipf_frequency

    return zipf_frequency(word.lower(), "en")


def is_english(word: str, threshold: float = _ENGLISH) -> bool:
    """True for a common English word, whatever its case."""
    return zipf(word) >= threshold


def english_parts(name: str) -> list[str]:
    """The parts of a joined name that are English words: ``"EvidenceLoop"`` -> ``["Evidence", "Loop"]``."""
    return [p for p in _CAMEL.findall(name) if len(p) > 1 and is_english(p)]
