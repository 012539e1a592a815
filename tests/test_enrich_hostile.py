"""The arXiv client against a local server that fails in every way it can: each failure mode
ends in an answer, a retry or a one-line NetworkError (exit 6), within its deadline and size limit."""

from __future__ import annotations

import json
import time

import pytest
from arxiv_replay import FAILURES, Replay, entry_xml

from scholarkg.enrich.client import ArxivClient, ResponseCache
from scholarkg.errors import NetworkError

BETHE = "Quantum Criticality on a Bethe Lattice"
ENTRIES = [entry_xml("1111.2011", BETHE, ["Adrian Del Maestro"], ["cond-mat.str-el"]),
           entry_xml("1303.6954", "Local Superfluidity at the Nanoscale", ["Adrian Del Maestro"], ["cond-mat.quant-gas"])]


@pytest.fixture
def replay(tmp_path):
    (tmp_path / "recorded").mkdir()
    with Replay(tmp_path / "recorded", ENTRIES) as server:
        yield server


def _client(replay, tmp_path, **options) -> ArxivClient:
    options.setdefault("interval", 0.0)
    options.setdefault("timeout", 2.0)
    options.setdefault("retries", 0)
    return ArxivClient(replay.url, cache=ResponseCache(tmp_path / "cache"), **options)


def _fails(client, message: str, lookup=None) -> float:
    started = time.monotonic()
    with pytest.raises(NetworkError) as caught:
        (lookup or (lambda: client.by_ids(["1111.2011"])))()
    assert message in str(caught.value), str(caught.value)
    assert "\n" not in str(caught.value)
    return time.monotonic() - started


def test_every_failure_mode_of_the_fake_server_is_tested():
    tested = {"status", "sleep", "empty", "drip", "drip-headers", "huge", "nested", "redirect", "html", "truncate",
              "reset", "bad-status", "garbage", "bomb"}
    assert set(FAILURES) == tested


@pytest.mark.parametrize("mode", ["drip", "drip-headers"])
def test_a_server_dripping_bytes_is_cut_off_at_the_request_deadline(replay, tmp_path, mode):
    replay.script = [(mode, 0.2)] * 2
    client = _client(replay, tmp_path, timeout=1.5, retries=1)
    seconds = _fails(client, "timed out after 2 attempt(s)")
    assert seconds < 8  # two attempts of 1.5 s, not the minutes a full drip would take
    assert len(replay.log) == 2


def test_a_slow_answer_within_the_deadline_still_arrives(replay, tmp_path):
    replay.script = [("sleep", 0.3)]
    assert _client(replay, tmp_path).by_ids(["1111.2011"])["1111.2011"].title == BETHE


def test_the_run_deadline_bounds_retries_and_waits(replay, tmp_path):
    replay.script = [("sleep", 1.2)] * 20
    client = _client(replay, tmp_path, timeout=1.0, retries=10, interval=0.5, run_timeout=3.0)
    seconds = _fails(client, "the run's time limit of 3 s")
    assert seconds < 6 and len(replay.log) < 5


def test_an_answer_over_the_size_limit_is_refused_without_reading_it_all(replay, tmp_path):
    replay.script = [("huge", 200 << 20)]
    client = _client(replay, tmp_path, max_bytes=1 << 20)
    _fails(client, "larger than 1 MiB")
    assert replay.sent < 50 << 20  # the server could write little beyond what the client read


@pytest.mark.parametrize("lookup", ["id", "title"])
def test_a_deeply_nested_answer_is_a_network_error_not_a_crash(replay, tmp_path, lookup):
    replay.script = [("nested", 100_000)]
    client = _client(replay, tmp_path)
    call = (lambda: client.by_ids(["1111.2011"])) if lookup == "id" else (lambda: client.by_title(BETHE))
    _fails(client, "nested more than 64 levels deep", call)


