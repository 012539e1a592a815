"""Positions computed in Python: deterministic, spread out, components apart, fast enough."""

from __future__ import annotations

import math
import time

import networkx as nx
import pytest
from render_graphs import synthetic_graph

from scholarkg.explorer.layout import EDGE_LENGTH, layout_positions
from scholarkg.explorer.select import most_connected
from scholarkg.explorer.view import to_networkx


def _nearest(pos: dict) -> list[float]:
    import numpy as np

    points = np.array(list(pos.values()), dtype=float)
    dist = np.sqrt(((points[:, None, :] - points[None, :, :]) ** 2).sum(axis=2))
    np.fill_diagonal(dist, np.inf)
    return dist.min(axis=1).tolist()


def _mean_length(pos, edges) -> float:
    return sum(math.dist(pos[u], pos[v]) for u, v in edges) / len(edges)


def test_every_node_gets_whole_pixels_the_same_every_time(seed_graph):
    graph = to_networkx(seed_graph)
    pos = layout_positions(graph)
    assert set(pos) == set(graph.nodes)
    assert all(isinstance(c, int) for xy in pos.values() for c in xy)
    assert layout_positions(graph) == pos
    assert layout_positions(graph.copy()) == pos


@pytest.mark.parametrize("size", [60, 700])  # exact repulsion, and the grid scheme
def test_linked_nodes_close_and_no_two_on_one_spot(size):
    tree = nx.random_labeled_tree(size, seed=4) if hasattr(nx, "random_labeled_tree") else nx.random_tree(size, seed=4)
    graph = nx.relabel_nodes(tree, str)
    pos = layout_positions(graph)
    nearest = _nearest(pos)
    assert min(nearest) >= 3  # whole pixels apart at least
    assert sorted(nearest)[len(nearest) // 10] > EDGE_LENGTH / 10
    linked = _mean_length(pos, list(graph.edges))
    others = [(u, v) for u, v in nx.non_edges(graph)][: 5 * size]
    assert linked < 0.5 * _mean_length(pos, others)


def test_components_do_not_overlap():
    graph = nx.disjoint_union_all([nx.star_graph(12), nx.cycle_graph(30), nx.path_graph(4), nx.empty_graph(5)])
    graph = nx.relabel_nodes(graph, str)
    pos = layout_positions(graph)
    boxes = []
    for members in nx.connected_components(graph):
        xs = [pos[n][0] for n in members]
        ys = [pos[n][1] for n in members]
        boxes.append((min(xs), min(ys), max(xs), max(ys)))
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert a[2] < b[0] or b[2] < a[0] or a[3] < b[1] or b[3] < a[1], (a, b)


def test_forces_are_the_sums_over_every_pair_and_link():
    """The near field and the springs, summed pair by pair in plain Python: the near field
    finds its pairs through a grid of cells and leaves out those too far apart to push, and
    no pair that pushes may be lost that way, nor one at the edge of a cell."""
    import numpy as np

    from scholarkg.explorer.layout import _attraction, _near_field

    rng = np.random.default_rng(3)
    k, h = EDGE_LENGTH, 40.0
    pos = rng.random((300, 2)) * 400
    reach = math.sqrt(h * h - 0.01 * k * k)  # the push is softened: it ends nearer than h
    pos[1] = pos[0] + [reach * 0.999, 0]  # just inside the reach, and just outside it
    pos[3] = pos[2] + [0, reach * 1.001]
    pos[5] = pos[4] + [h * 0.6, h * 0.7]  # close, across a diagonal
    near = np.zeros_like(pos)
    for i in range(len(pos)):
        for j in range(i + 1, len(pos)):
            delta = pos[i] - pos[j]
            d2 = float(delta @ delta) + 0.01 * k * k
            push = delta * k * k / d2 * max(1 - math.sqrt(d2) / h, 0)
            near[i] += push
            near[j] -= push
    assert np.abs(near).max() > 1  # the layout pushes
    assert np.allclose(_near_field(pos, h, k), near, rtol=1e-9, atol=1e-9)
    src, dst = rng.integers(0, 300, 500), rng.integers(0, 300, 500)
    springs = np.zeros_like(pos)
    for a, b in zip(src, dst):
        pull = (pos[b] - pos[a]) * math.dist(pos[a], pos[b]) / k
        springs[a] += pull
        springs[b] -= pull
    assert np.allclose(_attraction(pos, src, dst, k), springs, rtol=1e-9, atol=1e-9)


def test_empty_and_single_node():
    assert layout_positions(nx.Graph()) == {}
    assert layout_positions(nx.path_graph(["only"])) == {"only": (0, 0)}


@pytest.mark.slow
def test_two_thousand_nodes_in_a_few_seconds():
    graph, _ = most_connected(to_networkx(synthetic_graph(2500, seed=5)), 2000)
    start = time.perf_counter()
    pos = layout_positions(graph)
    elapsed = time.perf_counter() - start
    assert len(pos) == 2000
    assert elapsed < 20, f"layout of 2,000 nodes took {elapsed:.1f} s"
