"""Node positions computed in Python, so the browser can draw large graphs with physics off.

vis-network's own advice for large graphs is to give it positions and switch physics off:
its Barnes-Hut simulation costs tens of milliseconds per step at 2,000 nodes on a modest
machine, and a layout needs hundreds of steps. networkx's spring layout needs SciPy, which
this project does not depend on, and the dense Fruchterman-Reingold step costs O(n^2).

This module runs Fruchterman-Reingold with numpy only:

- each connected component is laid out on its own and the components are packed in rows,
  largest first, so small islands (a paper with its authors) do not fly off;
- small components compute repulsion exactly (all pairs);
- larger ones compute repulsion on a grid (a particle-mesh scheme): the nodes' mass is
  spread over a grid with cloud-in-cell weights, convolved with the repulsion kernel by FFT,
  and read back at the nodes with the same weights. A step costs O(n + G^2 log G) instead
  of O(n^2), and a node never pushes itself (the kernel is odd).

Everything is deterministic: nodes are ordered by id and the starting positions come from a
seeded PCG64 generator. The all-pairs loop (the seed graph's page) uses only +, -, *, / and
sqrt, which are correctly rounded on every machine; the grid scheme also uses numpy's FFT,
which gives the same bytes for the same numpy build. Positions are rounded to whole pixels.

>>> import networkx as nx
>>> pos = layout_positions(nx.path_graph(["a", "b", "c"]))
>>> sorted(pos) == ["a", "b", "c"] and pos == layout_positions(nx.path_graph(["a", "b", "c"]))
True
"""

from __future__ import annotations

import logging
import math
from collections.abc import Hashable
from functools import lru_cache

import networkx as nx
import numpy as np

__all__ = ["layout_positions", "components", "EDGE_LENGTH"]

log = logging.getLogger(__name__)

EDGE_LENGTH = 130.0  # ideal edge length in pixels at zoom 1
_EXACT_MAX = 120  # components up to this size compute repulsion over all pairs
_GRID_SIDES = (64, 128, 256)  # grid points per side (FFT size twice that), chosen by component size
_ITERATIONS = 100
_SEED = 20240611


def _square_lengths(v: np.ndarray) -> np.ndarray:
    """x^2 + y^2 of each row of ``v``: the value ``(v * v).sum(axis=1)`` gives, bit for bit,
    without numpy's reduction machinery, which costs several times more on rows of two."""
    x, y = v[:, 0], v[:, 1]
    return x * x + y * y


def _attraction(pos: np.ndarray, src: np.ndarray, dst: np.ndarray, k: float) -> np.ndarray:
    """Spring forces along edges: k^-1 * d^2, towards each other."""
    n = len(pos)
    force = np.zeros_like(pos)
    if len(src) == 0:
        return force
    # one axis at a time: gathering and summing columns costs about half what rows of two do
    x, y = pos[:, 0], pos[:, 1]
    dx, dy = x[dst] - x[src], y[dst] - y[src]
    stretch = np.sqrt(dx * dx + dy * dy) / k
    for axis, d in ((0, dx), (1, dy)):
        pull = d * stretch
        force[:, axis] += np.bincount(src, weights=pull, minlength=n)
        force[:, axis] -= np.bincount(dst, weights=pull, minlength=n)
    return force


def _repulsion_exact(pos: np.ndarray, k: float) -> np.ndarray:
    delta = pos[:, None, :] - pos[None, :, :]
    dist2 = (delta * delta).sum(axis=2) + 0.01 * k * k
    return (delta * (k * k / dist2)[:, :, None]).sum(axis=1)


def _grid_side(n: int) -> int:
    """About 1.5 grid points per node along each side, as a power of two within _GRID_SIDES."""
    wanted = 1.5 * math.sqrt(n)
    return next((side for side in _GRID_SIDES if side >= wanted), _GRID_SIDES[-1])


@lru_cache(maxsize=len(_GRID_SIDES))
def _kernel_spectra(size: int) -> tuple[np.ndarray, np.ndarray]:
    """FFT of the repulsion kernel d / |d|^2 in grid units (softened by half a cell).

    In pixels the kernel is k^2 d / |d|^2 = (k^2 / h) * (the same in grid units), so one
    spectrum serves every grid spacing h.
    """
    offsets = np.arange(2 * size, dtype=np.float64)
    offsets[size:] -= 2 * size  # wrapped offsets: 0..size-1, then -size..-1
    dx = offsets[:, None]
    dy = offsets[None, :]
    scale = 1.0 / (dx * dx + dy * dy + 0.25)
    return np.fft.rfft2(dx * scale), np.fft.rfft2(dy * scale)


