"""Corrections: what a curation file holds, checked and typed.

A curation file is TOML: an array of ``[[correction]]`` tables, applied in file order on
every build, after extraction. Entities are named by their label or any alias (case- and
width-insensitive); papers by arXiv id or by title (compared ignoring case, spaces and
punctuation), never by IRI, so corrections outlive extractor changes.

>>> c = Correction.from_table({"action": "alias", "entity": "GRPO", "alias": "Group Relative Policy Optimization"})
>>> c.action.value, c.id
('alias', 'c9f6dfe8d17')
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from enum import Enum
from typing import Any

from ..model import EntityType, Role

__all__ = ["Action", "Correction", "CorrectionError", "RESULT_FIELDS", "title_key"]


class Action(str, Enum):
    MERGE = "merge"  # entity + into: one entity, the other's names become aliases
    SPLIT = "split"  # entity + new + papers: the entity in those papers becomes a new one
    RENAME = "rename"  # entity + label: new canonical label, the old one kept as an alias
    ALIAS = "alias"  # entity + alias: another name (an entity named so is merged in)
    RETYPE = "retype"  # entity + type
    DROP = "drop"  # entity [+ papers]: a false entity, everywhere or in some papers
    ADD = "add"  # paper + entity + type [+ role, aliases]: a missing entity (name, type and role all hold)
    RESULT = "result"  # paper [+ match] + set | drop: fix, remove or add a reported score
    PAPER = "paper"  # paper + arxiv_id / year / doi: facts enrichment must not change


RESULT_FIELDS = ("model", "benchmark", "metric", "value", "unit")
_COMMON = {"action", "id", "note"}
_SCHEMA: dict[Action, tuple[set[str], set[str]]] = {
    Action.MERGE: ({"entity", "into"}, set()),
    Action.SPLIT: ({"entity", "new", "papers"}, {"type"}),
    Action.RENAME: ({"entity", "label"}, set()),
    Action.ALIAS: ({"entity", "alias"}, set()),
    Action.RETYPE: ({"entity", "type"}, set()),
    Action.DROP: ({"entity"}, {"papers"}),
    Action.ADD: ({"paper", "entity", "type"}, {"role", "aliases"}),
    Action.RESULT: ({"paper"}, {"match", "set", "drop", "evidence"}),
    Action.PAPER: ({"paper"}, {"arxiv_id", "year", "doi"}),
}
_ARXIV_ID = re.compile(r"(?:arXiv:)?(\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?", re.IGNORECASE)


class CorrectionError(ValueError):
    """A correction table is malformed; ``field`` names the offending key."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


def title_key(title: str) -> str:
    """Titles compared ignoring case, width, spaces and punctuation (``P$^2$-MOPD`` = ``P^2 MOPD``)."""
    text = unicodedata.normalize("NFKC", title).casefold()
    return re.sub(r"[\W_]+", "", text)


def arxiv_id_of(text: str) -> str | None:
    """The arXiv id ``text`` names (version dropped), or None when it is not an arXiv id."""
    m = _ARXIV_ID.fullmatch(text.strip())
    return m.group(1) if m else None


@dataclass(frozen=True)
class Correction:
    """One correction; only the fields its action uses are set."""

    action: Action
    id: str
    note: str = ""
    entity: str | None = None
    into: str | None = None
    new: str | None = None
    label: str | None = None
    alias: str | None = None
    type: EntityType | None = None
    role: Role | None = None
    paper: str | None = None
    papers: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    match: dict[str, str] = field(default_factory=dict)
    set: dict[str, str] = field(default_factory=dict)
    drop: bool = False
    evidence: str | None = None
    arxiv_id: str | None = None  # "" pins "not on arXiv"
    year: int | None = None
    doi: str | None = None

    @property
    def describe(self) -> str:
        """A short human description (used as the curation's rdfs:label)."""
        a = self.action
        if a is Action.MERGE:
            return f"merge {self.entity!r} into {self.into!r}"
        if a is Action.SPLIT:
            return f"split {self.new!r} off {self.entity!r} in {len(self.papers)} paper(s)"
        if a is Action.RENAME:
            return f"rename {self.entity!r} to {self.label!r}"
        if a is Action.ALIAS:
            return f"alias {self.alias!r} for {self.entity!r}"
        if a is Action.RETYPE:
            return f"retype {self.entity!r} as {self.type.value}"
        if a is Action.DROP:
            where = f" in {len(self.papers)} paper(s)" if self.papers else ""
            return f"drop {self.entity!r}{where}"
        if a is Action.ADD:
            return f"add {self.entity!r} ({self.type.value}, {(self.role or Role.MENTIONS).value}) to {self.paper!r}"
        if a is Action.RESULT:
            verb = "remove" if self.drop else "fix" if self.match else "add"
            return f"{verb} a result of {self.paper!r}"
        return f"pin facts of {self.paper!r}"

    def to_table(self) -> dict[str, Any]:
        """The TOML table of this correction (keys in a fixed order)."""
        out: dict[str, Any] = {"action": self.action.value, "id": self.id}
        required, optional = _SCHEMA[self.action]
        for key in ("paper", "entity", "into", "new", "label", "alias", "type", "role", "papers", "aliases",
                    "match", "set", "drop", "evidence", "arxiv_id", "year", "doi"):
            if key not in required | optional:
                continue
            value = getattr(self, key)
            if isinstance(value, Enum):
                value = value.value
            if value in (None, (), {}, False) and key not in required:
                continue
            out[key] = list(value) if isinstance(value, tuple) else value
        if self.note:
            out["note"] = self.note
        return out

    @classmethod
    def from_table(cls, table: Any) -> Correction:
        """Check one ``[[correction]]`` table; raise :class:`CorrectionError` naming the field."""
        if not isinstance(table, dict):
            raise CorrectionError("", "each correction must be a table")
        raw = table.get("action")
        try:
            action = Action(raw)
        except ValueError:
            known = ", ".join(a.value for a in Action)
            raise CorrectionError("action", f"unknown action {raw!r} (known: {known})") from None
        required, optional = _SCHEMA[action]
        for key in sorted(required):
            if key not in table:
                raise CorrectionError(key, f"missing (a {action.value} correction needs {', '.join(sorted(required))})")
        for key in sorted(table):
            if key not in required | optional | _COMMON:
                allowed = ", ".join(sorted(required | optional | _COMMON))
                raise CorrectionError(key, f"not a field of a {action.value} correction (fields: {allowed})")
        values: dict[str, Any] = {"action": action}
        for key, value in table.items():
            if key in ("action", "id"):
                continue
            values[key] = _check(key, value)
        if action is Action.RESULT:
            _check_result(values)
        if action is Action.PAPER and not ({"arxiv_id", "year", "doi"} & set(values)):
            raise CorrectionError("paper", "a paper correction pins at least one of arxiv_id, year, doi")
        content = cls(id="", **values)
        given = table.get("id")
        if given is not None and (not isinstance(given, str) or not _text_ok(given)):
            raise CorrectionError("id", "must be a non-empty one-line string")
        return cls(id=given or content.fingerprint(), **values)

    def fingerprint(self) -> str:
        """A stable id from the correction's content (its note and id left out)."""
        table = self.to_table()
        table.pop("id", None)
        table.pop("note", None)
        text = json.dumps(table, sort_keys=True, ensure_ascii=False)
        return "c" + hashlib.blake2b(text.encode("utf-8"), digest_size=5).hexdigest()[:10]


