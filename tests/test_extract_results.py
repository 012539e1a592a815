"""Numbers and results: "48.6%", "48.6\\%", "R^2 = 0.998", "up 12.56"."""

from __future__ import annotations

from decimal import Decimal

from extract_support import extract_nlp  # noqa: F401

from scholarkg.extract import extract
from scholarkg.extract.numbers import find_values
from scholarkg.model import Record


def _values(text):
    return [(v.value, v.unit) for v in find_values(text)]


def test_percent_forms():
    assert _values("48.6%") == [(Decimal("48.6"), "%")]
    assert _values("48.6\\%") == [(Decimal("48.6"), "%")]
    assert _values("$1\\%$ to $5\\%$") == [(Decimal("1"), "%"), (Decimal("5"), "%")]


def test_numbers_inside_names_are_not_values():
    assert _values("Qwen 3-4B, 1.7B, GPT-4, Pass@1, R^2, 8x, 250+ experts, 12-49%") == []


def test_r_squared_and_gain():
    assert _values("R^2 = 0.998") == [(Decimal("0.998"), None)]
    assert _values("(up 12.56)") == [(Decimal("12.56"), None)]


def _results(nlp, abstract, title="T"):
    ex = extract(Record(id="r", title=title, abstract=abstract), nlp)
    return [(r.model, r.benchmark, r.metric, r.value, r.unit) for r in ex.results], ex


def test_value_on_benchmark(extract_nlp):
    got, ex = _results(extract_nlp, "We introduce FooNet, a model for search. FooNet achieves 48.6% on BrowseComp.")
    assert got == [("FooNet", "BrowseComp", None, Decimal("48.6"), "%")]
    assert "48.6%" in ex.results[0].evidence


def test_benchmark_then_bracketed_value_and_metric(extract_nlp):
    got, _ = _results(extract_nlp, "We propose FooNet, a framework. It reaches GAIA (75.7\\%) and 31.5% Pass@1 on HLE.")
    assert ("FooNet", "GAIA", None, Decimal("75.7"), "%") in got
    assert ("FooNet", "Humanity's Last Exam", "Pass@1", Decimal("31.5"), "%") in got


def test_versus_for_model(extract_nlp):
    got, _ = _results(extract_nlp, "We propose FooNet, a method. Our model reaches 94.7% average recovery, versus 80.9% for MOPD.")
    assert got == [("FooNet", None, "average recovery", Decimal("94.7"), "%"),
                   ("MOPD", None, "average recovery", Decimal("80.9"), "%")]


def test_statistics_of_the_analysis_are_not_results(extract_nlp):
    got, ex = _results(extract_nlp, "Performance follows a scaling law, reaching R^2 = 0.998. "
                                    "The effect is significant (p < 0.01) with FooNet on GAIA.")
    assert got == [] and ex.results == ()


def _improvements(ex):
    return [(r.model, r.benchmark, r.value, r.unit, r.change.value, r.baseline) for r in ex.results if r.is_improvement]


def test_gain_over_baseline_is_an_improvement(extract_nlp):
    _, ex = _results(extract_nlp, "Trust-Align outperforms FRONT on ASQA (up 12.56) and ELI5 (up 17.69).")
    assert _improvements(ex) == [("Trust-Align", "ASQA", Decimal("12.56"), "points", "increase", "FRONT"),
                                 ("Trust-Align", "ELI5", Decimal("17.69"), "points", "increase", "FRONT")]
    assert not [r for r in ex.results if not r.is_improvement]


def test_signed_and_worded_gains(extract_nlp):
    _, ex = _results(extract_nlp, "We propose PivotNet, a parser. PivotNet improves over ChartLM by +2.3 F1 on OntoBank.")
    assert [(m, b, v, c) for m, b, v, _, c, _ in _improvements(ex)] == [("PivotNet", "OntoBank", Decimal("2.3"), "increase")]
    _, ex = _results(extract_nlp, "We propose PivotNet, a parser. It scores 1.4 BLEU above the baseline.")
    assert [(v, c) for _, _, v, _, c, _ in _improvements(ex)] == [(Decimal("1.4"), "increase")]
    assert not [r for r in ex.results if not r.is_improvement]


