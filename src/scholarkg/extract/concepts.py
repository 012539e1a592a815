"""Which term phrases are concepts a researcher would name, and which are loose description.

A term phrase ("semantic image segmentation", "seven language models", "a sample-efficient
approach") is a candidate concept. The rules here, written from how abstracts describe things:

- **Edges.** Numbers (not dimensions: "3D pose estimation" stays whole), quantifiers, adverbs,
  comparatives, superlatives and evaluative or vague adjectives never start a concept: they are
  cut off ("seven language models" -> "language models", "diverse question-answering" ->
  "question-answering", "biggest encoder" -> "encoder").
- **Generic heads.** A head that names any kind of thing ("approach", "method", "framework",
  "model", "system", "procedure", ...) makes a concept only with a specific modifier:
  "attention mechanism" and "policy network" are concepts, "differentiable model", "raw model",
  "training-free method" and "single-stage selection strategy" are not.
- **Groups.** A plural of a data head ("benchmarks", "datasets", "corpora") without a name in
  it describes a group of data sets, not one: "downstream benchmarks", "deep research
  benchmarks" are not concepts ("the GLUE benchmarks" names one).
- **Titles.** A title capitalises its words; a concept phrase seen only in the title, with a
  generic head, is the title's wording ("An Interactive Benchmark", "A Coordination Layer"),
  not a concept.

:func:`concept_key` gives morphological variants of one concept one key ("agentic foundation
models" / "agentic foundational model").
"""

from __future__ import annotations

import re
from functools import lru_cache

from .names import canonical_key, singular

__all__ = ["EDGE_WORDS", "GENERIC_MODIFIERS", "RESEARCH_MODE", "STRICT_GENERIC_HEADS", "trim_start", "is_specific",
           "is_group", "concept_key"]

_NUMBER_WORDS = """one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
twenty thirty forty fifty hundred hundreds thousand thousands million millions billion dozens dozen
single double triple first second third fourth fifth last next""".split()
_QUANTIFIERS = """a an the this that these those our their its his her your my all any each every some
most more less least many much few fewer several multiple numerous various other another both either
neither such same different certain no only also even just still very quite rather often always never
already further additional extra whole entire overall""".split()
_EVALUATIVE = """good better best bad worse worst strong stronger strongest weak weaker weakest big bigger
biggest small smaller smallest large larger largest great greater greatest high higher highest low lower
lowest fast faster fastest slow slower slowest simple simpler simplest efficient effective robust
powerful competitive novel new existing previous prior recent current popular common standard typical
traditional conventional original final given particular specific main key important significant
remarkable impressive promising successful superior state-of-the-art sota challenging difficult hard easy
naive vanilla strong well-known widely-used so-called proposed improved enhanced reliable accurate
scalable practical useful valuable limited inadequate comprehensive extensive detailed systematic careful
rigorous principled flexible modular generic general basic advanced modern classical alternative
similar cheap costly expensive top top-performing best-performing leading prevailing mainstream
negligible marginal minimal substantial considerable reasonable moderate subsequent complex
positive negative suitable possible sophisticated straightforward intuitive appropriate desired feasible
adequate sufficient proper satisfactory elegant versatile convenient own suggested enormous
comparable rival competing simplified""".split()
_VAGUE_ADJECTIVES = """raw fixed downstream upstream differentiable sample-efficient training-free
end-to-end single-stage multi-stage two-stage one-stage interactive unified holistic diverse
hand-designed hand-crafted handcrafted general-purpose lightweight light-weight heavy open closed
open-source open-weight frontier generalizable complete full partial auxiliary diagnostic automated
automatic manual human-engineered mature runnable deterministic dynamic static underlying resulting
corresponding respective baseline base pretrained pre-trained trained learned fine-tuned off-the-shelf
black-box white-box plug-and-play task-specific domain-specific model-agnostic data-driven
learning-based cost-effective low-cost high-quality large-scale small-scale real-world frozen
chunked individual valid established realistic actual dedicated tailored relevant unknown
future technical sensitive transparent coherent consistent abstract informal physical potential
regular natural predefined pre-defined elementary""".split()
# Words that say only how research is done: "an experimental strategy", "numerical methods",
# "theoretical understanding" ("computational cost" says which cost: not one of them).
RESEARCH_MODE = frozenset("""experimental theoretical empirical analytical analytic numerical conceptual
methodological quantitative qualitative geometrical geometric""".split())

