"""Every IRI the project creates is minted here, from normalised keys.

Rules:
- keys are normalised (Unicode NFKC, case-folded, whitespace collapsed) so the same thing
  written differently gets one IRI;
- a key made only of ``[a-z0-9]`` words becomes a readable slug (``maojia-song``); any other
  key gets an ASCII slug plus ``_`` and a hash of the full key, so distinct keys never share
  an IRI (readable slugs never contain ``_``);
- every IRI is checked before it leaves this module (:func:`validate`): only the characters
  RFC 3987 allows (no space, quote, angle bracket, control or private-use character, no bare
  ``%``), and then parsed by pyoxigraph's strict IRI parser (scheme, authority, port, IPv6
  host). rdflib's ``URIRef`` accepts almost anything with a warning and would write it into
  invalid Turtle; text from records can never reach the graph that way.

>>> author("Maojia Song")
rdflib.term.URIRef('https://w3id.org/scholarkg/id/author/maojia-song')
>>> str(entity("BrowseComp-ZH")) == str(entity("browsecomp-zh"))
True
"""

from __future__ import annotations

import functools
import hashlib
import re
import unicodedata
from decimal import Decimal
from urllib.parse import quote

import pyoxigraph
from rdflib import URIRef

from .vocab import ID_BASE

__all__ = [
    "normalise_key",
    "validate",
    "paper",
    "paper_key",
    "record_key",
    "normalise_doi",
    "author",
    "author_key",
    "authorship",
    "venue",
    "entity_scheme",
    "entity",
    "category",
    "archive",
    "group",
    "category_scheme",
    "mention",
    "result",
    "web_resource",
    "extractor",
    "entity_pair",
    "coauthor_pair",
    "curation",
    "record_graph",
    "store_graph",
]

MAX_IRI_CHARS = 4_096  # links longer than this are not kept as IRIs
_SIMPLE = re.compile(r"[a-z0-9]+(?: [a-z0-9]+)*")
_SPACES = re.compile(r"\s+")
_NON_SLUG = re.compile(r"[^a-z0-9]+")
# RFC 3987: unreserved and reserved ASCII, '%' (checked below) and ucschar, anywhere;
# iprivate only in the query part.
_UCSCHAR = (
    "\u00a0-\ud7ff\uf900-\ufdcf\ufdf0-\uffef"
    + "".join(f"{chr(plane << 16)}-{chr((plane << 16) + 0xFFFD)}" for plane in range(1, 15))
)
_IPRIVATE = "\ue000-\uf8ff\U000f0000-\U000ffffd\U00100000-\U0010fffd"
_IRI = re.compile(
    "[A-Za-z][A-Za-z0-9+.\\-]*:"  # scheme
    f"[A-Za-z0-9\\-._~:/@!$&'()*+,;=%\\[\\]{_UCSCHAR}]*"  # hier-part
    f"(?:\\?[A-Za-z0-9\\-._~:/?@!$&'()*+,;=%\\[\\]{_UCSCHAR}{_IPRIVATE}]*)?"  # query
    f"(?:#[A-Za-z0-9\\-._~:/?@!$&'()*+,;=%{_UCSCHAR}]*)?"  # fragment
)
_BAD_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")
_SAFE_CODE = re.compile(r"[A-Za-z0-9][A-Za-z0-9.\-]*")


