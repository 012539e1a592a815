"""Building and loading the extraction pipeline.

``spacy.blank("en")`` with the project's tokenizer, then, in order::

    scholarkg_sentences -> scholarkg_abbreviations -> scholarkg_gazetteer -> scholarkg_model_names
    -> scholarkg_candidates -> scholarkg_terms -> scholarkg_term_classifier (trained)
    -> scholarkg_entities -> scholarkg_roles -> scholarkg_results -> scholarkg_links

The trained classifier lives in ``extract/trained/term_classifier/`` (made by
``python -m scholarkg.extract.train``). Without it the pipeline still runs, on rules only.
"""

from __future__ import annotations

import logging
from functools import lru_cache
from pathlib import Path

__all__ = ["build_pipeline", "load_pipeline", "trained_path", "RULE_COMPONENTS"]

log = logging.getLogger(__name__)

RULE_COMPONENTS_BEFORE = ("scholarkg_sentences", "scholarkg_abbreviations", "scholarkg_gazetteer",
                          "scholarkg_model_names", "scholarkg_candidates", "scholarkg_terms")
RULE_COMPONENTS_AFTER = ("scholarkg_entities", "scholarkg_roles", "scholarkg_results", "scholarkg_links")
RULE_COMPONENTS = RULE_COMPONENTS_BEFORE + RULE_COMPONENTS_AFTER


def trained_path() -> Path:
    """Folder of the shipped term classifier (may not exist in a fresh checkout)."""
    return Path(__file__).resolve().parent / "trained" / "term_classifier"


def blank():
    """``spacy.blank("en")`` with the project's tokenizer."""
    import spacy

    from . import tokenizer  # noqa: F401  (registers scholarkg.tokenizer.v1)

    return spacy.blank("en", config={"nlp": {"tokenizer": {"@tokenizers": "scholarkg.tokenizer.v1"}}})


def build_pipeline(*, statistical: bool = True, classifier_path: str | Path | None = None):
    """A fresh pipeline; ``statistical=False`` leaves out the trained classifier."""
    from . import components  # noqa: F401  (registers the factories)

    nlp = blank()
    for name in RULE_COMPONENTS_BEFORE:
        nlp.add_pipe(name)
    if statistical:
        path = Path(classifier_path) if classifier_path else trained_path()
        nlp.add_pipe("scholarkg_term_classifier", config={"path": str(path)})
    for name in RULE_COMPONENTS_AFTER:
        nlp.add_pipe(name)
    return nlp


@lru_cache(maxsize=2)
def load_pipeline(statistical: bool = True):
    """The extraction pipeline, built once per process (no network access)."""
    return build_pipeline(statistical=statistical)
