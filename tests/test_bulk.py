"""`scholarkg bulk`: the store build on a Dask LocalCluster of two worker processes."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from rdflib.compare import isomorphic
from storekit import quads, store_graph

from scholarkg.store import build_store

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """400 records from the benchmark's synthetic corpus generator."""
    spec = importlib.util.spec_from_file_location("synthetic", REPO / "bench" / "synthetic.py")
    synthetic = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(synthetic)
    path = tmp_path_factory.mktemp("bulk") / "corpus.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in synthetic.generate(400, seed=3)), encoding="utf-8")
    return path


def test_bulk_on_two_workers_builds_the_single_process_graph(corpus, tmp_path, cli):
    from distributed import Client, LocalCluster, get_task_stream

    from scholarkg.bulk import DaskMapper

    single, bulk = tmp_path / "single", tmp_path / "bulk"
    build_store([corpus], single)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client, get_task_stream(client) as tasks:
        report = build_store([corpus], bulk, mapper=DaskMapper(client, partition_size=50), batch_size=50)
    assert report.added == 400
    workers = {t["worker"] for t in tasks.data}
    assert len(workers) == 2  # the map steps really ran on both worker processes
    assert {t["key"].split("-")[0] for t in tasks.data} >= {"extract_batch", "emit_batch"}

    assert isomorphic(store_graph(bulk), store_graph(single))
    assert quads(bulk) == quads(single)  # the same statements in the same named graphs

    again = cli("bulk", corpus, "--store", bulk, "--workers", "2", "--partition-size", "100")
    assert again.exit_code == 0, again.output
    assert "0 added, 0 updated, 400 unchanged" in again.stdout
    assert quads(bulk) == quads(single)
