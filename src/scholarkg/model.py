"""Typed values passed between the pipeline stages.

``readers`` produce :class:`Record`; ``extract`` turns a record into an
:class:`Extraction` (mentions, results, links); ``link`` merges mentions across
records into :class:`Entity` values; ``graph`` turns all of them into triples.
Every value here is a frozen dataclass so stages cannot change each other's data.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from enum import Enum
from operator import attrgetter

__all__ = [
    "EntityType",
    "EntityKind",
    "Change",
    "Role",
    "Field",
    "LinkKind",
    "PaperKind",
    "Source",
    "Author",
    "Record",
    "Mention",
    "Result",
    "Link",
    "Extraction",
    "Entity",
]


def _pickled_by_fields(cls):
    """Pickle ``cls`` as its constructor and field values: builds keep every record and
    extraction pickled in their manifest, and the state a slotted dataclass pickles by default
    is rebuilt field by field, several times slower to read and write. (Pickles of that older
    form still load.)"""
    values = attrgetter(*cls.__slots__)

    def __reduce__(self):
        return cls, values(self)

    cls.__reduce__ = __reduce__
    return cls


class EntityType(str, Enum):
    """The kinds of research entity the extractor recognises."""

    BENCHMARK = "Benchmark"
    DATASET = "Dataset"
    MODEL = "Model"
    METHOD = "Method"
    TASK = "Task"
    METRIC = "Metric"


class EntityKind(str, Enum):
    """A proper name ("HarnessDev", "Qwen 3-4B", "ALE") or a term phrase ("question answering")."""

    NAME = "name"
    CONCEPT = "concept"


class Change(str, Enum):
    """Which way an improvement moves a figure: "up 12.56" is an increase, "70.7% fewer steps" a decrease."""

    INCREASE = "increase"
    DECREASE = "decrease"


class Role(str, Enum):
    """What a paper does with an entity it names (strongest first)."""

    INTRODUCES = "introduces"
    EVALUATES_ON = "evaluatesOn"
    COMPARES_WITH = "comparesWith"
    USES = "uses"
    MENTIONS = "mentions"

    @property
    def rank(self) -> int:
        """Lower is stronger; used to keep one role per paper and entity."""
        return _ROLE_RANK[self]


_ROLE_RANK = {role: i for i, role in enumerate(Role)}


class Field(str, Enum):
    TITLE = "title"
    ABSTRACT = "abstract"


class LinkKind(str, Enum):
    CODE = "CodeRepository"
    PROJECT = "ProjectPage"
    WEB = "WebPage"


class PaperKind(str, Enum):
    """What kind of publication a record describes (BibTeX's entry types, plus preprints)."""

    ARTICLE = "article"  # in a journal
    CONFERENCE_PAPER = "inproceedings"
    PREPRINT = "preprint"
    BOOK = "book"
    CHAPTER = "incollection"  # a part of a book
    PROCEEDINGS = "proceedings"
    PHD_THESIS = "phdthesis"
    MASTERS_THESIS = "mastersthesis"
    THESIS = "thesis"
    REPORT = "techreport"
    MANUAL = "manual"
    UNPUBLISHED = "unpublished"
    OTHER = "misc"


@_pickled_by_fields
@dataclass(frozen=True, slots=True)
class Source:
    """Where a record came from: file, and line or position inside it."""

    path: str
    position: str = ""
    format: str = ""

    def __str__(self) -> str:
        return f"{self.path}:{self.position}" if self.position else self.path


@_pickled_by_fields
@dataclass(frozen=True, slots=True)
class Author:
    """A person as a record names them: display name, given and family names when known
    (``family`` includes particles such as "van"), and identifiers the input gives."""

    name: str
    given: str | None = None
    family: str | None = None
    affiliation: str | None = None
    orcid: str | None = None  # 0000-0002-1825-0097
    arxiv_id: str | None = None  # an arXiv author identifier, such as "song_m_1"


@_pickled_by_fields
@dataclass(frozen=True, slots=True)
class Record:
    """One publication, whatever format it was read from.

    ``categories`` lists arXiv category codes, the primary one first; ``primary_category``
    names it explicitly (``None`` when the source does not say which is primary).
    ``authors`` are in the paper's order when ``authors_ordered`` (a profile page names only
    its own author, whose place in the list it does not give).
    ``title``, ``abstract`` and author names are plain Unicode (TeX decoded by
    :func:`scholarkg.tex.to_plain`); ``source_title`` and ``source_abstract`` keep the text as
    the source wrote it when that differs (``P$^2$-MOPD`` for ``P²-MOPD``), else ``None``.
    """

    id: str
    title: str
    abstract: str = ""
    year: int | None = None
    categories: tuple[str, ...] = ()
    primary_category: str | None = None
    authors: tuple[Author, ...] = ()
    links: tuple[str, ...] = ()
    source: Source | None = None
    arxiv_id: str | None = None
    doi: str | None = None
    journal_ref: str | None = None
    published: str | None = None
    updated: str | None = None
    source_title: str | None = None
    source_abstract: str | None = None
    kind: PaperKind | None = None
    venue: str | None = None  # the journal, proceedings or book the paper appeared in
    volume: str | None = None
    issue: str | None = None
    pages: str | None = None
    url: str | None = None
    authors_ordered: bool = True


@_pickled_by_fields
@dataclass(frozen=True, slots=True)
class Mention:
    """An entity named in a title or abstract, with exact character offsets in ``field``."""

    text: str
    label: str
    type: EntityType
    start: int
    end: int
    field: Field
    role: Role = Role.MENTIONS
    confidence: float = 0.5
    aliases: tuple[str, ...] = ()
    parent: str | None = None  # label of the family a model variant belongs to
    derived_from: str | None = None  # label of the method this one builds on
    kind: EntityKind = EntityKind.NAME


@_pickled_by_fields
@dataclass(frozen=True, slots=True)
class Result:
    """A figure stated in the text: ``value`` always appears in ``evidence``.

    With ``change`` unset it is an absolute score ("48.6% on BrowseComp"); with ``change`` set it
    is an improvement or reduction against ``baseline`` ("up 12.56 over FRONT", "70.7% fewer
    steps"), which the graph keeps apart from scores. ``value`` keeps its written precision
    (``Decimal("82.0")``).
    """

    value: Decimal
    evidence: str
    model: str | None = None
    benchmark: str | None = None
    metric: str | None = None
    unit: str | None = None
    field: Field = Field.ABSTRACT
    start: int = 0
    end: int = 0
    confidence: float = 0.5
    baseline: str | None = None  # for a gain ("up 12.56" over FRONT): the system compared with
    change: Change | None = None

    @property
    def is_improvement(self) -> bool:
        return self.change is not None


@_pickled_by_fields
@dataclass(frozen=True, slots=True)
class Link:
    url: str
    kind: LinkKind
    start: int = 0
    end: int = 0
    field: Field = Field.ABSTRACT


@_pickled_by_fields
@dataclass(frozen=True, slots=True)
class Extraction:
    record_id: str
    mentions: tuple[Mention, ...] = ()
    results: tuple[Result, ...] = ()
    links: tuple[Link, ...] = ()
    extractor: str = ""


@_pickled_by_fields
@dataclass(frozen=True, slots=True)
class Entity:
    """A canonical research entity, merged across every paper that names it."""

    key: str
    type: EntityType
    label: str
    aliases: tuple[str, ...] = field(default=())
    parent: str | None = None  # key of the family entity
    derived_from: str | None = None  # key of the entity this one is derived from
    kind: EntityKind = EntityKind.NAME
