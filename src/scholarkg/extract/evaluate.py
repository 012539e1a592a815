"""Evaluate the extractor on a document-level gold file.

``python -m scholarkg.extract.evaluate GOLD.jsonl [-o PRED.jsonl] [--json]`` runs the pipeline on
the gold file's papers (their lines have id/year/category/title/abstract, so the JSON-lines
reader reads them), writes the predictions in the extraction JSON-lines contract, and prints
the figures of :mod:`scholarkg.extract.scoring`.

A gold file may also be sentences in CoNLL BIO form (``token offset tag`` per line, a blank line
between sentences; TDMSci's ``TASK``, ``DATASET`` and ``METRIC`` tags): each sentence is then a
paper of its own (titled ``Sentence n``, the sentence as its abstract), with the entities its
tags mark, scored on those types only (:func:`conll_documents`).
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["evaluate", "conll_documents", "format_report", "main"]

log = logging.getLogger(__name__)


_CONLL_TYPES = {"TASK": "TASK", "DATASET": "DATA", "METRIC": "METRIC"}


_DEFINED = re.compile(r"(?P<long>.*\w)\s*\((?P<short>[^()]*\w[^()]*)\)")


def _aliases(span: str) -> list[str]:
    """A tagged span's accepted names: itself, and when it defines a short form ("Penn Treebank
    (PTB)"), the long form and the short form, as the gold files list an entity's aliases."""
    m = _DEFINED.fullmatch(span)
    return [span, m["long"], m["short"]] if m else [span]


def conll_documents(path: str | Path) -> list[dict[str, Any]]:
    """The sentences of a CoNLL BIO file (``token offset tag``, tab- or space-separated, offsets
    into the source text) as gold papers: the sentence rebuilt from its tokens' offsets, the
    entities its ``B-``/``I-`` tags mark (a span that defines a short form is also accepted as
    either form: :func:`_aliases`), and ``types``, the coarse types the tags can mark.
    A line that is not three fields raises :class:`~scholarkg.errors.InputError` naming the file
    and line."""
    from ..errors import InputError

    docs: list[dict[str, Any]] = []
    tokens: list[tuple[str, int, str]] = []

    def close() -> None:
        if not tokens:
            return
        base, text = tokens[0][1], ""
        spans: list[list] = []  # [label, start, end]
        current = None  # the span the last token is in
        for token, offset, tag in tokens:
            text += " " * max(offset - base - len(text), 0) + token
            end = len(text)
            kind, _, label = tag.partition("-")
            if kind == "I" and current is not None and current[0] == label:
                current[2] = end
            elif kind in ("B", "I") and label in _CONLL_TYPES:
                current = [label, end - len(token), end]
                spans.append(current)
            else:
                current = None
        gold: dict[str, list[list[str]]] = {}
        for label, start, end in spans:
            gold.setdefault(_CONLL_TYPES[label], []).append(_aliases(text[start:end]))
        n = len(docs) + 1
        docs.append({"id": f"{Path(path).stem}-{n}", "title": f"Sentence {n}", "abstract": text, "gold": gold,
                     "types": sorted(set(_CONLL_TYPES.values()))})
        tokens.clear()

    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            fields = line.split()
            if not fields:
                close()
                continue
            if len(fields) != 3 or not fields[1].isdigit():
                raise InputError(f"{path}:{number}: expected 'token offset tag', got {line.strip()[:60]!r}")
            tokens.append((fields[0], int(fields[1]), fields[2]))
    close()
    return docs


def evaluate(gold_path: str | Path, *, out_path: str | Path | None = None, nlp=None) -> dict[str, Any]:
    """Extract from every paper of ``gold_path``, write predictions, return the scores.

    Predictions go to ``out_path`` (a temporary file when ``None``; its path is in the
    returned ``"predictions"``). A ``.conll`` file is read with :func:`conll_documents`.
    """
    from ..errors import Problems
    from ..link import Linker
    from ..readers import read_records
    from . import extract_many
    from .jsonl import write_jsonl
    from .scoring import score_files

    source = Path(gold_path)
    problems = Problems()
    converted = source.suffix == ".conll"
    if converted:
        with tempfile.NamedTemporaryFile("w", suffix=".gold.jsonl", delete=False, encoding="utf-8") as handle:
            for doc in conll_documents(source):
                handle.write(json.dumps(doc, ensure_ascii=False) + "\n")
        gold_path = handle.name
        problems = Problems(limit_logged=-1)  # sentences have no year, and the reader would say so of each
    try:
        records = list(read_records([Path(gold_path)], problems, format="jsonl"))
        pairs = list(extract_many(records, nlp=nlp))
        linker = Linker()
        for _, extraction in pairs:
            linker.add(extraction)
        if out_path is None:
            handle = tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8")
            out_path = handle.name
            handle.close()
        out_path = Path(out_path)
        with out_path.open("w", encoding="utf-8") as fh:
            write_jsonl(pairs, linker, fh)
        scores = score_files(gold_path, out_path)
    finally:
        if converted:
            Path(gold_path).unlink(missing_ok=True)
    scores["predictions"] = str(out_path)
    scores["records"] = len(records)
    log.info("evaluated %d records from %s", len(records), source)
    return scores


def _row(name: str, s: dict) -> str:
    return f"{name:10s} P={s['p']:.3f} R={s['r']:.3f} F1={s['f1']:.3f}  (tp={s['tp']} fp={s['fp']} fn={s['fn']})"


def format_report(scores: dict[str, Any]) -> str:
    """Scores as a short text table: per type, typed and untyped, per kind, roles, results."""
    lines = ["per type"]
    lines += ["  " + _row(name, s) for name, s in scores["by_type"].items()]
    lines += [_row(name, scores[name]) for name in ("typed", "untyped")]
    if "by_kind" in scores:
        lines.append("per kind (P: predicted names or concepts that are gold entities; R: gold entities each kind finds)")
        lines += ["  " + _row(kind, s) for kind, s in scores["by_kind"].items()]
    if "roles" in scores:
        lines.append("roles      " + ", ".join(f"{role} {n}" for role, n in scores["roles"].items()))
    lines.append(_row("introduces", scores["introduces"]))
    lines.append(_row("results", scores["results"]) + f"  improvements {scores.get('improvements', 0)}")
    lines.append(f"documents {scores['documents']}, missing from predictions {scores['missing_documents']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scholarkg.extract.evaluate", description=__doc__.splitlines()[0])
    parser.add_argument("gold", help="document-level gold JSON lines")
    parser.add_argument("-o", "--out", help="write predictions here (default: a temporary file)")
    parser.add_argument("--json", action="store_true", help="print the scores as JSON")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(message)s")
    scores = evaluate(args.gold, out_path=args.out)
    sys.stdout.write((json.dumps(scores, indent=2) if args.json else format_report(scores)) + "\n")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
