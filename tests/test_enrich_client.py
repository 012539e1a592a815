"""The arXiv client against a local server replaying recorded arXiv answers, including failures."""

from __future__ import annotations

import pytest
from arxiv_replay import Replay, entry_xml

from scholarkg.enrich.client import ArxivClient, RateLimiter, ResponseCache
from scholarkg.enrich.run import choose
from scholarkg.errors import NetworkError
from scholarkg.model import Author, Record

pytestmark = pytest.mark.shared

TWINS = [
    entry_xml("2601.00001", "Scaling Agents via Continual Pre-training", ["Maojia Song", "Ada Lovelace"], ["cs.CL", "cs.AI"]),
    entry_xml("2601.00002", "Scaling Agents via Continual Pre-training", ["Someone Else"], ["cs.LG"]),
]


@pytest.fixture
def replay(shared_data):
    with Replay(shared_data / "arxiv-atom", TWINS) as server:
        yield server


def _client(replay, tmp_path, **options) -> ArxivClient:
    options.setdefault("interval", 0.0)
    options.setdefault("timeout", 5.0)
    return ArxivClient(replay.url, cache=ResponseCache(tmp_path / "cache"), **options)


def test_lookup_by_id_reads_every_field_and_works_offline_afterwards(replay, tmp_path):
    client = _client(replay, tmp_path, contact="curator@example.org")
    record = client.by_ids(["1111.2011"])["1111.2011"]
    assert record.title.startswith("Quantum Criticality for Extended Nodes on a Bethe Lattice")
    assert [a.name for a in record.authors] == ["James M. Murray", "Adrian Del Maestro", "Zlatko Tesanovic"]
    assert record.categories == ("cond-mat.str-el", "cond-mat.stat-mech") and record.primary_category == "cond-mat.str-el"
    assert (record.doi, record.journal_ref) == ("10.1103/PhysRevB.85.115117", "Phys. Rev. B 85, 115117 (2012)")
    assert (record.published, record.updated) == ("2011-11-08", "2012-04-02")
    (query,) = replay.queries()
    assert query["id_list"] == ["1111.2011"]
    agent = replay.log[0][2]["User-Agent"]
    assert agent.startswith("scholarkg/") and "mailto:curator@example.org" in agent
    offline = ArxivClient("http://127.0.0.1:9/unused", cache=ResponseCache(tmp_path / "cache"), offline=True)
    assert offline.by_ids(["1111.2011"])["1111.2011"] == record
    assert offline.requests == 0 and len(replay.log) == 1


def test_requests_are_spaced_by_the_interval(replay, tmp_path):
    client = _client(replay, tmp_path, interval=0.4)
    client.by_title("Local Superfluidity at the Nanoscale")
    client.by_title("Thermal melting of density waves on the square lattice")
    client.by_ids(["1111.2011"])
    times = [t for t, _path, _headers in replay.log]
    assert len(times) == 3
    assert all(b - a >= 0.4 for a, b in zip(times, times[1:])), times


def test_rate_limiter_sleeps_only_what_is_left():
    now = [100.0]
    slept = []
    limiter = RateLimiter(3.0, clock=lambda: now[0], sleep=lambda s: (slept.append(s), now.__setitem__(0, now[0] + s)))
    limiter.wait()
    now[0] += 0.5  # the request takes half a second
    limiter.done()
    now[0] += 1.0
    limiter.wait()  # 3 s after the answer, not after the request
    assert slept == [2.0] and now[0] == 103.5
    limiter.done()
    now[0] += 5.0
    limiter.wait()
    assert slept == [2.0]


def test_503_with_retry_after_is_waited_for(replay, tmp_path):
    replay.script = [("status", 503, 1)]
    client = _client(replay, tmp_path)
    found = client.by_title("Local Superfluidity at the Nanoscale")
    assert [r.arxiv_id for r in found] == ["1303.6954"]
    (t1, _p1, _h1), (t2, _p2, _h2) = replay.log
    assert t2 - t1 >= 1.0 and client.requests == 2


def test_503_that_never_ends_is_a_network_error(replay, tmp_path):
    replay.script = [("status", 503, 0)] * 3
    client = _client(replay, tmp_path, retries=2)
    with pytest.raises(NetworkError, match=r"HTTP 503 after 3 attempt\(s\)"):
        client.by_title("Local Superfluidity at the Nanoscale")
    assert len(replay.log) == 3
    assert not list((tmp_path / "cache").glob("*.xml"))  # failures are not cached


def test_a_retry_after_longer_than_allowed_gives_up_at_once(replay, tmp_path):
    replay.script = [("status", 503, 3600)]
    with pytest.raises(NetworkError, match="asked to wait 3600 s"):
        _client(replay, tmp_path, max_wait=10).by_title("Local Superfluidity at the Nanoscale")
    assert len(replay.log) == 1


def test_a_timeout_is_retried(replay, tmp_path):
    replay.script = [("sleep", 1.5)]
    client = _client(replay, tmp_path, timeout=0.3)
    found = client.by_title("Local Superfluidity at the Nanoscale")
    assert [r.arxiv_id for r in found] == ["1303.6954"] and client.requests == 2


def test_timeouts_that_persist_are_a_network_error(replay, tmp_path):
    replay.script = [("sleep", 1.0)] * 2
    with pytest.raises(NetworkError, match="timed out after 2 attempt"):
        _client(replay, tmp_path, timeout=0.2, retries=1).by_title("Local Superfluidity at the Nanoscale")


def test_empty_results_mean_not_found(replay, tmp_path):
    client = _client(replay, tmp_path)
    record = Record("x", "A Title arXiv Has Never Seen", authors=(Author("Maojia Song"),))
    found = client.by_title(record.title)
    assert found == []
    assert choose(record, found) == (None, "not found")
    replay.script = [("empty",)]
    assert client.by_ids(["2601.00001"]) == {"2601.00001": None}


def test_several_matches_are_told_apart_by_author_or_reported(replay, tmp_path):
    client = _client(replay, tmp_path)
    title = "Scaling Agents via Continual Pre-training"
    found = client.by_title(title)
    assert sorted(r.arxiv_id for r in found) == ["2601.00001", "2601.00002"]
    mine, why = choose(Record("a", title, authors=(Author("Maojia Song"),)), found)
    assert mine.arxiv_id == "2601.00001" and why == ""
    nobody, why = choose(Record("b", title, authors=(Author("Grace Hopper"),)), found)
    assert nobody is None and why.startswith("ambiguous")
    unknown, why = choose(Record("c", title), found)
    assert unknown is None and why == "ambiguous: 2601.00001, 2601.00002"


def test_arxiv_error_answers_become_network_errors(replay, tmp_path):
    client = _client(replay, tmp_path)
    with pytest.raises(NetworkError, match="incorrect id format for 1234"):
        client.by_ids(["1234"])


def test_offline_without_cache_asks_nothing(replay, tmp_path):
    client = _client(replay, tmp_path, offline=True)
    assert client.by_title("Local Superfluidity at the Nanoscale") is None
    assert client.by_ids(["1111.2011"]) == {"1111.2011": None} and client.missing == ["1111.2011"]
    assert replay.log == []


def test_error_answers_are_not_cached(replay, tmp_path):
    client = _client(replay, tmp_path)
    with pytest.raises(NetworkError, match="incorrect id format"):
        client.query({"id_list": "1234", "start": "0", "max_results": "1"})
    assert not list((tmp_path / "cache").glob("*.xml"))
