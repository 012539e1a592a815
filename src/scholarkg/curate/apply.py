"""Applying a curation file to one build.

Two steps, both run by :func:`scholarkg.pipeline.build`:

1. :meth:`Curator.prepare` adjusts records as they are read: it merges arXiv enrichment and
   then applies ``paper`` corrections (pinned facts always win over enrichment).
2. :meth:`Curator.apply` runs every other correction, in file order, on the extracted
   mentions, results and linked entities, and returns an :class:`~scholarkg.curate.outcome.Outcome`
   (new extractions, a linker over the corrected entities, provenance).

A correction that matches nothing is *stale*: it is reported as a note naming the curation
file and the correction, never silently skipped. One that finds its work already done (the
extractor now gets it right) is *unchanged* and keeps its provenance.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

from ..errors import Problems
from ..model import Extraction, Record
from .actions import ACTIONS, APPLIED, STALE, UNCHANGED, Stale
from .corrections import Action, Correction, arxiv_id_of, title_key
from .file import CurationFile
from .state import State

__all__ = ["Curator", "Status", "APPLIED", "UNCHANGED", "STALE"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Status:
    number: int  # position in the file, from 1
    correction: Correction
    state: str  # applied | unchanged | stale
    message: str

    def __str__(self) -> str:
        c = self.correction
        return f"correction {self.number} ({c.id}, {c.describe}): {self.state}: {self.message}"


class Curator:
    """One build's use of a curation file (``curation`` may be None: enrichment only)."""

    def __init__(self, curation: CurationFile | None, enrichment=None) -> None:
        self.curation = curation
        self.enrichment = enrichment
        self.corrections = curation.corrections if curation else ()
        self.statuses: list[Status] = []
        self.pins = [c for c in self.corrections if c.action is Action.PAPER]
        self.pinned: dict[str, list[str]] = {}  # correction id -> titles of the records it pinned
        self.paper_statements: list[tuple[Record, str, str]] = []  # (record, correction id, field)

    # --- step 1: records ----------------------------------------------------------------

    def pins_for(self, record: Record) -> list[Correction]:
        key, found = title_key(record.title), []
        for c in self.pins:
            arxiv_id = arxiv_id_of(c.paper)
            if (arxiv_id and arxiv_id == record.arxiv_id) or title_key(c.paper) == key:
                found.append(c)
        return found

    def prepare(self, records: Iterable[Record], problems: Problems) -> Iterator[Record]:
        for record in records:
            pins = self.pins_for(record)
            pinned_id = next((c.arxiv_id for c in reversed(pins) if c.arxiv_id is not None), None)
            if self.enrichment is not None:
                record = self.enrichment.apply(record, pinned_id, problems)
            made = []
            for c in pins:
                self.pinned.setdefault(c.id, []).append(record.title)
                changes = {}
                if c.arxiv_id is not None:
                    changes["arxiv_id"] = c.arxiv_id or None
                if c.year is not None:
                    changes["year"] = c.year
                if c.doi is not None:
                    changes["doi"] = c.doi
                record = replace(record, **changes)
                made += [(c.id, name) for name in changes]
            self.paper_statements += [(record, cid, name) for cid, name in made]
            yield record

    def remember(self, record: Record) -> None:
        """Note the pinned facts of a record prepared by an earlier build (a store's record not
        read again), as :meth:`prepare` notes them, without changing it."""
        for c in self.pins_for(record):
            self.pinned.setdefault(c.id, []).append(record.title)
            names = [name for name in ("arxiv_id", "year", "doi") if getattr(c, name) is not None]
            self.paper_statements += [(record, c.id, name) for name in names]

    # --- step 2: extractions and entities -----------------------------------------------------

    def apply(self, records: list[Record], extractions: list[Extraction], linker, problems: Problems):
        from .outcome import Outcome

        state = State(records, extractions, linker)
        self.statuses = []
        for number, c in enumerate(self.corrections, start=1):
            try:
                if c.action is Action.PAPER:
                    titles = self.pinned.get(c.id)
                    if not titles:
                        raise Stale(f"no paper {c.paper!r}")
                    pinned = sorted(k for k in c.to_table() if k in ("arxiv_id", "year", "doi"))
                    state_, message = APPLIED, "pinned " + ", ".join(pinned)
                else:
                    state_, message = ACTIONS[c.action](state, c)
            except Stale as exc:
                state_, message = STALE, str(exc)
            status = Status(number, c, state_, message)
            self.statuses.append(status)
            if state_ == STALE:
                where = self.curation.path if self.curation else "curation"
                problems.note(str(where), f"{status} (the correction no longer matches; fix or remove it)")
            else:
                log.info("%s", status)
        counts = {s: sum(1 for x in self.statuses if x.state == s) for s in (APPLIED, UNCHANGED, STALE)}
        if self.corrections:
            log.info("curation: %(applied)d applied, %(unchanged)d unchanged, %(stale)d stale", counts)
        return Outcome(self, state, extractions)
