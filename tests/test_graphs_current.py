"""The committed graphs/ folder is exactly what `make demo` regenerates from examples/."""

from __future__ import annotations

import difflib

from scholarkg.pipeline import OUTPUT_FILES


def test_committed_seed_graph_is_current(repo_root, demo_out):
    committed = repo_root / "graphs" / "maojia-song"
    for name in OUTPUT_FILES:
        fresh = (demo_out / name).read_bytes()
        kept = (committed / name).read_bytes()
        if fresh != kept:
            diff = difflib.unified_diff(
                kept.decode("utf-8", "replace").splitlines(), fresh.decode("utf-8", "replace").splitlines(),
                f"graphs/maojia-song/{name}", "regenerated", lineterm="", n=1,
            )
            raise AssertionError(
                f"graphs/maojia-song/{name} is out of date; run `make demo`:\n" + "\n".join(list(diff)[:40])
            )
