"""Coined names: typed from the names they are listed with, kept when nothing types them."""

from __future__ import annotations

from extract_support import extract_nlp  # noqa: F401

from scholarkg.extract import extract
from scholarkg.extract.lexicon import english_parts, is_english
from scholarkg.model import EntityKind, EntityType, Record


def _mentions(nlp, abstract, title="A study"):
    ex = extract(Record(id="n", title=title, abstract=abstract), nlp)
    return {m.text: m for m in ex.mentions}


def test_word_frequencies_tell_english_words_from_coined_ones():
    assert is_english("FRAMES") and is_english("Generation")
    assert not is_english("Zorblax") and not is_english("GemFilter")
    assert english_parts("EvidenceLoop") == ["Evidence", "Loop"]


def test_a_name_listed_with_known_names_takes_their_type(extract_nlp):
    got = _mentions(extract_nlp, "We report results on SQuAD, TriviaQA and QuoraBlix.")
    assert got["QuoraBlix"].type is got["SQuAD"].type


def test_an_untypable_coined_name_is_kept_with_low_confidence(extract_nlp):
    got = _mentions(extract_nlp, "Later, Zorblax was discussed at length by the reviewers.")
    assert "Zorblax" not in got  # a capitalised word with no inner capital or digit is not coined-looking
    got = _mentions(extract_nlp, "Later, ZorbNet2 was discussed at length by the reviewers.")
    assert got["ZorbNet2"].kind is EntityKind.NAME and got["ZorbNet2"].confidence < 0.5


def test_capitalised_english_words_and_codes_are_not_names(extract_nlp):
    got = _mentions(extract_nlp, "GENERATIVE MODELS FOR TEXT were studied in report A97-1020 and file run_2016_abs.")
    assert not {"GENERATIVE", "MODELS", "FOR", "TEXT", "A97-1020", "run_2016_abs"} & set(got)
    assert all(m.type in EntityType for m in got.values())
