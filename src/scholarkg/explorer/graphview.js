/* scholarkg graph view: the network drawing shared by the static explorer page and the served
   explorer. It owns the vis-network instance, one shape per node type (drawn the same on the
   canvas and in the legend) and the label layer; the pages around it own data, filters and
   details. Text is only ever drawn on the canvas or set with textContent. */
(function () {
  "use strict";

  /* ---- shapes: points on a unit circle (y down); "dot" and "ring" are circles ---- */
  const SVG = "http://www.w3.org/2000/svg";

  function regular(count, turn, radius) {
    const out = [];
    for (let i = 0; i < count; i += 1) {
      const a = turn + (2 * Math.PI * i) / count;
      out.push([radius * Math.cos(a), radius * Math.sin(a)]);
    }
    return out;
  }

  function starPoints() {
    const out = [];
    for (let i = 0; i < 10; i += 1) {
      const a = -Math.PI / 2 + (Math.PI * i) / 5;
      const r = i % 2 ? 0.45 : 1.1;
      out.push([r * Math.cos(a), r * Math.sin(a)]);
    }
    return out;
  }

  const OUTLINES = {
    square: [[-0.85, -0.85], [0.85, -0.85], [0.85, 0.85], [-0.85, 0.85]],
    triangle: [[0, -1.1], [1.0, 0.75], [-1.0, 0.75]],
    triangleDown: [[-1.0, -0.75], [1.0, -0.75], [0, 1.1]],
    diamond: [[0, -1.1], [1.1, 0], [0, 1.1], [-1.1, 0]],
    hexagon: regular(6, 0, 1.0),
    pentagon: regular(5, -Math.PI / 2, 1.05),
    octagon: regular(8, Math.PI / 8, 1.0),
    star: starPoints(),
    plus: [[-0.33, -1], [0.33, -1], [0.33, -0.33], [1, -0.33], [1, 0.33], [0.33, 0.33], [0.33, 1], [-0.33, 1],
      [-0.33, 0.33], [-1, 0.33], [-1, -0.33], [-0.33, -0.33]],
    house: [[0, -1.05], [0.95, -0.2], [0.95, 0.9], [-0.95, 0.9], [-0.95, -0.2]],
    parallelogram: [[-0.45, -0.75], [1.05, -0.75], [0.45, 0.75], [-1.05, 0.75]],
    arrow: [[0, -1.1], [1.0, 0.0], [0.4, 0.0], [0.4, 1.0], [-0.4, 1.0], [-0.4, 0.0], [-1.0, 0.0]],
  };
  const ROUND = new Set(["dot", "ring"]);

  function darker(hex) {
    const n = parseInt(hex.slice(1), 16);
    const part = (shift) => Math.round(((n >> shift) & 255) * 0.7).toString(16).padStart(2, "0");
    return "#" + part(16) + part(8) + part(0);
  }

  function tracePath(ctx, shape, x, y, r) {
    ctx.beginPath();
    if (ROUND.has(shape)) {
      ctx.arc(x, y, r, 0, 2 * Math.PI);
      if (shape === "ring") { ctx.moveTo(x + r * 0.45, y); ctx.arc(x, y, r * 0.45, 0, 2 * Math.PI, true); }
    } else {
      (OUTLINES[shape] || OUTLINES.square).forEach(([px, py], i) => {
        if (i === 0) ctx.moveTo(x + px * r, y + py * r); else ctx.lineTo(x + px * r, y + py * r);
      });
    }
    ctx.closePath();
  }

  /* A legend icon: the node type's shape in its colour, as SVG. */
  function icon(style) {
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("class", "icon");
    svg.setAttribute("width", "14");
    svg.setAttribute("height", "14");
    svg.setAttribute("viewBox", "-1.2 -1.2 2.4 2.4");
    let shape;
    if (ROUND.has(style.shape)) {
      shape = document.createElementNS(SVG, "circle");
      shape.setAttribute("r", style.shape === "ring" ? "0.72" : "0.95");
      if (style.shape === "ring") { shape.setAttribute("fill", "none"); shape.setAttribute("stroke-width", "0.5"); }
    } else {
      shape = document.createElementNS(SVG, "polygon");
      shape.setAttribute("points", OUTLINES[style.shape].map(([x, y]) => x.toFixed(3) + "," + y.toFixed(3)).join(" "));
      shape.setAttribute("stroke-width", "0.12");
    }
    if (style.shape !== "ring") shape.setAttribute("fill", style.color);
    shape.setAttribute("stroke", style.shape === "ring" ? style.color : darker(style.color));
    shape.setAttribute("data-shape", style.shape);
    svg.appendChild(shape);
    return svg;
  }

  /* ---- labels: drawn over vis-network's canvas at a fixed size on screen ----
     vis-network scales label text with the zoom, so a whole graph fitted to the window has
     unreadable 4 px names. Here the names that matter (tier 0: authors, papers, what the papers
     introduce; tier 1: the benchmarks, datasets and models they use, categories) are always
     drawn at LABEL_PX; the rest (tier 2) appear once the zoom makes room for them. Labels never
     overlap: in order of importance (a node's rank), each takes the first free place around its
     node, or is left out until zooming in frees one. */
  const LABEL_PX = [14, 13, 12];
  const MINOR_LABEL_SCALE = 0.7; // tier-2 labels appear from this zoom on
  const LABEL_FONT = "system-ui, -apple-system, 'Segoe UI', sans-serif";
  const CELL = 64;

  function cellsOf(box) {
    const cells = [];
    for (let gx = Math.floor(box[0] / CELL); gx <= Math.floor(box[2] / CELL); gx += 1) {
      for (let gy = Math.floor(box[1] / CELL); gy <= Math.floor(box[3] / CELL); gy += 1) cells.push(gx + "," + gy);
    }
    return cells;
  }

  function hits(grid, box) {
    return cellsOf(box).some((cell) => (grid.get(cell) || []).some((other) =>
      box[0] < other[2] && other[0] < box[2] && box[1] < other[3] && other[1] < box[3]));
  }

  function occupy(grid, box) {
    cellsOf(box).forEach((cell) => { if (!grid.has(cell)) grid.set(cell, []); grid.get(cell).push(box); });
  }

  /* create(container, {kinds, relations, options}): a network in ``container``.
     ``kinds``: kind -> {color, shape}; ``relations``: relation -> {color, dashes};
     ``options``: vis-network options. Nodes are records {id, kind, label, tier, rank, size, x, y}. */
  function create(container, config) {
    const kinds = config.kinds;
    const relations = config.relations;
    const records = new Map();
    const hidden = new Set();
    const nodes = new vis.DataSet();
    const edges = new vis.DataSet();
    const network = new vis.Network(container, {}, config.options);
    const widths = new Map();
    let order = [];
    let hovered = null;
    let drawnLabels = [];

    function drawShape(ctx, id, x, y, state, style) {
      tracePath(ctx, kinds[records.get(id).kind].shape, x, y, style.size);
      ctx.fillStyle = style.color;
      ctx.strokeStyle = style.borderColor;
      ctx.lineWidth = (state.selected || state.hover ? 2.5 : 1) / Math.max(network.getScale(), 0.2);
      ctx.fill("evenodd");
      ctx.stroke();
    }

    function visNode(n) {
      const color = kinds[n.kind].color;
      const edge = { background: color, border: "#111111" };
      const item = {
        id: n.id, size: n.size, shape: "custom", hidden: hidden.has(n.id), mass: n.tier < 2 ? 2 : 1, // named nodes push harder: room for their labels
        ctxRenderer: ({ ctx, id, x, y, state, style }) => ({
          drawNode: () => drawShape(ctx, id, x, y, state, style),
          nodeDimensions: { width: 2.2 * style.size, height: 2.2 * style.size },
        }),
        color: { background: color, border: darker(color), highlight: edge, hover: edge },
      };
      if (n.x !== undefined && n.y !== undefined) { item.x = n.x; item.y = n.y; }
      return item;
    }

    function visEdge(e) {
      const style = relations[e.relation];
      const item = { id: e.id, from: e.from, to: e.to, dashes: style.dashes, hidden: false,
        color: { color: style.color, highlight: "#222222", hover: "#222222" } };
      if (e.label) item.label = e.label;
      return item;
    }

    function reorder() {
      order = [...records.keys()].sort((a, b) => records.get(a).rank - records.get(b).rank || (a < b ? -1 : a > b ? 1 : 0));
    }

    /* Add (or update) nodes and edges; existing ids are replaced. */
    function add(nodeList, edgeList) {
      (nodeList || []).forEach((n) => records.set(n.id, n));
      if (nodeList && nodeList.length) nodes.update(nodeList.map(visNode));
      if (edgeList && edgeList.length) edges.update(edgeList.map(visEdge));
      reorder();
    }

    function clear() {
      records.clear();
      hidden.clear();
      nodes.clear();
      edges.clear();
      order = [];
    }

    /* Show or hide nodes: ``changes`` maps node id -> hidden (true/false). */
    function setHidden(changes) {
      const updates = [];
      changes.forEach((hide, id) => {
        if (hide === hidden.has(id)) return;
        if (hide) hidden.add(id); else hidden.delete(id);
        updates.push({ id, hidden: hide });
      });
      if (updates.length) nodes.update(updates);
    }

    function textWidth(ctx, id, bold) {
      const key = id + (bold ? "\u0001b" : "\u0001");
      if (!widths.has(key)) widths.set(key, ctx.measureText(records.get(id).label).width);
      return widths.get(key);
    }

    function drawLabels(ctx) {
      const canvas = ctx.canvas;
      const width = canvas.clientWidth;
      const height = canvas.clientHeight;
      const ratio = canvas.width / Math.max(width, 1);
      const scale = network.getScale();
      const centre = network.getViewPosition();
      const positions = network.getPositions();
      const labels = new Map(); // boxes of labels drawn: no label may overlap another
      const shapes = new Map(); // boxes of the nodes whose labels always show: avoided where possible
      const placed = [];
      ctx.save();
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      ctx.textAlign = "left";
      ctx.textBaseline = "top";
      ctx.lineJoin = "round";
      const selected = network.getSelectedNodes()[0];
      const first = [hovered, selected].filter((id) => id !== null && id !== undefined && records.has(id) && !hidden.has(id));
      const sequence = first.concat(order.filter((id) => !first.includes(id)));
      const screen = new Map();
      sequence.forEach((id) => {
        if (hidden.has(id) || !positions[id]) return;
        const p = positions[id];
        const x = (p.x - centre.x) * scale + width / 2;
        const y = (p.y - centre.y) * scale + height / 2;
        const r = Math.max(records.get(id).size * scale, 2);
        screen.set(id, [x, y, r]);
        if (records.get(id).tier < 2) occupy(shapes, [x - r, y - r, x + r, y + r]);
      });
      sequence.forEach((id) => {
        const n = records.get(id);
        if (!screen.has(id) || !n.label) return;
        const urgent = id === hovered || id === selected;
        if (n.tier === 2 && scale < MINOR_LABEL_SCALE && !urgent) return;
        const [x, y, r] = screen.get(id);
        if (x < -200 || y < -40 || x > width + 200 || y > height + 40) return;
        const px = LABEL_PX[n.tier];
        const bold = n.tier === 0 || urgent;
        ctx.font = (bold ? "600 " : "") + px + "px " + LABEL_FONT;
        const w = textWidth(ctx, id, bold) + 4;
        const h = px + 3;
        const d = r * 0.7;
        // the label's boxes at these top-left corners that lie inside the canvas
        const inside = (corners) => corners.map(([left, top]) => [left, top, left + w, top + h])
          .filter((b) => b[0] >= 0 && b[1] >= 0 && b[2] <= width && b[3] <= height);
        const spots = inside([[x - w / 2, y + r + 1], [x - w / 2, y - r - 1 - h], [x + r + 2, y - h / 2],
          [x - r - 2 - w, y - h / 2], [x + d, y + d], [x - d - w, y + d], [x + d, y - d - h], [x - d - w, y - d - h]]);
        let box = spots.find((b) => !hits(labels, b) && !hits(shapes, b));
        // the names that matter most may cover another node's shape, or sit one label farther
        // out, rather than go missing
        if (box === undefined && n.tier === 0) box = spots.find((b) => !hits(labels, b));
        if (box === undefined && n.tier === 0) {
          box = inside([[x - w / 2, y + r + 2 + h], [x - w / 2, y - r - 2 - 2 * h], [x + r + 4 + w / 2, y - h / 2],
            [x - r - 4 - 1.5 * w, y - h / 2]]).find((b) => !hits(labels, b));
        }
        if (box === undefined && n.tier === 0) {
          // a long name near the canvas's edge: slid inside it, up to four rows below or above
          const left = Math.min(Math.max(x - w / 2, 0), width - w);
          box = inside([0, 1, 2, 3].flatMap((k) => [[left, y + r + 1 + k * h], [left, y - r - 1 - (k + 1) * h]]))
            .find((b) => !hits(labels, b));
        }
        // the selected or hovered node's label is always drawn
        if (box === undefined && urgent) box = [x - w / 2, y + r + 1, x + w / 2, y + r + 1 + h];
        if (box === undefined) return;
        occupy(labels, box);
        ctx.lineWidth = 3;
        ctx.strokeStyle = "rgba(255,255,255,0.92)";
        ctx.strokeText(n.label, box[0] + 2, box[1] + 1.5);
        ctx.fillStyle = urgent ? "#000000" : n.tier === 2 ? "#444444" : "#1a1a1a";
        ctx.fillText(n.label, box[0] + 2, box[1] + 1.5);
        placed.push({ id, text: n.label, px, x: box[0], y: box[1], width: w, height: h });
      });
      ctx.restore();
      drawnLabels = placed;
    }

    network.on("afterDrawing", drawLabels);
    network.on("hoverNode", (p) => { hovered = p.node; });
    network.on("blurNode", () => { hovered = null; });

    return {
      network, nodes, edges, add, clear, setHidden,
      record: (id) => records.get(id),
      has: (id) => records.has(id),
      isHidden: (id) => hidden.has(id),
      drawnLabels: () => drawnLabels.slice(),
      start: () => network.setData({ nodes, edges }),
    };
  }

  window.SkgGraph = { create, icon, darker };
})();
