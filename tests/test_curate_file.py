"""The curation file: reading and checking every action, error messages, safe appends, discovery."""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scholarkg.curate import Action, Correction, append_correction, find_curation, load_curation
from scholarkg.errors import InputError, UsageError
from scholarkg.model import EntityType, Role

EVERY_ACTION = """
[[correction]]
action = "merge"
entity = "BrowseComp ZH"
into = "BrowseComp-ZH"

[[correction]]
action = "split"
entity = "DPO"
new = "Direct Preference Optimisation"
papers = ["2509.13310", "Some Title"]
type = "Method"

[[correction]]
action = "rename"
entity = "GRPO"
label = "Group Relative Policy Optimisation"

[[correction]]
action = "alias"
entity = "Agents' Last Exam"
alias = "ALE"

[[correction]]
action = "retype"
entity = "KAIROS"
type = "Benchmark"

[[correction]]
action = "drop"
entity = "Results"
papers = ["Some Title"]

[[correction]]
action = "add"
paper = "HarnessDev: Can LLMs Create and Evolve Their Own Agent Harness?"
entity = "HarnessDev"
type = "Benchmark"
role = "introduces"
aliases = ["Harness Dev"]
note = "the paper's own benchmark"

[[correction]]
action = "result"
paper = "Tongyi DeepResearch Technical Report"
match = { benchmark = "BrowseComp", value = 43.4 }
set = { value = "43.40", unit = "%" }

[[correction]]
action = "paper"
paper = "Agents' Last Exam"
arxiv_id = ""
year = 2026
"""


def test_every_action_is_read_with_typed_fields(tmp_path):
    path = tmp_path / "x.curation.toml"
    path.write_text(EVERY_ACTION, encoding="utf-8")
    cs = load_curation(path).corrections
    assert [c.action for c in cs] == list(Action)
    assert cs[1].papers == ("2509.13310", "Some Title") and cs[1].type is EntityType.METHOD
    assert cs[6].role is Role.INTRODUCES and cs[6].aliases == ("Harness Dev",) and cs[6].note == "the paper's own benchmark"
    assert cs[7].match == {"benchmark": "BrowseComp", "value": "43.4"} and cs[7].set == {"value": "43.40", "unit": "%"}
    assert cs[8].arxiv_id == "" and cs[8].year == 2026
    assert len({c.id for c in cs}) == len(cs)


@pytest.mark.parametrize(
    ("table", "field", "words"),
    [
        ('action = "melt"\nentity = "x"', "[action]", "unknown action 'melt'"),
        ('action = "merge"\nentity = "x"', "[into]", "missing"),
        ('action = "merge"\nentity = "x"\ninto = "y"\ncolour = "red"', "[colour]", "not a field of a merge correction"),
        ('action = "retype"\nentity = "x"\ntype = "Gadget"', "[type]", "unknown entity type 'Gadget'"),
        ('action = "add"\npaper = "p"\nentity = "x"\ntype = "Model"\nrole = "likes"', "[role]", "unknown role"),
        ('action = "alias"\nentity = ""\nalias = "y"', "[entity]", "non-empty one-line string"),
        ('action = "result"\npaper = "p"\nset = { value = "lots" }', "[set.value]", "not a number"),
        ('action = "result"\npaper = "p"\nset = { score = "1" }', "[set.score]", "not a result field"),
        ('action = "result"\npaper = "p"\ndrop = true', "[drop]", "needs match"),
        ('action = "paper"\npaper = "p"\narxiv_id = "hello"', "[arxiv_id]", "not an arXiv id"),
        ('action = "paper"\npaper = "p"', "[paper]", "at least one of"),
        ('action = "drop"\nentity = "x"\npapers = []', "[papers]", "non-empty list"),
    ],
)
def test_bad_corrections_are_named_by_file_number_and_field(tmp_path, table, field, words):
    path = tmp_path / "bad.toml"
    path.write_text('[[correction]]\naction = "alias"\nentity = "a"\nalias = "b"\n\n[[correction]]\n' + table + "\n", encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_curation(path)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: correction 2 {field}: ")
    assert words in message


def test_invalid_toml_and_repeated_ids_are_reported(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('[[correction]\naction = "x"\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"not valid TOML"):
        load_curation(path)
    path.write_text('[[correction]]\nid = "a"\naction = "alias"\nentity = "x"\nalias = "y"\n'
                    '[[correction]]\nid = "a"\naction = "alias"\nentity = "x"\nalias = "z"\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"correction 2 \[id\]: 'a' repeats correction 1"):
        load_curation(path)
    path.write_text('entity = "x"\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"unknown top-level key 'entity'"):
        load_curation(path)


def test_ids_come_from_content_not_from_notes():
    a = Correction.from_table({"action": "alias", "entity": "GRPO", "alias": "G", "note": "one"})
    b = Correction.from_table({"action": "alias", "entity": "GRPO", "alias": "G", "note": "two"})
    c = Correction.from_table({"action": "alias", "entity": "GRPO", "alias": "H"})
    assert a.id == b.id != c.id
    assert Correction.from_table({"action": "alias", "entity": "x", "alias": "y", "id": "mine"}).id == "mine"


def test_append_creates_then_extends_and_refuses_repeats(tmp_path):
    path = tmp_path / "sub" / "p.curation.toml"
    first = append_correction(path, {"action": "retype", "entity": "KAIROS", "type": "Benchmark", "note": "a quiz benchmark"})
    second = append_correction(path, {"action": "result", "paper": "T", "set": {"value": "43.4", "benchmark": "BrowseComp"}})
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# scholarkg curation file")
    assert [c.id for c in load_curation(path).corrections] == [first.id, second.id]
    with pytest.raises(UsageError, match="already there"):
        append_correction(path, {"action": "retype", "entity": "KAIROS", "type": "Benchmark", "note": "again"})
    with pytest.raises(UsageError, match=r"bad correction \[type\]"):
        append_correction(path, {"action": "retype", "entity": "KAIROS", "type": "Gizmo"})
    assert path.read_text(encoding="utf-8") == text  # refused appends leave the file alone


_ONE_LINE = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=40).filter(
    lambda s: s.strip() and "\n" not in s and "\r" not in s
)


@settings(max_examples=150, deadline=None)
@given(entity=_ONE_LINE, alias=_ONE_LINE, note=st.text(st.characters(blacklist_categories=("Cs",)), max_size=40))
def test_any_text_survives_an_append(tmp_path_factory, entity, alias, note):
    path = tmp_path_factory.mktemp("append") / "c.toml"
    added = append_correction(path, {"action": "alias", "entity": entity, "alias": alias, "note": note})
    tomllib.loads(path.read_text(encoding="utf-8"))
    (back,) = load_curation(path).corrections
    assert (back.entity, back.alias, back.note, back.id) == (entity.strip(), alias.strip(), " ".join(note.split()), added.id)


def test_default_file_is_found_beside_the_first_input(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    first = data / "maojia-song.txt"
    first.write_text("x", encoding="utf-8")
    assert find_curation([first]) is None
    (data / "curation.toml").write_text("", encoding="utf-8")
    assert find_curation([first, tmp_path / "other.txt"]) == data / "curation.toml"
    (data / "maojia-song.curation.toml").write_text("", encoding="utf-8")
    assert find_curation([first]) == data / "maojia-song.curation.toml"
    assert find_curation([tmp_path / "other.txt", first]) is None