def _near_field(pos: np.ndarray, h: float, k: float) -> np.ndarray:
    """Extra push between nodes closer than one grid cell, where the grid cannot tell them
    apart: k^2 / d * (1 - d / h), which fades to nothing at d = h. Pairs are found by sorting
    nodes into cells of size h and pairing each cell with itself and four neighbours."""
    n = len(pos)
    cell = np.floor((pos - pos.min(axis=0)) / h).astype(np.int64)
    width = int(cell[:, 1].max()) + 3
    key = cell[:, 0] * width + cell[:, 1] + 1
    order = np.argsort(key, kind="stable")
    sorted_key = key[order]
    rank = np.arange(n)
    firsts, seconds = [], []
    for dx, dy in ((0, 0), (1, -1), (1, 0), (1, 1), (0, 1)):
        target = sorted_key + dx * width + dy
        lo = np.searchsorted(sorted_key, target, side="left")
        hi = np.searchsorted(sorted_key, target, side="right")
        if dx == dy == 0:
            lo = np.maximum(lo, rank + 1)  # each pair inside a cell once
        counts = np.maximum(hi - lo, 0)
        total = int(counts.sum())
        if total:
            starts = np.repeat(lo - (np.cumsum(counts) - counts), counts)
            firsts.append(order[np.repeat(rank, counts)])
            seconds.append(order[starts + np.arange(total)])
    force = np.zeros_like(pos)
    if not firsts:
        return force
    a, b = np.concatenate(firsts), np.concatenate(seconds)
    x, y = pos[:, 0], pos[:, 1]
    dx, dy = x[a] - x[b], y[a] - y[b]
    dist2 = dx * dx + dy * dy + 0.01 * k * k
    # About two pairs in three of neighbouring cells are farther apart than h and push with
    # exactly 0: leaving them out before the push is computed gives the same sums. The bound
    # keeps a little over h, so no pair that pushes at all is left out by rounding.
    near = np.flatnonzero(dist2 < h * h * (1 + 1e-9))
    a, b, dx, dy, dist2 = a[near], b[near], dx[near], dy[near], dist2[near]
    strength = k * k / dist2 * np.maximum(1 - np.sqrt(dist2) / h, 0)
    for axis, d in ((0, dx), (1, dy)):
        push = d * strength
        force[:, axis] += np.bincount(a, weights=push, minlength=n)
        force[:, axis] -= np.bincount(b, weights=push, minlength=n)
    return force


def _repulsion_grid(pos: np.ndarray, k: float) -> np.ndarray:
    """Repulsion k^2 / d from every other node, computed on a grid with FFT convolution."""
    size = _grid_side(len(pos))
    cells_per_side = size - 2  # one spare row and column for the cloud-in-cell weights, one margin
    low = pos.min(axis=0)
    span = float((pos.max(axis=0) - low).max()) or k
    h = span / (cells_per_side - 1)
    g = (pos - low) / h
    i0 = np.floor(g).astype(np.int64)
    frac = g - i0
    i0 = np.clip(i0, 0, cells_per_side - 1)
    weights = (
        (1 - frac[:, 0]) * (1 - frac[:, 1]),
        frac[:, 0] * (1 - frac[:, 1]),
        (1 - frac[:, 0]) * frac[:, 1],
        frac[:, 0] * frac[:, 1],
    )
    cells = (
        i0[:, 0] * size + i0[:, 1],
        (i0[:, 0] + 1) * size + i0[:, 1],
        i0[:, 0] * size + i0[:, 1] + 1,
        (i0[:, 0] + 1) * size + i0[:, 1] + 1,
    )
    density = np.zeros(size * size)
    for cell, weight in zip(cells, weights):
        density += np.bincount(cell, weights=weight, minlength=size * size)
    padded = np.zeros((2 * size, 2 * size))
    padded[:size, :size] = density.reshape(size, size)
    kernel_x, kernel_y = _kernel_spectra(size)
    spectrum = np.fft.rfft2(padded) * (k * k / h)
    fx = np.fft.irfft2(spectrum * kernel_x, s=padded.shape)[:size, :size].ravel()
    fy = np.fft.irfft2(spectrum * kernel_y, s=padded.shape)[:size, :size].ravel()
    force = np.zeros_like(pos)
    for cell, weight in zip(cells, weights):
        force[:, 0] += fx[cell] * weight
        force[:, 1] += fy[cell] * weight
    return force + _near_field(pos, h, k)


