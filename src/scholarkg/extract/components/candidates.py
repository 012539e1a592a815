"""Name-shaped phrases that no gazetteer knows: coined names of new things.

"HarnessDev", "KAIROS", "E-GRPO", "AutoEnv-36", "P$^2$-MOPD", "Trust-Align", "Tongyi
DeepResearch", "Mirothinker-v1.0": a token with an inner capital, two or more capitals, or
letters mixed with digits is a name; capitalised words right before it join it. The subject
of a title ("HarnessDev: Can LLMs ...") is a candidate too. Spans go to
``"candidates"`` (:class:`~scholarkg.extract.doctext.Found`, label ``""``, ``"TITLE"`` for
the title's subject, or ``"LISTED"`` for a word that is a name only by the names listed with it):
the entity component types them.
"""

from __future__ import annotations

import re
from functools import lru_cache

from spacy.language import Language
from spacy.tokens import Doc, Span, Token

from ...model import EntityType
from ..cues import FUNCTION_WORDS, LIST_JOINS, NOT_NAMES, head_type
from ..doctext import LISTED, Found, found, info, set_found
from ..figure_words import SCORING_VERBS
from ..lexicon import is_english

__all__ = ["CandidateFinder", "SPANS_KEY", "is_name_word", "is_name_token", "title_subject"]

SPANS_KEY = "candidates"
_HAS_INNER_CAP = re.compile(r".[A-Z]")
_HAS_DIGIT_AND_LETTER = re.compile(r"(?=.*\d)(?=.*[A-Za-z])")
_NUMBERISH = re.compile(r"^[\d.,%x×]+[A-Za-z]?$|^\d+(?:\.\d+)?[KkMmBbTt]$|^\d+(st|nd|rd|th|D|d)$")
_LETTER_NUMBER = re.compile(r"^[A-Z]\d{2,}$")
_SIZE_LETTERS = frozenset({"K", "k", "M", "B"})
_VERSION_WORD = re.compile(r"^[vV]\d+(?:\.\d+)*$")
_DATA_HEADS = frozenset({EntityType.BENCHMARK, EntityType.DATASET})
_URLISH = re.compile(r"https?://|www\.|\.(com|org|io|net|ai)\b")
_AT_CUTOFF = re.compile(r"^[A-Za-z][A-Za-z0-9-]*@(?:\d+|[kKnN])$")
_YEAR = re.compile(r"^(?:19[5-9]|20[0-4])\d$")


def _title_case_compound(text: str) -> bool:
    """"Real-World", "Multi-Agent", "Long-Horizon": capitalised words joined by hyphens."""
    parts = text.split("-")
    return len(parts) > 1 and all(p.isalpha() and (p.istitle() or p.islower()) for p in parts)


def is_name_token(token: Token, *, in_title: bool = False) -> bool:
    """True for tokens shaped like a coined name."""
    return is_name_word(token.text, in_title=in_title)


def is_name_word(text: str, *, in_title: bool = False) -> bool:
    """True for words shaped like a coined name: "HarnessDev", "KAIROS", "E-GRPO", "AutoEnv-36"."""
    return _name_word(text, in_title)


@lru_cache(maxsize=131072)
def _name_word(text: str, in_title: bool) -> bool:
    if len(text) < 2 or text.islower() or text in NOT_NAMES:
        return False
    if in_title and _title_case_compound(text):
        return False
    if _AT_CUTOFF.match(text):
        return True  # a measure at a cut-off: "Recall@20", "NDCG@10", "Hits@k"
    if "@" in text or "_" in text or _URLISH.search(text):
        return False  # addresses, file names and identifiers ("ECCV_2016_110")
    if not text[0].isalnum() and not text.startswith(("$", "\\")):
        return False
    if _NUMBERISH.match(text):
        return False
    letters = [c for c in text if c.isalpha()]
    if len(letters) < 2:
        # "A97-1020", "L0": codes, not names; a letter and a number ("S669") may name a data set,
        # and is kept only when the words around it type it
        return bool(_LETTER_NUMBER.match(text))
    if _HAS_INNER_CAP.search(text):
        return True
    return bool(_HAS_DIGIT_AND_LETTER.match(text)) and text[0].isalpha() and not text[0].islower()


_ADJECTIVE_ENDING = re.compile(r"(?:ed|al|ive|ic|ous|ing|ary|able|ible)$")


def _unknown_word(t: str) -> bool:
    """A word English text (nearly) never uses and not shaped like an adjective: "Tongyi", "Qwen",
    not "Pretrained" or "Monolingual"."""
    return not is_english(t, threshold=1.5) and not _ADJECTIVE_ENDING.search(t.lower())


def _capitalised(t: str) -> bool:
    return t[:1].isupper() and t.lower() not in FUNCTION_WORDS and t.isalpha()


def _known(doc: Doc, start: int, end: int) -> bool:
    """Whether the gazetteer found a name that ends at ``end`` within ``start:end`` ("COCO" of
    "COCO 2017" keeps its entry: the gazetteer lists the editions it tells apart)."""
    return any(f.end == end and f.start >= start for f in found(doc, "gazetteer"))


