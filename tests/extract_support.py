"""Fixtures of the extraction tests: the pipeline (built once) and the seed profile.

Test modules import the fixtures they use from here (``from extract_support import ...``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
SEED = ROOT / "examples" / "maojia-song.txt"


@pytest.fixture(scope="session")
def extract_nlp():
    from scholarkg.extract import load_pipeline

    return load_pipeline()


@pytest.fixture(scope="session")
def seed_pairs(extract_nlp):
    from scholarkg.errors import Problems
    from scholarkg.extract import extract_many
    from scholarkg.readers import read_records

    records = list(read_records([SEED], Problems()))
    return list(extract_many(records, nlp=extract_nlp))


@pytest.fixture(scope="session")
def seed_linker(seed_pairs):
    from scholarkg.link import Linker

    linker = Linker()
    for _, extraction in seed_pairs:
        linker.add(extraction)
    return linker


def paper(pairs, prefix: str):
    """The (record, extraction) pair whose title starts with ``prefix``."""
    matches = [p for p in pairs if p[0].title.startswith(prefix)]
    assert len(matches) == 1, prefix
    return matches[0]


def shared_data() -> Path:
    """``../shared/data``, or skip the calling test when it is absent."""
    data = SHARED / "data"
    if not data.is_dir():
        pytest.skip("../shared/data is not present on this machine")
    return data
