// Badge picker: kind, shape, mode and size of get_badges with a live
// preview (the style's svg_url, an image of the site's own origin) and the
// embed code of that style, asked of get_badges through the host so that
// the code copied is exactly the server's.
import { h } from "./dom.js";

const uniq = (xs) => [...new Set(xs)];

export function renderBadges(data, ctx) {
  const items = data.items || [];
  if (!items.length) return [h("p", { class: "meta" }, "This listing has no badges yet.")];
  const pick = { kind: items[0].kind, shape: data.shape || "standard", mode: data.mode || "auto", size: data.size || "m" };
  const codes = new Map(); // "kind shape mode size" -> embed_html
  for (const it of items) codes.set([it.kind, data.shape, data.mode, data.size].join(" "), it.embed_html);

  const styles = items[0].styles || [];
  const opts = { kind: items.map((i) => i.kind), shape: uniq(styles.map((s) => s.shape)),
    mode: uniq(styles.map((s) => s.mode)), size: uniq(styles.map((s) => s.size)) };
  const labels = { kind: "Badge", shape: "Shape", mode: "Mode", size: "Size" };

  const img = h("img", { alt: "" });
  const code = h("textarea", { id: "embed", rows: 4, readonly: true });
  const status = h("p", { class: "card-status meta", role: "status" });

  const key = () => [pick.kind, pick.shape, pick.mode, pick.size].join(" ");
  async function refresh() {
    const it = items.find((i) => i.kind === pick.kind);
    const st = (it.styles || []).find((s) => s.shape === pick.shape && s.mode === pick.mode && s.size === pick.size);
    img.src = st ? st.svg_url : it.svg_url;
    img.alt = it.label + " (" + pick.shape + ", " + pick.mode + ", " + pick.size + ")";
    const k = key();
    if (!codes.has(k)) {
      code.value = "";
      status.textContent = "Getting the embed code…";
      try {
        const res = await ctx.call("get_badges", { slug: data.listing, shape: pick.shape, mode: pick.mode, size: pick.size });
        for (const b of res.items || []) codes.set([b.kind, pick.shape, pick.mode, pick.size].join(" "), b.embed_html);
        status.textContent = "";
      } catch (err) {
        status.textContent = err.message;
        return;
      }
    }
    if (k === key()) code.value = codes.get(k) || "";
  }

  const selects = Object.keys(opts).map((f) => {
    const id = "pick-" + f;
    const sel = h("select", { id, onchange: (ev) => { pick[f] = ev.target.value; refresh(); } },
      opts[f].map((v) => h("option", { value: v, selected: v === pick[f] }, v)));
    return h("div", {}, h("label", { for: id }, labels[f]), sel);
  });

  const copy = h("button", { type: "button", "data-action": "copy", onclick: async () => {
    try {
      await navigator.clipboard.writeText(code.value);
    } catch {
      code.select(); // a host that denies the clipboard: select it for the person
      document.execCommand && document.execCommand("copy");
    }
    status.textContent = "Embed code copied.";
  } }, "Copy embed code");

  refresh();
  return [
    h("h2", {}, "Badges for " + (data.name || data.listing || "your listing")),
    h("div", { class: "picker" }, selects),
    h("div", { class: "badge-preview" }, img),
    h("label", { for: "embed" }, "Embed code"),
    code,
    h("div", { class: "actions" }, copy),
    status,
  ];
}
