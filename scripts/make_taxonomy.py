"""Write ontology/arxiv-categories.ttl from arXiv's category taxonomy (JSON facts).

    python scripts/make_taxonomy.py ../shared/data/arxiv-taxonomy/taxonomy.json ontology/arxiv-categories.ttl

The scheme has three levels linked by skos:broader: group -> archive -> category.
Inactive entries are ``owl:deprecated``; a category that arXiv now files under another code
(``math.MP`` is ``math-ph``) points to it with ``skos:exactMatch``; a retired archive subsumed by
a category (``cmp-lg`` into ``cs.CL``) points to it with ``dcterms:isReplacedBy``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from rdflib import Graph, Literal
from rdflib.namespace import DCTERMS, OWL, RDF, RDFS, SKOS, XSD

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from scholarkg.graph import iri  # noqa: E402
from scholarkg.graph.vocab import PREFIXES  # noqa: E402


def build(taxonomy: dict) -> Graph:
    g = Graph()
    for prefix in ("skos", "dcterms", "owl", "rdfs", "xsd"):
        g.bind(prefix, PREFIXES[prefix])
    g.bind("arxivcat", str(iri.category("x"))[:-1])
    g.bind("arxivarch", str(iri.archive("x"))[:-1])
    g.bind("arxivgrp", str(iri.group("x"))[:-1])
    scheme = iri.category_scheme()
    g.add((scheme, RDF.type, SKOS.ConceptScheme))
    g.add((scheme, SKOS.prefLabel, Literal("arXiv category taxonomy", lang="en")))
    g.add((scheme, RDFS.comment, Literal(
        "arXiv subject classification: groups, archives and categories, written from the facts "
        "of arXiv's own taxonomy definitions.", lang="en")))

    def concept(node, notation, label, active):
        g.add((node, RDF.type, SKOS.Concept))
        g.add((node, SKOS.inScheme, scheme))
        g.add((node, SKOS.notation, Literal(notation)))
        g.add((node, SKOS.prefLabel, Literal(label, lang="en")))
        if not active:
            g.add((node, OWL.deprecated, Literal(True, datatype=XSD.boolean)))

    for gid, grp in taxonomy["groups"].items():
        node = iri.group(gid)
        concept(node, gid, grp["full_name"], grp.get("is_active", True))
        if grp.get("is_test"):
            g.add((node, SKOS.scopeNote, Literal("Used by arXiv for testing only.", lang="en")))
        g.add((node, SKOS.topConceptOf, scheme))
        g.add((scheme, SKOS.hasTopConcept, node))
    for aid, arch in taxonomy["archives"].items():
        node = iri.archive(aid)
        concept(node, aid, arch["full_name"], arch.get("is_active", True))
        g.add((node, SKOS.broader, iri.group(arch["in_group"])))
    for cid, cat in taxonomy["categories"].items():
        node = iri.category(cid)
        concept(node, cid, cat["full_name"], cat.get("is_active", True))
        g.add((node, SKOS.broader, iri.archive(cat["in_archive"])))
    for alias, canonical in taxonomy.get("category_aliases", {}).items():
        g.add((iri.category(alias), SKOS.exactMatch, iri.category(canonical)))
    for old, new in taxonomy.get("archives_subsumed", {}).items():
        if old in taxonomy["categories"]:
            g.add((iri.category(old), DCTERMS.isReplacedBy, iri.category(new)))
    return g


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    taxonomy = json.loads(Path(argv[1]).read_text(encoding="utf-8"))
    g = build(taxonomy)
    Path(argv[2]).write_text(g.serialize(format="turtle"), encoding="utf-8")
    cats = len(taxonomy["categories"])
    print(f"wrote {argv[2]}: {cats} categories, {len(taxonomy['archives'])} archives, {len(g)} triples")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