def normalise_key(text: str) -> str:
    """Case- and width-insensitive key for a name: ``'  LLaMA-3-8b '`` -> ``'llama-3-8b'``."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return _SPACES.sub(" ", text).strip()


def _digest(text: str, size: int = 6) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=size).hexdigest()


def _quote(text: str, safe: str) -> str:
    """Percent-encoding of any text, even with lone surrogates (as their surrogatepass bytes)."""
    return quote(text.encode("utf-8", "surrogatepass"), safe=safe)


def _slug(key: str) -> str:
    """A readable, collision-free path segment for a normalised key."""
    if _SIMPLE.fullmatch(key):
        return key.replace(" ", "-")
    ascii_form = unicodedata.normalize("NFKD", key).encode("ascii", "ignore").decode("ascii")
    readable = _NON_SLUG.sub("-", ascii_form.lower()).strip("-")[:60].strip("-")
    return f"{readable or 'x'}_{_digest(key)}"


def validate(iri: str) -> URIRef:
    """Return ``iri`` as a URIRef, or raise ValueError if it is not a valid absolute IRI.

    >>> validate("https://example.org/a%20b?q=\ue000")
    rdflib.term.URIRef('https://example.org/a%20b?q=\ue000')
    >>> validate("https://example.org:80x/")
    Traceback (most recent call last):
    ...
    ValueError: not a valid IRI: 'https://example.org:80x/' (Invalid character 'x')
    """
    if len(iri) > MAX_IRI_CHARS or not _IRI.fullmatch(iri) or _BAD_PERCENT.search(iri):
        raise ValueError(f"not a valid IRI: {iri[:200]!r}")
    try:
        pyoxigraph.NamedNode(iri)
    except ValueError as exc:
        raise ValueError(f"not a valid IRI: {iri[:200]!r} ({exc})") from None
    return URIRef(iri)


def _mint(path: str) -> URIRef:
    return validate(ID_BASE + path)


_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.IGNORECASE)


def normalise_doi(doi: str) -> str:
    """A DOI without resolver or ``doi:`` prefix, case-folded (DOIs ignore case).

    >>> normalise_doi("https://doi.org/10.1103/PhysRevB.85.115117")
    '10.1103/physrevb.85.115117'
    """
    return _DOI_PREFIX.sub("", doi.strip()).strip().casefold()


def paper_key(
    arxiv_id: str | None,
    title: str,
    *,
    doi: str | None = None,
    year: int | None = None,
    family: str | None = None,
    details: str = "",
) -> str:
    """The stable key of a paper: its arXiv id when known, else its DOI, else a hash of its
    normalised title with its year and first author's family name (when known), and
    ``details`` (where in its venue it is, and its other authors), so that different papers
    with one title ("Editorial", "Calendar") keep apart."""
    if arxiv_id:
        return "arxiv:" + arxiv_id
    if doi and normalise_doi(doi):
        return "doi:" + normalise_doi(doi)
    if year is None and not family and not details:
        return "title:" + _digest(normalise_key(title), 8)
    parts = [normalise_key(title), str(year or ""), normalise_key(family or "")] + ([details] if details else [])
    return "title:" + _digest("\x1f".join(parts), 8)


_NOT_ALNUM = re.compile(r"[\W_]+")


def record_key(record) -> str:
    """:func:`paper_key` of a :class:`~scholarkg.model.Record`: the authors count only when the
    record lists them in the paper's order; venue, volume, issue and pages when it gives them."""
    family, others = None, ""
    if record.authors and record.authors_ordered:
        families = [normalise_key(a.family or a.name.split()[-1]) for a in record.authors]
        family, others = families[0], " ".join(families[1:])
    place = [_NOT_ALNUM.sub("", normalise_key(v)) if v else "" for v in (record.venue, record.volume, record.issue, record.pages)]
    details = "\x1e".join(place + [others]) if any(place) or others else ""
    return paper_key(record.arxiv_id, record.title, doi=record.doi, year=record.year, family=family, details=details)


def paper(key: str) -> URIRef:
    """IRI of a paper from :func:`paper_key`."""
    kind, _, value = key.partition(":")
    if kind == "arxiv":
        return _mint("paper/arxiv/" + _quote(value, safe=".-"))
    if kind == "doi":
        return _mint("paper/d-" + _digest(value, 8))
    if kind == "title" and re.fullmatch(r"[0-9a-f]+", value):
        return _mint("paper/t-" + value)
    return _mint("paper/k_" + _digest(key, 8))