def test_reductions(extract_nlp):
    _, ex = _results(extract_nlp, "Compared to RouteNet, our planner StepWise needs 70.7% fewer steps on GAIA.")
    assert [(m, b, v, u, c, base) for m, b, v, u, c, base in _improvements(ex)] == [
        ("StepWise", "GAIA", Decimal("70.7"), "%", "decrease", "RouteNet")]
    _, ex = _results(extract_nlp, "We propose StepWise, a planner. StepWise reduces the cost on GAIA by 31.5%.")
    assert [(v, c) for _, _, v, _, c, _ in _improvements(ex)] == [(Decimal("31.5"), "decrease")]


def test_value_in_brackets_after_a_model(extract_nlp):
    got, _ = _results(extract_nlp, "On HotpotQA our model beats ChartLM (81.3) and RouteNet (79.9) in exact match.")
    assert ("ChartLM", "HotpotQA", None, Decimal("81.3"), None) in [(m, b, None, v, u) for m, b, _, v, u in got]
    assert ("RouteNet", "HotpotQA") in [(m, b) for m, b, *_ in got]


def test_solves_a_share_of_tasks(extract_nlp):
    got, _ = _results(extract_nlp, "We introduce CodeWright, an agent. On SWE-bench Verified, CodeWright solves 12.5% of the tasks.")
    assert [(m, b, v) for m, b, _, v, _ in got] == [("CodeWright", "SWE-bench Verified", Decimal("12.5"))]


def test_metric_of_value_for_model(extract_nlp):
    got, _ = _results(extract_nlp, "On the Voicebank corpus we measure an error of 3.1 dB for EchoClean.")
    assert [(m, v, u) for m, _, _, v, u in got] == [("EchoClean", Decimal("3.1"), "dB")]


def test_compared_with_value_for_other_model(extract_nlp):
    got, _ = _results(extract_nlp, "We propose LumenQA, a reader. LumenQA reaches 61.0% accuracy on TriviaQA, "
                                   "compared with 58.2% for ChartLM.")
    assert [(m, b, v) for m, b, _, v, _ in got] == [("LumenQA", "TriviaQA", Decimal("61.0")),
                                                   ("ChartLM", "TriviaQA", Decimal("58.2"))]
    assert str(got[0][3]) == "61.0"  # written precision is kept


def test_results_written_as_a_table(extract_nlp):
    got, _ = _results(extract_nlp, "We release OrcaMath, a model. Results: GSM8K 82.1, MATH 45.3, HumanEval 67.0.")
    assert [(m, b, v) for m, b, _, v, _ in got] == [("OrcaMath", "GSM8K", Decimal("82.1")),
                                                   ("OrcaMath", "MATH", Decimal("45.3")),
                                                   ("OrcaMath", "HumanEval", Decimal("67.0"))]


def test_values_paired_respectively(extract_nlp):
    got, _ = _results(extract_nlp, "We propose OrcaMath, a model. OrcaMath achieves 82.1% and 45.3% on GSM8K and MATH, respectively.")
    assert [(m, b, v) for m, b, _, v, _ in got] == [("OrcaMath", "GSM8K", Decimal("82.1")),
                                                   ("OrcaMath", "MATH", Decimal("45.3"))]


def test_counts_bounds_and_ranges_are_not_results(extract_nlp):
    got, ex = _results(extract_nlp, "We analyse 38,000 hours across 134 tasks on GAIA. The pass rate is below 1%. "
                                    "Gains range from 1% to 5% on GAIA, and 12-49% of runs succeed.")
    assert got == [] and ex.results == ()


