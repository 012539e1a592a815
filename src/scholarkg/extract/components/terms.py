"""Term candidates: noun phrases built around a head noun that names a kind of research thing.

"semantic image segmentation" (head *segmentation*: a task), "pretrained convolutional
networks" (head *network*: a method), "pixel-level accuracy" (head *accuracy*: a metric).
Without a part-of-speech tagger, a phrase is the head plus the content words right before it
(no function words, adverbs, numbers or sentence breaks; at most five words). A bare generic
head ("the model", "our approach", "this task") is not a term; a specific head alone
("segmentation", "summarization") is.

Phrases are kept under ``"terms"`` (:class:`~scholarkg.extract.doctext.Found` with the head's type
as label); the trained classifier (``scholarkg_term_classifier``) may re-type or drop them.
"""

from __future__ import annotations

import re

from spacy.language import Language
from spacy.tokens import Doc

from ...model import EntityType
from ..concepts import RESEARCH_MODE, STRICT_GENERIC_HEADS, concept_key, is_group, is_specific, trim_start
from ..cues import FUNCTION_WORDS
from ..doctext import ROLES_KEY, Found, info, set_found
from ..lexicon import is_english
from ..tokenizer import MODIFIER_SUFFIXES
from ..names import singular

__all__ = ["TermFinder", "SPANS_KEY", "TERM_HEADS", "GENERIC_HEADS", "ROLE_HEADS"]

SPANS_KEY = "terms"
T, ME, MT, D = EntityType.TASK, EntityType.METHOD, EntityType.METRIC, EntityType.DATASET

TERM_HEADS: dict[str, EntityType] = {
    **dict.fromkeys(
        """segmentation classification detection recognition translation parsing tagging labeling
        labelling summarization summarisation generation retrieval answering prediction estimation
        tracking captioning reasoning understanding extraction resolution linking synthesis
        completion forecasting localization localisation matching reconstruction navigation
        comprehension verification identification clustering modeling modelling analysis
        recommendation disambiguation grounding inpainting denoising super-resolution deblurring
        restoration editing ranking reranking re-ranking manipulation diagnosis imputation entailment
        coreference segmentation transcription correction simplification paraphrasing
        categorization categorisation spotting counting registration retargeting colorization
        dehazing deraining stylization compression transliteration normalization-task
        question-answering processing vision alignment mining induction discovery attribution""".split(), T),
    **dict.fromkeys(
        """network net model algorithm method approach architecture mechanism framework technique
        learning training optimization optimisation embedding encoder decoder autoencoder
        auto-encoder attention regularization regularisation normalization normalisation layer
        module loss classifier representation kernel transformer sampling decoding pooling
        convolution regression machine distillation augmentation pruning quantization dropout
        ensemble estimator descent propagation backpropagation tuning fine-tuning finetuning
        pre-training pretraining prompting strategy scheme procedure heuristic objective operator
        unit parser tagger generator discriminator detector extractor recognizer solver
        planner search inference initialization initialisation forest process perceptron
        gan rnn cnn lstm gru vae mlp policy adaptation transfer system simulation microscopy spectroscopy
        magnetometry interferometry approximation sequencing assay tomography chromatography
        cytometry scaling diffraction imaging""".split(), ME),
    **dict.fromkeys(
        """accuracy error precision recall score f1 f-score f-measure auc perplexity iou bleu rouge
        meteor cider measure metric correlation likelihood latency throughput reward rate
        psnr ssim fid map cost complexity speed time coverage ratio""".split(), MT),
    **dict.fromkeys("dataset data-set corpus corpora benchmark treebank database catalog catalogue".split(), D),
}
# Metric heads that are metrics only as written by their authors ("mAP", "METEOR", "CIDEr"); as
# ordinary words they name other things ("feature maps", "smooth maps", "meteor showers").
_ACRONYM_HEADS = frozenset({"map", "meteor", "cider"})
# Heads of the proper names of data collections, never of plain phrases: "the Protein Data Bank",
# "the Human Cell Atlas", "the Sloan Digital Sky Survey" (but "a central bank", "the World Bank",
# and a title's "A Comprehensive Survey").
_NAME_DATA_HEADS = frozenset({"bank", "atlas", "archive", "survey", "census", "registry"})
# Measures and metrics of mathematics, not of evaluation: "the Haar measure", "invariant
# measures", "a Kähler metric", "probability measures".
_MATH_MEASURES = frozenset({"measure", "metric"})
_MATH_OBJECT_WORDS = frozenset("""invariant probability valued borel spectral riemannian hermitian lorentzian
    finsler kähler haar lebesgue radon gibbs counting product complete conformal flat""".split())