def _text_ok(value: str) -> bool:
    return bool(value.strip()) and "\n" not in value and "\r" not in value


def _string(key: str, value: Any) -> str:
    if not isinstance(value, str) or not _text_ok(value):
        raise CorrectionError(key, "must be a non-empty one-line string")
    return value.strip()


def _check(key: str, value: Any) -> Any:
    if key in ("entity", "into", "new", "label", "alias", "paper", "evidence", "doi"):
        return _string(key, value)
    if key == "note":
        if not isinstance(value, str):
            raise CorrectionError(key, "must be a string")
        return " ".join(value.split())
    if key in ("papers", "aliases"):
        if not isinstance(value, list) or not value:
            raise CorrectionError(key, "must be a non-empty list of strings")
        return tuple(_string(key, v) for v in value)
    if key == "type":
        try:
            return EntityType(value)
        except ValueError:
            known = ", ".join(t.value for t in EntityType)
            raise CorrectionError(key, f"unknown entity type {value!r} (known: {known})") from None
    if key == "role":
        try:
            return Role(value)
        except ValueError:
            known = ", ".join(r.value for r in Role)
            raise CorrectionError(key, f"unknown role {value!r} (known: {known})") from None
    if key in ("match", "set"):
        if not isinstance(value, dict) or not value:
            raise CorrectionError(key, f"must be a table with some of: {', '.join(RESULT_FIELDS)}")
        out = {}
        for name, v in value.items():
            if name not in RESULT_FIELDS:
                raise CorrectionError(f"{key}.{name}", f"not a result field (fields: {', '.join(RESULT_FIELDS)})")
            text = str(v) if isinstance(v, int | float) and not isinstance(v, bool) else v
            text = _string(f"{key}.{name}", text)
            if name == "value":
                text = str(_decimal(f"{key}.value", text))
            out[name] = text
        return out
    if key == "drop":
        if not isinstance(value, bool):
            raise CorrectionError(key, "must be true or false")
        return value
    if key == "arxiv_id":
        if not isinstance(value, str):
            raise CorrectionError(key, 'must be a string (an arXiv id, or "" for a paper not on arXiv)')
        if value.strip() == "":
            return ""
        found = arxiv_id_of(value)
        if found is None:
            raise CorrectionError(key, f"not an arXiv id: {value[:40]!r}")
        return found
    if key == "year":
        if isinstance(value, bool) or not isinstance(value, int) or not 1800 <= value <= 2100:
            raise CorrectionError(key, "must be a year between 1800 and 2100")
        return value
    raise CorrectionError(key, "unexpected field")  # pragma: no cover - schema and checks agree


def _decimal(key: str, text: str) -> Decimal:
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise CorrectionError(key, f"not a number: {text[:40]!r}") from None
    if not value.is_finite():
        raise CorrectionError(key, f"not a finite number: {text[:40]!r}")
    return value


def _check_result(values: dict[str, Any]) -> None:
    has_match, has_set, drop = "match" in values, "set" in values, values.get("drop", False)
    if drop and (has_set or not has_match):
        raise CorrectionError("drop", "removing a result needs match and no set")
    if not drop and not has_set:
        raise CorrectionError("set", "a result correction needs set (or drop = true with match)")
    if not has_match and "value" not in values.get("set", {}):
        raise CorrectionError("set.value", "a new result needs a value")
