package web

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// TestUpdates_Page lists the demo listings' updates newest first, paginated,
// and the listing page asks visitors to sign in to follow.
func TestUpdates_Page(t *testing.T) {
	t.Parallel()
	list, err := demo().svc.LatestUpdates(context.Background(), domain.Pagination{PerPage: 20})
	if err != nil || len(list.Items) != 20 || !list.HasMore {
		t.Fatalf("LatestUpdates: %d items, has_more %v, %v", len(list.Items), list.HasMore, err)
	}
	for i := 1; i < len(list.Items); i++ {
		if list.Items[i].PostedAt.After(list.Items[i-1].PostedAt) {
			t.Fatalf("not newest first at %d", i)
		}
	}
	res := demo().get(t, "/updates")
	first := list.Items[0]
	want(t, "GET /updates", res, http.StatusOK, "Latest updates", `href="/updates" aria-current="page"`,
		`href="/listings/`+first.Listing.Slug+`"`, `rel="next"`)
	if !strings.Contains(res.body, escapeText(first.Title)) {
		t.Fatalf("the newest update %q is not on the page", first.Title)
	}
	want(t, "GET /updates?page=2", demo().get(t, "/updates?page=2"), http.StatusOK, `rel="prev"`)
	want(t, "a listing page for a visitor", demo().get(t, "/listings/"+first.Listing.Slug), http.StatusOK, "Sign in to follow")
	wantNot(t, "a listing page for a visitor", demo().get(t, "/listings/"+first.Listing.Slug), "/follow\"")
}

// escapeText escapes text as html/template does in element content.
func escapeText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}