# How long something takes, not a measured time: "in polynomial time", "for a long time".
_DURATIONS = frozenset("""long short finite infinite polynomial exponential linear constant logarithmic quadratic
    sublinear superlinear real arbitrary reasonable""".split())
# Words that only say how a task is approached: "theoretical understanding", "experimental detection".
_RESEARCH_MODE = RESEARCH_MODE | {"complete"}


def _not_a_score(words: list[str], lower: list[str], start: int, i: int, head: str) -> bool:
    """A metric-headed phrase that names no score: a measure or metric of mathematics (its
    modifiers are mathematical words or a name that is no English word: "Haar measure"), or a
    duration."""
    mods = range(start, i)
    if head in _MATH_MEASURES and any(lower[k] in _MATH_OBJECT_WORDS
                                      or (words[k].istitle() and not is_english(words[k])) for k in mods):
        return True
    return head == "time" and bool(mods) and all(lower[k] in _DURATIONS for k in mods)


# Metric heads that name a measure only with what they measure: "branch coverage", not "broader coverage".
_MEASURED_HEADS = frozenset({"coverage"})
# Heads that say nothing alone: "the model", "our approach", "a task".
GENERIC_HEADS = frozenset(
    """network net model algorithm method approach architecture mechanism framework technique layer
    module loss representation strategy scheme procedure objective operator unit cell machine
    process field measure metric score rate error dataset data-set corpus corpora benchmark
    database learning training analysis search inference modeling modelling generation
    prediction estimation tuning policy kernel reward adaptation transfer matching ranking
    answering sampling embedding encoder decoder classifier detector generator extractor
    parser tagger solver planner estimator transformer system processing vision cost complexity speed
    time approximation ratio scaling""".split()
)
# Words that never start or continue a term.
STOP_MODIFIERS = frozenset(
    """proposed novel new existing previous prior recent current different various several such
    same other many more most less least further additional whole entire overall general simple
    standard typical traditional conventional popular common original final given particular
    specific certain main key important significant good better best large-scale small large big
    high low higher lower strong stronger efficient effective robust powerful competitive
    state-of-the-art sota first second third two three four five one single multiple
    respective corresponding resulting underlying baseline baselines following above below
    each every all both any some no few its their our his her your this that these those
    challenging difficult hard easy meaningful fast faster slow improved better-performing superior
    remarkable impressive promising successful widely well commonly extensive comprehensive
    fundamental important crucial essential only also very without within across among
    using based via like unlike compared reported achieved obtained used called named shown
    presented introduced described evaluated trained learned designed developed considered
    studied investigated applied employed adopted required needed obtain achieve achieving
    obtaining including improving reducing showing making having being outperforming providing
    leveraging applying yielding reaching giving taking allowing enabling producing requiring
    resulting exploiting combining comparing exploring performing demonstrating surpassing
    establishing setting maintaining relying focusing addressing solving handling capturing
    exhibiting computing estimating predicting generating evaluate evaluates present presents
    train trains pre-train pretrain fine-tune finetune use uses propose proposes introduce introduces
    learn learns study studies describe describes compare compares combine combines extend extends
    improve improves reduce reduces enable enables allow allows make makes take takes give gives
    find finds show shows demonstrate demonstrates achieves achieve obtains estimate estimates
    predict predicts generate generates encode encodes decode decodes compute computes capture
    captures apply applies exploit exploits leverage leverages address addresses tackle tackles
    solve solves handle handles require requires provide provides perform performs outperform
    outperforms consider considers explore explores investigate investigates analyze analyzes
    analyse analyses evaluated presented denoted termed dubbed manage manages discover discovers deploy
    deploys organize organizes organise organises browse alter alters assess assesses verify verifies
    retrieve retrieves understand understands maximize maximise minimize minimise incorporate
    integrate employ utilize utilise adopt conduct construct examine examined implement formulate
    enhance facilitate mitigate alleviate accelerate boost measure quantify identify detect
    localize localise recognize recognise optimize optimise exploited incorporated integrated
    utilized utilised conducted constructed implemented formulated involve involves involving published raise
    raises increase increases decrease decreases hamper hampers spend spends performed carried explored revealed
    demonstrated suggested indicated assessed validated analyzed analysed showed found publish publishes
    calculated""".split()
)
# Nouns that say a phrase names a task: "the viewpoint classification task", "the exploration problem"
ROLE_HEADS = frozenset({"task", "problem", "subtask", "sub-task"})
# Words before a role noun that make a description rather than a name: "the same task", "a hard problem"
_ROLE_STOP = frozenset("""hard easy difficult challenging open important main key central core target
    original auxiliary proxy pretext primary secondary related similar different new given toy real
    real-world well-known classic classical fundamental general generic learning optimization inverse
    end research prediction""".split())
