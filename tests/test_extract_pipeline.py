"""Pipeline assembly, tokenizer, model names, gazetteer, training data readers."""

from __future__ import annotations

import types

from extract_support import SHARED, extract_nlp  # noqa: F401

from scholarkg.extract import EXTRACTOR_NAME, EXTRACTOR_VERSION, extract, extract_many, load_pipeline
from scholarkg.extract.gazetteer import load_gazetteer, parse_lines
from scholarkg.extract.modelnames import parse_model_name
from scholarkg.extract.training_data import parse_marked, read_conll, read_examples
from scholarkg.model import EntityType, Record


def test_pipeline_is_cached_and_made_of_registered_components(extract_nlp):
    assert load_pipeline() is load_pipeline()
    names = extract_nlp.pipe_names
    assert names[0] == "scholarkg_sentences" and names[-1] == "scholarkg_links"
    assert {"scholarkg_abbreviations", "scholarkg_gazetteer", "scholarkg_entities", "scholarkg_term_classifier"} <= set(names)
    assert EXTRACTOR_NAME == "scholarkg-extractor" and EXTRACTOR_VERSION


def test_tokenizer_keeps_names_whole(extract_nlp):
    words = [t.text for t in extract_nlp.make_doc("E-GRPO on BrowseComp-ZH with LLaMA-3-8b and Qwen 3-4B (ECL): a BERT-based model")]
    for name in ("E-GRPO", "BrowseComp-ZH", "LLaMA-3-8b", "3-4B", "ECL", ")", ":", "BERT", "-based"):
        assert name in words


def test_model_names():
    assert parse_model_name("Qwen 3-4B", "Qwen").parents() == ["Qwen 3", "Qwen"]
    assert parse_model_name("Llama 3.1 8B Instruct", "Llama").label == "Llama 3.1-8B-Instruct"
    assert parse_model_name("Mistral 7B", "Mistral").label == "Mistral-7B"
    assert parse_model_name("GPT-4o", "GPT").parent == "GPT"


def test_model_variants_in_text(extract_nlp):
    ex = extract(Record(id="m", title="T", abstract="We fine-tune Qwen2 7B Instruct and LLaMA-3-8b."), extract_nlp)
    got = {(m.text, m.label, m.parent) for m in ex.mentions if m.type is EntityType.MODEL}
    assert ("Qwen2 7B Instruct", "Qwen 2-7B-Instruct", "Qwen 2-7B") in got
    assert ("LLaMA-3-8b", "Llama 3-8B", "Llama 3") in got  # the family is written "Llama" in the gazetteer


def test_a_network_named_by_its_depth(extract_nlp):
    ex = extract(Record(id="m", title="T", abstract="We compare a 152-layer ResNet, a 19-layer VGG network and a "
                                                    "DenseNet with 12-layer blocks."), extract_nlp)
    got = {(m.text, m.label, m.parent) for m in ex.mentions if m.type is EntityType.MODEL}
    assert ("152-layer ResNet", "ResNet-152", "ResNet") in got and ("19-layer VGG", "VGG-19", "VGG") in got
    assert ("DenseNet", "DenseNet", None) in got


def test_gazetteer_is_broad_and_consistent():
    gaz = load_gazetteer()
    counts = {t: len(gaz.of_type(t)) for t in EntityType}
    assert all(n >= 50 for n in counts.values()), counts
    assert gaz.lookup("in-context learning").type is EntityType.METHOD
    assert gaz.lookup("ImageNet").type is EntityType.DATASET
    # a plural finds the entry of its singular
    assert gaz.lookup("accuracies").canonical == "accuracy" and gaz.lookup("BLEU scores").canonical == "BLEU"
    assert gaz.lookup("perplexities").canonical == "perplexity"
    # lexical resources named like networks are data, not models
    assert {gaz.lookup(n).type for n in ("WordNet", "VerbNet", "HowNet", "BabelNet")} == {EntityType.DATASET}
    assert parse_lines(["# comment", "A | B | A", ""], EntityType.TASK)[0].names == ("A", "B")
    # editions of a benchmark are different test sets, not names of one
    assert gaz.lookup("VOC2012").canonical == "PASCAL VOC 2012"
    assert gaz.lookup("VOC 2007").canonical == "PASCAL VOC 2007"
    assert gaz.lookup("Pascal VOC").canonical == "PASCAL VOC"
    assert gaz.lookup("AIME24").canonical != gaz.lookup("AIME 2025").canonical


def test_extract_many_streams(extract_nlp):
    records = (Record(id=str(i), title=f"Paper {i}", abstract="We use GRPO on GSM8K.") for i in range(3))
    stream = extract_many(records, nlp=extract_nlp, batch_size=2)
    assert isinstance(stream, types.GeneratorType)
    out = list(stream)
    assert [r.id for r, _ in out] == ["0", "1", "2"]
    assert all({m.label for m in ex.mentions} >= {"Group Relative Policy Optimization", "GSM8K"} for _, ex in out)


def test_extract_many_leaves_no_garbage_cycles(extract_nlp):
    """Every Doc is freed as soon as its extraction is made, not left to the cycle collector."""
    import gc

    records = [Record(id=str(i), title=f"Lattice Search {i}", abstract="We introduce Bounded Lattice Search (BLS), "
                      "a planner. BLS reaches 81.2% accuracy on GSM8K, up 3.1 points over ReAct.") for i in range(30)]
    list(extract_many(records[:3], nlp=extract_nlp))
    gc.collect()
    gc.disable()
    try:
        got = list(extract_many(records, nlp=extract_nlp))
        assert gc.collect() == 0
    finally:
        gc.enable()
    assert len(got) == 30 and all(ex.mentions and ex.results for _, ex in got)


def test_hand_written_examples_parse():
    s = parse_marked("We study [semantic parsing]{task} with [beam search]{method}.")
    assert s.text == "We study semantic parsing with beam search."
    assert [s.text[a:b] for a, b, _ in s.spans] == ["semantic parsing", "beam search"]
    examples = read_examples()
    assert len(examples) >= 100
    assert all(e.text[a:b].strip() == e.text[a:b] for e in examples for a, b, _ in e.spans)


def test_conll_reader(tmp_path):
    conll = tmp_path / "mini.conll"
    conll.write_text("We\t0\tO\nuse\t3\tO\nmachine\t7\tB-TASK\ntranslation\t15\tI-TASK\n.\t26\tO\n\n"
                     "BLEU\t28\tB-METRIC\nrises\t33\tO\n", encoding="utf-8")
    first, second = read_conll(conll)
    assert first.text == "We use machine translation." and first.spans == ((7, 26, "Task"),)
    assert second.text == "BLEU rises" and second.spans == ((0, 4, "Metric"),)


def test_the_rule_modules_import_on_their_own():
    """Each rule module imports first in a fresh interpreter (no cycle through the components)."""
    import subprocess
    import sys

    for module in ("typing_rules", "entity_sources", "context_types", "figures", "doctext"):
        done = subprocess.run([sys.executable, "-c", f"import scholarkg.extract.{module}"], capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, (module, done.stderr[-500:])
