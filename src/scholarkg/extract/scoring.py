"""Document-level scoring of extraction JSON lines against gold files (``*.gold.jsonl``).

The matching rules are those documented for the project's gold format:

- papers are paired by title; names are compared after lower-casing and dropping every
  character that is not a letter or digit (:func:`norm`);
- a predicted entity has the names of its ``text``, ``label``/``canonical``/``name`` and
  ``aliases``; its type is coarsened (Benchmark and Dataset are ``DATA``);
- **typed**: a gold entity (a set of accepted aliases and allowed types) is found when some
  predicted entity shares a name with it and has an allowed type; a predicted entity that
  finds nothing is a false positive unless one of its names is ``optional``; false positives
  are counted once per paper, type and name; a gold entity counts under its first allowed
  type (alphabetically);
- **untyped**: the same without types;
- **types**: a gold paper may list the coarse types its annotators marked (``"types": ["TASK",
  "DATA", "METRIC"]``, as for TDMSci's sentences); a prediction of another type that finds no
  gold entity is then neither right nor wrong (a method, where methods were not marked);
- **introduces**: gold entities named in ``introduces`` against predicted entities whose
  role starts with "introduc" (each such prediction that matches none is a false positive);
- **by kind**: predicted entities of each kind (``name``, ``concept``) that find a gold entity
  with an allowed type, and those that find none (the gold files mark no kinds, so this is a
  precision per kind and the share of gold entities each kind finds);
- **roles**: how many predicted mentions have each role;
- **results**: a predicted result is right when its model and benchmark share a name with
  the gold result's model and benchmark (through the gold entity that holds that name) and
  its value is within 0.05; each gold result is used once.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["norm", "coarse_type", "Counts", "score_documents", "score_files"]

_COARSE = {"benchmark": "DATA", "dataset": "DATA", "model": "MODEL", "method": "METHOD", "task": "TASK",
           "metric": "METRIC"}
_NON_ALNUM = re.compile(r"[^0-9a-z]+")


def norm(text: Any) -> str:
    """``"Pass@1"`` -> ``"pass1"``; anything not a string -> ``""``."""
    return _NON_ALNUM.sub("", text.lower()) if isinstance(text, str) else ""


def coarse_type(value: Any) -> str:
    """``"Benchmark"``, ``".../Dataset"`` -> ``"DATA"``; ``"Method"`` -> ``"METHOD"``."""
    last = str(value or "").split("#")[-1].split("/")[-1].lower()
    return _COARSE.get(last, last.upper())


@dataclass
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def add(self, other: "Counts") -> None:
        self.tp += other.tp
        self.fp += other.fp
        self.fn += other.fn

    def prf(self) -> dict[str, float | int]:
        p = self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0
        r = self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0
        f = 2 * p * r / (p + r) if p + r else 0.0
        return {"p": p, "r": r, "f1": f, "tp": self.tp, "fp": self.fp, "fn": self.fn}


def _names(entity: dict) -> set[str]:
    out = {norm(entity.get(k)) for k in ("text", "label", "canonical", "name")}
    out.update(norm(a) for a in entity.get("aliases") or ())
    out.discard("")
    return out


def _gold_entities(gold: dict) -> list[tuple[set[str], set[str]]]:
    out = []
    for types, groups in gold.get("gold", {}).items():
        allowed = set(types.split("|"))
        for aliases in groups:
            out.append((allowed, {norm(a) for a in aliases}))
    return out


def _score_one(gold: dict, pred: dict, typed: dict[str, Counts], untyped: Counts, intro: Counts, res: Counts,
               kinds: dict[str, Counts] | None = None, roles: dict[str, int] | None = None) -> None:
    golds = _gold_entities(gold)
    optional = {norm(o) for o in gold.get("optional", [])}
    marked = set(gold.get("types") or ())
    preds = [(coarse_type(e.get("type")), _names(e), e) for e in pred.get("entities", [])]

    def wrong(ptype: str, names: set[str]) -> bool:  # a prediction that finds nothing: a false positive?
        return not names & optional and (not marked or ptype in marked)

    found: set[int] = set()
    false_pos: set[tuple[str, str]] = set()
    for ptype, names, _ in preds:
        hits = [i for i, (allowed, aliases) in enumerate(golds) if names & aliases and ptype in allowed]
        if hits:
            found.update(hits)
        elif wrong(ptype, names):
            false_pos.add((ptype, min(names) if names else ""))
    for i, (allowed, _) in enumerate(golds):
        bucket = typed[sorted(allowed)[0]]
        if i in found:
            bucket.tp += 1
        else:
            bucket.fn += 1
    for ptype, _ in false_pos:
        typed[ptype].fp += 1
    if kinds is not None:
        seen: dict[tuple[str, str], bool] = {}
        found_by: dict[str, set[int]] = defaultdict(set)
        for ptype, names, e in preds:
            kind = str(e.get("kind") or "name")
            hits = [i for i, (allowed, aliases) in enumerate(golds) if names & aliases and ptype in allowed]
            found_by[kind].update(hits)
            key = (kind, min(names) if names else "")
            if hits:
                seen[key] = True
            elif wrong(ptype, names):
                seen.setdefault(key, False)
        for (kind, _), hit in seen.items():
            if hit:
                kinds[kind].tp += 1
            else:
                kinds[kind].fp += 1
        for kind in ("name", "concept"):
            kinds[kind].fn += len(golds) - len(found_by[kind])
    if roles is not None:
        for e in pred.get("entities", []):
            roles[str(e.get("role") or "mentions")] = roles.get(str(e.get("role") or "mentions"), 0) + 1

    found_u: set[int] = set()
    false_u: set[str] = set()
    for ptype, names, _ in preds:
        hits = [i for i, (_, aliases) in enumerate(golds) if names & aliases]
        if hits:
            found_u.update(hits)
        elif wrong(ptype, names):
            false_u.add(min(names) if names else "")
    untyped.tp += len(found_u)
    untyped.fp += len(false_u)
    untyped.fn += len(golds) - len(found_u)

    introduced = {norm(x) for x in gold.get("introduces", [])}
    gold_intro = [aliases for _, aliases in golds if aliases & introduced]
    pred_intro = [names for _, names, e in preds if str(e.get("role", "")).lower().startswith("introduc")]
    hit = {i for i, aliases in enumerate(gold_intro) if any(n & aliases for n in pred_intro)}
    intro.tp += len(hit)
    intro.fn += len(gold_intro) - len(hit)
    intro.fp += sum(1 for n in pred_intro if not any(n & a for a in gold_intro) and not n & optional)

    gold_results = gold.get("results", [])

    def group_of(name: str) -> set[str]:
        key = norm(name)
        return next((aliases for _, aliases in golds if key in aliases), {key})

    used: set[int] = set()
    for r in pred.get("results", []) or []:
        try:
            value = float(r.get("value"))
        except (TypeError, ValueError):
            res.fp += 1
            continue
        model, bench = norm(r.get("model")), norm(r.get("benchmark"))
        ok = False
        for j, g in enumerate(gold_results):
            if j in used:
                continue
            if (model and model in group_of(g["model"]) and bench and bench in group_of(g["benchmark"])
                    and abs(value - g["value"]) < 0.051):
                used.add(j)
                ok = True
                break
        if ok:
            res.tp += 1
        else:
            res.fp += 1
    res.fn += len(gold_results) - len(used)


def score_documents(golds: Iterable[dict], preds: Iterable[dict]) -> dict[str, Any]:
    """Scores of predicted papers against gold papers (both as parsed JSON objects)."""
    gold_by_title = {norm(g["title"]): g for g in golds}
    pred_by_title = {norm(p.get("title", "")): p for p in preds}
    typed: dict[str, Counts] = defaultdict(Counts)
    kinds: dict[str, Counts] = defaultdict(Counts)
    roles: dict[str, int] = {}
    improvements = 0
    untyped, intro, res = Counts(), Counts(), Counts()
    missing = 0
    for key, gold in gold_by_title.items():
        pred = pred_by_title.get(key)
        if pred is None:
            missing += 1
            pred = {"entities": [], "results": []}
        _score_one(gold, pred, typed, untyped, intro, res, kinds, roles)
        improvements += len(pred.get("improvements") or ())
    total = Counts()
    for c in typed.values():
        total.add(c)
    return {
        "typed": total.prf(),
        "by_type": {t: typed[t].prf() for t in sorted(typed)},
        "untyped": untyped.prf(),
        "introduces": intro.prf(),
        "results": res.prf(),
        "by_kind": {k: kinds[k].prf() for k in ("name", "concept")},
        "roles": dict(sorted(roles.items())),
        "improvements": improvements,
        "documents": len(gold_by_title),
        "missing_documents": missing,
    }


def _read(path: str | Path) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def score_files(gold_path: str | Path, pred_path: str | Path) -> dict[str, Any]:
    """:func:`score_documents` on two JSON-lines files."""
    return score_documents(_read(gold_path), _read(pred_path))
