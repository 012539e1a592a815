"""Rules that read more than the words next to a phrase: role nouns ("the X task"), systems for a
task, bare process nouns, and coined names typed from lists, verb frames and their make-up.
Every sentence is written for these tests."""

from __future__ import annotations

from extract_support import extract_nlp  # noqa: F401

from scholarkg.extract import extract
from scholarkg.model import Record


def _ex(nlp, abstract, title="A study"):
    return extract(Record(id="c", title=title, abstract=abstract), nlp)


def _by_text(ex):
    return {m.text: m for m in ex.mentions}


def test_a_role_noun_makes_a_task_and_stays_an_alias(extract_nlp):
    got = _by_text(_ex(extract_nlp, "We study the viewpoint classification task and the exploration problem, "
                                    "and address regression problems."))
    task = got["viewpoint classification task"]
    assert (task.label, task.type.value) == ("viewpoint classification", "Task")
    assert "viewpoint classification task" in task.aliases
    assert got["exploration problem"].label == "exploration"
    assert got["regression problems"].type.value == "Task"


def test_role_nouns_that_describe_or_modify_are_not_tasks(extract_nlp):
    ex = _ex(extract_nlp, "Changing the harness can alter task performance. We use held-out tasks, broader "
                          "tasks and knowledge-intensive tasks, then the main task and a hard problem. Unlike task "
                          "arithmetic, it is cheap.")
    labels = {m.label for m in ex.mentions}
    assert not labels & {"alter", "held-out", "broader", "knowledge-intensive", "main", "hard"}
    assert "task arithmetic" in labels


def test_a_verb_after_a_subject_or_a_modal_is_no_task_before_a_role_noun(extract_nlp):
    ex = _ex(extract_nlp, "Device tests can catch problems that unit tests miss, and we solve tasks quickly. "
                          "We also study the scheduling problem and routing problems.")
    labels = {m.label for m in ex.mentions}
    assert not labels & {"catch", "solve", "catch problems", "solve tasks"}
    assert {"scheduling", "routing"} <= labels


def test_a_system_for_a_task_is_a_method_but_a_framework_of_a_method_is_the_method(extract_nlp):
    got = _by_text(_ex(extract_nlp, "Speech recognition systems rely on lexicons. We wrap "
                                    "retrieval-augmented generation in a RAG framework."))
    assert got["Speech recognition systems"].type.value == "Method"
    assert got["Speech recognition"].type.value == "Task"
    assert "RAG framework" not in got and got["RAG"].label == "retrieval-augmented generation"


def test_bare_process_nouns_are_not_concepts(extract_nlp):
    ex = _ex(extract_nlp, "The pipeline covers initialization, editing, synthesis and verification, and the "
                          "optimization stays cheap. Combinatorial optimization and summarization are harder.")
    labels = {m.label for m in ex.mentions}
    assert not labels & {"initialization", "editing", "synthesis", "verification", "optimization"}
    assert {"combinatorial optimization", "summarization"} <= labels


def test_a_process_concept_after_for_is_a_task(extract_nlp):
    got = _by_text(_ex(extract_nlp, "We release a benchmark for semi-supervised learning. The policy is "
                                    "trained with semi-supervised learning."))
    types = {m.type.value for m in _ex(extract_nlp, "We release a benchmark for semi-supervised learning.").mentions
             if m.label == "semi-supervised learning"}
    assert types == {"Task"}
    assert got  # both sentences still name it


def test_metrics_of_cost_and_time(extract_nlp):
    got = _by_text(_ex(extract_nlp, "The method cuts the computational cost and the computation time, while "
                                    "at test time it runs in real time."))
    assert got["computational cost"].type.value == "Metric" and got["computation time"].type.value == "Metric"
    assert "test time" not in got and "real time" not in got


def test_names_in_a_list_take_the_type_of_its_head_noun(extract_nlp):
    got = _by_text(_ex(extract_nlp, "We evaluate on standard benchmarks (i.e. Fooset5, Fooset14 and QuxB100) and "
                                    "on popular segmentation datasets, including ZetaCity, OmegaVOC and Kappa-Context."))
    for name in ("Fooset5", "Fooset14", "QuxB100", "ZetaCity", "OmegaVOC", "Kappa-Context"):
        assert got[name].type.value in {"Benchmark", "Dataset"}, name


