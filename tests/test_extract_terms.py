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


def test_alignment_mining_induction_discovery_and_attribution_name_tasks(extract_nlp):
    got = _mentions(extract_nlp, "Sentence alignment feeds argument mining and grammar induction, "
                                 "while molecule discovery and authorship attribution need other cues.")
    for task in ("Sentence alignment", "argument mining", "grammar induction", "molecule discovery",
                 "authorship attribution"):
        assert got.get(task) == "Task", (task, got)


def test_problems_of_the_field_are_tasks(extract_nlp):
    got = _mentions(extract_nlp, "Word sense disambiguation (WSD) helps tokenization, and domain adaptation helps WSD.")
    assert got.get("Word sense disambiguation") == "Task" and got.get("WSD") == "Task", got
    assert got.get("tokenization") == "Task" and got.get("domain adaptation") == "Task", got


def test_coverage_is_a_measure(extract_nlp):
    got = _mentions(extract_nlp, "The generated tests raise branch coverage from 61% to 78%, and mutation coverage too.")
    assert got.get("branch coverage") == "Metric" and got.get("mutation coverage") == "Metric", got
    texts, _ = _concepts(extract_nlp, "World models offer broader coverage, and coverage matters.")
    assert "coverage" not in texts


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


def _concepts(nlp, abstract, title="A study"):
    ex = extract(Record(id="t", title=title, abstract=abstract), nlp)
    return {m.text for m in ex.mentions}, ex


def test_edge_words_are_cut_off(extract_nlp):
    texts, _ = _concepts(extract_nlp, "We test seven language models and report diverse question answering results.")
    assert "seven language models" not in texts and "language models" in texts
    assert not any(t.lower().startswith(("seven", "diverse")) for t in texts)


def test_a_verb_never_starts_a_term(extract_nlp):
    texts, _ = _concepts(extract_nlp, "Rotations help to minimize reconstruction error, and the robots "
                                      "utilize tactile feedback networks.")
    assert "reconstruction error" in texts and "tactile feedback networks" in texts
    assert not any(t.startswith(("minimize", "utilize")) for t in texts)
    texts, _ = _concepts(extract_nlp, "Audits involve code analysis, wherein static parsing finds bugs, and published "
                                      "retrieval benchmarks and/or dependency parsing agree.")
    assert {"code analysis", "dependency parsing"} <= texts
    assert not any(t.lower().startswith(("involve", "wherein", "published", "and/or")) for t in texts), texts


def test_a_dimension_is_no_number_at_the_edge(extract_nlp):
    texts, _ = _concepts(extract_nlp, "Our tracker improves 3D hand pose estimation from a single camera, "
                                      "and 12 detectors fail at it.")
    assert "3D hand pose estimation" in texts and "hand pose estimation" not in texts
    assert not any(t.startswith("12") for t in texts)


def test_a_vague_hyphenated_modifier_leaves_a_generic_head_generic(extract_nlp):
    texts, _ = _concepts(extract_nlp, "We cast planning as a user-centric process and build a tree-based model "
                                      "beside a goal-oriented framework.")
    assert "tree-based model" in texts
    assert not {"user-centric process", "goal-oriented framework"} & texts


def test_generic_heads_need_a_specific_modifier(extract_nlp):
    texts, _ = _concepts(extract_nlp, "The raw model is a differentiable model. Our sample-efficient approach is a "
                                      "training-free method with a single-stage selection strategy. "
                                      "An attention mechanism feeds the policy network.")
    for junk in ("raw model", "differentiable model", "sample-efficient approach", "training-free method",
                 "single-stage selection strategy", "selection strategy"):
        assert junk not in texts, junk
    assert {"attention mechanism", "policy network"} <= texts


def test_words_that_judge_or_hedge_say_nothing_about_what_a_thing_is(extract_nlp):
    texts, _ = _concepts(extract_nlp, "A suitable model explains the decay, yet an unknown mechanism remains. "
                                      "Straightforward sampling is slow, so we use our own spectral estimator "
                                      "and compare individual methods with a realistic model.")
    for junk in ("suitable model", "unknown mechanism", "individual methods", "realistic model"):
        assert junk not in texts, junk
    assert "spectral estimator" in texts and "own spectral estimator" not in texts
    texts, _ = _concepts(extract_nlp, "A comparable approach and two rival models fit the curves, as does a simplified model.")
    assert not {"comparable approach", "rival models", "simplified model"} & texts, texts


def test_how_research_is_done_says_nothing_about_which_method(extract_nlp):
    texts, _ = _concepts(extract_nlp, "An experimental strategy and analytical approaches bound the gap, numerical methods "
                                      "check it, and a quantitative analysis of the spectral estimator follows.")
    for junk in ("experimental strategy", "analytical approaches", "numerical methods", "quantitative analysis"):
        assert junk not in texts, junk
    assert "spectral estimator" in texts
    texts, _ = _concepts(extract_nlp, "Physical models, a coherent approach and an elementary process agree with "
                                      "predefined modules.")
    assert not {"Physical models", "coherent approach", "elementary process", "predefined modules"} & texts, texts
    texts, _ = _concepts(extract_nlp, "Pruning lowers the computational cost of the tree search.")
    assert "computational cost" in texts  # which cost: the one of computing


