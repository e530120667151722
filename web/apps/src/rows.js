// Listing rows and ranked rows, the markup of the site's templates/row.html
// (the same classes, so the same stylesheet draws them).
import { h, link, monogram, plural } from "./dom.js";

const PAID = () => h("span", { class: "tag paid", title: "Paid placement, not a community ranking" }, "PAID");

function row(ctx, l, { rank, metric, paid } = {}) {
  const cat = l.primary_category && l.primary_category.name;
  // The launch week in one piece: a phone's line would break at the date's hyphen.
  const meta = [cat, l.stage, l.launch_week && h("span", { class: "week" }, "week of " + l.launch_week)]
    .filter(Boolean).flatMap((x, i) => (i ? [" · ", x] : [x]));
  return h("li", { class: paid ? "paid" : null },
    rank != null && h("span", { class: "rank" }, "#" + rank),
    monogram(l),
    h("span", { class: "what" },
      link(ctx, l.page_url, l.name, { class: "name" }), " ",
      paid && PAID(),
      l.tagline && h("span", { class: "tagline" }, l.tagline),
      meta.length > 0 && h("span", { class: "row-meta" }, meta)),
    h("span", { class: "act" },
      h("span", { class: "metric" }, metric || [h("strong", {}, String(l.votes || 0)), " ", (l.votes === 1 ? "vote" : "votes")])));
}

// renderListings: search_listings, list_launches, get_alternatives (a list)
// or get_listing (one listing).
export function renderListings(data, ctx) {
  const one = !Array.isArray(data.items);
  const items = one ? [data] : data.items.map((it) => it.listing || it);
  const q = ctx.input.q;
  let head;
  if (one) head = "Listing";
  else if (q) head = plural(data.total != null ? data.total : items.length, "result", "results") + " for “" + q + "”";
  else head = plural(data.total != null ? data.total : items.length, "listing", "listings");
  const out = [h("h2", {}, head)];
  if (!items.length) return out.concat(h("p", { class: "meta" }, "Nothing found."));
  out.push(h("ul", { class: "rows" }, items.map((l) => {
    const pp = l.paid_placement;
    return row(ctx, l, { paid: !!(pp && pp.paid), metric: null });
  })));
  if (one && data.paid_placement && data.paid_placement.paid) {
    out.push(h("p", { class: "paid-banner" }, "PAID: ", data.paid_placement.amount_label || data.paid_placement.label || "on the billboard"));
  }
  if (data.has_more) out.push(h("p", { class: "meta" }, "More results: ask for the next page."));
  return out;
}

// renderRankings: get_launch_week or get_leaderboard, ranked rows. The
// billboard is a PAID ranking: its banner and every row say so.
export function renderRankings(data, ctx) {
  const board = data.board;
  const billboard = data.paid === true || board === "billboard" || (data.items || []).some((it) => it.paid);
  let head;
  if (board) head = data.title || board.replace(/-/g, " ");
  else head = "Launch week " + (data.week || data.starts_at || ctx.input.week || "").toString().slice(0, 10);
  const out = [h("h2", {}, head)];
  if (billboard) out.push(h("p", { class: "paid-banner", role: "note" }, "PAID ranking: ordered by money contributed, not by community votes."));
  else if (data.description) out.push(h("p", { class: "meta" }, data.description));
  const items = data.items || [];
  if (!items.length) return out.concat(h("p", { class: "meta" }, "No launches yet."));
  out.push(h("ol", { class: "rows ranked", "aria-label": head }, items.map((it) => {
    const l = it.listing || it;
    const paid = billboard || !!it.paid;
    let metric = null;
    if (it.metric_label) metric = it.metric_label;
    else if (it.week_votes != null) metric = [h("strong", {}, String(it.week_votes)), it.week_votes === 1 ? " vote this week" : " votes this week"];
    return row(ctx, l, { rank: it.rank, metric, paid });
  })));
  return out;
}