def test_a_metric_written_with_a_subscript_is_the_metric(extract_nlp):
    # "F$_1$" in a LaTeX abstract is read as "F₁"
    ex = extract(Record(id="s", title="A tagger", abstract="The tagger reaches an F₁ of 88.4 on the Brown corpus."),
                 extract_nlp)
    assert [(m.text, m.label) for m in ex.mentions if m.type.value == "Metric"] == [("F₁", "F1")]
    assert [(r.metric, r.value) for r in ex.results] == [("F1", Decimal("88.4"))]


def test_figure_after_a_change_from_one_value_to_another(extract_nlp):
    got, _ = _results(extract_nlp, "We present QuillNet, a reader for scanned forms. Our training recipe raises the "
                                   "accuracy of QuillNet on FUNSD from 70.2% to 78.9%, and from 64.0% to 71.5% on CORD.")
    assert ("QuillNet", "FUNSD", "accuracy", Decimal("78.9"), "%") in got
    assert ("QuillNet", "CORD", "accuracy", Decimal("71.5"), "%") in got
    assert {v for *_, v, _ in got} == {Decimal("78.9"), Decimal("71.5")}  # 70.2 and 64.0 were before


def test_ranges_and_from_to_without_a_change_are_not_results(extract_nlp):
    got, _ = _results(extract_nlp, "We propose QuillNet. Its error rates on FUNSD range from 3.1% to 9.4% across folds. "
                                   "It keeps 25% accuracy over noise levels from 0.01 to 0.5.")
    assert all(v not in {Decimal("3.1"), Decimal("9.4"), Decimal("0.5")} for *_, v, _ in got)


def test_operating_point_between_a_score_and_its_system(extract_nlp):
    got, _ = _results(extract_nlp, "We propose RapidSeg. RapidSeg obtains 77.3% mIoU at 52 FPS for RapidSeg-Small "
                                   "versus 74.1% mIoU at 30 FPS for BiSeNet on Cityscapes.")
    miou = "mean Intersection over Union"
    assert ("RapidSeg-Small", "Cityscapes", miou, Decimal("77.3"), "%") in got
    assert ("BiSeNet", "Cityscapes", miou, Decimal("74.1"), "%") in got
    # the speed is the system's too, and no mIoU
    assert ("RapidSeg-Small", "Cityscapes", None, Decimal("52"), "FPS") in got


def test_previous_best_figures_are_not_the_papers(extract_nlp):
    got, _ = _results(extract_nlp, "We introduce WaveGen, a generator of textures. Trained on LSUN, WaveGen reaches a "
                                   "Kernel Inception Distance (KID) of 2.4 and an FID of 6.1, improving over the "
                                   "previous best KID of 3.9 and FID of 8.8.")
    assert sorted((m, metric, v) for m, _, metric, v, _ in got) == [
        ("WaveGen", "FID", Decimal("6.1")), ("WaveGen", "KID", Decimal("2.4"))]


def test_figure_of_an_unnamed_baseline_is_nobodys(extract_nlp):
    got, _ = _results(extract_nlp, "We propose PolyTag, a tagger. PolyTag reaches 91.0% accuracy on OntoNotes, "
                                   "compared to 88.5% for the baseline, and 71.3 F1 versus the 64.2 F1 of the "
                                   "strongest prior system.")
    assert ("PolyTag", "OntoNotes", "accuracy", Decimal("91.0"), "%") in got
    assert all(v not in {Decimal("88.5"), Decimal("64.2")} for *_, v, _ in got)


def test_benchmark_named_after_its_split(extract_nlp):
    got, _ = _results(extract_nlp, "We propose PolyTag, a tagger. Overall, PolyTag reaches 90.4% on the held-out "
                                   "test split of the OntoNotes corpus.")
    assert got == [("PolyTag", "OntoNotes", None, Decimal("90.4"), "%")]


def test_change_by_an_absolute_amount(extract_nlp):
    _, ex = _results(extract_nlp, "We propose PolyTag, a tagger. PolyTag beats the prior best system by absolute "
                                  "2.3% on OntoNotes.")
    assert [(r.model, r.benchmark, r.value, r.change.value) for r in ex.results] == [
        ("PolyTag", "OntoNotes", Decimal("2.3"), "increase")]


