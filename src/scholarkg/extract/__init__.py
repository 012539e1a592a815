"""Entity extraction: a :class:`~scholarkg.model.Record` in, an :class:`~scholarkg.model.Extraction` out.

>>> from scholarkg.model import Record
>>> ex = extract(Record(id="x", title="KAIROS: a benchmark",
...     abstract="We introduce KAIROS, a benchmark for peer pressure, and train with GRPO."))
>>> sorted((m.text, m.type.value, m.role.value) for m in ex.mentions)[:2]
[('GRPO', 'Method', 'uses'), ('KAIROS', 'Benchmark', 'introduces')]

The pipeline (see :mod:`scholarkg.extract.pipeline`) is built once per process and reused.
:func:`extract_many` streams records through ``nlp.pipe`` in one process.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from ..model import Extraction, Record

if TYPE_CHECKING:  # pragma: no cover
    import spacy

__all__ = ["EXTRACTOR_NAME", "EXTRACTOR_VERSION", "load_pipeline", "extract", "extract_many"]

EXTRACTOR_NAME = "scholarkg-extractor"
EXTRACTOR_VERSION = "0.3.0"


def load_pipeline() -> "spacy.Language":
    """The extraction pipeline (cached; no network; spaCy is imported on first use)."""
    from .pipeline import load_pipeline as _load

    return _load()


def _extractor_id() -> str:
    return f"{EXTRACTOR_NAME}/{EXTRACTOR_VERSION}"


def extract(record: Record, nlp=None) -> Extraction:
    """Mentions, results and links of one record."""
    from .convert import doc_to_extraction, record_text
    from .doctext import make_doc

    nlp = nlp or load_pipeline()
    doc = nlp(make_doc(nlp, record_text(record)))
    extraction = doc_to_extraction(record, doc, _extractor_id())
    doc.user_data.clear()  # see extract_many
    return extraction


def extract_many(
    records: Iterable[Record], *, nlp=None, batch_size: int = 64
) -> Iterator[tuple[Record, Extraction]]:
    """Extract from many records, streaming them through ``nlp.pipe`` (one process)."""
    from .convert import doc_to_extraction, record_text
    from .doctext import make_doc

    nlp = nlp or load_pipeline()
    pairs = ((make_doc(nlp, record_text(r)), r) for r in records)
    for doc, record in nlp.pipe(pairs, as_tuples=True, batch_size=batch_size):
        extraction = doc_to_extraction(record, doc, _extractor_id())
        # the spans kept in user_data point back at their Doc: dropping them frees the Doc at
        # once instead of leaving it to the cycle collector
        doc.user_data.clear()
        yield record, extraction