def record_graph(key: str) -> URIRef:
    """Named graph holding the statements derived from one record."""
    return validate(str(paper(key)).replace("/id/paper/", "/id/graph/paper/", 1))


def store_graph(part: str) -> URIRef:
    """Named graph of a part of a store shared by many records (``entities``, ``shared``, ``pairs``)."""
    return _mint("graph/" + _slug(normalise_key(part)))


def author_key(name: str) -> str:
    """The key authors are identified by, the same for every reader: the normalised name with
    full stops read as spaces, so "James M. Murray", "James M Murray" and "JAMES M. MURRAY" are
    one person (and one readable IRI).

    >>> author_key("James M. Murray") == author_key("james m murray")
    True
    """
    return normalise_key(name.replace(".", " "))


def author(name: str) -> URIRef:
    return _mint("author/" + _slug(author_key(name)))


def authorship(paper_key_: str, position: int) -> URIRef:
    """The node stating that an author holds ``position`` (from 1) in a paper's author list."""
    return _mint("authorship/" + _digest(f"{paper_key_}\x1f{position}", 10))


def venue(name: str) -> URIRef:
    """A journal, proceedings or book papers appeared in, keyed by its normalised name."""
    return _mint("venue/" + _slug(normalise_key(name)))


def entity_scheme() -> URIRef:
    """The SKOS concept scheme of the research entities a graph describes."""
    return _mint("scheme/entities")


@functools.lru_cache(maxsize=1 << 16)  # a build names the same entities and categories again and again
def entity(label: str) -> URIRef:
    """Entities are keyed by their canonical name, independent of their type."""
    return _mint("entity/" + _slug(normalise_key(label)))


def _code(code: str) -> str:
    return code if _SAFE_CODE.fullmatch(code) else _quote(code, safe="")


@functools.lru_cache(maxsize=1 << 12)
def category(code: str) -> URIRef:
    return _mint("arxiv/category/" + _code(code))


def archive(code: str) -> URIRef:
    return _mint("arxiv/archive/" + _code(code))


def group(code: str) -> URIRef:
    return _mint("arxiv/group/" + _code(code))


def category_scheme() -> URIRef:
    return _mint("arxiv/taxonomy")


def mention(paper_key_: str, entity_label: str, field: str, start: int, end: int) -> URIRef:
    key = "\x1f".join((paper_key_, normalise_key(entity_label), field, str(start), str(end)))
    return _mint("mention/" + _digest(key, 10))


def result(
    paper_key_: str,
    value: Decimal,
    model: str | None,
    benchmark: str | None,
    metric: str | None,
    start: int,
) -> URIRef:
    parts = (paper_key_, str(value), model or "", benchmark or "", metric or "", str(start))
    return _mint("result/" + _digest("\x1f".join(normalise_key(p) for p in parts), 10))


def improvement(paper_key_: str, value: Decimal, model: str | None, baseline: str | None, start: int) -> URIRef:
    """An improvement a paper reports (in the ``result/`` space: it is owned by its paper like a score)."""
    parts = ("improvement", paper_key_, str(value), model or "", baseline or "", str(start))
    return _mint("result/" + _digest("\x1f".join(normalise_key(p) for p in parts), 10))


def web_resource(url: str) -> URIRef:
    return _mint("web/" + _digest(url.strip(), 10))


def extractor(version: str) -> URIRef:
    return _mint("agent/extractor/" + _slug(normalise_key(version)))


def entity_pair(label_a: str, label_b: str) -> URIRef:
    a, b = sorted((normalise_key(label_a), normalise_key(label_b)))
    return _mint("pair/" + _digest(a + "\x1f" + b, 10))


def coauthor_pair(author_a: str, author_b: str) -> URIRef:
    """Two authors who wrote papers together, by their IRIs (in either order)."""
    a, b = sorted((str(author_a), str(author_b)))
    return _mint("coauthors/" + _digest(a + "\x1f" + b, 10))


def curation(identifier: str) -> URIRef:
    return _mint("curation/" + _slug(normalise_key(identifier)))
