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


def test_r_squared_result(extract_nlp):
    got, _ = _results(extract_nlp, "Performance follows a scaling law, reaching R^2 = 0.998.")
    assert got == [(None, None, "R^2", Decimal("0.998"), None)]


def test_gain_over_baseline(extract_nlp):
    _, ex = _results(extract_nlp, "Trust-Align outperforms FRONT on ASQA (up 12.56) and ELI5 (up 17.69).")
    got = [(r.model, r.benchmark, r.value, r.baseline) for r in ex.results]
    assert got == [("Trust-Align", "ASQA", Decimal("12.56"), "FRONT"), ("Trust-Align", "ELI5", Decimal("17.69"), "FRONT")]


def test_counts_bounds_and_changes_are_not_results(extract_nlp):
    got, _ = _results(extract_nlp, "We analyse 38,000 hours across 134 tasks on GAIA. The pass rate is below 1%. "
                                   "It reduces steps on BrowseComp by 70.7%.")
    assert got == []
