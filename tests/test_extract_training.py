"""The shipped classifier is what the one training command produces."""

from __future__ import annotations

import pytest

from extract_support import SHARED, shared_data  # noqa: F401


@pytest.mark.slow
@pytest.mark.shared
def test_training_reproduces_the_shipped_classifier(tmp_path):
    from scholarkg.extract.pipeline import trained_path
    from scholarkg.extract.train import train

    data = shared_data()
    meta = train(data / "tdmsci" / "train_1500_v2.conll", tmp_path / "clf")
    shipped = trained_path()
    assert (tmp_path / "clf" / "weights.npz").read_bytes() == (shipped / "weights.npz").read_bytes()
    assert (tmp_path / "clf" / "meta.json").read_text() == (shipped / "meta.json").read_text()
    assert meta["held_out_f1"]["f1"] > 0.7


def test_classifier_is_small_and_loads():
    from scholarkg.extract.pipeline import trained_path
    from scholarkg.extract.termclassifier import LABELS, TermClassifier

    folder = trained_path()
    assert sum(p.stat().st_size for p in folder.iterdir()) < 2_000_000
    model = TermClassifier.load(folder)
    probs = model.scores([["bias", "h=segmentation", "rule=Task"]])
    assert probs.shape == (1, len(LABELS)) and abs(float(probs.sum()) - 1.0) < 1e-5