def test_names_typed_by_their_verb_frames(extract_nlp):
    got = _by_text(_ex(extract_nlp, "The encoder is pre-trained on KoalaText and tested on the ZooQ test set. "
                                    "ZorbNet outperforms all baselines. FloraSet contains ten thousand images."))
    assert got["KoalaText"].type.value == "Dataset"
    assert got["ZooQ"].type.value == "Dataset"
    assert got["ZorbNet"].type.value in {"Model", "Method"}
    assert got["FloraSet"].type.value == "Dataset"


def test_a_name_built_on_a_known_method_is_derived_from_it(extract_nlp):
    got = _by_text(_ex(extract_nlp, "We propose SparseLoRA, which adds a penalty to the adapters."))
    assert got["SparseLoRA"].type.value == "Method"
    assert got["SparseLoRA"].derived_from == "Low-Rank Adaptation"


def test_definitions_inside_one_pair_of_brackets(extract_nlp):
    ex = _ex(extract_nlp, "We propose a new framework (Consistent Rank Logits, CORAL) for ordinal regression. "
                          "CORAL is simple.")
    assert {m.label for m in ex.mentions if m.text == "CORAL"} == {"Consistent Rank Logits"}


def test_untyped_capitalised_words_that_are_not_coined_names(extract_nlp):
    ex = _ex(extract_nlp, "Accepted at ICLR 2026 and presented at EMNLP2025. 1] JaneDoe1] RoeBakerman2] "
                          "KaiZhou [1] WestfieldUniversity. VAEname = VAE, description = VariationalAutoencoder, "
                          "first= VAE (VAE). The method runs with 6DoF poses and gains 0.9dB, as Hager1 notes.")
    texts = {m.text for m in ex.mentions}
    for junk in ("ICLR", "EMNLP2025", "JaneDoe1", "RoeBakerman2", "KaiZhou", "VAEname", "6DoF", "0.9dB", "Hager1"):
        assert junk not in texts, junk


def test_an_untyped_coined_name_in_prose_is_kept_with_low_confidence(extract_nlp):
    ex = _ex(extract_nlp, "We describe ZorQuill and show that it helps on small inputs.")
    zor_quill = [m for m in ex.mentions if m.text == "ZorQuill"]
    assert zor_quill and zor_quill[0].type.value == "Method" and zor_quill[0].confidence < 0.5


def test_a_variant_of_a_coined_name_takes_the_type_of_its_base(extract_nlp):
    got = _by_text(_ex(extract_nlp, "In this work we release HeronNet-Squeeze and HeronNet-Turbo, two detectors for "
                                    "drones, and compare them with our earlier PlumeBench-Lite results."))
    assert got["HeronNet-Squeeze"].type.value == "Model" and got["HeronNet-Turbo"].type.value == "Model"
    assert got["PlumeBench-Lite"].type.value == "Benchmark"


def test_a_sized_variant_of_known_or_coined_data_is_data(extract_nlp):
    got = _by_text(_ex(extract_nlp, "We pretrain on an ImageNet-21K subset and on WrenData-40M, and compare with "
                                    "GullLM-3B in all of the settings."))
    assert got["ImageNet-21K"].type.value == "Dataset" and got["WrenData-40M"].type.value == "Dataset"
    assert got["GullLM-3B"].type.value == "Model"


def test_a_short_form_the_text_defines_by_a_coined_name_is_not_the_gazetteers(extract_nlp):
    ex = _ex(extract_nlp, "We then show how this GraphCrossNet (GCN) links molecules across assays, and we "
                          "compare our GCN with existing methods.")
    assert {m.label for m in ex.mentions if m.text == "GCN"} == {"GraphCrossNet"}


