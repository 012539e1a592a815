"""The cross-paper Linker."""

from __future__ import annotations

import random

from extract_support import extract_nlp  # noqa: F401

from scholarkg.link import Linker
from scholarkg.model import EntityType, Extraction, Field, Mention


def _m(text, label, type_=EntityType.METHOD, aliases=(), parent=None, derived_from=None):
    return Mention(text, label, type_, 0, len(text), Field.ABSTRACT, aliases=tuple(aliases),
                   parent=parent, derived_from=derived_from)


def _linker(extractions):
    linker = Linker()
    for ex in extractions:
        linker.add(ex)
    return linker


EXTRACTIONS = [
    Extraction("p1", (_m("Group Relative Policy Optimisation", "Group Relative Policy Optimisation", aliases=["GRPO"]),)),
    Extraction("p2", (_m("Group Relative Policy Optimization", "Group Relative Policy Optimization", aliases=["GRPO"]),
                      _m("E-GRPO", "Entity-aware GRPO", aliases=["E-GRPO"], derived_from="Group Relative Policy Optimization"))),
    Extraction("p3", (_m("BrowseComp-zh", "BrowseComp-zh", EntityType.BENCHMARK),
                      _m("LLaMA-3-8b", "LLaMA 3-8B", EntityType.MODEL, parent="LLaMA 3"))),
    Extraction("p4", (_m("BrowseComp-ZH", "BrowseComp-ZH", EntityType.BENCHMARK),
                      _m("Qwen 3-4B", "Qwen 3-4B", EntityType.MODEL, parent="Qwen 3"),
                      _m("LLaMA-3-8B", "LLaMA 3-8B", EntityType.MODEL, parent="LLaMA 3"))),
    Extraction("p5", (_m("Arcade Learning Environment", "Arcade Learning Environment", EntityType.BENCHMARK, aliases=["ALE"]),)),
    Extraction("p6", (_m("Agents' Last Exam", "Agents' Last Exam", EntityType.BENCHMARK, aliases=["ALE"]),
                      _m("ALE", "ALE", EntityType.BENCHMARK))),
]


def test_spellings_merge_into_one_entity():
    linker = _linker(EXTRACTIONS)
    grpo = linker.resolve("GRPO")
    assert grpo is linker.resolve("Group Relative Policy Optimisation") is linker.resolve("group relative policy optimization")
    assert grpo.type is EntityType.METHOD
    assert {"GRPO", "Group Relative Policy Optimisation"} <= set(grpo.aliases) | {grpo.label}
    assert linker.resolve("BrowseComp-zh") is linker.resolve("BrowseComp-ZH")


def test_variants_and_derivations_point_to_existing_entities():
    linker = _linker(EXTRACTIONS)
    keys = {e.key for e in linker.entities()}
    qwen = linker.resolve("Qwen 3-4B")
    assert qwen.parent == linker.resolve("Qwen 3").key and qwen.parent in keys
    assert linker.resolve("Qwen 3").parent == linker.resolve("Qwen").key
    assert linker.resolve("LLaMA-3-8b").parent == linker.resolve("LLaMA 3").key
    assert linker.resolve("E-GRPO").derived_from == linker.resolve("GRPO").key
    for e in linker.entities():
        assert e.parent is None or e.parent in keys
        assert e.derived_from is None or e.derived_from in keys


def test_ambiguous_short_forms_stay_apart():
    linker = _linker(EXTRACTIONS)
    assert linker.resolve("Arcade Learning Environment") is not linker.resolve("Agents' Last Exam")


def test_short_form_joins_its_only_definition():
    linker = _linker(EXTRACTIONS[:2] + [Extraction("p7", (_m("E-GRPO", "E-GRPO"),))])
    assert linker.resolve("E-GRPO") is linker.resolve("Entity-aware GRPO")


def test_order_does_not_matter():
    reference = _linker(EXTRACTIONS).entities()
    shuffled = list(EXTRACTIONS)
    for seed in range(5):
        random.Random(seed).shuffle(shuffled)
        assert _linker(shuffled).entities() == reference


def test_unknown_label():
    linker = _linker(EXTRACTIONS)
    assert linker.get("nothing like this") is None
    try:
        linker.resolve("nothing like this")
    except KeyError:
        pass
    else:  # pragma: no cover
        raise AssertionError("resolve must raise KeyError for an unknown name")


def test_stated_variant_is_derived(extract_nlp):
    from scholarkg.extract import extract
    from scholarkg.model import Record

    ex = extract(Record(id="a", title="T", abstract="We introduce Adam. We also discuss AdaMax, a variant of Adam."),
                 extract_nlp)
    adamax = [m for m in ex.mentions if m.text == "AdaMax"]
    assert adamax and adamax[0].derived_from == "Adam"
    linker = _linker([ex])
    assert linker.resolve("AdaMax").derived_from == linker.resolve("Adam").key


def test_morphological_variants_of_a_concept_are_one_entity():
    from scholarkg.model import EntityKind, EntityType, Extraction, Field, Mention

    def concept(paper, text):
        return Extraction(paper, (Mention(text, text, EntityType.METHOD, 0, len(text), Field.ABSTRACT,
                                          kind=EntityKind.CONCEPT),))

    linker = Linker()
    for paper, text in (("a", "agentic foundation models"), ("b", "agentic foundational models"),
                        ("c", "agentic foundation model"), ("d", "value network")):
        linker.add(concept(paper, text))
    entities = linker.entities()
    assert len(entities) == 2
    assert linker.resolve("agentic foundational models") == linker.resolve("agentic foundation models")
    assert all(e.kind is EntityKind.CONCEPT for e in entities)


def test_names_forgotten_and_taken_again_are_as_if_every_paper_were_added_again():
    """What the linker collects for a name depends only on what each paper said of it, in
    order: forgetting some names and taking them again from what every paper said of them
    gives the same linker as adding every paper, here with one paper changed in between."""
    changed = Extraction("p4", (_m("BrowseComp-ZH", "BrowseComp-ZH", EntityType.DATASET),
                                _m("Qwen3-4B", "Qwen 3-4B", EntityType.MODEL, parent="Qwen 3")))
    after = EXTRACTIONS[:3] + [changed] + EXTRACTIONS[4:]
    linker = _linker(EXTRACTIONS)
    names = set(Linker.said(EXTRACTIONS[3])) | set(Linker.said(changed))
    linker.forget(names)
    for extraction in after:
        for name, said in Linker.said(extraction).items():
            if name in names:
                linker.take(name, said)
    fresh = _linker(after)
    assert linker.state() == fresh.state()
    assert linker.entities() == fresh.entities()
    assert linker.entities() != _linker(EXTRACTIONS).entities()  # the change shows
