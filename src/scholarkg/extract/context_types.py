"""Types of coined names from the whole text, after each mention's own context has spoken.

:func:`~scholarkg.extract.typing_rules.infer_type` types one mention from the words right around
it. Here the evidence of every mention of a name in the abstract is put together:

- **votes**: one type per coined name in a text, the best supported over all its mentions
  ("KAIROS, a benchmark" once and "on KAIROS" twice); untyped mentions inherit it, and a name
  the gazetteer or a definition types lends its type to its other mentions;
- **lists**: a name listed with typed names takes their type ("H2O, SnapKV and GemFilter"); a
  list that ends in a plural head noun ("Set5, Set14 and B100 benchmarks") or follows one
  ("benchmarks such as A, B and C", "methods (i.e. A, B, C)") is of that head's type;
- **families**: a variant is the same kind of thing as its family ("BrowseComp-en");
- **last resort**: a name nothing types is kept as a low-confidence method when it looks coined
  and stands in prose; not when it is an English word, a venue, a footnoted author name, a
  quantity ("6DoF", "0.9dB") or part of a byline, a glossary dump or a title set in capitals.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from spacy.tokens import Doc

from ..model import EntityType
from .cues import FUNCTION_WORDS, LIST_JOINS, head_type, suffix_type
from .doctext import info
from .modelnames import VERSIONED, variant_base
from .names import canonical_key
from .tokenizer import MODIFIER_SUFFIXES

if TYPE_CHECKING:  # pragma: no cover
    from .entity_sources import Candidate

__all__ = ["vote_types", "type_from_lists", "type_from_family", "joined_base", "keep_untyped", "looks_coined", "VENUES"]

_LIST_OPENERS = frozenset({",", "such", "as", "including", "includes", "include", "like", "namely", "e.g.", "i.e.",
                           "e.g", "i.e", "(", ":", "viz."})
# Conferences, journals and archives: named in bylines and references, never an entity of a paper.
VENUES = frozenset("""ACL AAAI IJCAI NAACL EACL EMNLP COLING NeurIPS NIPS ICML ICLR CVPR ICCV ECCV
    BMVC WACV ACCV KDD WWW SIGIR CIKM WSDM ICDM SDM ICASSP INTERSPEECH Interspeech AISTATS UAI COLT
    TPAMI PAMI IJCV JMLR TACL TOG SIGGRAPH ICRA IROS RSS CoRL MICCAI ISBI arXiv ArXiv TKDE TNNLS""".split())
_FOOTNOTED = re.compile(r"^[A-Z][a-z]+\d{1,2}$")  # "Hager1", "Wang2": a name with an affiliation mark
_CAMEL_PARTS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def vote_types(cands: list[Candidate]) -> None:
    """One type per coined name in a text: the best-supported one; untyped uses inherit it."""
    # the strongest evidence wins, then the most: how a name ends says the same thing at every
    # mention ("PolyQA" three times), one apposition ("PolyQA, a reader") says more
    votes: dict[str, dict[EntityType, tuple[float, float]]] = {}
    for c in cands:
        if c.type is not None and c.source in {"name", "title"}:
            bucket = votes.setdefault(c.key, {})
            best, total = bucket.get(c.type, (0.0, 0.0))
            bucket[c.type] = (max(best, c.confidence), total + c.confidence)
    known: dict[str, Candidate] = {}
    for c in cands:
        if c.type is not None and c.source in {"abbreviation", "gazetteer", "model"}:
            known.setdefault(c.key, c)
    for c in cands:
        key = c.key
        if c.source in {"name", "title"} and key in votes:
            best = max(sorted(votes[key].items(), key=lambda kv: kv[0].value), key=lambda kv: kv[1])
            if c.type is None:
                c.confidence = max(c.confidence, min(0.8, best[1][1]) - 0.05)
            c.type = best[0]
        if c.type is None and key in known:
            ref = known[key]
            c.type, c.label, c.aliases = ref.type, ref.label, ref.aliases
            c.confidence = max(c.confidence, ref.confidence - 0.05)


def _list_runs(lower: list[str], names: list[Candidate]) -> list[list[Candidate]]:
    """Runs of names joined by commas, "and", "or" or slashes: "A, B and C"."""
    by_start: dict[int, Candidate] = {}
    for c in names:  # of names starting at one word, the longest ("PASCAL VOC 2012", not "PASCAL VOC")
        if c.start not in by_start or c.end > by_start[c.start].end:
            by_start[c.start] = c
    runs, seen = [], set()
    for start in sorted(by_start):
        if start in seen:
            continue
        run = [by_start[start]]
        seen.add(start)
        while True:
            j = run[-1].end
            while j < len(lower) and lower[j] in LIST_JOINS and j - run[-1].end < 2:
                j += 1
            nxt = by_start.get(j) if j > run[-1].end else None
            if nxt is None:
                break
            run.append(nxt)
            seen.add(nxt.start)
        if len(run) == 2 and lower[run[0].end : run[1].start] == [","] and run[1].end < len(lower) and (
                lower[run[1].end].isalpha() and lower[run[1].end] not in LIST_JOINS):
            # "Compared to X, Y with ... reduces": two names, a comma and the clause going on are no list
            runs.extend([[run[0]], [run[1]]])
            continue
        runs.append(run)
    return runs


def _plural_head(word: str) -> EntityType | None:
    low = word.lower()
    return head_type(low) if low.endswith("s") and low[:1].isalpha() else None


def type_from_lists(doc: Doc, cands: list[Candidate]) -> None:
    """Names in a list take the type of the list: of a plural head noun after it ("Set5, Set14
    and B100 benchmarks") or before it ("benchmarks such as A, B and C", "methods (i.e. A, B)"),
    else of the nearest typed name in it ("on CUHK03, Market-1501 and DukeMTMC" where one is a
    known dataset; "H2O, SnapKV and GemFilter")."""
    view = info(doc)
    lower = view.lower
    names = [c for c in cands if c.source not in {"term", "ner"}]
    for run in _list_runs(lower, names):
        after = run[-1].end
        head = _plural_head(view.words[after]) if after < len(lower) and len(run) >= 2 else None
        head = head or _head_before(view, run[0])
        if head is not None:
            for c in run:
                if c.type is None:
                    c.type, c.confidence = head, 0.65
            continue
        for _ in range(2):  # each untyped name takes the type of a typed neighbour
            for k, c in enumerate(run):
                if c.type is not None:
                    continue
                ref = next((o for o in (run[k - 1] if k else None, run[k + 1] if k + 1 < len(run) else None)
                            if o is not None and o.type is not None), None)
                if ref is not None:
                    c.type, c.confidence = ref.type, 0.55


def _head_before(view, first: Candidate) -> EntityType | None:
    """ "benchmarks such as A", "datasets including A", "methods (i.e. A": the head of a list."""
    lower, words = view.lower, view.words
    sent_start = view.sent_bounds(first.start)[0]
    j = first.start - 1
    steps = 0
    while j >= sent_start and lower[j] in _LIST_OPENERS and steps < 3:
        j -= 1
        steps += 1
    if steps == 0 or j < sent_start:
        return None
    return _plural_head(words[j])


def joined_base(name: str, gazetteer) -> tuple[str, EntityType] | None:
    """A known method or model a coined name is built on by joining a word in front of it:
    ``"SparseLoRA"`` -> LoRA, ``"RegionCLIP"`` -> CLIP, ``"StabGAT"`` -> GAT."""
    for k in range(2, len(name) - 1):
        if not name[k].isupper() or name[k - 1].isupper() or not name[k - 1].isalpha():
            continue
        entry = gazetteer.lookup(name[k:])
        if entry is not None and entry.type in (EntityType.METHOD, EntityType.MODEL):
            return entry.canonical, entry.type
    return None


def type_from_family(cands: list[Candidate], gazetteer) -> None:
    """A variant takes the type of its family ("BrowseComp-en" is a benchmark like BrowseComp); a
    name built on a known method is a method too ("SparseLoRA" on LoRA)."""
    known = {c.key: c.type for c in cands if c.type is not None and c.source not in {"term", "ner"}}
    for c in cands:
        if c.type is not None or c.source not in {"name", "title"}:
            continue
        got = variant_base(c.text)
        type_ = None
        if got is not None:
            entry = gazetteer.lookup(got[0])
            type_ = known.get(canonical_key(got[0])) or (entry.type if entry is not None else None)
        if type_ is None:
            joined = joined_base(c.text, gazetteer)
            type_ = joined[1] if joined else None
        if type_ is None and "-" in c.text:
            # a variant named after its base: "CornerNet-Squeeze", "PolyQA-Large" (not "ResNet-Based"),
            # of the type the text gives the base, else the one its ending suggests
            head, tail = c.text.split("-", 1)[0], c.text.rsplit("-", 1)[1]
            # ("SR-CNN" is a CNN for super-resolution, not a kind of SR)
            if tail[:1].isupper() and not _MODIFIER_TAIL.fullmatch(tail.lower()) and gazetteer.lookup(tail) is None:
                entry = gazetteer.lookup(head)
                type_ = known.get(canonical_key(head)) or (entry.type if entry is not None else suffix_type(head))
        if type_ is not None:
            c.type, c.confidence = type_, 0.7 if got is not None else 0.6


_MODIFIER_TAIL = re.compile(MODIFIER_SUFFIXES)
_INNER_CAPITAL = re.compile(r"[a-z][A-Z]")
# Names that are something else written with capitals, in fields outside machine learning:
# surnames paired as a modifier ("Aharonov-Bohm", "Gauss-Bonnet"), initials ("A.W.", "P.Albers"),
# catalogue numbers and identifiers (seven digits or more: "HE2347-4342"), chemical formulas.
_EPONYMS = re.compile(r"[A-Z][a-z]+(?:--?[A-Z][a-z]+)+")
_PREFIXES = frozenset("non quasi anti semi inter intra pseudo sub post pre un".split())
_INITIAL = re.compile(r"[A-Z]\.")
_ELEMENT = re.compile(r"([A-Z][a-z]?)[0-9\u2080-\u2089]*")
_ELEMENTS = frozenset("""H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge
    As Se Br Kr Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb
    Dy Ho Er Tm Yb Lu Hf Ta W Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn Fr Ra Ac Th Pa U Np Pu""".split())


def chemical_formula(text: str) -> bool:
    """Whether ``text`` reads as a chemical formula: element symbols with their counts, in mixed
    case ("ZnO", "Al2O3", "CeAg₂Ge₂"; not "GAN", which is no formula as written)."""
    core = text.replace("(", "").replace(")", "")
    parts = _ELEMENT.findall(core)
    return (len(parts) >= 2 and any(ch.islower() for ch in core) and all(p in _ELEMENTS for p in parts)
            and _ELEMENT.sub("", core) == "")


def looks_coined(text: str) -> bool:
    """Whether an untyped name-shaped word is a coined name rather than something else written
    with capitals: an English word ("GENERATIVE"), English words run together
    ("SubmissionAndFormattingInstructions", "compressFigures"), a venue ("CVPR", "EMNLP2017"), a
    footnoted name ("Hager1"), a quantity ("6DoF", "0.9dB"), a modifier ending in "-Based",
    "-Aware", ..., a pair of surnames, initials, an identifier, a chemical formula, or too long
    to be a name."""
    from .lexicon import english_parts, is_english

    if len(text) > 20 or not text[:1].isalpha() or sum(ch.isalpha() for ch in text) < 2:
        return False
    # English words run together: counted in the joined piece of a hyphenated name, so that a
    # variant of a coined name ("CornerNet-Squeeze") is not three words
    joined = [p for p in text.split("-") if _INNER_CAPITAL.search(p)] if "-" in text else [text]
    counted = max(joined, key=len) if joined else text
    if is_english(text.strip("s")) or _FOOTNOTED.match(text) or sum(len(p) >= 3 for p in english_parts(counted)) >= 3:
        return False
    if text.rstrip("0123456789'\u2019-") in VENUES:
        return False
    if "-" in text:
        head, tail = text.split("-", 1)[0], text.rsplit("-", 1)[1].lower()
        if _MODIFIER_TAIL.fullmatch(tail) or (tail.endswith("ed") and is_english(tail)):
            return False  # "LLM-Based", "NSI-induced" (a title's capitals): a modifier, not a name
        if head in _PREFIXES:
            return False  # "non-Markovian", "quasi-Hopf", "anti-BRST": a word made from a name
    if text.isupper() and text.isalpha() and len(text) <= 2:
        return False
    if (_EPONYMS.fullmatch(text) or _INITIAL.match(text) or sum(ch.isdigit() for ch in text) >= 7
            or chemical_formula(text)):
        return False  # "Jahn-Teller", "P.Albers", "QSOJ23495-4338", "Gd2Ti2O7"
    if text[:1].islower():
        parts = _CAMEL_PARTS.findall(text)
        if len(parts) >= 2 and all(p.isdigit() or is_english(p) for p in parts):
            return False  # "stepLabel", "darkgreenRGB0": identifiers, not names
    return True


def _in_prose(view, i: int) -> bool:
    """The sentence of token ``i`` reads as prose (or is a title): function words, few "="
    signs, not all in capitals. Bylines ("1] JonathanShen1] RuomingPang1]"), glossary dumps ("VAEname = VAE,
    description = ...") and titles set in capitals are not."""
    s0, s1 = view.sent_bounds(i)
    lower, words = view.lower, view.words
    function = sum(1 for k in range(s0, s1) if lower[k] in FUNCTION_WORDS)
    in_title = view.idx[i] < view.title_end
    if (function < 3 and not in_title) or words[s0:s1].count("=") * 4 > function:
        return False
    alpha = [w for w in words[s0:s1] if w.isalpha() and len(w) > 2]
    shouting = sum(1 for w in alpha if w.isupper())
    return not (len(alpha) >= 4 and shouting * 2 > len(alpha))


def keep_untyped(doc: Doc, cands: list[Candidate]) -> None:
    """A coined name nothing types is still a name: kept as a method, with low confidence,
    when it looks coined (:func:`looks_coined`) and stands in prose."""
    view = info(doc)
    for c in cands:
        if c.type is not None or c.source != "name" or c.extra.get("listed"):
            continue
        if c.end - c.start != 1 and not (c.end - c.start == 2 and VERSIONED.search(c.text)):
            continue  # one coined word, or a word and its version ("Seurat v3")
        if looks_coined(c.text) and _in_prose(view, c.start):
            c.type, c.confidence = EntityType.METHOD, 0.35
            if VERSIONED.search(c.text) and (family := variant_base(c.text)) is not None:
                # a release ("Mirothinker-v1.0") is a model, or what its base is ("WrenBench-v2")
                c.type, c.confidence = suffix_type(family[0]) or EntityType.MODEL, 0.4


# Heads of concepts that name a process: a task when the text says what something is for
# ("a benchmark for semi-supervised learning", "advances in reinforcement learning"), a method
# when the text uses it ("trained with reinforcement learning").
PROCESS_HEADS = frozenset("""learning training adaptation translation inference optimization optimisation
    distillation augmentation fine-tuning finetuning pre-training pretraining""".split())
_PURPOSE = frozenset({"for", "in", "to"})


def type_processes_by_purpose(doc: Doc, chosen: list[Candidate]) -> None:
    """A process concept after "for", "in" or "to" is the task the sentence is about."""
    view = info(doc)
    lower = view.lower
    for c in chosen:
        if c.type is not EntityType.METHOD or c.label != c.label.lower() or c.start == 0:
            continue
        if c.source not in {"term", "gazetteer"} or lower[c.end - 1] not in PROCESS_HEADS:
            continue
        if lower[c.start - 1] in _PURPOSE and view.sent_bounds(c.start)[0] < c.start:
            c.type = EntityType.TASK