def test_a_released_version_is_a_model_and_a_comma_pair_is_no_list(extract_nlp):
    ex = _ex(extract_nlp, "We present PlumeSearch, a browsing method. Compared to Zorthinker-v2.1, PlumeSearch with "
                          "a budget of 50 steps cuts the cost of every query on BrowseComp.")
    got = _by_text(ex)
    assert got["Zorthinker-v2.1"].type.value == "Model"


def test_one_apposition_outweighs_a_name_ending_said_again(extract_nlp):
    ex = _ex(extract_nlp, "We present ZorQA, a reader for long forms. ZorQA reads fast, ZorQA-Large reads better, and "
                          "ZorQA scales to long inputs.", title="ZorQA: Reading Long Forms")
    got = _by_text(ex)
    assert got["ZorQA"].type.value == "Model" and got["ZorQA-Large"].type.value == "Model"


def test_techniques_tools_and_measures_of_other_fields(extract_nlp):
    ex = _ex(extract_nlp, "Spatial ATAC sequencing (spATAC-seq) maps open chromatin in tissue sections. We present "
                          "loomCell, a graph autoencoder that clusters spots, and compare it with Banksy v2 by the "
                          "adjusted Rand index (ARI) on three brain slices with many rare cell types.")
    got = _by_text(ex)
    assert got["spATAC-seq"].type.value == "Method" and got["loomCell"].type.value == "Model"
    assert got["Banksy v2"].type.value in ("Model", "Method") and got["ARI"].type.value == "Metric"
    assert not any("cell" in m.text and m.type.value == "Method" for m in ex.mentions)  # "rare cell types"


def test_coined_names_ending_in_bank_or_a_metric(extract_nlp):
    got = _by_text(_ex(extract_nlp, "We convert the sentences of LoomBank to a new grammar, and we report qBLEU and "
                                    "Tern-ROUGE against the references in all of the settings."))
    assert got["LoomBank"].type.value == "Dataset"
    assert got["qBLEU"].type.value == "Metric" and got["Tern-ROUGE"].type.value == "Metric"


def test_a_capitalised_modifier_in_a_title_is_no_coined_name(extract_nlp):
    ex = extract(Record(id="t", title="Trust Calibration in GNN-Based Recommender Pipelines",
                        abstract="We study how recommenders built on graph networks decide whom to trust."), extract_nlp)
    assert "GNN-Based" not in {m.text for m in ex.mentions}


def test_a_name_right_before_data_names_data_unless_it_is_a_kind_of_signal(extract_nlp):
    got = _by_text(_ex(extract_nlp, "Our tagger is trained on the KESTREL data and the WOLLOM training data, "
                                    "and the robot fuses RGB-D data with LiDAR data."))
    assert got["KESTREL"].type.value == "Dataset" and got["WOLLOM"].type.value == "Dataset"
    assert all(m.type.value != "Dataset" for t, m in got.items() if t in ("RGB-D", "LiDAR"))
    got = _by_text(_ex(extract_nlp, "No molecular cloud shows in the NO data of the survey."))
    assert "NO" not in got or got["NO"].type.value != "Dataset"


def test_data_of_other_fields_and_a_long_form_headed_before_of(extract_nlp):
    got = _by_text(_ex(extract_nlp, "We link the Annual Census of Rural Holdings (ACRH) to the Westmoor Seismic "
                                    "Array catalogue with a difference-in-differences design."))
    assert got["ACRH"].type.value == "Dataset" and got["Annual Census of Rural Holdings"].type.value == "Dataset"
    assert got["Westmoor Seismic Array catalogue"].type.value == "Dataset"
    assert got["difference-in-differences"].type.value == "Method"


def test_a_name_given_after_a_comma_takes_the_head_of_the_phrase_it_names(extract_nlp):
    got = _by_text(_ex(extract_nlp, "We release a large corpus of 40k annotated forum posts for stance detection, "
                                    "called StancePosts, and a fast parser for them, dubbed QuickParse."))
    assert got["StancePosts"].type.value == "Dataset", sorted(got)
    assert got["QuickParse"].type.value == "Model" and got["QuickParse"].confidence > 0.5, sorted(got)
