"""The correction actions: each takes the working state and one correction and returns
(state, message), or raises :class:`Stale` when the correction matches nothing."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from decimal import Decimal

from ..graph.iri import normalise_key
from ..model import Entity, EntityType, Field, Mention, Result, Role
from .corrections import Action, Correction
from .state import PARTS, Item, State, entity_key, find_value, locate

__all__ = ["ACTIONS", "Stale", "APPLIED", "UNCHANGED", "STALE"]

APPLIED, UNCHANGED, STALE = "applied", "unchanged", "stale"
_PART_TYPE = {"model": EntityType.MODEL, "benchmark": EntityType.BENCHMARK, "metric": EntityType.METRIC}


class Stale(Exception):
    """The correction matches nothing (the message says what is missing)."""


def _one(state: State, name: str, what: str = "entity") -> str:
    keys = state.find(name)
    if not keys:
        raise Stale(f"no {what} named {name!r}")
    if len(keys) > 1:
        labels = ", ".join(repr(state.entities[k].label) for k in keys)
        raise Stale(f"{name!r} names {len(keys)} entities ({labels}); use a label")
    return keys[0]


def _papers(state: State, names: Iterable[str]) -> list[int]:
    found: list[int] = []
    for name in names:
        hits = state.papers(name)
        if not hits:
            raise Stale(f"no paper {name!r}")
        found += [h for h in hits if h not in found]
    return found


def _merge(state: State, c: Correction):
    target = _one(state, c.into)
    if not state.find(c.entity):
        raise Stale(f"no entity named {c.entity!r}")
    source = _one(state, c.entity)
    if source == target:
        return UNCHANGED, f"{c.entity!r} and {c.into!r} are already one entity"
    moved, _added = state.merge(source, target, c.id)
    return APPLIED, f"{moved} mention(s) and result part(s) moved"


def _split(state: State, c: Correction):
    papers = _papers(state, c.papers)
    existing = state.find(c.new)
    if not state.find(c.entity):
        if existing and state.mentions_of(existing[0], papers):
            return UNCHANGED, f"{c.new!r} is already its own entity in those papers"
        raise Stale(f"no entity named {c.entity!r}")
    source = _one(state, c.entity)
    if existing and _one(state, c.new) != source:
        target = _one(state, c.new)
    else:
        target = entity_key(c.new)
        if target == source:
            raise Stale(f"{c.new!r} is the label of {c.entity!r}; give the new entity another name")
        if existing:  # an alias of the entity being split: the name leaves it
            entity = state.entities[source]
            state.put(replace(entity, aliases=tuple(a for a in entity.aliases if entity_key(a) != target)))
        if target not in state.entities:
            state.put(Entity(target, c.type or state.entities[source].type, c.new))
    items = [item for _i, item in state.mentions_of(source, papers)]
    items += [r for i in papers for r in state.results[i] if source in r.keys.values()]
    if not items:
        raise Stale(f"{c.entity!r} is not named in the papers listed")
    for item in items:
        for part, key in item.keys.items():
            if key == source:
                item.keys[part] = target
        item.curations.append(c.id)
    state.touch(target, c.id)
    return APPLIED, f"{len(items)} mention(s) and result(s) moved to {c.new!r}"


def _relabel(state: State, key: str, label: str, cid: str) -> str:
    """Make ``label`` the canonical label of entity ``key`` (the old label becomes an alias);
    the entity's key, and so its IRI, follows its canonical name. Returns the new key."""
    entity = state.entities[key]
    new_key = entity_key(label)
    if new_key != key:
        if new_key in state.entities:
            state.merge(key, new_key, cid)
        else:
            state.entities.pop(key)
            state.put(replace(entity, key=new_key))
            state.rekey(key, new_key)
    current = state.entities[new_key]
    aliases = tuple(a for a in current.aliases if normalise_key(a) != normalise_key(label))
    state.put(replace(current, label=label, aliases=aliases))
    state.add_aliases(new_key, [entity.label])
    state.touch(new_key, cid)
    return new_key


def _rename(state: State, c: Correction):
    if not state.find(c.entity):
        if state.find(c.label):
            return UNCHANGED, f"the entity is already called {c.label!r}"
        raise Stale(f"no entity named {c.entity!r}")
    key = _one(state, c.entity)
    old = state.entities[key].label
    if old == c.label:
        return UNCHANGED, f"already labelled {c.label!r}"
    _relabel(state, key, c.label, c.id)
    return APPLIED, f"labelled {c.label!r} (was {old!r})"


def _alias(state: State, c: Correction):
    key = _one(state, c.entity)
    others = [k for k in state.find(c.alias) if k != key]
    if entity_key(c.alias) in {entity_key(n) for n in (state.entities[key].label, *state.entities[key].aliases)} and not others:
        return UNCHANGED, f"{c.alias!r} is already a name of it"
    for other in others:
        state.merge(other, key, c.id)
    state.add_aliases(key, [c.alias])
    state.touch(key, c.id)
    merged = f"; merged {len(others)} entity(ies) called so" if others else ""
    return APPLIED, f"alias added{merged}"


def _retype(state: State, c: Correction):
    key = _one(state, c.entity)
    entity = state.entities[key]
    if entity.type is c.type:
        return UNCHANGED, f"already a {c.type.value}"
    state.put(replace(entity, type=c.type))
    state.touch(key, c.id)
    return APPLIED, f"now a {c.type.value} (was {entity.type.value})"


def _drop(state: State, c: Correction):
    key = _one(state, c.entity)
    if c.papers:
        papers = _papers(state, c.papers)
        removed = state.remove(key, papers)
        if not removed:
            raise Stale(f"{c.entity!r} is not named in the papers listed")
        return APPLIED, f"{removed} mention(s) and result part(s) removed"
    removed = state.remove(key)
    return APPLIED, f"entity and its {removed} mention(s) and result part(s) removed"


