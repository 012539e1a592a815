"""TeX in record text, decoded to plain Unicode for people (the one place that does it).

Titles, abstracts and names from arXiv and BibTeX are written in TeX: ``P$^2$-MOPD``,
``48.6\\%``, ``\\emph{Search More, Think Less}``, ``L{\\o}fstedt``. :func:`to_plain` turns them
into what a reader sees in the typeset paper (``P²-MOPD``, ``48.6%``, ``Search More, Think
Less``, ``Løfstedt``). The TeX grammar and the macro table (accents, Greek letters,
operators, ``\\mathcal``) come from pylatexenc. Super- and subscripts in math become the
Unicode super- and subscript characters where Unicode has one for every character of the
script (``n^2`` -> ``n²``, ``x_i`` -> ``xᵢ``), found from the Unicode character database's
``<super>``/``<sub>`` decompositions; others are written out (``x_{test}`` -> ``x_test``).
A macro pylatexenc does not know keeps the text of its arguments; one followed by no argument
stands for its own name (``{\\TUG}`` -> ``TUG``, as for logos and abbreviations).

Text that holds no TeX is returned unchanged, so a plain ``~10x`` or ``50%`` from a web page
keeps its meaning; text known to be TeX source (a BibTeX value, ``tex=True``) is always
decoded, so its grouping braces go too (``{BERT} models`` -> ``BERT models``). In text that does, a bare ``%`` is a percent sign, not a comment, and a
bare ``&`` an ampersand, not a table column: record text is prose, never a TeX file, and
cutting the rest of a line would lose data.

>>> to_plain("P$^2$-MOPD achieves 48.6\\\\% on \\\\emph{BrowseComp}")
'P²-MOPD achieves 48.6% on BrowseComp'
>>> to_plain("Sch\\\\\\"{o}lkopf and Erd\\\\H{o}s")
'Schölkopf and Erdős'
>>> to_plain("about ~10x cheaper, 50% less")
'about ~10x cheaper, 50% less'
"""

from __future__ import annotations

import functools
import re
import unicodedata

__all__ = ["has_tex", "to_plain"]

# A macro (\emph, \%, \"), a math pair, or a brace group opened by a macro.
_TEX_MARK = re.compile(r"\\[A-Za-z@]|\\[%&$#_{}~^\"'`=.,;!]|\$[^$\n]{1,400}\$|\{\\")
_BARE_SPECIAL = re.compile(r"(?<!\\)([%&])")
_DOLLAR = re.compile(r"(?<!\\)\$")
_SCRIPT = re.compile(r"([\^_])\s*(?:\{([^{}]{1,40})\}|(\\[A-Za-z]+)|([^\s\\{}$]))")
_BEFORE_PUNCT = re.compile(r" +([.,;:!?])(?=\s|$)")
_SPACES = re.compile(r"[ \t\u00a0\u2009\u202f]+")
_TEX_CHARS = "\\{}$~-`'%&"  # text without any of these reads the same as TeX and as plain text
_MAX_TEX_CHARS = 100_000  # longer fields are left as they are (record fields are capped far below)
# Font and size declarations and other macros that print nothing themselves ({\\it word}).
_DECLARATIONS = (
    "it", "bf", "rm", "sc", "sl", "tt", "sf", "em", "up", "md", "normalfont", "bfseries", "itshape", "scshape",
    "slshape", "upshape", "mdseries", "rmfamily", "sffamily", "ttfamily", "tiny", "scriptsize", "footnotesize",
    "small", "normalsize", "large", "Large", "LARGE", "huge", "Huge", "relax", "protect", "noindent", "nobreak",
    "boldmath", "unboldmath", "displaystyle", "textstyle", "scriptstyle",
)
_MAX_SCRIPT = 4  # longer scripts read better written out than as small characters


def has_tex(text: str) -> bool:
    """True if ``text`` contains TeX markup that :func:`to_plain` would change."""
    return bool(text) and any(_is_tex(m) for m in _TEX_MARK.finditer(text))


def _is_tex(match: re.Match) -> bool:
    mark = match.group()
    return not mark.startswith("$") or _looks_like_math(mark[1:-1])


def _looks_like_math(inner: str) -> bool:
    """``$n^2$``, ``$\\alpha$``, ``$O(n)$`` are math; ``$5 and $`` (two prices) is not."""
    return bool(inner.strip()) and (any(c in inner for c in "\\^_{}=") or not any(c.isspace() for c in inner))


def to_plain(text: str, *, tex: bool = False) -> str:
    """``text`` with its TeX decoded to plain Unicode; text without TeX is returned as it is,
    unless ``tex`` says that it is TeX source whatever it looks like.

    >>> to_plain("{BERT}: {P}re-training, pp. 12--34", tex=True)
    'BERT: Pre-training, pp. 12–34'
    """
    if not text or len(text) > _MAX_TEX_CHARS:
        return text
    if not tex and not has_tex(text):
        return text
    if tex and not any(c in text for c in _TEX_CHARS):
        return text
    return _decode(text)


@functools.lru_cache(maxsize=4096)
def _decode(text: str) -> str:
    source = _math_prepared(_BARE_SPECIAL.sub(r"\\\1", text))
    try:
        plain = _converter().latex_to_text(source, tolerant_parsing=True)
    except Exception:  # pylatexenc parses tolerantly, but a decoder must never lose a record
        return text
    plain = _BEFORE_PUNCT.sub(r"\1", _SPACES.sub(" ", plain))  # "result ~\\cite{x}." -> "result."
    return "\n".join(line.strip() for line in plain.split("\n")).strip()


