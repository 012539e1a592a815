"""Shared fixtures: paths, the seed build (made once per test run), a CLI runner."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
SEED = REPO / "examples" / "maojia-song.txt"


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """``../shared/data``; tests using it are skipped on a machine without it."""
    data = SHARED / "data"
    if not data.is_dir():
        pytest.skip("../shared/data is not present on this machine")
    return data


@pytest.fixture(scope="session")
def seed_path() -> Path:
    return SEED


@pytest.fixture(scope="session")
def seed_build():
    """The seed profile built in memory once for the whole test session by the extractor alone
    (no curation file), so tests of what the graph holds measure the extractor."""
    from scholarkg.pipeline import build

    return build([SEED], curation=None)


@pytest.fixture(scope="session")
def demo_build():
    """The seed built as `make demo` builds it: with the curation file found beside it."""
    from scholarkg.curate import find_curation
    from scholarkg.pipeline import build

    return build([SEED], curation=find_curation([SEED]))


@pytest.fixture(scope="session")
def seed_graph(seed_build):
    return seed_build.graph


@pytest.fixture(scope="session")
def seed_out(tmp_path_factory, seed_build) -> Path:
    """The extractor-only seed build written to a folder, as ``scholarkg build`` writes it."""
    from scholarkg.pipeline import write_outputs

    out = tmp_path_factory.mktemp("seed") / "maojia-song"
    write_outputs(seed_build, out)
    return out


@pytest.fixture(scope="session")
def demo_out(tmp_path_factory, demo_build) -> Path:
    """The demo build (with curation) written to a folder, as `make demo` writes it."""
    from scholarkg.pipeline import write_outputs

    out = tmp_path_factory.mktemp("demo") / "maojia-song"
    write_outputs(demo_build, out)
    return out


@pytest.fixture
def cli():
    """Run ``scholarkg ARGS...`` in-process; returns click's Result (exit_code, stdout, stderr)."""
    from scholarkg.cli import main

    runner = CliRunner()

    def run(*args: str, input: str | None = None):
        return runner.invoke(main, [str(a) for a in args], input=input, catch_exceptions=False)

    return run


@pytest.fixture(scope="session")
def seed_store(tmp_path_factory) -> Path:
    """The seed profile built once into an on-disk Oxigraph store (``build --store``)."""
    from scholarkg.store import build_store

    store = tmp_path_factory.mktemp("store") / "maojia-song.store"
    build_store([SEED], store)
    return store


# Source distributions of well-known BibTeX packages whose real bibliographies the tests read.
# Fetched through pip into a cache on first use (never committed); tests skip when offline.
BIB_SDISTS = {"pybtex": "0.26.1"}
SDIST_CACHE = Path.home() / ".cache" / "scholarkg-tests" / "sdists"


@pytest.fixture(scope="session")
def real_bibliographies() -> dict[str, Path]:
    """Real ``.bib`` files from the source distributions in :data:`BIB_SDISTS`, by name."""
    import subprocess
    import sys
    import tarfile

    found: dict[str, Path] = {}
    for package, version in BIB_SDISTS.items():
        folder = SDIST_CACHE / f"{package}-{version}"
        if not folder.is_dir():
            SDIST_CACHE.mkdir(parents=True, exist_ok=True)
            download = subprocess.run(
                [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:",
                 f"{package}=={version}", "-d", str(SDIST_CACHE)],
                capture_output=True, text=True, timeout=300,
            )
            archive = SDIST_CACHE / f"{package}-{version}.tar.gz"
            if download.returncode != 0 or not archive.is_file():
                pytest.skip(f"cannot fetch the {package} {version} source distribution (offline?)")
            with tarfile.open(archive) as tar:
                safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}  # Python >= 3.11.4
                tar.extractall(SDIST_CACHE, **safe)
        for path in sorted(folder.rglob("*.bib")):
            found[f"{package}/{path.relative_to(folder)}"] = path
    if not found:
        pytest.skip("no bibliography in the source distributions")
    return found


@pytest.fixture(scope="module")
def browser_context(tmp_path_factory):
    """A headless Debian chromium context, offline (see tests/browser.py)."""
    from browser import launch_context

    yield from launch_context(tmp_path_factory)


@pytest.fixture
def open_page(browser_context):
    """``open_page(path)``: open a page in ``browser_context`` with outside requests blocked."""
    from browser import page_opener

    pages: list = []
    yield page_opener(browser_context, pages)
    for page in pages:
        page.close()