def test_digits_of_names_are_not_figures(extract_nlp):
    got, _ = _results(extract_nlp, "We propose PolyTag, a tagger for clinical notes. PolyTag gets the best F 1 "
                                   "score at 86.6% on OntoNotes, and we release it as a tool (PolyTag 2.0) "
                                   "evaluated on the test split of OntoNotes.")
    assert [v for *_, v, _ in got] == [Decimal("86.6")]


def test_numbers_that_begin_a_compound_word_are_not_values():
    assert _values("a 3-way split, 4-gram BLEU and 5-fold cross-validation") == []


def test_footnote_marks_versions_and_counts_after_names_are_not_results(extract_nlp):
    got, _ = _results(extract_nlp, "We propose PolyTag, a tagger. It is trained on the Kestrel Treebank 2.1 and on "
                                   "WebCorp 3, and scored with nDCG 5 against the 12 best taggers on Kestrel.")
    assert got == []


def test_words_after_a_value_that_are_no_measure(extract_nlp):
    text = ("We propose PolyTag, a tagger. With only 30% labeled data PolyTag matches a tagger trained on all of "
            "Kestrel, and it stays 2 times faster than our 91.5% baseline. It reaches 88.1% accuracy when trained "
            "on WebCorp, and 84.0% and 79.2% respectively on two held-out sets.")
    _, ex = _results(extract_nlp, text)
    scores = [(r.metric, r.value) for r in ex.results if r.change is None]
    # not "labeled data", "baseline", "when trained" or "respectively": the accuracy carries on after "and"
    assert scores == [("accuracy", Decimal("88.1")), ("accuracy", Decimal("84.0")), ("accuracy", Decimal("79.2"))]


def test_a_change_named_before_of(extract_nlp):
    _, ex = _results(extract_nlp, "We propose PolyTag, a tagger. On Kestrel it brings an improvement of 1.2 F1 and a "
                                  "relative reduction of the error rate of 8.5%.")
    assert [(r.value, r.change.value) for r in ex.results] == [(Decimal("1.2"), "increase"),
                                                                    (Decimal("8.5"), "decrease")]


def test_respectively_with_the_benchmarks_before_the_values(extract_nlp):
    got, _ = _results(extract_nlp, "We introduce LongMem, a memory for language models. LongMem improves the best "
                                   "perplexities on WikiText-103 and Penn Treebank to 17.2 and 50.3, respectively.")
    assert [(m, b, v) for m, b, _, v, _ in got] == [("LongMem", "WikiText-103", Decimal("17.2")),
                                                    ("LongMem", "Penn Treebank", Decimal("50.3"))]
    assert all(metric is not None for _, _, metric, _, _ in got)


def test_metric_before_a_verb_of_change_and_bits_per_char(extract_nlp):
    got, _ = _results(extract_nlp, "We introduce LongMem, a memory for language models. We regularise LongMem to "
                                   "reach 1.09 bits/char on text8. After reranking, its BLEU score increases to "
                                   "31.2 on WMT14.")
    assert ("LongMem", "text8", "bits per character", Decimal("1.09"), None) in got
    assert ("LongMem", "WMT14", "BLEU", Decimal("31.2"), None) in got


def test_changes_paired_with_benchmarks_respectively(extract_nlp):
    _, ex = _results(extract_nlp, "We propose PolyNet, a classifier. On three datasets, MNIST, SVHN and CIFAR-10, we "
                                  "obtain + 0.3%, + 1.2% and + 2.0% improvement in accuracy over the baseline, "
                                  "respectively.")
    assert [(r.model, r.benchmark, r.metric, r.value, r.change.value) for r in ex.results] == [
        ("PolyNet", "MNIST", "accuracy", Decimal("0.3"), "increase"),
        ("PolyNet", "SVHN", "accuracy", Decimal("1.2"), "increase"),
        ("PolyNet", "CIFAR-10", "accuracy", Decimal("2.0"), "increase")]


