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


def test_names_lose_a_trailing_generic_head(extract_nlp):
    got = _mentions(extract_nlp, "We evaluate on the MMLU benchmark and pretrained ResNet models with our fusion module.")
    assert "MMLU" in got and "MMLU benchmark" not in got
    assert "MMLU benchmark" in got["MMLU"].aliases  # as the text writes it
    assert "pretrained ResNet models" not in got and "ResNet" in got


def test_a_dataset_is_never_glued_to_a_task(extract_nlp):
    got = _mentions(extract_nlp, "We report results on SQuAD question answering.")
    assert {"SQuAD", "question answering"} <= set(got) and "SQuAD question answering" not in got
    # a data name made a modifier ("VerbNet-like") is no data set in front of the task: no "-like classification"
    got = _mentions(extract_nlp, "The clusters give a basis for a FrameNet-like classification of verbs.")
    assert "FrameNet-like classification" in got and not [t for t in got if t.startswith("-")], sorted(got)


def test_versions_and_variants_stay_whole_and_point_to_their_family(extract_nlp):
    got = _mentions(extract_nlp, "We fine-tune Gemma 2 9B Instruct, Claude 3 Opus and YOLOv8-L. "
                                 "Compared to MiroThinker-v1.0, our agent is faster on BrowseComp-en.")
    assert got["Gemma 2 9B Instruct"].parent == "Gemma 2-9B"
    assert got["Claude 3 Opus"].parent == "Claude 3"
    assert got["YOLOv8-L"].parent == "YOLOv8"
    assert got["MiroThinker-v1.0"].parent == "MiroThinker" and got["MiroThinker-v1.0"].label == "MiroThinker-v1.0"
    assert got["BrowseComp-en"].label == "BrowseComp-en" and got["BrowseComp-en"].parent == "BrowseComp"
    assert got["BrowseComp-en"].type is EntityType.BENCHMARK


def test_a_number_that_is_part_of_a_name_is_not_a_version(extract_nlp):
    from scholarkg.extract.modelnames import variant_base

    assert variant_base("Set14") == ("Set", False)  # may be part of the name: needs a known family
    got = _mentions(extract_nlp, "We report results on Set14 and Urban100 against SRCNN.")
    assert all(m.parent is None for m in got.values())


def test_families_are_entities_of_the_same_type(extract_nlp):
    from scholarkg.link import Linker

    ex = extract(Record(id="v", title="T", abstract="Our agent is faster on BrowseComp-en than MiroThinker-v1.0."), extract_nlp)
    linker = Linker()
    linker.add(ex)
    assert linker.resolve("BrowseComp").type is EntityType.BENCHMARK
    assert linker.resolve("BrowseComp-en").parent == linker.resolve("BrowseComp").key
    assert linker.resolve("MiroThinker").key == linker.resolve("MiroThinker-v1.0").parent


def test_a_name_before_a_known_concept_makes_a_term(extract_nlp):
    ex = extract(Record(id="t", title="A study", abstract="We improve UCCA parsing with a graph decoder."), extract_nlp)
    assert "UCCA parsing" in {m.text for m in ex.mentions}
    ex = extract(Record(id="t", title="A study", abstract="Scores on the MMLU benchmark rise."), extract_nlp)
    assert "MMLU benchmark" not in {m.text for m in ex.mentions}


def test_a_capitalised_name_runs_on_to_a_data_head(extract_nlp):
    ex = extract(Record(id="t", title="A study", abstract="We collect the WildTrack Street Scenes dataset of videos."),
                 extract_nlp)
    got = {m.text: m.type.value for m in ex.mentions}
    assert got.get("WildTrack Street Scenes") == "Dataset" and "WildTrack" not in got


def test_a_span_that_leaves_a_bracket_open_or_closes_one_it_did_not_open_is_no_name(extract_nlp):
    from scholarkg.extract.components.entities import balanced

    assert balanced("GPT-4 (large)") and balanced("f(x)[y]{z}") and balanced("ResNet-50")
    assert not balanced("SL₃(ℚ") and not balanced("non-)Abelian") and not balanced("(a]") and not balanced("a)(b")
    got = _mentions(extract_nlp, "We study the (non-)Abelian gauge case with the (anti-)BRST charge, solved with FlexNet.",
                    title="Twisted sheaves over SL₃(ℚ")
    assert "FlexNet" in got
    assert all(balanced(text) for text in got), sorted(got)


def test_an_equation_or_a_bound_is_no_name(extract_nlp):
    from scholarkg.extract.components.entities import formula

    assert formula("V(φ)=V₀+λ") and formula("K_B≤3") and formula("Õ(n^2)-time") and formula("O(log n)")
    assert not formula("R^2") and not formula("GPT-4o") and not formula("Orca(2)")
    got = _mentions(extract_nlp, "With U(ψ)=U₀+κ the Q_B=5/7 regime appears, and Õ(ε^-6)-query KestrelNet solvers "
                                 "beat the HarrowNet baseline.")
    assert "HarrowNet" in got
    assert not any(formula(text) for text in got), sorted(got)


def test_surname_pairs_initials_identifiers_formulas_and_units_are_no_coined_names(extract_nlp):
    from scholarkg.extract.context_types import chemical_formula

    assert chemical_formula("ZnO") and chemical_formula("Al2O3") and chemical_formula("CeAg₂Ge₂")
    assert not chemical_formula("GAN") and not chemical_formula("CoLA") and not chemical_formula("BERT")
    got = _mentions(extract_nlp, "The Varga-Tonelli shift in ZnO films and Gd2Ti2O7 grows above 3 TeV, as "
                                 "J.Krall noted for HE1234-5678, while the QuornTest suite checks it.")
    assert "QuornTest" in got
    assert not {"Varga-Tonelli", "ZnO", "Gd2Ti2O7", "TeV", "J.Krall", "HE1234-5678"} & set(got), sorted(got)
    got = _mentions(extract_nlp, "A non-Kerrian phase and quasi-Lindqvist maps appear in XQZ-induced states, unlike PlumbNet.")
    assert "PlumbNet" in got and not {"non-Kerrian", "quasi-Lindqvist", "XQZ-induced"} & set(got), sorted(got)


