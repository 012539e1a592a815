"""What the words around a number say it is: a count, a bound, a measure, a statistic, or the
figure of a system the text does not name. Word lists and tests used by
:mod:`scholarkg.extract.components.results`."""

from __future__ import annotations

from .names import canonical_key

__all__ = ["BOUNDS", "COUNT_NOUNS", "NEUTRAL_AFTER", "SOLVE_VERBS", "STATISTICS", "METRIC_STOP",
           "COUNTED_PLURALS", "MEASURE_NOUNS", "NOT_MEASURED", "BEFORE_VALUE", "AFTER_POINT", "POINT_STOP",
           "OTHERS", "BARE_METRICS", "CLAUSE_WORDS", "counted", "unnamed_other", "is_statistic"]

BOUNDS = frozenset({"below", "above", "under", "over", "least", "most", "than", "within", "around",
                    "approximately", "nearly", "almost", "roughly", "about", "exceeding", "only", "<", ">",
                    "\u2264", "\u2265", "~", "between", "by"})
COUNT_NOUNS = frozenset(
    """hours hour days day minutes seconds tasks task steps step parameters experts samples examples
    instances models benchmarks domains languages times epochs layers usd dollars gpus tokens words
    sentences documents images videos levels environments clusters fields subfields industries
    questions users people participants annotators categories classes languages pairs queries
    trajectories agents tools turns rounds iterations runs seeds million billion thousand k m b
    papers articles hours. months years weeks nodes edges graphs sub metrics measures features relations
    subtypes best top files""".split()
)
NEUTRAL_AFTER = frozenset({"relative", "absolute", "point", "points", "pp", "percentage"})
SOLVE_VERBS = frozenset({"solves", "solve", "solved", "solving", "resolves", "resolve", "resolved", "completes",
                         "complete", "completed", "answers", "answered", "passes", "passed"})
# Verbs that take a figure as a system is scored: "X scores 68.3", "it reaches 33.0%".
SCORING_VERBS = frozenset("""achieves achieved attains attained scores scored obtains obtained reaches reached
    yields gets records""".split())
# Statistics about the paper's own analysis, not scores of a system.
STATISTICS = frozenset({"r 2", "r2", "r\u00b2", "p", "p value", "coefficient of determination", "pearson r",
                        "standard deviation", "std", "confidence interval", "confidence", "confidence level",
                        "significance level"})
METRIC_STOP = frozenset({"on", "in", "for", "with", "and", "or", "at", "of", "by", "over", "than", "versus",
                         "vs", "vs.", "compared", "while", "which", "that", "the", "a", "an", "across", "to",
                         "when", "where", "using", "respectively", "overall", "if", "after", "before", "during",
                         "without", "through", "via", "as", "per", "yielding", "yields", "yield"})
# Plurals that a whole number before them counts ("24 evaluation criteria", "70 similarity metrics").
COUNTED_PLURALS = frozenset("""metrics measures criteria techniques methods approaches studies programs
    scenarios cases tests sources objects stars galaxies systems sentences""".split())
# Last words of a measure written after a value ("94.7% average recovery", "30% success rate");
# other words there say what the share is of ("68.5% code fragments", "28% were caused").
MEASURE_NOUNS = frozenset("""rate rates ratio score scores accuracy accuracies precision recall error errors
    recovery coverage agreement correlation reduction time latency throughput success improvement gain
    speedup f1 auc bleu rouge perplexity margin overlap similarity distance fidelity quality efficiency
    reward return utility cost usage consumption compression retention rank recovery""".split())
# Words after a value that make the words before them no measure: "with 31% labeled data"
NOT_MEASURED = frozenset({"data", "training", "examples", "samples", "supervision", "annotations"})
BEFORE_VALUE = frozenset({"of", "=", ":", "is", "reaching", "reaches", "a", "an", "at", "(", "to", "was", "by",
                          # "its BLEU score increases to 36.5"
                          "increases", "increased", "rises", "rose", "improves", "improved", "drops", "dropped",
                          "decreases", "decreased", "falls", "fell", "reached", "goes", "went", "grows", "grew",
                          # "cuts the error rate by about 4%"
                          "about", "approximately", "around", "roughly", "nearly", "almost"})
# What may follow an operating point ("at 40 FPS for X"), and what ends the search for it.
AFTER_POINT = frozenset({"for", "on", "in"})
POINT_STOP = frozenset({",", ";", "(", ")", "and", "compared", "versus", "vs", "vs.", "while", "than", "with"})
# "for the baseline", "for prior methods": a system the text does not name
OTHERS = frozenset({"baseline", "baselines", "previous", "prior", "existing", "competing", "other", "others",
                    "state-of-the-art", "sota", "best", "strongest"})
# Words that start another clause between a benchmark and a metric ("on ImageNet and improves BLEU").
CLAUSE_WORDS = frozenset("""and or but while whereas which that with by to improves improve improved boosts
    raises reduces lowers achieves achieve reaches obtains gets yields""".split())
BARE_METRICS = frozenset({"score", "scores", "accuracy", "error", "precision", "recall", "f1", "auc", "bleu"})


def counted(lower: list[str], last: int, s1: int) -> bool:
    """The words after a whole number name what it counts: a plural noun within a few words,
    before any preposition or punctuation ("70 different similarity metrics", "14 most common
    criteria", "51 lower confidence sources")."""
    for k in range(last, min(s1, last + 5)):
       w = lower[k]
       if w in COUNT_NOUNS or w in COUNTED_PLURALS:
           return True
       if not w.isalpha() or w in METRIC_STOP:
           return False
    return False


def unnamed_other(lower: list[str], k: int, s1: int) -> bool:
    """Words from ``k`` name another system without its name: "the baseline", "the strongest prior system"."""
    return any(w in OTHERS for w in lower[k : min(s1, k + 3)])


def is_statistic(label: str | None) -> bool:
    return label is not None and canonical_key(label) in STATISTICS