def test_a_value_on_an_unknown_benchmark_does_not_take_an_earlier_one(extract_nlp):
    got, _ = _results(extract_nlp, "We introduce LongMem, a memory for language models. LongMem reaches 1.11 "
                                   "bits/char on text8 and 1.20 bits/char on Quillwort Prose.")
    assert ("LongMem", "text8", "bits per character", Decimal("1.11"), None) in got
    assert ("LongMem", None, "bits per character", Decimal("1.20"), None) in got


def test_catalogue_names_and_dimensions_hold_no_values():
    assert _values("the quasar J0123+45 in 2+1 dimensions") == []
    assert _values("a rate of about -4.38 x 10^(-22) rad s^(-2), 3.1× faster") == []


def test_whole_numbers_that_count_things_are_not_results(extract_nlp):
    got, ex = _results(extract_nlp, "We propose PolyTag, a tagger. The survey behind it compares 70 distinct "
                                    "similarity metrics and the 12 most cited evaluation criteria, and finds 51 lower "
                                    "quality sources on Kestrel.")
    assert got == [] and ex.results == ()


def test_words_after_a_percentage_must_name_a_measure(extract_nlp):
    got, _ = _results(extract_nlp, "We propose PolyTag, a tagger. It labels 62.5% source files, another 30% were "
                                   "skipped, and it keeps a 91.0% success rate.")
    assert [(metric, v) for _, _, metric, v, _ in got] == [("success rate", Decimal("91.0"))]


def test_a_change_takes_the_benchmark_of_its_own_clause(extract_nlp):
    _, ex = _results(extract_nlp, "We introduce PolyTag, a tagger. It reaches 91.2% accuracy on OntoNotes and "
                                  "improves F1 by 1.4 points over the CRF baseline on CoNLL-2003.")
    changes = [(r.benchmark, r.value) for r in ex.results if r.change is not None]
    assert changes == [("CoNLL-2003", Decimal("1.4"))]


def test_a_name_that_scores_a_figure_is_no_metric(extract_nlp):
    got, ex = _results(extract_nlp, "We introduce PolyTag, a tagger. With fewer features, PolyTag scores 90.7 on "
                                    "OntoNotes.")
    assert got == [("PolyTag", "OntoNotes", None, Decimal("90.7"), None)]
    assert "PolyTag scores" not in {m.text for m in ex.mentions}


def test_the_figure_after_versus_is_of_the_system_compared_with(extract_nlp):
    got, _ = _results(extract_nlp, "We introduce PolyTag, a tagger. PolyTag-L outperforms Llama-2-13B on every "
                                   "benchmark (MMLU: 61.3 vs. 55.0).")
    assert got == [("PolyTag-L", "MMLU", None, Decimal("61.3"), None),
                   ("Llama 2-13B", "MMLU", None, Decimal("55.0"), None)]


def test_a_change_right_after_a_score_keeps_its_measure(extract_nlp):
    _, ex = _results(extract_nlp, "We propose HeronDet, a one-stage detector. On LVIS, it obtains 38.4 mask AP, 2.1 "
                                  "points higher than Mask R-CNN. On COCO it reaches 91.0% recall and, with a larger "
                                  "backbone, 44.0, an error reduction of 4.4%.")
    got = [(r.metric, r.value, r.change.value if r.change else None) for r in ex.results]
    assert ("mask AP", Decimal("2.1"), "increase") in got
    # the figure just before names no measure, and the reduction is of an error: nothing to carry over
    assert (None, Decimal("4.4"), "decrease") in got


def test_figures_and_benchmarks_joined_by_and_pair_up_in_order(extract_nlp):
    got, _ = _results(extract_nlp, "We present WrenQA, a reader. It obtains 94.1% and 95.3% accuracy on SST-2 and "
                                   "IMDB.")
    assert got == [("WrenQA", "SST-2", "accuracy", Decimal("94.1"), "%"),
                   ("WrenQA", "IMDb", "accuracy", Decimal("95.3"), "%")]


