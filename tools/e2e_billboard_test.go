package tools

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// TestE2E_ListingBillboardIsPaid: a listing's billboard money is presented as
// the PAID placement it is, in an object that says so, never as a bare number
// next to the community votes; over REST and MCP alike, and absent for a
// listing with no contribution.
func TestE2E_ListingBillboardIsPaid(t *testing.T) {
	t.Parallel()
	e := e2eNewEnv(t, Options{}, true)
	cs := e2eConnect(t, e, "")
	var board, all domain.GetLeaderboardOutput
	e.getJSON(t, "/v1/leaderboards/billboard?per_page=100", &board)
	e.getJSON(t, "/v1/leaderboards/community-all-time?per_page=100", &all)
	if len(board.Items) == 0 || len(all.Items) == 0 {
		t.Fatal("the demo data has no billboard contribution or no live listing")
	}
	paid, onBoard := board.Items[0], map[string]bool{}
	for _, p := range board.Items {
		onBoard[p.Listing.Slug] = true
	}
	unpaid := ""
	for _, it := range all.Items {
		if !onBoard[it.Listing.Slug] {
			unpaid = it.Listing.Slug
			break
		}
	}
	if unpaid == "" {
		t.Fatal("every live listing is on the billboard")
	}
	get := func(t *testing.T, slug string) map[string]map[string]any {
		t.Helper()
		r := e.do(t, "GET", "/v1/listings/"+slug, nil, nil)
		res := e2eCall(t, cs, "get_listing", map[string]any{"slug": slug})
		out := map[string]map[string]any{}
		for tr, body := range map[string]string{"REST": string(r.body), "MCP": e2eResultText(t, res)} {
			var m map[string]any
			if err := json.Unmarshal([]byte(body), &m); err != nil {
				t.Fatalf("%s get_listing %s: %v %s", tr, slug, err, e2eClip([]byte(body)))
			}
			out[tr] = m
		}
		return out
	}
	for tr, l := range get(t, paid.Listing.Slug) {
		if _, bare := l["billboard_cents"]; bare {
			t.Errorf("%s: billboard_cents is a bare number next to votes", tr)
		}
		p, ok := l["paid_placement"].(map[string]any)
		if !ok {
			t.Fatalf("%s: no paid_placement object in %v", tr, l)
		}
		label, _ := p["label"].(string)
		amount, _ := p["amount_label"].(string)
		if p["paid"] != true || p["amount_cents"] != float64(paid.Metric) || !strings.Contains(label, "PAID") ||
			!strings.Contains(amount, "paid") || p["board_url"] != e.base+"/leaderboards/billboard" {
			t.Errorf("%s: paid_placement = %v, want paid true, amount_cents %d, a PAID label, the amount marked paid and the board's page",
				tr, p, paid.Metric)
		}
	}
	for tr, l := range get(t, unpaid) {
		if _, ok := l["paid_placement"]; ok {
			t.Errorf("%s: %s contributed nothing but has paid_placement %v", tr, unpaid, l["paid_placement"])
		}
	}
}
