"""A small trained classifier that types candidate phrases or rejects them.

Multinomial logistic regression over hashed sparse features of a span and its context (head
word and its ending, modifiers, neighbouring words, shape). It is trained by
:mod:`scholarkg.extract.train` and stored as a compressed weight matrix (about a megabyte);
scoring a text's candidates is one sparse sum, so it adds little to the pipeline's time.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .names import singular

__all__ = ["LABELS", "NONE", "span_features", "TermClassifier"]

NONE = "None"
LABELS = (NONE, "Task", "Method", "Metric", "Dataset")
_BITS = 16


def _shape(text: str) -> str:
    out = []
    for c in text[:6]:
        out.append("X" if c.isupper() else "x" if c.islower() else "d" if c.isdigit() else c)
    return "".join(out)


def span_features(words: list[str], start: int, end: int, *, in_title: bool = False, rule: str = "",
                  lo: int = 0, hi: int | None = None) -> list[str]:
    """Feature strings of ``words[start:end]`` in the sentence ``words[lo:hi]``."""
    hi = len(words) if hi is None else hi
    span = words[start:end]
    head = span[-1]
    head_low = head.lower()
    head_sing = singular(head_low)
    first = span[0].lower()
    prev1 = words[start - 1].lower() if start > lo else "<s>"
    prev2 = words[start - 2].lower() if start - 1 > lo else "<s>"
    next1 = words[end].lower() if end < hi else "</s>"
    feats = ["bias", "h=" + head_sing, "h3=" + head_low[-3:], "hs=" + _shape(head), "f=" + first,
             "n=" + str(min(len(span), 5)), "rule=" + rule, "p1=" + prev1, "p2=" + prev2, "n1=" + next1,
             "h+p1=" + head_sing + "|" + prev1]
    feats += ["m=" + w.lower() for w in span[:-1]]
    text = " ".join(span)
    if any(c.isupper() for c in text[1:]):
        feats.append("cap")
    if "-" in text:
        feats.append("hyph")
    if any(c.isdigit() for c in text):
        feats.append("digit")
    if in_title:
        feats.append("title")
    return feats


_MASK = (1 << _BITS) - 1
_HASHES: dict[str, int] = {}


def _hash(feature: str) -> int:
    h = _HASHES.get(feature)
    if h is None:
        h = zlib.crc32(feature.encode("utf-8")) & _MASK
        if len(_HASHES) < 500_000:
            _HASHES[feature] = h
    return h


def _index(feats: list[str]) -> np.ndarray:
    return np.fromiter(map(_hash, feats), dtype=np.int64, count=len(feats))


def _write_npz(path: Path, **arrays: np.ndarray) -> None:
    """Like ``np.savez_compressed`` but byte-identical for identical arrays (fixed zip dates)."""
    import io
    import zipfile

    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, array in sorted(arrays.items()):
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, np.asanyarray(array), allow_pickle=False)
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, buffer.getvalue())


@dataclass
class TermClassifier:
    """Weights of the classifier and the probability of ``None`` above which a span is dropped."""

    weights: np.ndarray = field(default_factory=lambda: np.zeros((1 << _BITS, len(LABELS)), dtype=np.float32))
    bias: np.ndarray = field(default_factory=lambda: np.zeros(len(LABELS), dtype=np.float32))
    threshold: float = 0.5
    meta: dict = field(default_factory=dict)

    # -- inference -----------------------------------------------------------------------
    def scores(self, feature_lists: list[list[str]]) -> np.ndarray:
        """Probabilities, one row per span, columns in :data:`LABELS` order."""
        if not feature_lists:
            return np.zeros((0, len(LABELS)), dtype=np.float32)
        idx = [_index(f) for f in feature_lists]
        lengths = np.array([len(i) for i in idx])
        flat = np.concatenate(idx)
        starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
        logits = np.add.reduceat(self.weights[flat], starts, axis=0) + self.bias
        logits -= logits.max(axis=1, keepdims=True)
        exp = np.exp(logits)
        return exp / exp.sum(axis=1, keepdims=True)

    def predict(self, feature_lists: list[list[str]]) -> list[tuple[str, float]]:
        """``(label, probability)`` per span; ``None`` when the span is rejected."""
        out = []
        for row in self.scores(feature_lists):
            if row[0] >= self.threshold:
                out.append((NONE, float(row[0])))
                continue
            k = int(np.argmax(row[1:])) + 1
            out.append((LABELS[k], float(row[k])))
        return out

    # -- training ------------------------------------------------------------------------
    def fit(self, feature_lists: list[list[str]], labels: list[str], *, epochs: int = 40, lr: float = 0.5,
            l2: float = 1e-5, seed: int = 0, batch: int = 64) -> None:
        """Full-softmax logistic regression with AdaGrad, deterministic for a given ``seed``."""
        rng = np.random.default_rng(seed)
        y = np.array([LABELS.index(lab) for lab in labels])
        idx = [_index(f) for f in feature_lists]
        w = np.zeros((1 << _BITS, len(LABELS)), dtype=np.float64)
        b = np.zeros(len(LABELS), dtype=np.float64)
        gw = np.full_like(w, 1e-8)
        gb = np.full_like(b, 1e-8)
        order = np.arange(len(y))
        for _ in range(epochs):
            rng.shuffle(order)
            for s in range(0, len(order), batch):
                chunk = order[s : s + batch]
                lengths = np.array([len(idx[i]) for i in chunk])
                flat = np.concatenate([idx[i] for i in chunk])
                starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
                logits = np.add.reduceat(w[flat], starts, axis=0) + b
                logits -= logits.max(axis=1, keepdims=True)
                p = np.exp(logits)
                p /= p.sum(axis=1, keepdims=True)
                p[np.arange(len(chunk)), y[chunk]] -= 1.0  # gradient of the loss wrt logits
                grad_rows = np.repeat(p, lengths, axis=0)
                gw_batch = np.zeros_like(w)
                np.add.at(gw_batch, flat, grad_rows)
                touched = np.unique(flat)
                g = gw_batch[touched] / len(chunk) + l2 * w[touched]
                gw[touched] += g * g
                w[touched] -= lr * g / np.sqrt(gw[touched])
                gbb = p.mean(axis=0)
                gb += gbb * gbb
                b -= lr * gbb / np.sqrt(gb)
        self.weights = w.astype(np.float32)
        self.bias = b.astype(np.float32)

    # -- storage -------------------------------------------------------------------------
    def save(self, folder: str | Path) -> None:
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        _write_npz(folder / "weights.npz", weights=self.weights.astype(np.float16), bias=self.bias)
        meta = {**self.meta, "threshold": self.threshold, "labels": list(LABELS), "bits": _BITS}
        (folder / "meta.json").write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, folder: str | Path) -> "TermClassifier":
        folder = Path(folder)
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        if meta.get("labels") != list(LABELS) or meta.get("bits") != _BITS:
            raise ValueError(f"{folder}: classifier was trained with other labels or feature size")
        with np.load(folder / "weights.npz") as data:
            weights = data["weights"].astype(np.float32)
            bias = data["bias"].astype(np.float32)
        return cls(weights, bias, float(meta["threshold"]), meta)