# Nouns that a role noun modifies ("task performance", "task success", "problem setting")
_AFTER_ROLE_NOUNS = frozenset("""arithmetic success accuracy difficulty distribution specification description
    instruction instructions decomposition planning vector vectors embedding embeddings structure setting
    settings space family suite set list pool taxonomy diversity complexity coverage transfer interference
    allocation assignment id ids type types level reward rewards loss losses head heads prompt prompts
    data output outputs horizon horizons statement formulation instance instances solving solver
    solvers""".split())
_NOUN_ENDING = re.compile(r"^[a-z]{3,}(?:ance|ence|tion|sion|ment|ity|ness|ure)$")
# Endings of adjectives (and of hyphenated modifiers ending in a particle: "held-out")
_ADJECTIVE = re.compile(r"(?:ive|al|ous|able|ible|ful|less|ic|ed|ish|ary|-out|-in|-up|-off|-on)$")
_BREAK_TEXT = frozenset({",", ".", ";", ":", "(", ")", "[", "]", "\"", "'", "/", "?", "!", "%", "=", "+"})


# -ing words that name things ("learning rate", "training data") rather than actions
NOMINAL_ING = frozenset(
    """learning training processing modeling modelling reasoning answering understanding parsing tagging
    labeling labelling embedding pooling sampling decoding encoding clustering ranking matching tracking
    planning prompting tuning fine-tuning finetuning pre-training pretraining post-training computing
    filtering forecasting mining retrieving scheduling programming engineering reading writing
    speaking listening captioning grounding matting inpainting denoising hashing boosting bagging
    pruning routing scoring rendering morphing warping stitching parsing coding indexing caching
    crowdsourcing scanning tunneling tunnelling sequencing imaging""".split()
)
# nouns ending in "s" that are not plurals (a plural modifier is usually a verb: "E-GRPO assigns")
_S_NOUNS = frozenset(
    """news series species physics statistics mathematics graphics robotics dynamics analytics
    linguistics genomics economics ethics kinematics semantics pragmatics syntactics acoustics
    bias gas corpus status radius apparatus lens process class loss mass access address chess
    consensus census virus focus bonus basis analysis synthesis hypothesis thesis diagnosis axis
    atlas plus minus canvas""".split()
)
_COMPARATIVES = frozenset(
    """larger smaller deeper wider stronger weaker better worse faster slower longer shorter higher
    lower bigger simpler richer cheaper easier harder newer older greater fewer top-performing
    best-performing prevailing base broader narrower lesser""".split()
)
# a word right after these is a verb, not a modifier: "we develop X", "to formalize X"
# Modifiers that leave a generic head generic: "valuable learning", "eight learning methods"
_VAGUE = frozenset(
    """valuable limited future inadequate partial auxiliary holistic diagnostic fixed automated unified
    general-purpose early later late intermediate final initial overall open-weight frontier
    empirical comprehensive detailed systematic complex diverse complete full entire extra careful
    rigorous practical theoretical principled flexible modular generic general key core major minor
    basic advanced modern classical alternative similar useful reliable accurate efficient scalable
    effective simple novel learning training evaluation two three four five six seven eight nine ten
    eleven twelve dozens hundreds thousands millions several multiple many numerous various other
    prompting reasoning process task tasks""".split()
)
_VERB_CONTEXT = frozenset(
    """we they it he she i to can could will would may might must should not also then further
    first cannot""".split()
)
# the word after a subject or a modal is a verb whatever follows it ("to" and the adverbs also
# come before nouns)
_SUBJECTS_AND_MODALS = _VERB_CONTEXT - {"to", "not", "also", "then", "further", "first"}
_ADJ_LY = frozenset({"fully", "early", "family", "anomaly", "poly", "only"})
_SPLIT_MODIFIER = re.compile(rf"-(?:{MODIFIER_SUFFIXES})")
_SIZE_OR_NUMBER = re.compile(r"^\d[\d.,]*[a-zA-Z]{0,2}$")
_DIMENSION = re.compile(r"^\d+D$")