def test_an_abbreviation_that_joins_clauses_never_starts_a_term(extract_nlp):
    texts, _ = _concepts(extract_nlp, "Many lattice systems (e.g. two-dimensional spin models) behave alike, "
                                      "cf. kinetic growth models.")
    assert {"two-dimensional spin models", "kinetic growth models"} <= texts
    assert not any(t.lower().startswith(("e.g.", "cf.")) for t in texts)


def test_metric_acronyms_that_are_also_words_are_metrics_only_as_their_authors_write_them(extract_nlp):
    got = _mentions(extract_nlp, "We report box mAP on the detection benchmark, and METEOR and CIDEr for captioning.")
    assert got["box mAP"] == "Metric" and got["METEOR"] == "Metric" and got["CIDEr"] == "Metric"
    got = _mentions(extract_nlp, "The decoder upsamples feature maps. Harmonic maps between surfaces are classified. "
                                 "Meteor showers were observed with a camera network.")
    assert "Metric" not in got.values(), got


def test_groups_of_benchmarks_are_not_concepts(extract_nlp):
    texts, _ = _concepts(extract_nlp, "We evaluate on downstream benchmarks and on several retrieval benchmarks, "
                                      "and on the GLUE benchmarks.")
    assert not {"downstream benchmarks", "retrieval benchmarks"} & texts


def test_generic_title_wording_is_not_a_concept(extract_nlp):
    texts, _ = _concepts(extract_nlp, "We build a testbed where robots stack blocks under physical constraints.",
                         title="Stacking Blocks: An Interactive Benchmark for Robot Planning")
    assert "Interactive Benchmark" not in texts


def test_concept_variants_share_one_key():
    from scholarkg.extract.concepts import concept_key

    assert concept_key("agentic foundational models") == concept_key("agentic foundation model")
    assert concept_key("policy networks") == concept_key("policy network")
    assert concept_key("policy network") != concept_key("value network")


def test_concepts_and_names_have_their_kind(extract_nlp):
    _, ex = _concepts(extract_nlp, "We propose ZetaParse, a parser trained with reinforcement learning on a "
                                   "large treebank, and compare it with large language models (LLMs).")
    kinds = {m.label: m.kind.value for m in ex.mentions}
    assert kinds["ZetaParse"] == "name"
    assert kinds["reinforcement learning"] == "concept"
    assert kinds["large language model"] == "concept"


def test_a_title_cased_concept_in_a_title_is_the_concept_of_the_abstract(extract_nlp):
    ex = extract(Record(id="t", title="Faster Hierarchical Contour Segmentation for Small Robots",
                        abstract="Hierarchical contour segmentation splits each frame into regions."), extract_nlp)
    labels = {(m.field.value, m.label) for m in ex.mentions}
    assert labels == {("title", "hierarchical contour segmentation"), ("abstract", "hierarchical contour segmentation")}


def test_measures_of_mathematics_durations_and_research_modes_are_no_metrics_or_tasks(extract_nlp):
    texts, _ = _concepts(extract_nlp, "The Haar measure and invariant measures on a Kähler metric settle in polynomial "
                                      "time after a long time, and a theoretical understanding of experimental "
                                      "detection follows.")
    for junk in ("Haar measure", "invariant measures", "Kähler metric", "polynomial time", "long time",
                 "theoretical understanding", "experimental detection"):
        assert junk not in texts, junk
    got = _mentions(extract_nlp, "Retrieval metrics and the F1 measure agree on pedestrian detection.")
    assert got.get("Retrieval metrics") == "Metric" and got.get("pedestrian detection") == "Task", got


def test_a_reward_is_a_measure_only_when_measured(extract_nlp):
    got = _mentions(extract_nlp, "Our planner learns from delayed, trajectory-level rewards and a shaped "
                                 "curiosity reward function. It reaches 61% normalized reward, and its mean "
                                 "episodic reward keeps rising.")
    assert got["trajectory-level rewards"] == "Method"
    assert got["shaped curiosity reward function"] == "Method"
    assert got["normalized reward"] == "Metric" and got["mean episodic reward"] == "Metric"


def test_experimental_and_computational_techniques_are_methods(extract_nlp):
    got = _mentions(extract_nlp, "We performed kinetic lattice simulations and measured the films with polarized "
                                 "neutron reflectometry and Brillouin light spectroscopy.")
    assert got.get("kinetic lattice simulations") == "Method", got  # not "performed kinetic ..."
    assert got.get("Brillouin light spectroscopy") == "Method", got


