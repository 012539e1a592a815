"""Check a graph against the project's SHACL shapes (``ontology/shapes.ttl``).

Needs ``pyshacl`` (in the ``test`` extra). Every shape in the file has an IRI, so each
:class:`Violation` names the rule it breaks: the property shape (``skgsh:Paper-title``) or,
for SHACL-SPARQL constraints, the constraint itself (``skgsh:Mention-anchorMatchesSpan``).

>>> from scholarkg.pipeline import build
>>> validate(build(["examples/maojia-song.txt"]).graph).conforms  # doctest: +SKIP
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rdflib import Graph, URIRef
from rdflib.namespace import SH
from rdflib.term import Node

from ..errors import UsageError
from ..resources import ontology_path

__all__ = ["SHAPES", "Violation", "Report", "shapes_graph", "ontology_graph", "validate"]

SHAPES = "https://w3id.org/scholarkg/shapes#"


@dataclass(frozen=True, slots=True)
class Violation:
    """One result of a SHACL report."""

    rule: Node
    focus: Node
    path: Node | None
    value: Node | None
    component: URIRef
    message: str

    def __str__(self) -> str:
        rule = str(self.rule).removeprefix(SHAPES)
        return f"{rule}: {self.focus} {self.message}"


@dataclass(frozen=True, slots=True)
class Report:
    conforms: bool
    violations: tuple[Violation, ...]
    text: str

    @property
    def rules(self) -> set[Node]:
        """The rules broken, as shape or constraint IRIs."""
        return {v.rule for v in self.violations}


@lru_cache(maxsize=None)
def _parsed(name: str) -> Graph:
    graph = Graph(bind_namespaces="none")
    graph.parse(ontology_path(name), format="turtle")
    return graph


def shapes_graph() -> Graph:
    """The shapes, parsed once per process (do not modify the returned graph)."""
    return _parsed("shapes.ttl")


def ontology_graph() -> Graph:
    """The ontology, parsed once per process (do not modify the returned graph)."""
    return _parsed("scholarkg.ttl")


_PREPARED: dict[str, object] = {}


class _PreparedQueryGraph(Graph):
    """A graph that parses each distinct SPARQL text once per process.

    pyshacl runs a SHACL-SPARQL constraint once per focus node, passing the query as text;
    rdflib would parse that text again each time, which costs far more than evaluating it.
    A prepared query is reusable with any bindings, so the parsed form is kept by its text.
    """

    def __init__(self) -> None:
        super().__init__(bind_namespaces="none")

    def query(self, query_object, *args, **kwargs):  # type: ignore[override]
        if isinstance(query_object, str):
            prepared = _PREPARED.get(query_object)
            if prepared is None:
                from rdflib.plugins.sparql import prepareQuery

                prepared = _PREPARED[query_object] = prepareQuery(query_object)
            query_object = prepared
        return super().query(query_object, *args, **kwargs)


def validate(graph: Graph, *, with_ontology: bool = True, inference: str = "none") -> Report:
    """Validate ``graph`` (left unchanged) against ``ontology/shapes.ttl``.

    With ``with_ontology``, the ontology's statements are added to the data first (as
    pyshacl's ``ont_graph`` would); ``inference="rdfs"`` validates the RDFS closure instead of
    the graph as written. The shapes give the same verdict either way.
    """
    try:
        import pyshacl
    except ImportError:  # pragma: no cover - depends on the installation
        raise UsageError("validation needs pyshacl: pip install 'scholarkg[test]'") from None

    data = _PreparedQueryGraph()
    for triple in graph:
        data.add(triple)
    if with_ontology:
        for triple in ontology_graph():
            data.add(triple)
    conforms, report_graph, text = pyshacl.validate(
        data, shacl_graph=shapes_graph(), inference=inference, advanced=False, inplace=True
    )
    violations = []
    for result in report_graph.objects(None, SH.result):
        constraint = report_graph.value(result, SH.sourceConstraint)
        shape = report_graph.value(result, SH.sourceShape)
        violations.append(
            Violation(
                rule=constraint if isinstance(constraint, URIRef) else shape,
                focus=report_graph.value(result, SH.focusNode),
                path=report_graph.value(result, SH.resultPath),
                value=report_graph.value(result, SH.value),
                component=report_graph.value(result, SH.sourceConstraintComponent),
                message=str(report_graph.value(result, SH.resultMessage) or ""),
            )
        )
    violations.sort(key=lambda v: (str(v.rule), str(v.focus), str(v.value)))
    return Report(bool(conforms), tuple(violations), text)
