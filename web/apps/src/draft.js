// Draft review: every field with its value, state and evidence quotes (with
// the page each came from). Accept (lock the drafted value against AI
// redrafts), edit, clear or restore a field: each is one update_draft call
// through the host, and the card shows the draft it returns. "Save as
// listing" is submit_draft.
import { h, link, put } from "./dom.js";

const STATE = {
  ai: "Drafted from the site",
  manual: "Typed by you",
  override: "Locked",
  not_found: "Not on the site",
};

// FIELD_ORDER is the order of a profile's fields, domain.DraftFieldNames
// (TestDraftFieldOrder checks it): the card lists them so, name first, and
// any field it does not know after them.
export const FIELD_ORDER = ["name", "tagline", "short_description", "description", "stage", "categories", "tags",
  "pricing_model", "pricing_summary", "country", "city", "founded_year", "features", "usps",
  "keywords", "contact_email", "demo_video_url", "logo_url"];

const rank = (name) => (FIELD_ORDER.includes(name) ? FIELD_ORDER.indexOf(name) : FIELD_ORDER.length);

// NAMES spell the fields as the site's pages do (web/words.go factNames;
// TestDraftFieldNames keeps them in step); a field not here is written with
// spaces for underscores, capitalised.
export const NAMES = { name: "Name", tagline: "Tagline", short_description: "Short description",
  description: "Description", stage: "Business stage", categories: "Categories", tags: "Tags",
  pricing_model: "Pricing model", pricing_summary: "Pricing", country: "Country", city: "City",
  founded_year: "Year founded", features: "Features", usps: "What sets it apart", keywords: "Keywords",
  contact_email: "Contact email", demo_video_url: "Demo video", logo_url: "Logo" };

const label = (f) => NAMES[f] || f.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());

function shown(v) {
  if (v == null || v === "") return "";
  if (Array.isArray(v)) return v.map((x) => (typeof x === "object" ? JSON.stringify(x) : String(x))).join("\n");
  return typeof v === "object" ? JSON.stringify(v) : String(v);
}

// editable: strings, numbers and lists of strings (one per line).
const editable = (v) => v == null || typeof v !== "object" || (Array.isArray(v) && v.every((x) => typeof x === "string"));

function parse(name, text, old) {
  const t = text.trim();
  if (Array.isArray(old)) return t ? t.split("\n").map((s) => s.trim()).filter(Boolean) : [];
  if (typeof old === "number" || (name === "founded_year" && /^\d+$/.test(t))) return Number(t);
  return t;
}

export function renderDraft(draft, ctx) {
  if (draft.listing_id != null && !draft.fields) {
    // submit_draft's answer, shown when the card is linked to it by a host.
    return [h("h2", {}, "Saved as a listing"), h("p", {}, draft.next || "")];
  }
  const status = h("p", { class: "card-status meta", role: "status" });
  let busy = false;

  async function update(args, what) {
    if (busy) return;
    busy = true;
    status.textContent = what + "…";
    status.classList.remove("error");
    try {
      const next = await ctx.call("update_draft", { id: draft.id, ...args });
      ctx.show(next);
    } catch (err) {
      busy = false;
      status.textContent = err.message;
      status.classList.add("error");
    }
  }

  const fields = Object.entries(draft.fields || {})
    .sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  const list = h("ul", { class: "fields" }, fields.map(([name, f]) => {
    const li = h("li", { "data-field": name });
    const value = shown(f.value);
    const actions = h("div", { class: "actions" });
    const fill = () => {
      put(li, [
        h("strong", { id: "f-" + name }, label(name)), " ",
        h("span", { class: "tag" + (f.state === "override" ? " verified" : ""), "data-state": f.state }, STATE[f.state] || f.state),
        value ? h("div", { class: "value", "aria-labelledby": "f-" + name }, value) : h("div", { class: "value meta" }, "Empty"),
        (f.evidence || []).map((e) => h("blockquote", {},
          "“" + e.quote + "”", h("br"), h("small", {}, "from ", link(ctx, e.url, e.url)))),
        actions]);
      put(actions, [
        f.state === "ai" && value && h("button", { type: "button", "data-action": "accept",
          onclick: () => update({ lock_fields: [name] }, "Accepting " + label(name)) }, "Accept"),
        editable(f.value) && h("button", { type: "button", class: "quiet", "data-action": "edit", onclick: edit }, "Edit"),
        (f.state === "manual") && h("button", { type: "button", class: "quiet", "data-action": "lock",
          onclick: () => update({ lock_fields: [name] }, "Locking " + label(name)) }, "Lock"),
        value && h("button", { type: "button", class: "quiet", "data-action": "clear",
          onclick: () => update({ fields: { [name]: null } }, "Clearing " + label(name)) }, "Clear"),
        (f.state === "override" || f.state === "manual") && f.evidence && f.evidence.length && h("button", { type: "button", class: "quiet",
          "data-action": "restore", onclick: () => update({ restore: [name] }, "Restoring " + label(name)) }, "Restore drafted")]);
    };
    function edit() {
      const id = "edit-" + name;
      const box = h("textarea", { id, rows: Array.isArray(f.value) ? 4 : (value.length > 80 ? 4 : 1) });
      box.value = value;
      put(actions, [
        h("button", { type: "button", "data-action": "save",
          onclick: () => update({ fields: { [name]: parse(name, box.value, f.value) } }, "Saving " + label(name)) }, "Save"),
        h("button", { type: "button", class: "quiet", onclick: fill }, "Cancel")]);
      li.querySelector(".value").replaceWith(h("label", { for: id, class: "meta" }, Array.isArray(f.value) ? "One per line" : "New value"), box);
      box.focus();
    }
    fill();
    return li;
  }));

  const submit = h("button", { type: "button", "data-action": "submit", onclick: async () => {
    if (busy) return;
    busy = true;
    status.textContent = "Saving the draft as your listing…";
    try {
      const res = await ctx.call("submit_draft", { id: draft.id });
      status.textContent = "Saved as listing " + res.listing_id + ". " + (res.next || "");
      submit.disabled = true;
    } catch (err) {
      status.textContent = err.message;
      status.classList.add("error");
    }
    busy = false;
  } }, draft.listing_id ? "Save changes to the listing" : "Save as listing");

  const missing = draft.not_found_on_website || [];
  return [
    h("h2", {}, "Draft of " + ((draft.fields && draft.fields.name && draft.fields.name.value) || draft.url || "your product")),
    h("p", { class: "meta" }, (draft.completeness != null ? draft.completeness + "% complete · " : "") +
      (draft.status || "") + (missing.length ? " · not on the site: " + missing.map(label).join(", ") : "")),
    draft.status && draft.status !== "ready" && draft.status !== "submitted"
      ? h("p", {}, "The draft is still being written; ask again in a few seconds.") : null,
    list,
    h("div", { class: "actions" }, submit),
    status,
  ];
}