def test_a_correlation_is_a_measure_only_when_measured(extract_nlp):
    got = _mentions(extract_nlp, "Doping weakens the stripe correlations and strong orbital correlations of the "
                                 "lattice, and the pair correlation grows with pressure.")
    assert not [t for t in got if "correlation" in t], got
    got = _mentions(extract_nlp, "The new score has a Kendall correlation of 0.58 with fluency ratings, and a "
                                 "higher correlation with human preferences than ROUGE; their rank correlation is low.")
    assert {"Kendall correlation", "correlation", "rank correlation"} <= set(got), got
    assert got["correlation"] == "Metric", got


def test_a_reporting_verb_begins_no_term(extract_nlp):
    got = _mentions(extract_nlp, "Earlier work explored graph sampling methods, and a survey revealed active "
                                 "learning strategies.")
    assert not [t for t in got if t.split()[0] in {"explored", "revealed", "work", "survey"}], got
    assert got.get("graph sampling methods") == "Method", got


def test_approximations_are_methods_and_capitalised_banks_and_atlases_are_data(extract_nlp):
    got = _mentions(extract_nlp, "We compare the random-phase approximation with a better approximation, using "
                                 "spectra from the Lunar Mineral Archive and the Coral Reef Atlas.")
    assert got.get("random-phase approximation") == "Method" and "better approximation" not in got, got
    assert got.get("Lunar Mineral Archive") == "Dataset" and got.get("Coral Reef Atlas") == "Dataset", got
    # a lower-case bank, or one capitalised word before it, names no data: an institution
    got = _mentions(extract_nlp, "The regional bank and the Pacific Bank publish interest rates.")
    assert not [t for t in got if "ank" in t], got


def test_a_capitalised_survey_names_data_and_a_tool_head_types_a_name(extract_nlp):
    got = _mentions(extract_nlp, "We combine the Northern Lake Fish Survey with logs from our fuzzer, GrubFuzz.")
    assert got.get("Northern Lake Fish Survey") == "Dataset" and got.get("GrubFuzz") == "Method", got
    ex = extract(Record(id="f", title="A study", abstract="Bugs were found by our fuzzer, GrubFuzz."), extract_nlp)
    assert [m.confidence > 0.5 for m in ex.mentions if m.text == "GrubFuzz"] == [True]  # typed by its head, not a guess
    ex = extract(Record(id="s", title="Deep Models of Lakes: A Comprehensive Survey", abstract="We review them."),
                 extract_nlp)
    assert not [m.text for m in ex.mentions if "Survey" in m.text]


def test_sequencing_and_assays_head_methods_and_ratios_head_metrics(extract_nlp):
    got = _mentions(extract_nlp, "We ran whole-exome sequencing and a luciferase reporter assay; the signal-to-clutter "
                                 "ratio rose, though the calculated on-off ratio and a high ratio did not.")
    assert got.get("whole-exome sequencing") == "Method" and got.get("luciferase reporter assay") == "Method", got
    assert got.get("signal-to-clutter ratio") == "Metric", got
    assert not [t for t in got if t.startswith(("calculated", "high"))] and "on-off ratio" in got, got


def test_a_system_is_a_method_only_when_it_is_a_kind_of_processor(extract_nlp):
    got = _mentions(extract_nlp, "We observe eclipsing binary systems and test embedded software systems; "
                                 "the angular momentum of the disc grows.")
    assert not [t for t in got if "system" in t or "momentum" in t], got
    got = _mentions(extract_nlp, "We compare caption retrieval systems, statistical systems and dialogue systems.")
    assert {"caption retrieval systems", "statistical systems", "dialogue systems"} <= set(got), got


def test_a_bare_ensemble_is_no_method_but_ensembling_is(extract_nlp):
    got = _mentions(extract_nlp, "An ensemble of five taggers helps, and ensembling helps more.")
    assert "ensemble" not in got and got.get("ensembling") == "Method", got


def test_kinds_of_scaling_are_methods(extract_nlp):
    got = _mentions(extract_nlp, "We contrast curriculum scaling with verifier scaling, and scaling alone.")
    assert got.get("curriculum scaling") == "Method" and got.get("verifier scaling") == "Method", got
    assert "scaling" not in got, got


def test_diffraction_imaging_and_scanning_techniques_are_methods(extract_nlp):
    got = _mentions(extract_nlp, "We probe the films with neutron diffraction, scanning probe microscopy and "
                                 "thermal imaging, and train a kernel surrogate, HeatKrig, on the maps.")
    assert {k: got.get(k) for k in ("neutron diffraction", "scanning probe microscopy", "thermal imaging")} == {
        "neutron diffraction": "Method", "scanning probe microscopy": "Method", "thermal imaging": "Method"}, got
    assert got.get("HeatKrig") == "Model", got  # a surrogate is a trained model
