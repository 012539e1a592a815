"""What the paper does with each entity it names: introduces, evaluatesOn, comparesWith, uses.

Rules over the sentence of each mention:

- **introduces**: a first-person or "this paper" sentence with an introducing or naming verb
  ("we propose / introduce / present / develop ... X", "this paper introduces X", "a model
  named / dubbed / termed X", "we call / name it X"), X after the verb; a cue after X ("X,
  which we release", "X (ours)"); or X is the subject of the title ("HarnessDev: ...").
  A name the gazetteer knows is introduced all the same when the text says so.
- **comparesWith**: X follows a comparison cue ("outperforms X", "compared to X", "than X",
  "baselines such as X", "unlike X").
- **evaluatesOn**: a benchmark or dataset in a sentence about experiments or scores, or after
  "on"/"across".
- **uses**: X follows a use cue ("using X", "via X", "based on X", "with X", "fine-tune X", "a
  detector built on X", "builds upon X"), or
  modifies what is named ("a ResNet-like encoder", "a BERT-based reranker").
- otherwise **mentions**.

Sets ``role`` (a :class:`~scholarkg.model.Role`) and ``role_confidence`` of every entity record
(readable as ``span._.role`` on the spans of ``entity_spans(doc)``).
A short form takes the role of its definition when that is stronger.
"""

from __future__ import annotations

from spacy.language import Language
from spacy.tokens import Doc

from ...model import EntityType, Role
from ..doctext import info
from ..cues import head_type
from ..tokenizer import SPLIT_MODIFIER
from .entities import EntityRecord, is_generic, records

__all__ = ["RoleTagger", "sentence_role"]

_INTRO_VERBS = frozenset(
    """introduce introduces introduced introducing propose proposes proposed proposing present
    presents presented presenting develop develops developed design designs designed build
    builds built construct constructs constructed create creates created release releases
    released contribute contributes curate curates curated collect collected formulate
    formulates offer offers devise devises devised
    implement implements named called dubbed termed coined call calls name names dub dubs term terms
    coin denote denotes""".split()
)
_SELF = frozenset({"we", "our", "this", "here", "paper", "work", "study", "report", "article", "us"})
_COMPARE = frozenset(
    """outperforms outperform outperforming outperformed surpasses surpass surpassing beats
    beat than versus vs vs. unlike baseline baselines compared comparing comparison over
    against exceeds exceeding""".split()
)
_USE = frozenset(
    """using use uses used via with leveraging leverage leverages employ employs employing
    adopt adopts adopting apply applies applying based built upon utilize utilizes utilizing
    incorporating incorporate fine-tune fine-tunes fine-tuned finetune finetuned train trained
    training initialized initialised by through""".split()
)
_EVAL = frozenset(
    """evaluate evaluates evaluated evaluating evaluation experiments experiment results
    benchmark benchmarks achieve achieves achieved achieving score scores accuracy test tested
    testing state-of-the-art sota performance outperforms outperform datasets dataset on
    across""".split()
)
_TRAINED = frozenset("""trained train training pre-trained pretrained pretraining pre-training fine-tuned
    finetuned fine-tuning -trained -tuned learned""".split())
_BUILT = frozenset("""built builds build building based relies rely relying draws draw drawing""".split())
_PRIOR = frozenset({"previous", "prior", "existing", "earlier", "conventional", "traditional", "standard", "popular", "prevailing"})
_DATA = (EntityType.BENCHMARK, EntityType.DATASET)


_NAMING = frozenset({"named", "called", "dubbed", "termed", "coined"})
_PREPOSITIONS = frozenset({"of", "for", "on", "in", "within", "to", "from", "into", "by", "with", "via", "using",
                           "that", "which", "where", "whose", "against", "across", "over", "under", "than",
                           "between", "among", "like", "as"})
_CLAUSE_BREAKS = frozenset({";", "while", "whereas", "but", "although", "though", "however"})
_SCAN = 14


_generic = is_generic


_ROLE_TYPES = {"Method", "Model", "Benchmark", "Dataset", "Metric"}