def test_an_entity_bomb_is_refused(replay, tmp_path):
    replay.script = [("bomb",), ("bomb",)]
    client = _client(replay, tmp_path)
    _fails(client, "document type declaration")
    _fails(client, "document type declarations are not accepted", lambda: client.by_title(BETHE))


def test_a_redirect_to_the_same_host_is_followed(replay, tmp_path):
    replay.script = [("redirect", 302, replay.url + "?id_list=1111.2011&start=0&max_results=1")]
    assert _client(replay, tmp_path).by_ids(["1111.2011"])["1111.2011"].title == BETHE
    assert len(replay.log) == 2


def test_a_redirect_to_another_host_or_scheme_is_not_followed(replay, tmp_path):
    with Replay(tmp_path / "recorded", ENTRIES) as other:
        elsewhere = other.url.replace("127.0.0.1", "localhost")  # the same machine, another host name
        for location in (elsewhere, "file:///etc/passwd", "ftp://127.0.0.1/x"):
            replay.script = [("redirect", 301, location)]
            _fails(_client(replay, tmp_path), "not followed")
        assert other.log == []


def test_a_redirect_loop_ends(replay, tmp_path):
    replay.script = [("redirect", 307, replay.url)] * 10
    _fails(_client(replay, tmp_path), "more than 5 redirects")


@pytest.mark.parametrize("mode, message", [("html", "not an Atom feed (text/html"),
                                           ("garbage", "not an Atom feed (application/atom+xml")])
def test_an_answer_that_is_not_a_feed_is_a_network_error(replay, tmp_path, mode, message):
    replay.script = [(mode,)]
    _fails(_client(replay, tmp_path), message)


@pytest.mark.parametrize("mode, message", [("truncate", "cut short"), ("reset", "after 2 attempt(s)"),
                                           ("bad-status", "BadStatusLine"), ("status", "HTTP 502")])
def test_broken_answers_are_retried_then_reported(replay, tmp_path, mode, message):
    action = (mode, 502, None) if mode == "status" else (mode,)
    replay.script = [action]
    assert _client(replay, tmp_path, retries=1).by_ids(["1111.2011"])["1111.2011"].title == BETHE  # one retry mends it
    replay.script = [action, action]
    _fails(_client(replay, tmp_path, retries=1, refresh=True), message)


def test_a_retry_after_date_is_understood(replay, tmp_path):
    import email.utils

    replay.script = [("status", 503, email.utils.formatdate(time.time() + 1, usegmt=True))]
    assert _client(replay, tmp_path, retries=1).by_ids(["1111.2011"])["1111.2011"] is not None


def test_an_empty_feed_means_not_found(replay, tmp_path):
    replay.script = [("empty",)]
    assert _client(replay, tmp_path).by_ids(["1111.2011"]) == {"1111.2011": None}


def test_enrich_on_a_dripping_server_exits_6_within_its_deadline(replay, tmp_path, cli):
    inputs = tmp_path / "papers.jsonl"
    inputs.write_text(json.dumps({"title": BETHE, "arxiv_id": "1111.2011", "abstract": "About it.", "year": 2011}) + "\n",
                      encoding="utf-8")
    assert cli("build", inputs, "--out", tmp_path / "g").exit_code == 0
    replay.script = [("drip", 0.5)] * 4
    started = time.monotonic()
    result = cli("enrich", tmp_path / "g", "--base-url", replay.url, "--interval", "0", "--timeout", "1",
                 "--retries", "1", "--cache", tmp_path / "cache")
    assert result.exit_code == 6, result.stderr
    assert time.monotonic() - started < 20
    (line,) = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert "timed out after 2 attempt(s)" in line and "Traceback" not in result.stderr
    for mode in ("html", "nested"):
        replay.script = [(mode, 100_000)] if mode == "nested" else [(mode,)]
        result = cli("enrich", tmp_path / "g", "--base-url", replay.url, "--interval", "0", "--retries", "0",
                     "--cache", tmp_path / "cache")
        assert result.exit_code == 6 and "Traceback" not in result.stderr, (mode, result.stderr)
