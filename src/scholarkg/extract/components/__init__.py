"""spaCy pipeline components of the extractor, one module per component.

Importing this package registers every factory with spaCy:

=========================  ================================================================
factory                    what it adds to a ``Doc``
=========================  ================================================================
``scholarkg_sentences``    sentence starts (title/abstract break, "e.g."/"et al." aware)
``scholarkg_abbreviations````doc._.abbreviations``: short forms with ``span._.long_form``
``scholarkg_gazetteer``    ``doc.spans["gazetteer"]``: known names (two SpanRulers)
``scholarkg_model_names``  ``doc.spans["models"]``: model names with version and size
``scholarkg_candidates``   ``doc.spans["candidates"]``: name-shaped and term-shaped phrases
``scholarkg_terms``        ``doc.spans["terms"]``: noun phrases around a typed head noun
``scholarkg_term_classifier`` trained: re-types or drops terms, types untyped names
``scholarkg_entities``     ``doc.spans["entities"]``: typed, canonical, non-overlapping
``scholarkg_roles``        ``span._.role`` on every entity
``scholarkg_results``      ``doc._.results``: scores with model, benchmark, metric
``scholarkg_links``        ``doc._.links``: URLs with their kind
=========================  ================================================================
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
