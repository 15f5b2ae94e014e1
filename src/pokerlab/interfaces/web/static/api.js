// The HTTP side of docs/web-protocol.md: JSON in and out, the session cookie sent by the browser.

/** An answer that was not 2xx; `message` is the server's own wording (its `detail`). */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** The server's `detail` as one line: a string as it is, a list of validation errors joined. */
function detailText(data, res) {
  const detail = data && typeof data === "object" ? data.detail : data;
  if (typeof detail === "string" && detail) return detail;
  if (Array.isArray(detail)) return detail.map((d) => d.msg || JSON.stringify(d)).join("; ");
  if (detail) return JSON.stringify(detail);
  return `${res.status} ${res.statusText}`.trim();
}

/** Calls the API; resolves to the parsed answer (null for 204), rejects with an ApiError. */
export async function api(method, path, body) {
  const options = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
  // the CSRF defence: another site's page cannot send this header (docs/web-protocol.md)
  if (method !== "GET") options.headers["X-Requested-With"] = "pokerlab";
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const res = await fetch(path, options);
  if (res.status === 204) return null;
  const text = await res.text();
  let data = text;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  if (!res.ok) throw new ApiError(res.status, detailText(data, res));
  return data;
}

/** The WebSocket address of a table, on this page's host. */
export function tableSocketUrl(tableId) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws/tables/${encodeURIComponent(tableId)}`;
}