def _modifier_ok(text: str) -> bool:
    low = text.lower()
    if low in FUNCTION_WORDS or low in STOP_MODIFIERS or low in _COMPARATIVES or text in _BREAK_TEXT:
        return False
    if low.endswith("ly") and len(low) > 4 and low not in {"fully", "early", "family", "anomaly", "poly"}:
        return False  # adverbs
    if low.endswith("ing") and low not in NOMINAL_ING and not low.endswith(("-learning", "-training")):
        return False  # "indicating", "measuring": actions
    if (low.endswith("s") and not low.endswith(("ss", "us", "is", "ics")) and low not in _S_NOUNS
            and not text[:-1].isupper() and len(low) > 3):
        return False  # "replaces", "assigns", or a plural that heads its own phrase
    if "'" in text or "\u2019" in text:
        return False  # possessives: "the agent's reasoning process"
    if text.endswith(".") and len(text) > 1:
        return False  # "e.g.", "i.e.", "cf.", "etc.": abbreviations that join clauses, not modifiers
    if _SIZE_OR_NUMBER.match(text) and not _DIMENSION.match(text):
        return False  # "our 1.7B model", "12 tasks"
    if low.startswith("-"):
        return bool(_SPLIT_MODIFIER.fullmatch(low))  # "pixel" "-level", "BERT" "-based"
    return any(c.isalpha() for c in text)


# What makes a reward a measure ("12-49% normalized reward", "the average episodic reward").
_REWARD_MEASURES = frozenset("""average mean normalized normalised cumulative total expected episodic final median
    discounted accumulated""".split())
_SIGNAL_NOUNS = frozenset({"function", "functions", "signal", "signals", "shaping", "design"})


def _measured_reward(lower: list[str], start: int, i: int, sent_start: int) -> bool:
    """A reward phrase names a measure when a measuring word or a figure comes with it."""
    if any(lower[k] in _REWARD_MEASURES for k in range(start, i)):
        return True
    return any(w[:1].isdigit() or w == "%" for w in lower[max(sent_start, start - 3) : start])


# What makes a correlation a measure of a system rather than a phenomenon ("spin correlations",
# "CDW correlations"): how it is computed, what it is measured against, or a figure.
_CORRELATION_KINDS = frozenset("""pearson pearson's spearman spearman's kendall kendall's rank average mean
    human system-level segment-level sentence-level summary-level""".split())
_CORRELATION_REFERENCES = frozenset("""human humans judgment judgments judgement judgements rating ratings
    annotation annotations assessments""".split())


def _measured_correlation(lower: list[str], start: int, i: int, sent_end: int) -> bool:
    """"Spearman correlation", "correlation with human judgments", "a correlation of 0.61"."""
    if any(lower[k] in _CORRELATION_KINDS for k in range(start, i)):
        return True
    after = lower[i + 1 : min(sent_end, i + 6)]
    if after[:1] == ["with"] and _CORRELATION_REFERENCES.intersection(after):
        return True
    return any(w[:1].isdigit() for w in after[:3]) or after[:1] in (["coefficient"], ["coefficients"])


