"""The arXiv category taxonomy, read from ``ontology/arxiv-categories.ttl``.

>>> tax = Taxonomy.load()
>>> tax.label("cs.CL")
'Computation and Language'
>>> tax.canonical("math.MP")
'math-ph'
>>> tax.is_known("cs.XX")
False
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .resources import ontology_path

__all__ = ["Category", "Taxonomy"]


@dataclass(frozen=True, slots=True)
class Category:
    code: str
    label: str
    archive: str
    archive_label: str
    group: str
    group_label: str
    active: bool
    replaced_by: str | None = None


class Taxonomy:
    def __init__(self, categories: dict[str, Category]):
        self._categories = categories
        self._by_fold = {code.casefold(): code for code in categories}

    @classmethod
    @lru_cache(maxsize=1)
    def load(cls) -> "Taxonomy":
        import pyoxigraph as ox

        path = ontology_path("arxiv-categories.ttl")
        store = ox.Store()
        store.bulk_load(path=str(path), format=ox.RdfFormat.TURTLE)
        skos = "http://www.w3.org/2004/02/skos/core#"
        query = f"""
        PREFIX skos: <{skos}>
        PREFIX owl: <http://www.w3.org/2002/07/owl#>
        PREFIX dcterms: <http://purl.org/dc/terms/>
        SELECT ?code ?label ?acode ?alabel ?gcode ?glabel ?dep ?match ?repl WHERE {{
          ?c skos:broader ?a ; skos:notation ?code ; skos:prefLabel ?label .
          ?a skos:broader ?g ; skos:notation ?acode ; skos:prefLabel ?alabel .
          ?g skos:topConceptOf ?s ; skos:notation ?gcode ; skos:prefLabel ?glabel .
          OPTIONAL {{ ?c owl:deprecated ?dep }}
          OPTIONAL {{ ?c skos:exactMatch/skos:notation ?match }}
          OPTIONAL {{ ?c dcterms:isReplacedBy/skos:notation ?repl }}
        }}"""
        cats: dict[str, Category] = {}
        for row in store.query(query):
            code = row["code"].value
            replaced = row["match"] or row["repl"]
            cats[code] = Category(
                code=code,
                label=row["label"].value,
                archive=row["acode"].value,
                archive_label=row["alabel"].value,
                group=row["gcode"].value,
                group_label=row["glabel"].value,
                active=not (row["dep"] is not None and row["dep"].value == "true"),
                replaced_by=replaced.value if replaced is not None else None,
            )
        return cls(cats)

    def __len__(self) -> int:
        return len(self._categories)

    def __iter__(self):
        return iter(self._categories.values())

    def is_known(self, code: str) -> bool:
        return code in self._categories

    def lookup(self, code: str) -> Category | None:
        """Exact code, else a case-insensitive match (``CS.cl`` -> ``cs.CL``)."""
        if code in self._categories:
            return self._categories[code]
        fixed = self._by_fold.get(code.casefold())
        return self._categories[fixed] if fixed else None

    def label(self, code: str) -> str:
        return self._categories[code].label

    def canonical(self, code: str) -> str:
        """The code arXiv files a category under today (aliases resolved)."""
        cat = self._categories[code]
        if cat.replaced_by and cat.replaced_by in self._categories and cat.active:
            return cat.replaced_by
        return code