def _component_layout(n: int, src: np.ndarray, dst: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Fruchterman-Reingold positions of one connected component, centred on 0."""
    k = EDGE_LENGTH
    if n == 1:
        return np.zeros((1, 2))
    side = k * math.sqrt(n)
    pos = (rng.random((n, 2)) - 0.5) * side
    repulsion = _repulsion_exact if n <= _EXACT_MAX else _repulsion_grid
    iterations = _ITERATIONS
    for step in range(iterations):
        temperature = side * 0.1 * (1 - step / iterations) + k * 0.05
        disp = repulsion(pos, k) + _attraction(pos, src, dst, k)
        length = np.sqrt(_square_lengths(disp))
        capped = np.minimum(length, temperature) / np.maximum(length, 1e-9)
        pos = pos + disp * capped[:, None]
    return pos - (pos.max(axis=0) + pos.min(axis=0)) / 2


def _pack(blocks: list[np.ndarray], gap: float) -> list[np.ndarray]:
    """Place component layouts (largest first) in rows of a roughly square area."""
    sizes = [b.max(axis=0) - b.min(axis=0) + gap for b in blocks]
    area = sum(float(w * h) for w, h in sizes)
    row_width = max(math.sqrt(area) * 1.2, max(float(w) for w, _ in sizes))
    placed = []
    x = y = row_height = 0.0
    for block, (w, h) in zip(blocks, sizes):
        if x > 0 and x + w > row_width:
            x, y, row_height = 0.0, y + row_height, 0.0
        low = block.min(axis=0)
        placed.append(block - low + np.array([x + gap / 2, y + gap / 2]))
        x += float(w)
        row_height = max(row_height, float(h))
    return placed


def components(n: int, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """A component label for each of ``n`` nodes linked by ``src``-``dst``: the smallest node
    number in its component. The smaller label is carried along every link, and each label
    jumps to its own label, until nothing changes."""
    label = np.arange(n)
    while True:
        before = label
        low = np.minimum(label[src], label[dst])
        label = label.copy()
        np.minimum.at(label, src, low)
        np.minimum.at(label, dst, low)
        while True:
            jumped = label[label]
            if np.array_equal(jumped, label):
                break
            label = jumped
        if np.array_equal(label, before):
            return label


def _groups(label: np.ndarray, items: np.ndarray) -> dict[int, np.ndarray]:
    """``items`` by ``label``, each group in the items' order."""
    order = np.argsort(label, kind="stable")
    cuts = np.flatnonzero(np.diff(label[order])) + 1
    return {int(label[g[0]]): items[g] for g in np.split(order, cuts) if len(g)}


def layout_positions(graph: nx.Graph) -> dict[Hashable, tuple[int, int]]:
    """Whole-pixel positions for every node of ``graph`` (any networkx graph, or a
    :class:`~scholarkg.explorer.select.Drawn` view; edges undirected).

    The same graph gives the same positions on every run; the drawing is centred on (0, 0).
    """
    nodes = sorted(graph.nodes, key=str)
    if not nodes:
        return {}
    n = len(nodes)
    index = {node: i for i, node in enumerate(nodes)}
    ends = np.array([(index[u], index[v]) for u, v in graph.edges() if u != v], dtype=np.int64).reshape(-1, 2)
    # each pair of linked nodes once, as (smaller, larger) number, in order
    pairs = np.unique(ends.min(axis=1) * n + ends.max(axis=1))
    low, high = pairs // n, pairs % n
    label = components(n, low, high)
    sizes = np.bincount(label, minlength=n)
    node_groups = _groups(label, np.arange(n))
    edge_groups = _groups(label[low], np.arange(len(pairs)))
    components_ = sorted((int(r) for r in np.flatnonzero(sizes)), key=lambda r: (-sizes[r], r))
    rng = np.random.default_rng(_SEED)
    blocks = []
    members_of = []
    for root in components_:
        members = node_groups[root]
        edges = edge_groups.get(root, np.zeros(0, dtype=np.int64))
        src = np.searchsorted(members, low[edges])
        dst = np.searchsorted(members, high[edges])
        members_of.append(members)
        blocks.append(_component_layout(len(members), src, dst, rng))
    placed = _pack(blocks, EDGE_LENGTH)
    coords = np.zeros((len(nodes), 2))
    for members, block in zip(members_of, placed):
        coords[members] = block
    coords -= (coords.max(axis=0) + coords.min(axis=0)) / 2
    rounded = np.rint(coords).astype(np.int64)
    log.debug("laid out %d nodes in %d components", len(nodes), len(components_))
    return {node: (int(rounded[i, 0]), int(rounded[i, 1])) for i, node in enumerate(nodes)}