def test_a_measure_in_brackets_after_a_figure(extract_nlp):
    got, _ = _results(extract_nlp, "We present WrenQA, a reader. WrenQA-Large reaches 71.5 (EM) on Natural "
                                   "Questions.")
    assert got == [("WrenQA-Large", "Natural Questions", "exact match", Decimal("71.5"), None)]


def test_slashed_figures_pair_with_slashed_measures(extract_nlp):
    text = ("We present WrenQA, a reader. WrenQA achieves an EM/F1 of 80.1/87.3 on SQuAD, and its parser "
            "91.2/85.0 UAS/LAS on the Penn Treebank.")
    got, ex = _results(extract_nlp, text)
    assert [text[r.start : r.end] for r in ex.results] == ["80.1", "87.3", "91.2", "85.0"]
    assert got == [("WrenQA", "SQuAD", "exact match", Decimal("80.1"), None),
                   ("WrenQA", "SQuAD", "F1", Decimal("87.3"), None),
                   ("WrenQA", "Penn Treebank", "UAS", Decimal("91.2"), None),
                   ("WrenQA", "Penn Treebank", "LAS", Decimal("85.0"), None)]


def test_a_measure_and_figure_in_brackets_after_a_compared_system(extract_nlp):
    got, ex = _results(extract_nlp, "We develop SepsisNet, a recurrent model for early warning. Validated on the "
                                    "HarborICU cohort, SepsisNet reaches an AUROC of 0.87, outperforming a gradient "
                                    "boosting classifier (AUROC 0.81).")
    assert got == [("SepsisNet", "HarborICU", "AUC", Decimal("0.87"), None),
                   ("gradient boosting", "HarborICU", "AUC", Decimal("0.81"), None)]
    assert {m.text: m.type.value for m in ex.mentions}["HarborICU"] == "Dataset"  # "the HarborICU cohort"


def test_a_coined_measure_named_with_its_figure_and_data_named_first(extract_nlp):
    got, ex = _results(extract_nlp, "We present FoldNet, a structure predictor. On CAPRI9 targets, FoldNet reaches a "
                                    "median QS-Dock of 61.5, compared with 58.0 for DockFormer.")
    assert got == [("FoldNet", "CAPRI9", "QS-Dock", Decimal("61.5"), None),
                   ("DockFormer", "CAPRI9", "QS-Dock", Decimal("58.0"), None)]
    types = {m.text: m.type.value for m in ex.mentions}
    assert types["CAPRI9"] == "Benchmark" and types["QS-Dock"] == "Metric"


def test_surveys_and_catalogues_are_data(extract_nlp):
    _, ex = _results(extract_nlp, "We cross-match the Larkspur Deep Sky Survey (LDSS) with the Wrenfield catalogue "
                                  "and the HeronX registry of variable stars.")
    types = {m.text: m.type.value for m in ex.mentions}
    assert types["Larkspur Deep Sky Survey"] == "Dataset" and types["LDSS"] == "Dataset"
    assert types["HeronX"] == "Dataset"


def test_figures_joined_by_and_share_a_measure_or_a_change(extract_nlp):
    got, ex = _results(extract_nlp, "We introduce GraspFormer, a grasping policy. In simulation GraspFormer attains "
                                    "a success rate of 87% on unseen objects, and 72% on a real arm. It beats prior "
                                    "work by 4.1% and 2.0% on HomeGrasp, and scores a success rate of 64% on "
                                    "KitchenSet, exceeding Grasp57 (51%).")
    scores = [(r.model, r.metric, r.value) for r in ex.results if r.change is None]
    assert ("GraspFormer", "success rate", Decimal("72")) in scores
    assert ("Grasp57", "success rate", Decimal("51")) in scores
    changes = [r.value for r in ex.results if r.change is not None]
    assert changes == [Decimal("4.1"), Decimal("2.0")]


