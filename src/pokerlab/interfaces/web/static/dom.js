// Small helpers for building the page from plain DOM nodes (no framework, no build step).

/**
 * h("button", {type: "button", onclick: f}, "Fold") makes an element. Attributes starting with "on" are
 * event listeners, `class` and `text` are shortcuts, `null`/`false` attributes and children are skipped.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key === "style" && typeof value === "object") Object.assign(el.style, value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

/** Chips with a thousands separator: 12,340. */
export function chips(n) {
  return Number(n).toLocaleString("en-US");
}

/** A signed amount: +40, -20, 0. */
export function signed(n) {
  return n > 0 ? `+${chips(n)}` : chips(n);
}

/** Epoch milliseconds as a short local date and time. */
export function when(ms) {
  if (ms === null || ms === undefined) return "";
  const date = new Date(typeof ms === "number" ? ms : Date.parse(ms));
  return Number.isNaN(date.getTime()) ? String(ms) : date.toLocaleString();
}

/** True when a key press belongs to a text field (so page shortcuts leave it alone). */
export function typingIn(event) {
  const t = event.target;
  return t instanceof HTMLElement && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName));
}
