"""spaCy pipeline components of the extractor, one module per component.

Importing this package registers every factory with spaCy:

=========================  ================================================================
factory                    what it adds to a ``Doc``
=========================  ================================================================
``scholarkg_sentences``    sentence starts (title/abstract break, "e.g."/"et al." aware)
``scholarkg_abbreviations````doc._.abbreviations``: short forms with ``span._.long_form``
``scholarkg_gazetteer``    ``found(doc, "gazetteer")``: known names (two PhraseMatchers)
``scholarkg_model_names``  ``found(doc, "models")``: model names with version and size
``scholarkg_candidates``   ``found(doc, "candidates")``: name-shaped and term-shaped phrases
``scholarkg_terms``        ``found(doc, "terms")``: noun phrases around a typed head noun
``scholarkg_term_classifier`` trained: re-types or drops terms, types untyped names
``scholarkg_entities``     ``records(doc)``: typed, canonical, non-overlapping (as spans:
                           ``entity_spans(doc)``)
``scholarkg_roles``        the role of every entity (``span._.role`` on ``entity_spans(doc)``)
``scholarkg_results``      ``doc._.results``: scores with model, benchmark, metric
``scholarkg_links``        ``doc._.links``: URLs with their kind
=========================  ================================================================

``found`` is :func:`scholarkg.extract.doctext.found` (``as_spans`` gives spaCy spans), ``records``
and ``entity_spans`` are in :mod:`.entities`.
"""

from __future__ import annotations

from . import (  # noqa: F401  (imported for their registrations)
    abbreviations,
    candidates,
    entities,
    gazetteer_ruler,
    links,
    model_names,
    results,
    roles,
    sentences,
    term_classifier,
    terms,
)

__all__ = [
    "abbreviations",
    "candidates",
    "entities",
    "gazetteer_ruler",
    "links",
    "model_names",
    "results",
    "roles",
    "sentences",
    "term_classifier",
    "terms",
]
