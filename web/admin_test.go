package web

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// teamCookie marks a request as the site team's in these tests; the real
// wiring passes auth's session check and an allow-list of emails.
const teamCookie = "session=team"

func teamOnly(r *http.Request) (string, bool) {
	if r.Header.Get("Cookie") == teamCookie {
		return "ops@launchdir.test", true
	}
	return "", false
}

// launchPrice reads the price of launch from list_products.
func launchPrice(t *testing.T, svc *domain.Service) int64 {
	t.Helper()
	list, err := svc.ListProducts(context.Background(), domain.ListProductsInput{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range list.Products {
		if p.Code == domain.ProductLaunch {
			return p.PriceCents
		}
	}
	t.Fatal("list_products has no launch")
	return 0
}

func TestAdmin_Hidden(t *testing.T) {
	t.Parallel()
	for name, opts := range map[string][]Option{"NoAdminOption": nil, "NotTeam": {WithAdmin(teamOnly)}} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newOrderEnv(t, nil, opts...)
			cookie := []string{"Cookie", "session=someone"}
			res := e.do(t, http.MethodGet, "/admin", nil, cookie...)
			want(t, "GET /admin", res, http.StatusNotFound, "Page not found")
			wantNot(t, "GET /admin", res, "Product prices")
			res = e.do(t, http.MethodPost, "/admin/prices", url.Values{"code": {"launch"}, "cents": {"1"}}, cookie...)
			want(t, "POST /admin/prices", res, http.StatusNotFound)
			want(t, "POST /admin/work/1/done", e.do(t, http.MethodPost, "/admin/work/1/done", url.Values{}, cookie...), http.StatusNotFound)
			if got := launchPrice(t, e.svc); got != 4900 {
				t.Errorf("a refused request set the launch price to %d", got)
			}
		})
	}
}

func TestAdmin_Prices(t *testing.T) {
	t.Parallel()
	e := newOrderEnv(t, nil, WithAdmin(teamOnly))
	team := []string{"Cookie", teamCookie}

	res := e.do(t, http.MethodGet, "/admin", nil, team...)
	want(t, "the admin page", res, http.StatusOK, "Signed in as ops@launchdir.test", "Product prices", "<code>launch</code>",
		"<code>billboard_min</code>", "$49.00", `name="cents"`, "No open work items", "No orders yet")
	if res.header.Get("X-Robots-Tag") == "" || res.header.Get("Cache-Control") != "no-store" {
		t.Errorf("the admin page may be indexed or cached: %v", res.header)
	}

	res = e.do(t, http.MethodPost, "/admin/prices", url.Values{"code": {"launch"}, "cents": {"5900"}}, team...)
	wantRedirect(t, "set the launch price", res, "/admin")
	if got := launchPrice(t, e.svc); got != 5900 {
		t.Fatalf("list_products after setting 5900: launch costs %d", got)
	}
	want(t, "the admin page after the change", e.do(t, http.MethodGet, "/admin", nil, team...), http.StatusOK, "$59.00")

	for _, c := range []struct {
		name, code, cents, message string
	}{
		{"NotANumber", "launch", "49.00", "whole number of cents"},
		{"Negative", "launch", "-1", "negative"},
		{"TooHigh", "launch", strconv.Itoa(domain.MaxPriceCents + 1), "at most 100000000 cents"},
		{"UnknownProduct", "lunch", "100", `There is no product "lunch"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := e.do(t, http.MethodPost, "/admin/prices", url.Values{"code": {c.code}, "cents": {c.cents}}, team...)
			want(t, c.name, res, http.StatusBadRequest, c.message, "Product prices")
			if got := launchPrice(t, e.svc); got != 5900 {
				t.Errorf("a refused price changed launch to %d", got)
			}
		})
	}

	res = e.do(t, http.MethodPost, "/admin/prices", url.Values{"code": {"launch"}, "cents": {"1"}}, "Cookie", teamCookie,
		"Sec-Fetch-Site", "cross-site")
	want(t, "a cross-site price form", res, http.StatusForbidden)
	if got := launchPrice(t, e.svc); got != 5900 {
		t.Errorf("a cross-site form set launch to %d", got)
	}
}

func TestAdmin_WorkAndOrders(t *testing.T) {
	t.Parallel()
	e := newOrderEnv(t, nil, WithAdmin(teamOnly))
	team := []string{"Cookie", teamCookie}

	// An AI review, paid through the checkout page, is work for the site team.
	v, token := e.checkout(t, domain.OrderItem{Product: domain.ProductAIReview, ListingID: e.listing,
		Options: map[string]any{"focus": "pricing"}})
	page := domain.CheckoutPath + token
	wantRedirect(t, "billing", e.post(t, page+"/billing", url.Values{"name": {"Ann Lee"}, "address": {"1 Main St"}, "country": {"US"}}), page)
	wantRedirect(t, "pay", e.post(t, page+"/pay", url.Values{}), e.srv.URL+page+"/test-pay")
	wantRedirect(t, "test payment", e.post(t, page+"/test-pay", url.Values{}), page+"/done")
	if err := e.svc.FulfilOrder(context.Background(), v.Number); err != nil {
		t.Fatal(err)
	}
	work, err := e.svc.AdminWorkItems(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(work) != 1 || work[0].Kind != domain.ProductAIReview || work[0].OrderNumber != v.Number {
		t.Fatalf("open work items after paying an AI review: %+v", work)
	}
	id := strconv.FormatInt(work[0].ID, 10)

	res := e.do(t, http.MethodGet, "/admin", nil, team...)
	want(t, "the admin page with work", res, http.StatusOK, "Open work items", "<td>ai_review</td>",
		"#"+strconv.FormatInt(e.listing, 10), "<dt>focus</dt><dd>pricing</dd>", `action="/admin/work/`+id+`/done"`,
		v.Number, "<td>paid</td>", "Ann Lee (US)", "$19.00")

	want(t, "finish an unknown item", e.do(t, http.MethodPost, "/admin/work/999999/done", url.Values{}, team...), http.StatusNotFound)
	want(t, "finish a malformed id", e.do(t, http.MethodPost, "/admin/work/x/done", url.Values{}, team...), http.StatusNotFound)
	wantRedirect(t, "mark done", e.do(t, http.MethodPost, "/admin/work/"+id+"/done", url.Values{}, team...), "/admin")
	if work, err := e.svc.AdminWorkItems(context.Background(), 0); err != nil || len(work) != 0 {
		t.Fatalf("open work items after marking done: %+v, %v", work, err)
	}
	res = e.do(t, http.MethodGet, "/admin", nil, team...)
	want(t, "the admin page after marking done", res, http.StatusOK, "No open work items", v.Number)
	// Marking it done again (a double click) changes nothing and is not an error.
	wantRedirect(t, "mark done again", e.do(t, http.MethodPost, "/admin/work/"+id+"/done", url.Values{}, team...), "/admin")
}