# Words that never begin a concept: cut off from its start.
EDGE_WORDS = frozenset(_NUMBER_WORDS + _QUANTIFIERS + _EVALUATIVE)
# Modifiers that leave a generic head generic ("raw model", "fixed runtime model").
GENERIC_MODIFIERS = frozenset(_NUMBER_WORDS + _QUANTIFIERS + _EVALUATIVE + _VAGUE_ADJECTIVES + [*RESEARCH_MODE] + """
runtime selection learning training evaluation prompting reasoning process task tasks research
agent agents agentic execution inference time resource resources system systems""".split())
# Heads that name any kind of thing; as a plural they describe a group.
STRICT_GENERIC_HEADS = frozenset("""approach method technique strategy framework system procedure solution
pipeline scheme paradigm mechanism protocol recipe baseline benchmark dataset data-set corpus collection
suite tool toolkit module layer component process setting setup design formulation model algorithm
architecture""".split())
# Plural heads that describe a group of data sets: "downstream benchmarks", "deep research benchmarks".
_GROUP_HEADS = frozenset({"benchmark", "dataset", "data-set", "corpus", "collection", "suite", "testbed"})
_ADVERB = re.compile(r"^[a-z]{3,}ly$")
_NOT_ADVERBS = frozenset({"family", "anomaly", "poly", "supply", "assembly", "early", "only"})
_SUPERLATIVE = re.compile(r"^[a-z]{3,}est$")
_NOT_SUPERLATIVES = frozenset({"interest", "test", "contest", "forest", "request", "harvest", "manifest", "digest",
                               "conquest", "quest", "protest", "honest", "modest", "arrest", "suggest", "invest"})
_NUMBER = re.compile(r"^[\d.,]+[a-z]{0,2}$")
_DIMENSION = re.compile(r"^\d(?:\.\d)?d$")  # "3D", "2.5D": what a thing is, not how many




def _is_edge(word: str) -> bool:
    low = word.lower()
    if low in EDGE_WORDS or (_NUMBER.match(low) and not _DIMENSION.match(low)) or low.startswith("-"):
        return True
    if _ADVERB.match(low) and low not in _NOT_ADVERBS:
        return True
    return bool(_SUPERLATIVE.match(low)) and low not in _NOT_SUPERLATIVES


def trim_start(words: list[str], start: int, head: int) -> int:
    """The first word of the phrase ``words[start:head + 1]`` once edge words are cut off."""
    while start < head and _is_edge(words[start]):
        start += 1
    return start


def _generic_modifier(word: str) -> bool:
    low = word.lower()
    if low in GENERIC_MODIFIERS or _is_edge(low):
        return True
    if "-" in low and low.rsplit("-", 1)[-1] in {"free", "efficient", "aware", "based", "driven", "oriented",
                                                  "agnostic", "specific", "level", "stage", "step", "scale",
                                                  "grained", "style", "like", "friendly", "centric"}:
        return True  # "training-free", "entity-aware", "fine-grained"
    return False


def is_specific(words: list[str], start: int, head: int, head_generic: bool) -> bool:
    """Whether ``words[start:head + 1]`` names something specific (its edges already cut)."""
    if not head_generic:
        return True
    # a word before a split-off vague suffix is part of it: "component" "-centric" is one
    # modifier, "component-centric" ("graph-based model" says how the model works)
    return any(not _generic_modifier(w) and not (k + 1 < head and words[k + 1].lower() in _VAGUE_SUFFIXES)
               for k, w in enumerate(words[start:head], start))


def is_group(head_word: str, words: list[str], start: int, head: int) -> bool:
    """A plural generic head describing a set of things ("downstream benchmarks") rather than a
    thing, unless a name is inside ("the GLUE benchmarks")."""
    low = head_word.lower()
    base = singular(low) if not low.endswith("corpora") else "corpus"
    if base == low or base not in _GROUP_HEADS:
        return False
    return not any(any(c.isupper() for c in w) for w in words[start:head])


_VAGUE_SUFFIXES = frozenset({"-centric", "-oriented", "-driven", "-aware", "-free", "-friendly", "-agnostic",
                             "-style", "-like"})


_AL_STEMS = (("ional", "ion"), ("ical", "ic"))


@lru_cache(maxsize=65536)
def concept_key(label: str) -> str:
    """One key for the morphological variants of a concept: every word singular, "-ional" and
    "-ical" adjectives as their nouns.

    >>> concept_key("agentic foundational models") == concept_key("agentic foundation model")
    True
    """
    out = []
    for word in canonical_key(label).split():
        word = singular(word) if len(word) > 3 else word
        for suffix, repl in _AL_STEMS:
            if word.endswith(suffix) and len(word) > len(suffix) + 3:
                word = word[: -len(suffix)] + repl
                break
        out.append(word)
    return " ".join(out)
