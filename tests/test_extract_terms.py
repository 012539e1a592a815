"""Term phrases: real terms are found, fragments and vague phrases are not."""

from __future__ import annotations

from extract_support import extract_nlp  # noqa: F401

from scholarkg.extract import extract
from scholarkg.model import Record


def _mentions(nlp, abstract):
    ex = extract(Record(id="t", title="A study", abstract=abstract), nlp)
    return {m.text: m.type.value for m in ex.mentions}


def test_terms_around_head_nouns(extract_nlp):
    got = _mentions(extract_nlp, "Semantic image segmentation needs pixel-level accuracy. "
                                 "We use pretrained convolutional networks for this.")
    assert got["Semantic image segmentation"] == "Task"
    assert got["pixel-level accuracy"] == "Metric"
    assert got["pretrained convolutional networks"] == "Method"


def test_no_fragments_or_vague_phrases(extract_nlp):
    got = _mentions(extract_nlp, "Our approach is simple. The model replaces sequential reasoning with search. "
                                 "We develop eight learning methods and a novel framework. "
                                 "Our 1.7B model reaches the agent's reasoning process.")
    texts = set(got)
    for noise in ("Our approach", "approach", "The model", "model", "model replaces sequential reasoning",
                  "develop eight learning methods", "eight learning methods", "novel framework", "1.7B model",
                  "agent's reasoning process"):
        assert noise not in texts, noise
    assert all(not t[:1].isdigit() for t in texts)
