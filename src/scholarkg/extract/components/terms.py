"""Term candidates: noun phrases built around a head noun that names a kind of research thing.

"semantic image segmentation" (head *segmentation*: a task), "pretrained convolutional
networks" (head *network*: a method), "pixel-level accuracy" (head *accuracy*: a metric).
Without a part-of-speech tagger, a phrase is the head plus the content words right before it
(no function words, adverbs, numbers or sentence breaks; at most five words). A bare generic
head ("the model", "our approach", "this task") is not a term; a specific head alone
("segmentation", "summarization") is.

Spans go to ``doc.spans["terms"]`` with the head's type as label; a trained classifier
(``scholarkg_term_classifier``), when the pipeline has one, may re-type or drop them.
"""

from __future__ import annotations

from spacy.language import Language
from spacy.tokens import Doc, Span

from ...model import EntityType
from ..cues import FUNCTION_WORDS
from ..names import singular

__all__ = ["TermFinder", "SPANS_KEY", "TERM_HEADS", "GENERIC_HEADS"]

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
        question-answering""".split(), T),
    **dict.fromkeys(
        """network net model algorithm method approach architecture mechanism framework technique
        learning training optimization optimisation embedding encoder decoder autoencoder
        auto-encoder attention regularization regularisation normalization normalisation layer
        module loss classifier representation kernel transformer sampling decoding pooling
        convolution regression machine distillation augmentation pruning quantization dropout
        ensemble estimator descent propagation backpropagation tuning fine-tuning finetuning
        pre-training pretraining prompting strategy scheme procedure heuristic objective operator
        unit cell parser tagger generator discriminator detector extractor recognizer solver
        planner search inference initialization initialisation forest process field perceptron
        gan rnn cnn lstm gru vae mlp policy adaptation transfer""".split(), ME),
    **dict.fromkeys(
        """accuracy error precision recall score f1 f-score f-measure auc perplexity iou bleu rouge
        meteor cider measure metric correlation likelihood latency throughput reward rate
        psnr ssim fid map""".split(), MT),
    **dict.fromkeys("dataset data-set corpus corpora benchmark treebank database".split(), D),
}
# Heads that say nothing alone: "the model", "our approach", "a task".
GENERIC_HEADS = frozenset(
    """network net model algorithm method approach architecture mechanism framework technique layer
    module loss representation strategy scheme procedure objective operator unit cell machine
    process field measure metric score rate error dataset data-set corpus corpora benchmark
    database learning training analysis search inference modeling modelling generation
    prediction estimation tuning policy kernel reward adaptation transfer matching ranking
    answering sampling embedding encoder decoder classifier detector generator extractor
    parser tagger solver planner estimator transformer""".split()
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
    challenging difficult hard easy fast faster slow improved better-performing superior
    remarkable impressive promising successful widely well commonly extensive comprehensive
    fundamental important crucial essential only also very without within across among
    using based via like unlike compared""".split()
)
_BREAK_TEXT = frozenset({",", ".", ";", ":", "(", ")", "[", "]", "\"", "'", "/", "?", "!", "%", "=", "+"})


def _modifier_ok(text: str) -> bool:
    low = text.lower()
    if low in FUNCTION_WORDS or low in STOP_MODIFIERS or text in _BREAK_TEXT:
        return False
    if low.endswith("ly") and len(low) > 4 and low not in {"fully", "early", "family", "anomaly", "poly"}:
        return False  # adverbs
    if low[0].isdigit() and not any(c.isalpha() for c in low):
        return False
    if low.startswith("-"):
        return False
    return any(c.isalpha() for c in text)


class TermFinder:
    def __init__(self, max_words: int = 5):
        self.max_words = max_words

    def __call__(self, doc: Doc) -> Doc:
        spans: list[Span] = []
        for token in doc:
            text = token.text
            if not text[:1].isalpha() or (text[:1].isupper() and not text.isupper() and not text.istitle()):
                continue
            head = singular(text) if not text.isupper() else text.lower()
            type_ = TERM_HEADS.get(head)
            if type_ is None:
                continue
            # the head ends the phrase: "network architecture" keeps "architecture" as head
            nxt = doc[token.i + 1] if token.i + 1 < len(doc) else None
            if nxt is not None and nxt.text.lower() in TERM_HEADS and not nxt.is_sent_start:
                continue
            start = token.i
            sent_start = token.sent.start
            while start > sent_start and token.i - start + 1 < self.max_words:
                prev = doc[start - 1]
                if prev.is_space or not _modifier_ok(prev.text):
                    break
                start -= 1
            # a sentence-initial capitalised word is only kept if it is not a common word
            if start == sent_start and doc[start].text.lower() in FUNCTION_WORDS:
                start += 1
            if start == token.i and head in GENERIC_HEADS:
                continue
            span = Span(doc, start, token.i + 1, label=type_.value)
            spans.append(span)
        doc.spans[SPANS_KEY] = spans
        return doc


@Language.factory("scholarkg_terms", default_config={"max_words": 5})
def make_terms(nlp: Language, name: str, max_words: int) -> TermFinder:
    return TermFinder(max_words=max_words)