def title_subject(doc: Doc, title_end: int) -> Span | None:
    """``NAME`` of a title written "NAME: subtitle", when NAME is short."""
    view = info(doc)
    colon = next((i for i, w in enumerate(view.words[:8]) if w == ":" and view.idx[i] < title_end), None)
    if colon is None or colon == 0 or colon > 6:
        return None
    span = doc[0:colon]
    if any(t.text.lower() in FUNCTION_WORDS for t in span if t.i > 0):
        return None
    if not all(t.text[:1].isupper() or t.text[:1].isdigit() or t.text.startswith("$") for t in span
               if t.is_alpha or t.text[:1].isalnum()):
        return None
    return span


class CandidateFinder:
    def __init__(self, max_words: int = 4):
        self.max_words = max_words
        if not Doc.has_extension("title_end"):
            Doc.set_extension("title_end", default=0)

    def _data_name_end(self, words: list[str], end: int, start: int) -> int:
        """A name runs on over capitalised words up to a data head: "the YouTube Faces dataset",
        "the Street View House Numbers benchmark" (the head itself stays outside)."""
        k = end
        while k < len(words) and k - start < self.max_words and _capitalised(words[k]):
            k += 1
        if k > end and k < len(words) and words[k].islower() and head_type(words[k]) in _DATA_HEADS:
            return k
        return end

    @staticmethod
    def _listed_with_names(view, spans: list[Found]) -> list[Found]:
        """A capitalised word no English text uses, listed right beside a coined name: "outperforming
        EVE and Tranception", "Scanpy, scVI and Harmonix". Alone it could be anyone's surname; in a
        list of names it is one of them (the list then types it)."""
        words, lower = view.words, view.lower
        starts = {f.start for f in spans}
        ends = {f.end for f in spans}
        out = []
        for i, word in enumerate(words):
            if (len(word) < 3 or not _capitalised(word) or view.is_sent_start(i) or view.idx[i] < view.title_end
                    or i in starts or not _unknown_word(word)):
                continue
            before = i - 1 if i >= 1 and lower[i - 1] in LIST_JOINS else None
            after = i + 1 if i + 1 < len(words) and lower[i + 1] in LIST_JOINS else None
            if (before is not None and before in ends) or (after is not None and after + 1 in starts):
                out.append(Found(i, i + 1, LISTED))
        return out

    @staticmethod
    def _scored_names(view, spans: list[Found]) -> list[Found]:
        """A capitalised word that scores a figure: "and Moses achieves 24.8" (a system, whatever
        else the word means)."""
        words, lower = view.words, view.lower
        taken = {i for f in spans for i in range(f.start, f.end)}
        out = []
        for i in range(1, len(words) - 2):
            if (i not in taken and lower[i + 1] in SCORING_VERBS and words[i + 2][:1].isdigit()
                    and _capitalised(words[i]) and len(words[i]) >= 3 and not view.is_sent_start(i)
                    and view.idx[i] >= view.title_end and words[i] not in NOT_NAMES):
                out.append(Found(i, i + 1, ""))
        return out

    def __call__(self, doc: Doc) -> Doc:
        spans: list[Found] = []
        view = info(doc)
        words = view.words
        title_end = view.title_end
        i, n = 0, len(words)
        while i < n:
            word = words[i]
            in_title = view.idx[i] < title_end
            if (i + 1 < n and _VERSION_WORD.match(words[i + 1]) and _capitalised(word) and i > 0
                    and not view.is_sent_start(i)):
                spans.append(Found(i, i + 2, ""))  # "Seurat v3", "Harmony v1.2": a released tool
                i += 2
                continue
            if not is_name_word(word, in_title=in_title):
                i += 1
                continue
            start, end = i, i + 1
            if in_title:
                # a title capitalises every word, so only a word no English text uses joins the
                # name: "Tongyi DeepResearch Technical Report"
                while (start > 0 and i - start < self.max_words - 1 and _capitalised(words[start - 1])
                       and _unknown_word(words[start - 1]) and view.idx[start - 1] < title_end):
                    start -= 1
            else:
                sent_start = view.sent_bounds(i)[0]
                while start > sent_start and i - start < self.max_words - 1:
                    first = start - 1 == sent_start
                    if not _capitalised(words[start - 1]) or (first and not _unknown_word(words[start - 1])):
                        break  # a sentence's first word joins only when no English text uses it ("Tongyi")
                    start -= 1
                while end < n and end - start < self.max_words and is_name_word(words[end]):
                    end += 1
                end = self._data_name_end(words, end, start)
            if end < n and _YEAR.match(words[end]) and not _known(doc, start, end):
                end += 1  # "the BraTS 2021 dataset", "ICDAR 2015": an edition is a name of its own
            if (end < n and words[end] in _SIZE_LETTERS and words[end - 1][-1:].isdigit()
                    and view.end_char(end - 1) == view.idx[end]):
                end += 1  # "ImageNet-5K", "JFT-300M": the size is part of the name
            spans.append(Found(start, end, ""))
            i = end
        spans += self._listed_with_names(view, spans)
        spans += self._scored_names(view, spans)
        subject = title_subject(doc, title_end)
        if subject is not None:
            spans.append(Found(subject.start, subject.end, "TITLE"))
        set_found(doc, SPANS_KEY, spans)
        return doc


@Language.factory("scholarkg_candidates", default_config={"max_words": 4})
def make_candidates(nlp: Language, name: str, max_words: int) -> CandidateFinder:
    return CandidateFinder(max_words=max_words)