# What a system is, when it is a method of its own: for a task ("translation systems"), named by an
# acronym or name ("SMT system", "BERT-based system"), or one of these kinds.
_SYSTEM_KINDS = frozenset("""recommender recommendation dialogue dialog expert multi-agent agent agentic tutoring
    conversational question-answering speech language reading planning transition intelligent supervised
    unsupervised semi-supervised neural statistical hybrid""".split())


def _system_of_kind(word: str, low: str) -> bool:
    return (TERM_HEADS.get(singular(low)) is not None or low in _SYSTEM_KINDS or low.endswith("-based")
            or any(c.isupper() for c in word[1:]) or (word.isupper() and len(word) > 1))


class TermFinder:
    def __init__(self, max_words: int = 5):
        self.max_words = max_words

    def _left_edge(self, view, i: int, sent_start: int) -> int:
        """First word of the phrase that ends with the head ``words[i]`` (edge words cut off)."""
        words, lower = view.words, view.lower
        start = i
        while start > sent_start and i - start + 1 < self.max_words:
            prev = words[start - 1]
            if view.space[start - 1] or not _modifier_ok(prev):
                break
            if start - 2 >= sent_start and (
                lower[start - 2] in _VERB_CONTEXT
                or (lower[start - 2].endswith("ly") and lower[start - 2] not in _ADJ_LY)
            ):
                break  # "we develop X", "to formalize X", "randomly drop units": a verb
            start -= 1
        # a sentence-initial capitalised word is only kept if it is not a common word
        if start == sent_start and lower[start] in FUNCTION_WORDS:
            start += 1
        return trim_start(words, start, i)  # "seven language models" -> "language models"

    def __call__(self, doc: Doc) -> Doc:
        spans: list[Found] = []
        roles: dict[tuple[int, int], int] = {}  # term -> end including a trailing "task" / "problem"
        view = info(doc)
        words, lower = view.words, view.lower
        for i, text in enumerate(words):
            if not text[:1].isalpha() or (text[:1].isupper() and not text.isupper() and not text.istitle()):
                continue
            head = singular(lower[i]) if not text.isupper() else lower[i]
            if head in ROLE_HEADS and i > 0:
                self._role_head(view, i, spans, roles)
                continue
            type_ = TERM_HEADS.get(head)
            if (type_ is None and lower[i] in _NAME_DATA_HEADS and text.istitle()
                    and view.idx[i] >= view.title_end):
                self._data_name(view, i, spans)
                continue
            if type_ is None or (head in _ACRONYM_HEADS and not any(c.isupper() for c in text[1:])):
                continue
            sent_start, sent_end = view.sent_bounds(i)
            # the head ends the phrase: "network architecture" keeps "architecture" as head
            if i + 1 < sent_end and singular(lower[i + 1]) in TERM_HEADS:
                continue
            start = self._left_edge(view, i, sent_start)
            generic = head in GENERIC_HEADS or head in STRICT_GENERIC_HEADS
            if head in GENERIC_HEADS and all(lower[k] in _VAGUE for k in range(start, i)):
                continue  # "the model", "eight learning methods", "valuable learning"
            if not is_specific(words, start, i, generic) or is_group(text, words, start, i):
                continue  # "a differentiable model", "downstream benchmarks"
            if start == i and type_ in (T, ME) and not (i + 1 < sent_end and singular(lower[i + 1]) in ROLE_HEADS):
                continue  # a bare process noun ("optimization", "verification", "editing") names no
                #           concept on its own; known ones ("summarization") come from the gazetteer
            if type_ is T and head != lower[i] and not (i + 1 < sent_end and singular(lower[i + 1]) in ROLE_HEADS):
                continue  # "perfect matchings", "the predicted segmentations": things a task yields
            if head == "system" and i > start and not _system_of_kind(words[i - 1], lower[i - 1]):
                continue  # "binary systems", "embedded systems", "web systems": things studied, not methods
            if start == i and head in _MEASURED_HEADS:
                continue  # "broader coverage": a coverage is a measure once it says of what ("branch coverage")
            if type_ is MT and _not_a_score(words, lower, start, i, head):
                continue  # "the Haar measure", "a Kähler metric", "in polynomial time"
            if type_ is T and start < i and all(lower[k] in _RESEARCH_MODE for k in range(start, i)):
                continue  # "theoretical understanding", "experimental detection": how, not what
            if head == "score" and text.endswith("s") and i + 1 < sent_end and lower[i + 1][:1].isdigit():
                continue  # "FooLM scores 71.2 on MMLU": a verb
            if head == "time" and start > sent_start and lower[start - 1] in {"at", "in", "of"}:
                continue  # "at test time", "in real time", "in linear time": when, not a measure
            if head == "correlation" and not _measured_correlation(lower, start, i, sent_end):
                continue  # "charge-density-wave correlations", "strong electronic correlations": phenomena
            end = i + 1
            if head == "reward" and not _measured_reward(lower, start, i, sent_start):
                # "sparse, outcome-based rewards", "a dense reward function": a training signal
                type_ = ME
                if end < sent_end and lower[end] in _SIGNAL_NOUNS:
                    end += 1
            spans.append(Found(start, end, type_.value, head in STRICT_GENERIC_HEADS))
        set_found(doc, SPANS_KEY, self._title_only(view, spans))
        doc.user_data[ROLES_KEY] = roles
        return doc

    def _data_name(self, view, i: int, spans: list[Found]) -> None:
        """A data collection named by two or more capitalised words and its head ("Protein Data Bank")."""
        start = self._left_edge(view, i, view.sent_bounds(i)[0])
        if i - start >= 2 and all(view.words[k].istitle() for k in range(start, i)):
            spans.append(Found(start, i + 1, D.value, False))

    def _role_head(self, view, i: int, spans: list[Found], roles: dict[tuple[int, int], int]) -> None:
        """ "the viewpoint classification task", "the exploration problem": the words before the
        role noun name a task; the noun itself is how the text writes it (kept as an alias)."""
        if view.space[i - 1]:
            return
        sent_start, sent_end = view.sent_bounds(i)
        after = view.words[i + 1] if i + 1 < sent_end else ""
        if after.lower() in _AFTER_ROLE_NOUNS or _NOUN_ENDING.search(after.lower()):
            return  # "task performance", "task arithmetic": the role noun modifies another noun
        last = spans[-1] if spans else None
        if last is not None and last.end == i:
            if last.label in (T.value, ME.value) and not last.key:
                spans[-1] = Found(last.start, last.end, T.value, last.key)
                roles[(last.start, last.end)] = i + 1
            return
        before = view.lower[i - 1]
        if i - 1 < sent_start or not before[:1].isalpha() or _ADJECTIVE.search(before) or before in _COMPARATIVES:
            return  # "held-out tasks", "knowledge-intensive tasks", "broader tasks": descriptions
        start = self._left_edge(view, i - 1, sent_start) if _modifier_ok(view.words[i - 1]) else i
        if start == i - 1 and start > sent_start and view.lower[start - 1] in _SUBJECTS_AND_MODALS:
            return  # "tests can catch problems", "we solve tasks": a verb and its object
        if start >= i or not is_specific(view.words, start, i, True):
            return  # "the main task", "a downstream task", "this problem"
        if start == i - 1 and "-" in before:
            return  # "sparse-reward tasks", "long-horizon problems": a compound adjective
        if any(view.lower[k] in _VAGUE or view.lower[k] in _ROLE_STOP for k in range(start, i)):
            return
        spans.append(Found(start, i, T.value, False))
        roles[(start, i)] = i + 1

    @staticmethod
    def _title_only(view, spans: list[Found]) -> list[Found]:
        """Drop generic-headed phrases that only the title uses ("An Interactive Benchmark")."""
        title_end = view.title_end
        if not title_end or not any(view.idx[f.start] < title_end for f in spans):
            return [Found(f.start, f.end, f.label) for f in spans]
        lower = view.lower
        in_abstract = {concept_key(" ".join(lower[f.start : f.end])) for f in spans if view.idx[f.start] >= title_end}
        return [Found(f.start, f.end, f.label) for f in spans
                if view.idx[f.start] >= title_end or not f.key
                or concept_key(" ".join(lower[f.start : f.end])) in in_abstract]


@Language.factory("scholarkg_terms", default_config={"max_words": 5})
def make_terms(nlp: Language, name: str, max_words: int) -> TermFinder:
    return TermFinder(max_words=max_words)
