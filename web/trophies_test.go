package web

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestTrophies_ListingPageAndConsole: the listing page shows the public
// cabinet (verified and unconfirmed trophies, each saying how and when; not
// pending or rejected ones); the console's queue is the site team's only,
// a reject without a reason is refused with the form again and changes
// nothing, and a verify or reject by hand is what the owner and the page see.
func TestTrophies_ListingPageAndConsole(t *testing.T) {
	t.Parallel()
	e := newQueueEnv(t)
	slug := fmt.Sprint(e.rows(t, "listings", map[string]any{"id": e.listing})[0]["slug"])
	site := fixtures.First(t, e.db, "sites")
	at := testNow.Unix()
	add := func(title, state string, cols fixtures.Cols) int64 {
		row := fixtures.Cols{"site_id": site, "listing_id": e.listing, "platform": "Hunt", "title": title, "rank": 1, "won_on": "2026-11-02",
			"award_url": "https://hunt.test/" + title, "state": state, "created_at": at}
		for k, v := range cols {
			row[k] = v
		}
		return fixtures.Insert(t, e.db, "trophies", row)
	}
	add("Shown-verified", "verified", fixtures.Cols{"method": "page", "evidence": "links to https://acme.test/", "verified_at": at, "checked_at": at})
	add("Shown-unconfirmed", "unconfirmed", fixtures.Cols{"method": "page", "reason": "The award page could not be read: it answered 404 Not Found.",
		"verified_at": at - 86400*40, "checked_at": at, "unconfirmed_since": at})
	pending := add("Hidden-pending", "pending", fixtures.Cols{"next_check_at": at})
	other := add("Hidden-pending-two", "pending", fixtures.Cols{"next_check_at": at})
	add("Hidden-rejected", "rejected", fixtures.Cols{"method": "page", "reason": "does not name it", "checked_at": at})

	page := e.do(t, http.MethodGet, "/listings/"+slug, nil)
	want(t, "the listing page", page, http.StatusOK, "Trophy cabinet", "Shown-verified", "Verified on 2026-", "links to https://acme.test/",
		"Shown-unconfirmed", "Unconfirmed since", "5 trophy points")
	wantNot(t, "the listing page", page, "Hidden-pending", "Hidden-rejected")

	// Strangers see no console; the team sees the pending queue.
	want(t, "a stranger's GET", e.do(t, http.MethodGet, "/admin/trophies", nil, "Cookie", "session=someone"), http.StatusNotFound)
	want(t, "a stranger's POST", e.do(t, http.MethodPost, fmt.Sprintf("/admin/trophies/%d/verify", pending), url.Values{}, "Cookie", "session=someone"), http.StatusNotFound)
	want(t, "the queue", e.do(t, http.MethodGet, "/admin/trophies", nil, e.team...), http.StatusOK, "Hidden-pending", "Hidden-pending-two")
	wantNot(t, "the queue", e.do(t, http.MethodGet, "/admin/trophies", nil, e.team...), "Shown-verified")

	// A reject needs a reason.
	res := e.do(t, http.MethodPost, fmt.Sprintf("/admin/trophies/%d/reject", pending), url.Values{"reason": {"  "}, "state": {"pending"}}, e.team...)
	want(t, "a reject without a reason", res, http.StatusBadRequest, "reason: say why the trophy is rejected")
	if r := e.rows(t, "trophies", map[string]any{"id": pending})[0]; r["state"] != "pending" {
		t.Fatalf("a refused reject changed the trophy: %v", r)
	}
	res = e.do(t, http.MethodPost, fmt.Sprintf("/admin/trophies/%d/reject", pending), url.Values{"reason": {"The page is a paid listing, not an award."}}, e.team...)
	if res.status != http.StatusSeeOther {
		t.Fatalf("reject: %d %s", res.status, res.body)
	}
	if r := e.rows(t, "trophies", map[string]any{"id": pending})[0]; r["state"] != "rejected" || r["method"] != "site_team" ||
		r["reason"] != "The page is a paid listing, not an award." || fmt.Sprint(r["next_check_at"]) != "" {
		t.Fatalf("after the team's reject: %v", r)
	}
	if res = e.do(t, http.MethodPost, fmt.Sprintf("/admin/trophies/%d/verify", other), url.Values{}, e.team...); res.status != http.StatusSeeOther {
		t.Fatalf("verify: %d %s", res.status, res.body)
	}
	want(t, "the listing page after the team's verify", e.do(t, http.MethodGet, "/listings/"+slug, nil), http.StatusOK,
		"Hidden-pending-two", "Verified by the site team on 2026-", "10 trophy points")
	if n := len(e.rows(t, "audit_log", nil)); n < 2 {
		t.Errorf("%d audit rows, want the reject and the verify", n)
	}
}
