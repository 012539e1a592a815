"""Training sentences: TDMSci (CoNLL BIO) and the project's own hand-written examples.

Both become :class:`Sentence` values: the text and its annotated character spans. TDMSci marks
only tasks, datasets and metrics (``complete_types``), so phrases of other types in it are
neither positive nor negative examples; the hand-written sentences mark every type.

Only ``train_1500_v2.conll`` of TDMSci may be used for training; the other data sets of
``../shared/data`` are for evaluation only and are never read here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

__all__ = ["Sentence", "read_conll", "read_examples", "EXAMPLE_TYPES", "TDMSCI_TYPES"]

TDMSCI_TYPES = {"TASK": "Task", "DATASET": "Dataset", "METRIC": "Metric"}
EXAMPLE_TYPES = {"task": "Task", "method": "Method", "data": "Dataset", "metric": "Metric"}
_MARK = re.compile(r"\[([^\[\]]+)\]\{(\w+)\}")


@dataclass(frozen=True, slots=True)
class Sentence:
    text: str
    spans: tuple[tuple[int, int, str], ...]  # (start, end, type value)
    complete_types: frozenset[str]  # types annotated exhaustively in this sentence
    source: str


def read_conll(path: str | Path) -> list[Sentence]:
    """Sentences of a TDMSci CoNLL file (``token offset tag``); spacing comes from the offsets."""
    sentences: list[Sentence] = []
    rows: list[tuple[str, int, str]] = []

    def flush() -> None:
        if not rows:
            return
        base = rows[0][1]
        text = ""
        spans: list[tuple[int, int, str]] = []
        current: list | None = None
        for token, offset, tag in rows:
            pos = offset - base
            if pos < len(text):  # overlapping offsets: fall back to one space
                pos = len(text) + (1 if text else 0)
            text += " " * (pos - len(text)) + token
            start, end = pos, pos + len(token)
            kind, _, label = tag.partition("-")
            if kind == "B" or (kind == "I" and (current is None or current[2] != label)):
                if current is not None:
                    spans.append(tuple(current))
                current = [start, end, label]
            elif kind == "I":
                current[1] = end
            else:
                if current is not None:
                    spans.append(tuple(current))
                current = None
        if current is not None:
            spans.append(tuple(current))
        typed = tuple((s, e, TDMSCI_TYPES[t]) for s, e, t in spans if t in TDMSCI_TYPES)
        sentences.append(Sentence(text, typed, frozenset(TDMSCI_TYPES.values()), f"tdmsci:{len(sentences)}"))
        rows.clear()

    with open(path, encoding="utf-8") as fh:
        for line in fh:
            parts = line.split()
            if not parts:
                flush()
                continue
            if len(parts) >= 3 and parts[1].isdigit():
                rows.append((parts[0], int(parts[1]), parts[-1]))
    flush()
    return sentences


def parse_marked(line: str, source: str = "") -> Sentence:
    """``"We study [semantic parsing]{task}."`` -> text and spans."""
    text, spans, last = "", [], 0
    for m in _MARK.finditer(line):
        text += line[last : m.start()]
        start = len(text)
        text += m.group(1)
        spans.append((start, len(text), EXAMPLE_TYPES[m.group(2)]))
        last = m.end()
    text += line[last:]
    return Sentence(text, tuple(spans), frozenset(EXAMPLE_TYPES.values()), source)


def read_examples() -> list[Sentence]:
    """The hand-written sentences shipped in ``resources/training/examples.txt``."""
    path = resources.files("scholarkg.extract") / "resources" / "training" / "examples.txt"
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = line.strip()
        if line and not line.startswith("#"):
            out.append(parse_marked(line, f"examples:{number}"))
    return out
