"""The trained term classifier as a pipeline component.

Re-types or drops the phrases found under ``"terms"`` (see :mod:`scholarkg.extract.doctext`);
optionally types coined names (``"classified"``); the probabilities go to
``doc.user_data["scholarkg.term_confidence"]``. Without trained weights (a fresh checkout before
``python -m scholarkg.extract.train``) it changes nothing.
"""

from __future__ import annotations

import logging
from pathlib import Path

from spacy.language import Language
from spacy.tokens import Doc

from ..doctext import Found, found, info, set_found
from ..context_types import PROCESS_HEADS
from ..termclassifier import NONE, TermClassifier, span_features

__all__ = ["TermClassifierComponent", "default_path"]

log = logging.getLogger(__name__)


def default_path() -> Path:
    return Path(__file__).resolve().parents[1] / "trained" / "term_classifier"


class TermClassifierComponent:
    def __init__(self, path: str = "", retype_above: float = 0.9):
        self.retype_above = retype_above
        self.type_names = False
        folder = Path(path) if path else default_path()
        self.model: TermClassifier | None = None
        if (folder / "meta.json").is_file():
            self.model = TermClassifier.load(folder)
        else:
            log.warning("no trained term classifier at %s; run `python -m scholarkg.extract.train`", folder)

    def __call__(self, doc: Doc) -> Doc:
        return next(iter(self.pipe([doc])))

    def _jobs(self, doc: Doc):
        known = {(g.start, g.end) for g in found(doc, "gazetteer")}
        jobs: list[tuple[str, Found]] = [("terms", s) for s in found(doc, "terms") if (s.start, s.end) not in known]
        if self.type_names:
            jobs += [("names", s) for s in found(doc, "candidates") if not s.label]
        view = info(doc)
        feats = []
        for kind, span in jobs:
            s0, s1 = view.sent_bounds(span.start)
            feats.append(span_features(view.words, span.start, span.end, in_title=view.idx[span.start] < view.title_end,
                                       rule=span.label if kind == "terms" else "name", lo=s0, hi=s1))
        return jobs, feats

    def pipe(self, docs, batch_size: int = 64):
        """Score the candidates of a whole batch of texts at once (one matrix sum)."""
        from spacy.util import minibatch

        for batch in minibatch(docs, size=batch_size):
            if self.model is None:
                yield from batch
                continue
            work = [self._jobs(doc) for doc in batch]
            kept = [{(g.start, g.end) for g in found(doc, "gazetteer")} for doc in batch]
            flat = [f for _, feats in work for f in feats]
            predictions = iter(self.model.predict(flat))
            for doc, (jobs, _), known in zip(batch, work, kept):
                # terms that are gazetteer names pass unchanged: the gazetteer decides them
                terms = [(t.start, t.end, t.label, 0.5) for t in found(doc, "terms") if (t.start, t.end) in known]
                named = []
                for kind, span in jobs:
                    label, prob = next(predictions)
                    if label == NONE:
                        continue
                    if kind == "terms" and (prob < self.retype_above
                                            or info(doc).lower[span.end - 1] not in PROCESS_HEADS):
                        # the head noun's type stands unless the head names a process that may be
                        # a task or a method ("learning", "inference") and the classifier is sure
                        label, prob = span.label, max(prob, 0.5)
                    (terms if kind == "terms" else named).append((span.start, span.end, label, prob))
                set_found(doc, "terms", [Found(s, e, lab) for s, e, lab, _ in terms])
                set_found(doc, "classified", [Found(s, e, lab) for s, e, lab, _ in named])
                doc.user_data["scholarkg.term_confidence"] = {
                    (s, e): round(0.4 + 0.4 * p, 3) for s, e, _, p in terms + named
                }
                yield doc


@Language.factory("scholarkg_term_classifier", default_config={"path": "", "retype_above": 0.9})
def make_term_classifier(nlp: Language, name: str, path: str, retype_above: float) -> TermClassifierComponent:
    return TermClassifierComponent(path, retype_above)