def test_changes_by_a_factor(extract_nlp):
    _, ex = _results(extract_nlp, "We introduce QuickServe, a serving system. QuickServe achieves a 2.3x higher "
                                  "throughput than vLLM on ShareGPT, and 3.1× speedup over FlashAttention, while the "
                                  "draft model is 8x smaller.")
    got = [(r.model, r.benchmark, r.metric, r.value, r.unit, r.baseline, r.change.value) for r in ex.results]
    assert ("QuickServe", "ShareGPT", "throughput", Decimal("2.3"), "x", "vLLM", "increase") in got
    assert any(r.value == Decimal("3.1") and r.baseline == "FlashAttention" for r in ex.results)
    assert any(r.value == Decimal("8") and r.change.value == "decrease" for r in ex.results)


def test_hedged_changes_and_measures_named_after_in(extract_nlp):
    _, ex = _results(extract_nlp, "We propose AlignX. On KestrelBench, AlignX brings an improvement of approximately "
                                  "10% in recall, a relative improvement of 12% in F1, and cuts the error rate by "
                                  "about 4%.")
    got = [(r.metric, r.value, r.change.value if r.change else None) for r in ex.results]
    assert got == [("recall", Decimal("10"), "increase"), ("F1", Decimal("12"), "increase"),
                   ("error rate", Decimal("4"), "decrease")]
    assert {r.model for r in ex.results} == {"AlignX"}  # not "AlignX." from the end of a sentence


def test_figures_and_measures_respectively(extract_nlp):
    got, _ = _results(extract_nlp, "We propose NIDet. On SemEval-2010, NIDet achieves 72.71%, 86.12% and 78.84% in "
                                   "precision, recall and F-score, respectively.")
    assert [(b, m, v) for _, b, m, v, _ in got] == [("SemEval-2010", "precision", Decimal("72.71")),
                                                    ("SemEval-2010", "recall", Decimal("86.12")),
                                                    ("SemEval-2010", "F1", Decimal("78.84"))]


def test_slashed_percentages_and_compute_units(extract_nlp):
    got, ex = _results(extract_nlp, "We propose WrenNet, an image classifier. WrenNet achieves top-1/top-5 accuracy "
                                    "of 81.3%/95.6% on ImageNet with 4.1 GFLOPs.")
    assert got == [("WrenNet", "ImageNet", "top-1 accuracy", Decimal("81.3"), "%"),
                   ("WrenNet", "ImageNet", "top-5 accuracy", Decimal("95.6"), "%")]
    assert "GFLOPs" not in {m.text for m in ex.mentions}


def test_a_bracketed_comparison_gives_the_first_figure_to_the_subject(extract_nlp):
    got, _ = _results(extract_nlp, "We propose LoRA-Drop, which prunes low-rank adapters. On GLUE, LoRA-Drop matches "
                                   "full fine-tuning of RoBERTa-large (88.9 vs. 89.1 average score).")
    assert got == [("LoRA-Drop", "GLUE", "average score", Decimal("88.9"), None),
                   ("RoBERTa-large", "GLUE", "average score", Decimal("89.1"), None)]


def test_the_system_that_scores_a_figure_is_its_model_wherever_its_clause_begins(extract_nlp):
    got, _ = _results(extract_nlp, "Trained for a day, PebbleLM scores 61.7 on HellaSwag and 39.2 on ARC.")
    assert got == [("PebbleLM", "HellaSwag", None, Decimal("61.7"), None),
                   ("PebbleLM", "ARC", None, Decimal("39.2"), None)], got
    # a coined name with nothing else to type it is a system when it scores
    got, ex = _results(extract_nlp, "Kestrel2 scores 61.7 on HellaSwag.")
    assert got == [("Kestrel2", "HellaSwag", None, Decimal("61.7"), None)], got
    assert [m.type.value for m in ex.mentions if m.text == "Kestrel2"] == ["Method"]