def _add(state: State, c: Correction):
    papers = _papers(state, [c.paper])
    notes = []
    if state.find(c.entity):
        key = _one(state, c.entity)
    else:
        keys = sorted({k for a in c.aliases for k in state.find(a)})
        if len(keys) > 1:
            labels = ", ".join(repr(state.entities[k].label) for k in keys)
            raise Stale(f"the aliases of {c.entity!r} name {len(keys)} entities ({labels})")
        key = keys[0] if keys else None
        if key is None and entity_key(c.entity) in state.entities:
            key = entity_key(c.entity)  # a linker entity whose names differ from its key
        elif key is not None:  # known only by an alias: the correction's name becomes its label
            notes.append(f"labelled {c.entity!r} (was {state.entities[key].label!r})")
            key = _relabel(state, key, c.entity, c.id)
    if key is not None:
        entity = state.entities[key]
        if entity.type is not c.type:
            state.put(replace(entity, type=c.type))
            state.touch(key, c.id)
            notes.append(f"now a {c.type.value} (was {entity.type.value})")
        if state.add_aliases(key, c.aliases):
            state.touch(key, c.id)
    else:
        key = entity_key(c.entity)
        state.put(Entity(key, c.type, c.entity, tuple(a for a in c.aliases if normalise_key(a) != normalise_key(c.entity))))
        state.touch(key, c.id)
    role = c.role or Role.MENTIONS
    entity = state.entities[key]
    added = changed = 0
    for i in papers:
        found = state.mentions_of(key, [i])
        for _i, item in found:
            if item.value.role is not role:
                item.value = replace(item.value, role=role)
                item.curations.append(c.id)
                changed += 1
        if found:
            continue
        record = state.records[i]
        where = locate(record, [entity.label, c.entity, *entity.aliases, *c.aliases])
        if where is None:
            state.unanchored.append((i, key, role, c.id))
        else:
            fld, start, end, text = where
            mention = Mention(text, entity.label, entity.type, start, end, fld, role, 1.0)
            state.mentions[i].append(Item(mention, {"entity": key}, [c.id], generated=True))
        added += 1
    if not added and not changed and not notes:
        return UNCHANGED, "already extracted with this role and type"
    done = [f"linked to {added} paper(s)"] if added else []
    done += [f"role set on {changed} mention(s)"] if changed else []
    return APPLIED, "; ".join(done + notes)


def _part_key(state: State, part: str, name: str, cid: str) -> str:
    keys = state.find(name)
    if keys:
        return _one(state, name)
    key = entity_key(name)
    if key not in state.entities:
        state.put(Entity(key, _PART_TYPE[part], name))
        state.touch(key, cid)
    return key


def _matches(state: State, item: Item, match: dict[str, str]) -> bool:
    result: Result = item.value
    for name, wanted in match.items():
        if name in PARTS:
            if item.keys.get(name) is None or item.keys[name] not in state.find(wanted):
                return False
        elif name == "value" and Decimal(str(result.value)) != Decimal(wanted):
            return False
        elif name == "unit" and normalise_key(result.unit or "") != normalise_key(wanted):
            return False
    return True


def _result(state: State, c: Correction):
    papers = _papers(state, [c.paper])
    if c.match:
        hits = [(i, item) for i in papers for item in state.results[i] if _matches(state, item, c.match)]
        shown = ", ".join(f"{k}={v}" for k, v in c.match.items())
        if not hits:
            raise Stale(f"no result of the paper matches {shown}")
        if len(hits) > 1:
            raise Stale(f"{len(hits)} results of the paper match {shown}; match on more fields")
        i, item = hits[0]
        if c.drop:
            state.results[i].remove(item)
            return APPLIED, "result removed"
        before = (item.value, dict(item.keys))
        _set(state, item, c)
        if (item.value, item.keys) == before:
            return UNCHANGED, "the result already has these values"
        item.curations.append(c.id)
        return APPLIED, "result fixed"
    keys = {p: _part_key(state, p, c.set[p], c.id) if p in c.set else None for p in PARTS}
    value = Decimal(c.set["value"])
    for i in papers:
        for item in state.results[i]:
            if Decimal(str(item.value.value)) == value and item.keys == keys:
                return UNCHANGED, "the result is already extracted"
    i = papers[0]
    where = find_value(state.records[i], c.set["value"])
    if where is not None:
        fld, start, end, sentence = where
        evidence = c.evidence or sentence
    else:
        fld, start, end = Field.ABSTRACT, 0, 0
        evidence = c.evidence or f"stated in the curation file ({c.id})"
    result = Result(
        value, evidence, c.set.get("model"), c.set.get("benchmark"), c.set.get("metric"), c.set.get("unit"),
        fld, start, end, 1.0,
    )
    state.results[i].append(Item(result, keys, [c.id], generated=True))
    return APPLIED, "result added"


def _set(state: State, item: Item, c: Correction) -> None:
    changes = {}
    if "value" in c.set:
        changes["value"] = Decimal(c.set["value"])
    if "unit" in c.set:
        changes["unit"] = c.set["unit"]
    for part in PARTS:
        if part in c.set:
            item.keys[part] = _part_key(state, part, c.set[part], c.id)
    if changes:
        item.value = replace(item.value, **changes)


ACTIONS = {
    Action.MERGE: _merge,
    Action.SPLIT: _split,
    Action.RENAME: _rename,
    Action.ALIAS: _alias,
    Action.RETYPE: _retype,
    Action.DROP: _drop,
    Action.ADD: _add,
    Action.RESULT: _result,
}
