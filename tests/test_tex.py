"""TeX in record text becomes plain Unicode, and text without TeX is left alone."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scholarkg.tex import has_tex, to_plain


@pytest.mark.parametrize("tex,plain", [
    (r"P$^2$-MOPD: a method", "P²-MOPD: a method"),
    (r"accuracy of 48.6\% on the test set", "accuracy of 48.6% on the test set"),
    (r"we propose \emph{Look Twice, Answer Once} (LTAO)", "we propose Look Twice, Answer Once (LTAO)"),
    (r"L{\o}fstedt and Fu{\ss} and {\L}ukasz", "Løfstedt and Fuß and Łukasz"),
    (r"Sch\"{o}lkopf and Erd\H{o}s", "Schölkopf and Erdős"),
    (r"The {\TeX}book", "The TeXbook"),
    (r"{{\LaTeX\,3} Project Team}", "LaTeX 3 Project Team"),
    (r"an $\alpha$-divergence costing $O(n^2)$", "an α-divergence costing O(n²)"),
    (r"the loss $\mathcal{L}_{KL}$ on $x_i$", "the loss ℒ_KL on xᵢ"),
    (r"gains of $1\%$ to $5\%$ with 80.9% kept", "gains of 1% to 5% with 80.9% kept"),
    (r"code at \url{https://example.org/repo}~\cite{someone}.", "code at https://example.org/repo."),
    (r"a \mbox{state-of-the-art} {\it result} in \texttt{code}", "a state-of-the-art result in code"),
    (r"$\theta_{t+1}$ and $\geq$ 3 \& more", "θₜ₊₁ and ≥ 3 & more"),
    (r"prices of $5 and $6 in \emph{total}", "prices of $5 and $6 in total"),
    (r"{\MTeX} for the {\TUG} and {{\CSTUG{}}}", "MTeX for the TUG and CSTUG"),  # unknown logos keep their names
    (r"a \mymacro{word} here", "a word here"),  # unknown with an argument: the argument's text
])
def test_tex_is_decoded(tex, plain):
    assert to_plain(tex) == plain


@pytest.mark.parametrize("text", [
    "about ~10x cheaper, 50% less memory",
    "R^2 = 0.998 for the fit",
    "costs $5 and $6",
    "x_1 and y_2 written plainly",
    "",
])
def test_text_without_tex_is_unchanged(text):
    assert not has_tex(text)
    assert to_plain(text) == text


@pytest.mark.parametrize("broken", [r"unbalanced {\bf x", "$", r"{\bf", r"\\\\", r"$x^{$", "\\"])
def test_broken_tex_never_fails(broken):
    assert isinstance(to_plain(broken), str)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab $^_{}\\%~&#'\"0129emphalpha")), max_size=60))
def test_any_text_decodes_without_error_and_without_control_sequences_left(text):
    plain = to_plain(text)
    assert isinstance(plain, str)
    if has_tex(text):
        assert "\\emph{" not in plain and "\\%" not in plain


def test_bare_percent_and_ampersand_in_tex_text_are_literal():
    assert to_plain(r"Q&A at 94.7% with $x^2$") == "Q&A at 94.7% with x²"


@pytest.mark.parametrize("tex,plain", [
    ("{BERT}: Pre-training of Deep {B}idirectional Transformers", "BERT: Pre-training of Deep Bidirectional Transformers"),
    ("pages 12--34, ``quoted''", "pages 12–34, “quoted”"),
    ("Jane~Q. Doe", "Jane Q. Doe"),
    ("{Simon and Schuster}", "Simon and Schuster"),
    ("Plain words only", "Plain words only"),
])
def test_bibtex_values_are_always_tex(tex, plain):
    # A BibTeX value is TeX source even when it has no macro: its braces only group.
    assert to_plain(tex, tex=True) == plain
    if "{" in tex:
        assert to_plain(tex) == tex  # the same text from a web page keeps its braces
