// Checkout hand-off: the quote's or order's lines, VAT and total, and ONE
// button that asks the host to open checkout_url in the browser. Never a
// form, never card details: the person pays on the site's checkout page.
import { h, money } from "./dom.js";

export function renderCheckout(o, ctx) {
  const cur = o.currency;
  const lines = o.lines || [];
  const vat = o.vat || {};
  const table = h("table", { class: "board" },
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, "Item"), h("th", { scope: "col", class: "num" }, "Price"),
      h("th", { scope: "col", class: "num" }, "VAT"), h("th", { scope: "col", class: "num" }, "Total"))),
    h("tbody", {}, lines.map((l) => h("tr", {},
      h("td", {}, h("strong", {}, l.name), l.listing_name ? " for " + l.listing_name : "",
        l.quantity > 1 ? " × " + l.quantity : "", l.effect && h("br"), l.effect && h("small", {}, l.effect)),
      h("td", { class: "num" }, money(l.amount_cents, cur)),
      h("td", { class: "num" }, money(l.vat_cents, cur)),
      h("td", { class: "num" }, money(l.total_cents, cur))))),
    h("tfoot", {},
      h("tr", {}, h("th", { scope: "row", colspan: 3 }, "Subtotal"), h("td", { class: "num" }, money(o.subtotal_cents, cur))),
      h("tr", {}, h("th", { scope: "row", colspan: 3 }, "VAT" + (vat.rate_percent != null ? " (" + vat.rate_percent + "%" + (vat.country ? ", " + vat.country : "") + ")" : "")),
        h("td", { class: "num" }, money(vat.cents, cur))),
      h("tr", {}, h("th", { scope: "row", colspan: 3 }, "Total"), h("td", { class: "num" }, h("strong", { "data-total": "" }, money(o.total_cents, cur))))));

  const status = h("p", { class: "card-status meta", role: "status" });
  const out = [h("h2", {}, o.number ? "Order " + o.number : "Quote"), table];
  if (vat.note) out.push(h("p", { class: "meta" }, vat.note));
  const payable = o.checkout_url && (!o.status || o.status === "pending");
  if (payable) {
    let host = "";
    try { host = new URL(o.checkout_url).host; } catch {}
    out.push(h("div", { class: "actions" }, h("button", { type: "button", "data-action": "checkout", onclick: async () => {
      status.textContent = "Opening the checkout page…";
      try {
        await ctx.open(o.checkout_url);
        status.textContent = "The checkout page is open in your browser: review the order and pay there.";
      } catch (err) {
        status.textContent = err.message + " The link: " + o.checkout_url;
      }
    } }, "Pay on " + (host || "the checkout page"))));
    out.push(h("p", { class: "meta" }, "You pay on the site's checkout page, never in the conversation." +
      (o.expires_at ? " The link works until " + o.expires_at.slice(0, 10) + "." : "")));
  } else if (o.status) {
    out.push(h("p", {}, "Status: ", h("strong", {}, o.status)));
  } else {
    out.push(h("p", { class: "meta" }, "Nothing is saved yet. Ask the assistant to create the checkout to get the payment link."));
  }
  out.push(status);
  return out;
}
