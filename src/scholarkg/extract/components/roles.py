"""What the paper does with each entity it names: introduces, evaluatesOn, comparesWith, uses.

Rules over the sentence of each mention:

- **introduces**: a first-person or "this paper" sentence with an introducing verb ("we
  propose / introduce / present / develop ... X", "this paper introduces X", "a model named
  X"), X after the verb; or X is the subject of the title ("HarnessDev: ...").
- **comparesWith**: X follows a comparison cue ("outperforms X", "compared to X", "than X",
  "baselines such as X", "unlike X").
- **evaluatesOn**: a benchmark or dataset in a sentence about experiments or scores, or after
  "on"/"across".
- **uses**: X follows a use cue ("using X", "via X", "based on X", "with X", "fine-tune X").
- otherwise **mentions**.

Sets ``span._.role`` (a :class:`~scholarkg.model.Role`) and ``span._.role_confidence``.
A short form takes the role of its definition when that is stronger.
"""

from __future__ import annotations

from spacy.language import Language
from spacy.tokens import Doc, Span

from ...model import EntityType, Role

__all__ = ["RoleTagger", "sentence_role"]

_INTRO_VERBS = frozenset(
    """introduce introduces introduced introducing propose proposes proposed proposing present
    presents presented presenting develop develops developed design designs designed build
    builds built construct constructs constructed create creates created release releases
    released contribute contributes curate curates curated collect collected formulate
    formulates establish establishes establishing offer offers devise devises devised
    implement implements named called dubbed termed coined""".split()
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
_PRIOR = frozenset({"previous", "prior", "existing", "earlier", "conventional", "traditional", "standard", "popular", "prevailing"})
_DATA = (EntityType.BENCHMARK, EntityType.DATASET)


_NAMING = frozenset({"named", "called", "dubbed", "termed", "coined"})
_PREPOSITIONS = frozenset({"of", "for", "on", "in", "within", "to", "from", "into", "by", "with", "via", "using",
                           "that", "which", "where", "whose", "against", "across", "over", "under", "than",
                           "between", "among", "like", "as"})
_CLAUSE_BREAKS = frozenset({";", "while", "whereas", "but", "although", "though", "however"})
_SCAN = 14


def _generic(span: Span) -> bool:
    label = span.id_ or span.text
    return label == label.lower()


def _introduced(doc: Doc, span: Span, ents_between: int, verb_i: int) -> bool:
    """Whether the introducing verb at ``verb_i`` has ``span`` as its object."""
    sent = span.sent
    word = doc[verb_i].text.lower()
    if word in _NAMING:
        return True
    subject = {t.text.lower() for t in doc[sent.start : verb_i]}
    return bool(subject & _SELF)


def sentence_role(doc: Doc, span: Span) -> tuple[Role, float]:
    """Role of one mention: the nearest cue to its left in the sentence decides."""
    is_data = span.label_ in {t.value for t in _DATA}
    generic = _generic(span)
    if (span._.title_subject or span._.about) and not generic:
        return Role.INTRODUCES, 0.8
    sent = span.sent
    words_before = {t.text.lower() for t in doc[sent.start : span.start]}
    blocked_intro = False  # a preposition or clause word between the verb and the name
    i = span.start - 1
    steps = 0
    while i >= sent.start and steps < _SCAN:
        low = doc[i].text.lower()
        if low in _CLAUSE_BREAKS:
            break
        if low in _INTRO_VERBS:
            if not blocked_intro and not generic and _introduced(doc, span, 0, i):
                return Role.INTRODUCES, 0.85 if steps <= 5 else 0.7
            blocked_intro = True
        elif low in _COMPARE or (low == "to" and i > sent.start and doc[i - 1].text.lower() == "compared"):
            if is_data:
                return Role.EVALUATES_ON, 0.7
            return Role.COMPARES_WITH, 0.75
        elif low in _PRIOR and not generic:
            return Role.COMPARES_WITH, 0.6
        elif low in _USE and i > sent.start and (
            doc[i - 1].text.lower() in _INTRO_VERBS
            or (doc[i - 1].text.lower() == "to" and i - 1 > sent.start and doc[i - 2].text.lower() in _INTRO_VERBS)
        ):
            pass  # "we propose incorporating X", "we propose to use X": the proposal is X
        elif low in _USE:
            if is_data:
                return (Role.EVALUATES_ON, 0.65) if words_before & _EVAL else (Role.USES, 0.6)
            return Role.USES, 0.65
        elif low in {"on", "across"} and is_data:
            return Role.EVALUATES_ON, 0.75
        if low in _PREPOSITIONS or low in {",", "and", "or"} and steps > 3:
            blocked_intro = True
        if low in _PREPOSITIONS:
            blocked_intro = True
        i -= 1
        steps += 1
    if is_data:
        after = {t.text.lower() for t in doc[span.end : sent.end]}
        if (words_before | after) & _EVAL:
            return Role.EVALUATES_ON, 0.65
    return Role.MENTIONS, 0.5


class RoleTagger:
    def __call__(self, doc: Doc) -> Doc:
        spans = doc.spans.get("entities", [])
        best: dict[str, tuple[Role, float]] = {}
        for span in spans:
            role, conf = sentence_role(doc, span)
            span._.role, span._.role_confidence = role, conf
            key = span.id_
            if key not in best or role.rank < best[key][0].rank:
                best[key] = (role, conf)
        # a short form used in "X outperforms ..." after "we introduce X (SF)" still belongs
        # to the paper: introduction is a property of the entity, not only of one mention.
        for span in spans:
            role, conf = best[span.id_]
            if role is Role.INTRODUCES and span._.role is not Role.INTRODUCES and not _generic(span):
                span._.role, span._.role_confidence = role, min(conf, 0.8)
        return doc


@Language.factory("scholarkg_roles")
def make_roles(nlp: Language, name: str) -> RoleTagger:
    return RoleTagger()
