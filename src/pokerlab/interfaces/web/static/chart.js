// A line chart as an SVG element, drawn here (no chart library, works offline).

const SVG = "http://www.w3.org/2000/svg";

function s(tag, attrs = {}, text) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  if (text !== undefined) el.textContent = text;
  return el;
}

/** About `count` round tick values covering [low, high]: the step of 1, 2, 5 or 10 times a power of ten
 * nearest to (high - low) / count. */
export function ticks(low, high, count = 5) {
  if (!(high > low)) return [low];
  const raw = (high - low) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).reduce((a, b) => (Math.abs(b - raw) < Math.abs(a - raw) ? b : a));
  const out = [];
  for (let v = Math.ceil(low / step) * step; v <= high + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

/**
 * points: [{x, y}] in increasing x. Returns an <svg> with axes, ticks, the line and a text description
 * (`title` and `summary`) for screen readers.
 */
export function lineChart(points, { title, summary, xLabel, yLabel, width = 640, height = 280, baseline = null } = {}) {
  const pad = { left: 64, right: 16, top: 16, bottom: 44 };
  const svg = s("svg", {
    viewBox: `0 0 ${width} ${height}`,
    class: "chart",
    role: "img",
    "aria-label": `${title}. ${summary || ""}`.trim(),
  });
  svg.append(s("title", {}, title));
  if (!points.length) {
    svg.append(s("text", { x: width / 2, y: height / 2, "text-anchor": "middle" }, "no hands yet"));
    return svg;
  }
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y).concat(baseline === null ? [] : [baseline]);
  let [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  let [y0, y1] = [Math.min(...ys), Math.max(...ys)];
  if (x0 === x1) [x0, x1] = [x0 - 1, x1 + 1];
  if (y1 - y0 < 10) [y0, y1] = [y0 - 5, y1 + 5];
  const margin = (y1 - y0) * 0.05;
  [y0, y1] = [y0 - margin, y1 + margin];
  const px = (x) => pad.left + ((x - x0) / (x1 - x0)) * (width - pad.left - pad.right);
  const py = (y) => height - pad.bottom - ((y - y0) / (y1 - y0)) * (height - pad.top - pad.bottom);
  const axes = s("g", { class: "axes" });
  axes.append(s("line", { x1: pad.left, y1: height - pad.bottom, x2: width - pad.right, y2: height - pad.bottom }));
  axes.append(s("line", { x1: pad.left, y1: pad.top, x2: pad.left, y2: height - pad.bottom }));
  for (const v of ticks(y0, y1).filter(Number.isInteger)) {
    axes.append(s("line", { class: "grid", x1: pad.left, y1: py(v), x2: width - pad.right, y2: py(v) }));
    axes.append(s("text", { x: pad.left - 6, y: py(v) + 4, "text-anchor": "end" }, v.toLocaleString("en-US")));
  }
  for (const v of ticks(x0, x1).filter(Number.isInteger)) {
    axes.append(s("line", { x1: px(v), y1: height - pad.bottom, x2: px(v), y2: height - pad.bottom + 4 }));
    axes.append(s("text", { x: px(v), y: height - pad.bottom + 16, "text-anchor": "middle" }, v.toLocaleString("en-US")));
  }
  if (xLabel) axes.append(s("text", { x: (pad.left + width - pad.right) / 2, y: height - 6, "text-anchor": "middle" }, xLabel));
  if (yLabel) {
    axes.append(s("text", { x: 14, y: (pad.top + height - pad.bottom) / 2, "text-anchor": "middle",
      transform: `rotate(-90 14 ${(pad.top + height - pad.bottom) / 2})` }, yLabel));
  }
  svg.append(axes);
  if (baseline !== null) {
    svg.append(s("line", { class: "baseline", x1: pad.left, y1: py(baseline), x2: width - pad.right, y2: py(baseline) }));
  }
  const path = points.map((p, i) => `${i ? "L" : "M"}${px(p.x).toFixed(1)},${py(p.y).toFixed(1)}`).join(" ");
  svg.append(s("path", { class: "line", d: path }));
  if (points.length <= 60) {
    for (const p of points) svg.append(s("circle", { class: "dot", cx: px(p.x), cy: py(p.y), r: 2.5 }));
  }
  return svg;
}
