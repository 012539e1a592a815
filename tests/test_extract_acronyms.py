"""Abbreviation detector and alias merging inside one text."""

from __future__ import annotations

from extract_support import extract_nlp  # noqa: F401

from scholarkg.extract.components.entities import entity_spans
from scholarkg.extract.names import canonical_key, is_acronym


def _ents(nlp, text):
    doc = nlp(text)
    return doc, [(s.text, s.label_, s.id_) for s in entity_spans(doc)]


def test_long_form_then_short_form(extract_nlp):
    doc, ents = _ents(extract_nlp, "A title\n\nWe introduce Bounded Lattice Search (BLS), a framework for planning. BLS is fast.")
    pairs = [(s.text, s._.long_form.text) for s in doc._.abbreviations]
    assert pairs == [("BLS", "Bounded Lattice Search"), ("BLS", "Bounded Lattice Search")]
    assert ("Bounded Lattice Search", "Method", "Bounded Lattice Search") in ents
    assert [e for e in ents if e[0] == "BLS"] == [("BLS", "Method", "Bounded Lattice Search")] * 2


def test_short_form_then_long_form(extract_nlp):
    doc, _ = _ents(extract_nlp, "T\n\nRAG (Retrieval-Augmented Generation) systems are common.")
    assert [(s.text, s._.long_form.text) for s in doc._.abbreviations][:1] == [("RAG", "Retrieval-Augmented Generation")]


def test_apostrophe_and_function_words_in_long_form(extract_nlp):
    doc, ents = _ents(extract_nlp, "T\n\nThis paper introduces Agents' Last Exam (ALE), a benchmark. "
                                   "We introduce the Causal Hierarchy of Actions and Interactions (CHAIN) benchmark.")
    longs = {s.text: s._.long_form.text for s in doc._.abbreviations}
    assert longs == {"ALE": "Agents' Last Exam", "CHAIN": "Causal Hierarchy of Actions and Interactions"}
    types = {e[0]: e[1] for e in ents}
    assert types["Agents' Last Exam"] == types["CHAIN"] == "Benchmark"


def test_text_definition_beats_gazetteer_acronym(extract_nlp):
    # ALE is also the Arcade Learning Environment; the text's own definition wins.
    _, ents = _ents(extract_nlp, "T\n\nWe present Agents' Last Exam (ALE), a benchmark. ALE is hard.")
    assert {e[2] for e in ents if e[0] == "ALE"} == {"Agents' Last Exam"}


def test_no_definition_without_matching_letters(extract_nlp):
    doc, _ = _ents(extract_nlp, "T\n\nWe train a small model (XYZ) on data.")
    assert doc._.abbreviations == []


def test_spelling_variants_share_a_key():
    assert canonical_key("Group Relative Policy Optimisation") == canonical_key("Group Relative Policy Optimization")
    assert canonical_key("BrowseComp-ZH") == canonical_key("BrowseComp-zh")
    assert canonical_key("LLaMA-3-8b") == canonical_key("LLaMA-3-8B")
    assert canonical_key("noise") == "noise"  # not a British spelling


def test_is_acronym():
    assert is_acronym("GRPO") and is_acronym("E-GRPO") and is_acronym("CNNs")
    assert not is_acronym("Exam") and not is_acronym("a")


def test_a_slogan_long_form_leaves_the_name_to_its_short_form(extract_nlp):
    _, ents = _ents(extract_nlp, "T\n\nWe propose Plan Less, Act More (PLAM), a framework for household robots. "
                                 "PLAM halves the number of steps.")
    assert {e[2] for e in ents if e[0] in {"PLAM", "Plan Less, Act More"}} == {"PLAM"}


def test_a_judgement_abbreviated_is_no_definition(extract_nlp):
    doc, ents = _ents(extract_nlp, "T\n\nEven state-of-the-art (SOTA) planners fail, while Bounded Lattice Search (BLS) "
                                   "holds up. SOTA planners are slow.")
    assert [(s.text, s._.long_form.text) for s in doc._.abbreviations] == [("BLS", "Bounded Lattice Search")]
    assert not {"SOTA", "state-of-the-art"} & {e[0] for e in ents}


def test_a_short_form_takes_the_type_of_the_term_its_long_form_is(extract_nlp):
    _, ents = _ents(extract_nlp, "A title\n\nSurface defect localisation (SDL) in steel strips is hard. Prior "
                                 "work scaled SDL to video.")
    assert [e for e in ents if e[0] == "SDL"] == [("SDL", "Task", "Surface defect localisation")] * 2, ents