def _math_prepared(text: str) -> str:
    """Escape dollars that open no math; turn scripts inside math into Unicode characters."""
    out, pos = [], 0
    dollars = [m.start() for m in _DOLLAR.finditer(text)]
    i = 0
    while i < len(dollars):
        start = dollars[i]
        end = dollars[i + 1] if i + 1 < len(dollars) else None
        inner = text[start + 1:end] if end is not None else ""
        if end is not None and "\n" not in inner and len(inner) <= 400 and _looks_like_math(inner):
            out.append(text[pos:start + 1] + _SCRIPT.sub(_script, inner) + "$")
            pos, i = end + 1, i + 2
        else:
            out.append(text[pos:start] + "\\$")
            pos, i = start + 1, i + 1
    out.append(text[pos:])
    return "".join(out)


def _script(match: re.Match) -> str:
    mark, group, macro, char = match.groups()
    inner = group if group is not None else macro if macro is not None else char
    if "\\" in inner:
        inner = _converter().latex_to_text(f"${inner}$", tolerant_parsing=True).strip()
    table = _script_tables()[0 if mark == "^" else 1]
    if inner and len(inner) <= _MAX_SCRIPT and all(c in table for c in inner):
        return "{}" + "".join(table[c] for c in inner)  # {} ends a macro name before it (\\theta{}₁)
    return mark + (inner if len(inner) == 1 else "{" + inner + "}") if "\\" not in inner else mark + inner


@functools.cache
def _script_tables() -> tuple[dict[str, str], dict[str, str]]:
    sup: dict[str, str] = {}
    sub: dict[str, str] = {}
    for code in range(0x80, 0x1E000):
        decomposition = unicodedata.decomposition(chr(code))
        for tag, table in (("<super> ", sup), ("<sub> ", sub)):
            if decomposition.startswith(tag):
                base = chr(int(decomposition[len(tag):].split()[0], 16))
                table.setdefault(base, chr(code))
    return sup, sub


@functools.cache
def _converter():
    from pylatexenc import latex2text, latexwalker
    from pylatexenc.macrospec import MacroSpec

    keep = latex2text.MacroTextSpec
    walker_db = latexwalker.get_default_latex_context_db().filter_context(keep_categories=None)
    walker_db.add_context_category("scholarkg", prepend=True, macros=[
        MacroSpec("url", "{"), MacroSpec("href", "{{"), MacroSpec("citet", "[[{"), MacroSpec("citep", "[[{"),
        MacroSpec("textsuperscript", "{"), MacroSpec("textsubscript", "{"),
    ])
    text_db = latex2text.get_default_latex_context_db().filter_context(keep_categories=None)
    text_db.add_context_category("scholarkg", prepend=True, macros=[
        keep("TeX", simplify_repl="TeX"), keep("LaTeX", simplify_repl="LaTeX"), keep("BibTeX", simplify_repl="BibTeX"),
        keep("cite", simplify_repl=""), keep("citep", simplify_repl=""), keep("citet", simplify_repl=""),
        keep("footnote", simplify_repl=""), keep("label", simplify_repl=""), keep("ref", simplify_repl=""),
        *(keep(name, simplify_repl="") for name in _DECLARATIONS),
        keep("url", simplify_repl="%(1)s"), keep("href", simplify_repl="%(2)s"),
        keep("textsuperscript", simplify_repl=lambda node, l2t=None: _text_script(node, "^")),
        keep("textsubscript", simplify_repl=lambda node, l2t=None: _text_script(node, "_")),
    ])

    class _Reader(latex2text.LatexNodes2Text):
        def macro_node_to_text(self, node):
            if self.latex_context.get_macro_spec(node.macroname) is None:  # unknown: keep its arguments' text
                args = node.nodeargd.argnlist if node.nodeargd and node.nodeargd.argnlist else []
                text = "".join(self._groupnodecontents_to_text(arg) for arg in args if arg is not None)
                if not text and _names_itself(node):
                    return node.macroname  # a logo or abbreviation (\TUG, \MTeX): its name is its text
                return text
            return super().macro_node_to_text(node)

        def latex_to_text(self, latex, **flags):
            return self.nodelist_to_text(latexwalker.LatexWalker(latex, latex_context=walker_db, **flags)
                                         .get_latex_nodes()[0])

    return _Reader(latex_context=text_db, math_mode="text", strict_latex_spaces=False)


def _names_itself(node) -> bool:
    """An unknown macro that takes no argument (nothing braced follows it) stands for a word."""
    source = getattr(getattr(node, "parsing_state", None), "s", "") or ""
    end = node.pos + node.len if node.pos is not None and node.len is not None else len(source)
    following = source[end:end + 2]
    # "\\CSTUG{}": an empty group only ends the macro's name
    return node.macroname.isalpha() and (following == "{}" or following[:1] not in ("{", "["))


def _text_script(node, mark: str) -> str:
    args = node.nodeargd.argnlist if node.nodeargd else []
    inner = args[-1].latex_verbatim().strip("{}") if args and args[-1] is not None else ""
    return _script(_SCRIPT.match(f"{mark}{{{inner}}}")).removeprefix("{}") if inner else ""


