"""Train the term classifier: ``python -m scholarkg.extract.train``.

Data: TDMSci ``train_1500_v2.conll`` (tasks, datasets, metrics; read from
``../shared/data/tdmsci`` next to the repository unless ``--tdmsci`` says otherwise) and the
project's hand-written sentences (``resources/training/examples.txt``, every type marked).
No evaluation set is read.

The rule components find candidate phrases in every training sentence exactly as they do at
extraction time; each candidate gets the type of the annotated span it ends with. A candidate
that touches no annotation is a negative ("None") only in the hand-written sentences, which mark
every entity: TDMSci marks the tasks, data sets and metrics a leaderboard needs and leaves other
real terms ("computational cost", "speech recognition system") unmarked, so an unmarked phrase
there says nothing and is left out. A fifth of the sentences is held out to choose the
rejection threshold; the final model is then fitted on all sentences and written to
``src/scholarkg/extract/trained/term_classifier/`` (weights.npz, meta.json). Training is
deterministic: the same data gives the same weights.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections import Counter
from pathlib import Path

__all__ = ["build_instances", "train", "main", "default_tdmsci"]

log = logging.getLogger(__name__)

_REPO = Path(__file__).resolve().parents[3]


def default_tdmsci() -> Path:
    return _REPO.parent / "shared" / "data" / "tdmsci" / "train_1500_v2.conll"


def _label(start: int, end: int, sentence) -> str | None:
    from .termclassifier import NONE

    overlapping = [(s, e, t) for s, e, t in sentence.spans if start < e and s < end]
    for s, e, t in overlapping:
        if e == end:
            return t
    if overlapping or "Method" not in sentence.complete_types:
        return None  # TDMSci leaves many real terms unmarked: no negatives from it
    return NONE


def build_instances(sentences, nlp) -> tuple[list[list[str]], list[str], list[int]]:
    """Features, labels and sentence numbers of every usable candidate (and annotated span)."""
    from .components.terms import TERM_HEADS
    from .doctext import found
    from .names import singular
    from .termclassifier import span_features

    feats: list[list[str]] = []
    labels: list[str] = []
    owners: list[int] = []
    texts = [s.text for s in sentences]
    for number, (doc, sentence) in enumerate(zip(nlp.pipe(texts, batch_size=256), sentences)):
        words = [t.text for t in doc]
        seen: set[tuple[int, int]] = set()
        spans = [(doc[f.start : f.end], f.label) for f in found(doc, "terms")]
        spans += [(doc[f.start : f.end], "name") for f in found(doc, "candidates") if not f.label]
        for span, rule in spans:
            label = _label(span.start_char, span.end_char, sentence)
            if label is None or (span.start, span.end) in seen:
                continue
            seen.add((span.start, span.end))
            feats.append(span_features(words, span.start, span.end, rule=rule))
            labels.append(label)
            owners.append(number)
        for start, end, type_ in sentence.spans:
            span = doc.char_span(start, end, alignment_mode="expand")
            if span is None or (span.start, span.end) in seen:
                continue
            head = span[-1].text
            rule = TERM_HEADS.get(singular(head.lower()))
            feats.append(span_features(words, span.start, span.end, rule=rule.value if rule else "name"))
            labels.append(type_)
            owners.append(number)
            seen.add((span.start, span.end))
    return feats, labels, owners


_EXAMPLE_WEIGHT = 3


def _weighted(feats, labels, weight, indices):
    """Instances repeated by weight (the classifier's loss has no weights of its own)."""
    fs, ls = [], []
    for i in indices:
        for _ in range(weight[i]):
            fs.append(feats[i])
            ls.append(labels[i])
    return fs, ls


def _f1(model, feats, labels) -> dict[str, float]:
    from .termclassifier import NONE

    tp = fp = fn = 0
    for (pred, _), gold in zip(model.predict(feats), labels):
        if pred != NONE and pred == gold:
            tp += 1
        else:
            if pred != NONE:
                fp += 1
            if gold != NONE:
                fn += 1
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return {"p": round(p, 4), "r": round(r, 4), "f1": round(2 * p * r / (p + r) if p + r else 0.0, 4)}


def train(tdmsci: Path | None = None, out: Path | None = None, *, epochs: int = 40, seed: int = 0) -> dict:
    """Train, choose the threshold on held-out sentences, refit on everything, save."""
    from .pipeline import RULE_COMPONENTS_BEFORE, build_pipeline, trained_path
    from .termclassifier import TermClassifier
    from .training_data import read_conll, read_examples

    tdmsci = Path(tdmsci) if tdmsci else default_tdmsci()
    if not tdmsci.is_file():
        raise FileNotFoundError(f"TDMSci training file not found: {tdmsci} (pass --tdmsci PATH)")
    sentences = read_conll(tdmsci) + read_examples()
    nlp = build_pipeline(statistical=False)
    nlp.select_pipes(enable=list(RULE_COMPONENTS_BEFORE))
    feats, labels, owners = build_instances(sentences, nlp)
    log.info("%d sentences, %d instances: %s", len(sentences), len(labels), dict(Counter(labels)))

    # The hand-written sentences mark every type, TDMSci only three: they weigh more, and the
    # rejection threshold is chosen on held-out hand-written sentences alone.
    complete = {i for i, s in enumerate(sentences) if "Method" in s.complete_types}
    weight = [_EXAMPLE_WEIGHT if owners[i] in complete else 1 for i in range(len(labels))]
    held = [i for i, o in enumerate(owners) if o % 5 == 4]
    held_complete = [i for i in held if owners[i] in complete]
    kept = [i for i, o in enumerate(owners) if o % 5 != 4]
    model = TermClassifier()
    model.fit(*_weighted(feats, labels, weight, kept), epochs=epochs, seed=seed)
    best = (-1.0, 0.5)
    for threshold in (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95):
        model.threshold = threshold
        f = _f1(model, [feats[i] for i in held_complete], [labels[i] for i in held_complete])["f1"]
        if f >= best[0]:
            best = (f, threshold)
    model.threshold = best[1]
    held_scores = _f1(model, [feats[i] for i in held], [labels[i] for i in held])
    held_complete_scores = _f1(model, [feats[i] for i in held_complete], [labels[i] for i in held_complete])

    final = TermClassifier(threshold=best[1])
    final.fit(*_weighted(feats, labels, weight, range(len(labels))), epochs=epochs, seed=seed)
    final.meta = {
        "trained_on": [tdmsci.name, "resources/training/examples.txt"],
        "sentences": len(sentences),
        "instances": dict(sorted(Counter(labels).items())),
        "held_out_f1": held_scores,
        "held_out_f1_hand_written": held_complete_scores,
        "epochs": epochs,
        "seed": seed,
    }
    out = Path(out) if out else trained_path()
    final.save(out)
    log.info("held-out P/R/F1 %s at threshold %.2f; saved to %s", held_scores, best[1], out)
    return final.meta | {"threshold": best[1], "path": str(out)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scholarkg.extract.train", description=__doc__.splitlines()[0])
    parser.add_argument("--tdmsci", type=Path, help="TDMSci train_1500_v2.conll (default: ../shared/data/tdmsci/)")
    parser.add_argument("--out", type=Path, help="output folder (default: the package's trained/term_classifier)")
    parser.add_argument("--epochs", type=int, default=40)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        meta = train(args.tdmsci, args.out, epochs=args.epochs)
    except FileNotFoundError as exc:
        log.error("%s", exc)
        return 2
    sys.stdout.write(f"trained term classifier: held-out {meta['held_out_f1']} threshold {meta['threshold']}\n")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