def test_a_figure_takes_its_measure_as_fully_as_the_text_names_it(extract_nlp):
    got, _ = _results(extract_nlp, "On the FooNews data, our summarizer reaches a ROUGE-L recall of 41.3 and a "
                                   "FooQA accuracy of 77.0.")
    assert ("FooNews", "ROUGE-L recall", Decimal("41.3")) in [(b, m, v) for _, b, m, v, _ in got], got
    # a measure written with a data name keeps to the measure: "FooQA accuracy" is accuracy on FooQA
    assert [m for _, _, m, v, _ in got if v == Decimal("77.0")] == ["accuracy"], got


def test_figures_of_a_compared_system_follow_the_data_of_the_first_figures(extract_nlp):
    got, ex = _results(extract_nlp, "Our planner attains a mean success rate of 81.5% on TOWERS and 57.0% on "
                                    "SHELF, compared with 66.2% and 41.9% for GraspFormer.")
    assert {m.text: m.type.value for m in ex.mentions if m.text in {"TOWERS", "SHELF"}} == {
        "TOWERS": "Benchmark", "SHELF": "Benchmark"}  # what a figure is "on"
    assert [(m, b, v) for m, b, _, v, _ in got] == [
        (None, "TOWERS", Decimal("81.5")), (None, "SHELF", Decimal("57.0")),
        ("GraspFormer", "TOWERS", Decimal("66.2")), ("GraspFormer", "SHELF", Decimal("41.9"))], got


def test_an_overall_measure_after_a_figure_is_its_measure(extract_nlp):
    got, _ = _results(extract_nlp, "CloudMix reaches 92.8% overall accuracy on FooPoints.")
    assert got == [("CloudMix", "FooPoints", "accuracy", Decimal("92.8"), "%")], got


def test_each_figure_goes_to_the_system_whose_verb_takes_it(extract_nlp):
    got, _ = _results(extract_nlp, "On the FooNews test set, KiteMT achieves 27.3 BLEU and Marlow achieves 25.9.")
    assert [(m, b, v) for m, b, _, v, _ in got] == [("KiteMT", "FooNews", Decimal("27.3")),
                                                    ("Marlow", "FooNews", Decimal("25.9"))], got
    # a later clause on other data, its figure taken by a scoring verb, keeps the measure
    got, _ = _results(extract_nlp, "On FooMath, KiteLM raises accuracy from 50.2% to 64.0%, while on BarMath "
                                   "it reaches 31.5%.")
    assert [(m, b, me, v) for m, b, me, v, _ in got] == [("KiteLM", "FooMath", "accuracy", Decimal("64.0")),
                                                         ("KiteLM", "BarMath", "accuracy", Decimal("31.5"))], got


def test_measures_at_a_cutoff_and_the_system_that_improves_them(extract_nlp):
    got, ex = _results(extract_nlp, "For forecasting on FooGrid, TideNet reduces MSE by 18% compared to "
                                    "Autoformer, and improves Recall@20 by 3.2% on FooShop.")
    assert {m.text: m.type.value for m in ex.mentions if m.text in {"FooGrid", "Recall@20"}} == {
        "FooGrid": "Benchmark", "Recall@20": "Metric"}
    assert [(r.model, r.metric, r.value) for r in ex.results][:1] == [("TideNet", "mean squared error", Decimal("18"))]
    assert ("Recall@20", Decimal("3.2")) in [(r.metric, r.value) for r in ex.results], got


def test_a_figure_joined_by_and_to_a_score_keeps_its_measure(extract_nlp):
    got, _ = _results(extract_nlp, "KiteCoder achieves 61.0% pass@1 on FooEval and 52.4% on BarEval.")
    assert got == [("KiteCoder", "FooEval", "Pass@1", Decimal("61.0"), "%"),
                   ("KiteCoder", "BarEval", "Pass@1", Decimal("52.4"), "%")], got