def test_attention_paid_or_received_is_no_attention_mechanism(extract_nlp):
    text = ("Sparse retrieval has drawn growing attention. We pay close attention to latency and focus attention "
            "on recall, while our decoder stacks grouped-query attention.")
    ex = extract(Record(id="t", title="A study", abstract=text), extract_nlp)
    mechanism = text.index("grouped-query attention")
    assert any(m.text == "grouped-query attention" for m in ex.mentions)
    assert not [m.text for m in ex.mentions if m.text.endswith("attention") and m.start < mechanism]


def test_a_language_pair_is_no_data_set_but_stays_a_task_where_the_text_says_so(extract_nlp):
    from scholarkg.extract.components.entities import language_pair

    assert language_pair("Chinese-English") and language_pair("En→De") and language_pair("Turkish-to-English")
    assert not language_pair("WMT14 English-German") and not language_pair("BrowseComp-ZH")
    got = _mentions(extract_nlp, "Our model improves BLEU on En-Fi and Romanian-English, and we study the "
                                 "Urdu-to-English task.")
    assert not {"Romanian-English", "En-Fi"} & set(got), sorted(got)
    assert got["Urdu-to-English"].type.value == "Task", sorted(got)


def test_a_year_after_a_coined_name_makes_an_edition_of_its_own(extract_nlp):
    got = _mentions(extract_nlp, "We train on the GlioSeg 2021 dataset and report results on TextSpot 2015 and "
                                 "TextSpot 2017, as at the RoboCup-style FooCamp 2019 challenge.")
    assert got["GlioSeg 2021"].type.value == "Dataset", sorted(got)
    assert {"TextSpot 2015", "TextSpot 2017", "FooCamp 2019"} <= set(got), sorted(got)
    assert not {"GlioSeg", "TextSpot"} & set(got), sorted(got)
    # a name the gazetteer knows keeps its entry, and a venue stays no entity
    got = _mentions(extract_nlp, "We fine-tune on the COCO 2017 split; this work appeared at NeurIPS 2020.")
    assert got["COCO"].label == "MS COCO" and not [t for t in got if "NeurIPS" in t], sorted(got)


def test_a_joined_name_written_with_only_its_first_capital_is_still_known(extract_nlp):
    got = _mentions(extract_nlp, "We evaluate on Pubmed and Imagenet and align senses with Wordnet.")
    assert {got[t].label for t in ("Pubmed", "Imagenet", "Wordnet")} == {"PubMed", "ImageNet", "WordNet"}, sorted(got)
    # not when that spelling is an English word: "Frames" is not the FRAMES benchmark
    assert "Frames" not in _mentions(extract_nlp, "Frames of the video are sampled at random.")


def test_a_word_no_english_text_uses_joins_the_name_after_it_in_a_title_or_at_a_sentence_start(extract_nlp):
    ex = extract(Record(id="t", title="Zhiyuan MindLoop Technical Report",
                        abstract="We present Zhiyuan MindLoop, an agent. Zhiyuan MindLoop, with 8B parameters, is "
                                 "fast. Pretrained MindLoop variants follow. Monolingual MindLoop ablations do too."),
                 extract_nlp)
    names = [m.text for m in ex.mentions if "MindLoop" in m.text]
    assert names[:3] == ["Zhiyuan MindLoop"] * 3, names
    assert not [n for n in names if n.startswith(("Pretrained", "Monolingual"))], names


def test_an_unknown_capitalised_word_listed_with_names_is_one_of_them_but_not_a_cited_author(extract_nlp):
    got = _mentions(extract_nlp, "We fine-tuned ProtX-2 on the FoldSet benchmark, outperforming GEMMA-P and Vortrell.")
    assert got["ProtX-2"].type.value == "Model", sorted(got)  # what is fine-tuned is a model
    assert got["Vortrell"].type is got["GEMMA-P"].type, sorted(got)  # typed by the name it is listed with
    # surnames in a citation beside a surname with an inner capital stay out
    got = _mentions(extract_nlp, "We follow the mapping of Quenneck and McDarrow (2012) and of Vortel-Harring "
                                 "and Plimsk.")
    assert not {"Quenneck", "Plimsk"} & set(got), sorted(got)


def test_an_arrow_between_languages_is_a_hyphen_of_the_name(extract_nlp):
    got = _mentions(extract_nlp, "The model reaches 27.9 BLEU on WMT'14 En→De.")
    assert got["WMT'14 En→De"].label == "WMT 2014 English-to-German", sorted(got)


def test_machine_translation_of_either_kind_is_a_task_and_its_systems_are_methods(extract_nlp):
    got = _mentions(extract_nlp, "Neural machine translation (NMT) has overtaken SMT; we train NMT models on "
                                 "FooNews and compare a phrase-based SMT system.")
    assert {t: got[t].type.value for t in ("Neural machine translation", "NMT", "SMT")} == {
        "Neural machine translation": "Task", "NMT": "Task", "SMT": "Task"}, sorted(got)
    assert got["NMT models"].type.value == "Method" and got["phrase-based SMT"].type.value == "Method", sorted(got)