def sentence_role(doc: Doc, r: EntityRecord) -> tuple[Role, float]:
    """Role of one mention: the nearest cue to its left in the sentence decides."""
    view = info(doc)
    lower = view.lower
    is_data = r.type in _DATA
    generic = _generic(r)
    if r.end < len(lower) and SPLIT_MODIFIER.fullmatch(lower[r.end]):
        # "a novel ResNet-like architecture", "a BERT-based tagger": what is proposed builds on X
        return Role.USES, 0.65
    if r.title_subject and r.in_title and r.source not in {"term", "ner"}:
        return Role.INTRODUCES, 0.8  # "Dropout: A Simple Way ...", "Generative Adversarial Networks"
    if (r.title_subject or r.about) and not generic:
        return Role.INTRODUCES, 0.8
    sent_start, sent_end = view.sent_bounds(r.start)
    prev = lower[r.start - 1] if r.start > sent_start else ""
    if not generic and prev in {"our", "proposed"} and r.type.value in _ROLE_TYPES:
        return Role.INTRODUCES, 0.65  # "our Past Decode Regularization (PDR) method", "the proposed DFN"
    prev2 = lower[r.start - 2] if r.start - 1 > sent_start else ""
    if not generic and prev2 in {"our", "proposed"} and prev.isalpha() and head_type(prev) is not None:
        return Role.INTRODUCES, 0.65  # "our planner StepWise", "the proposed method FooNet"
    if not generic and _introduced_after(lower, r.end, sent_end):
        return Role.INTRODUCES, 0.75  # "KiloBench, which we release", "FooNet (ours)"
    if r.source in {"gazetteer", "model"} and prev in {"a", "an"} and prev2 == ",":
        return Role.USES, 0.6  # "StabGAT, a graph attention network that ...": what the new thing is
    blocked_intro = False  # a preposition or clause word between the verb and the name
    i = r.start - 1
    steps = 0
    while i >= sent_start and steps < _SCAN:
        low = lower[i]
        if low in _CLAUSE_BREAKS:
            break
        if low in _INTRO_VERBS:
            named_here = low in _NAMING and steps <= 1 and r.source not in {"term", "ner"}
            if not blocked_intro and (not generic or named_here) and (
                low in _NAMING or set(lower[sent_start:i]) & _SELF
            ):
                return Role.INTRODUCES, 0.85 if steps <= 5 else 0.7
            blocked_intro = True
        elif low in {"on", "upon"} and steps <= 2 and i > sent_start and lower[i - 1] in _BUILT:
            return Role.USES, 0.7  # "a detector built on YOLOv5", "builds upon GCN", "relies on X"
        elif low in _COMPARE or (low in {"to", "with"} and i > sent_start and lower[i - 1] in {"compared", "comparison"}):
            if is_data:
                return Role.EVALUATES_ON, 0.7
            return Role.COMPARES_WITH, 0.75
        elif low in _PRIOR and not generic:
            return Role.COMPARES_WITH, 0.6
        elif low in _USE and i > sent_start and (
            lower[i - 1] in _INTRO_VERBS or (lower[i - 1] == "to" and i - 1 > sent_start and lower[i - 2] in _INTRO_VERBS)
        ):
            pass  # "we propose incorporating X", "we propose to use X": the proposal is X
        elif low in _USE:
            if is_data:
                return (Role.EVALUATES_ON, 0.65) if _EVAL.intersection(lower[sent_start : r.start]) else (Role.USES, 0.6)
            return Role.USES, 0.65
        elif low in {"on", "across"} and is_data:
            if i > sent_start and (lower[i - 1] in _TRAINED or (lower[i - 1] in {"the", "a"} and i - 1 > sent_start
                                                                and lower[i - 2] in _TRAINED)):
                return Role.USES, 0.7  # "trained on X", "pre-trained on the X corpus": data it learns from
            return Role.EVALUATES_ON, 0.75
        if low in _PREPOSITIONS or (low in {",", "and", "or"} and steps > 3):
            blocked_intro = True
        i -= 1
        steps += 1
    if is_data:
        if _EVAL.intersection(lower[sent_start : r.start]) or _EVAL.intersection(lower[r.end : sent_end]):
            return Role.EVALUATES_ON, 0.65
    return Role.MENTIONS, 0.5


_AFTER_INTRO = frozenset({"release", "introduce", "propose", "present", "develop", "build", "construct",
                          "create", "design", "call", "name", "term", "dub", "contribute", "open-source", "curate"})


def _introduced_after(lower: list[str], end: int, sent_end: int) -> bool:
    """ "X, which we release ...", "X, that we propose", "X (ours)", "X, our new benchmark"."""
    words = lower[end : min(sent_end, end + 5)]
    if words[:3] == ["(", "ours", ")"]:
        return True
    if len(words) >= 2 and words[0] == "," and words[1] == "our" and len(words) >= 3 and words[2] in {"new", "proposed"}:
        return True
    if len(words) >= 4 and words[0] == "," and words[1] in {"which", "that"} and words[2] == "we":
        verb = words[3]
        return verb in _AFTER_INTRO or verb.rstrip("sd") in _AFTER_INTRO or verb[:-2] in _AFTER_INTRO
    return False


class RoleTagger:
    def __call__(self, doc: Doc) -> Doc:
        recs = records(doc)
        best: dict[str, tuple[Role, float]] = {}
        for r in recs:
            r.role, r.role_confidence = sentence_role(doc, r)
            if r.label not in best or r.role.rank < best[r.label][0].rank:
                best[r.label] = (r.role, r.role_confidence)
        # introduction is a property of the entity in this paper, not only of one mention
        for r in recs:
            role, conf = best[r.label]
            if role is Role.INTRODUCES and r.role is not Role.INTRODUCES and not _generic(r):
                r.role, r.role_confidence = role, min(conf, 0.8)
        return doc


@Language.factory("scholarkg_roles")
def make_roles(nlp: Language, name: str) -> RoleTagger:
    return RoleTagger()
