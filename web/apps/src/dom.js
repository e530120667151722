// Small DOM helpers: every value from a result goes in as text, never as
// markup.

// h makes an element: attrs are attributes (on* keys are listeners; false
// and null leave the attribute out), kids are nodes, strings or arrays.
export function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === false || v == null) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  return put(el, kids, false);
}

// put gives el the children kids (nested arrays flattened; null, undefined
// and false left out; anything else not a node as text): replacing what it
// had unless keep.
export function put(el, kids, keep) {
  const nodes = [kids].flat(Infinity).filter((k) => k != null && k !== false)
    .map((k) => (k instanceof Node ? k : document.createTextNode(String(k))));
  if (keep) el.append(...nodes);
  else el.replaceChildren(...nodes);
  return el;
}

// resultData is a tool result's JSON: structuredContent, or the JSON of its
// first text block.
export function resultData(res) {
  if (res && res.structuredContent) return res.structuredContent;
  const text = res && res.content && res.content.find((c) => c.type === "text");
  try {
    return text ? JSON.parse(text.text) : {};
  } catch {
    return {};
  }
}

// problemText is what a person reads of a failed call: the problem's detail
// and the invalid fields.
export function problemText(res) {
  const p = resultData(res);
  const fields = (p.errors || []).map((e) => e.field + ": " + (e.message || e.rule)).join("; ");
  return [p.detail || p.title || "The call failed.", fields].filter(Boolean).join(" ");
}

// tint picks the monogram colour from the slug as web/rows.go logoTint
// does (FNV-1a, 32 bit, modulo the 8 tints of the stylesheet).
export function tint(slug) {
  let x = 0x811c9dc5;
  for (const b of new TextEncoder().encode(slug || "")) {
    x ^= b;
    x = Math.imul(x, 0x01000193) >>> 0;
  }
  return x % 8;
}

// monogram is the listing's initial on its tinted square (logos live on
// other sites, and a card loads nothing from outside).
export function monogram(l) {
  const initial = Array.from((l.name || "?").trim())[0] || "?";
  return h("span", { class: "logo tint-" + tint(l.slug), "aria-hidden": "true" }, initial);
}

// link is an anchor the host opens (a sandboxed card cannot navigate).
export function link(ctx, url, text, attrs) {
  return h("a", {
    href: url, target: "_blank", rel: "noopener", ...attrs,
    onclick: (ev) => {
      ev.preventDefault();
      ctx.open(url).catch(() => {});
    },
  }, text);
}

// money formats cents of a currency as a person reads it.
export function money(cents, currency) {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency: currency || "USD" }).format((cents || 0) / 100);
  } catch {
    return ((cents || 0) / 100).toFixed(2) + " " + (currency || "");
  }
}

export const plural = (n, one, many) => n + " " + (n === 1 ? one : many);
