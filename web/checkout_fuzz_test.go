package web

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/launchdir/launchdir/domain"
)

// FuzzCheckoutForm posts any bytes as the billing form of a real checkout
// page (a real SQLite file, the built-in test provider). Properties: the
// answer is a redirect back to the page (details saved), 400 (the page again
// with the message) or 413, never anything else; saved details are the
// form's, trimmed, with a name of 1 to 200 characters and a country code;
// a refused form changes nothing stored; the page shows what was sent only
// HTML-escaped (a <script sent never appears as markup).
func FuzzCheckoutForm(f *testing.F) {
	e := newOrderEnv(f, nil)
	_, token := e.checkout(f, domain.OrderItem{Product: domain.ProductLaunch, ListingID: e.listing})
	page := domain.CheckoutPath + token
	f.Add(berlin.Encode())
	f.Add(url.Values{"name": {"Acme GmbH"}, "address": {"Hauptstraße 1\n10115 Berlin"}, "country": {"de"}, "vat_number": {"DE 123 456 789"}}.Encode())
	f.Add(url.Values{"name": {"<script>alert(1)</script>"}, "address": {"x"}, "country": {"ZZ"}}.Encode())
	f.Add(url.Values{"name": {strings.Repeat("n", 201)}, "address": {"a"}, "country": {"FR"}}.Encode())
	f.Add("name=%zz&address=%")
	f.Add("name=A&name=B&address=+&country=IE&vat_number=" + strings.Repeat("9", 33))
	f.Fuzz(func(t *testing.T, form string) {
		before := e.order(t, token).Billing
		req := httptest.NewRequest(http.MethodPost, page+"/billing", strings.NewReader(form))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		rec := httptest.NewRecorder()
		e.srv.Config.Handler.ServeHTTP(rec, req)
		after := e.order(t, token).Billing
		switch rec.Code {
		case http.StatusSeeOther:
			if loc := rec.Header().Get("Location"); loc != page {
				t.Fatalf("redirect to %q", loc)
			}
			v, err := url.ParseQuery(form)
			if err != nil {
				t.Fatalf("a form that does not parse was saved: %v", err)
			}
			if after == nil || after.Name != strings.TrimSpace(v.Get("name")) || after.Address != strings.TrimSpace(v.Get("address")) ||
				after.Country != strings.ToUpper(strings.TrimSpace(v.Get("country"))) {
				t.Fatalf("saved %+v for form %q", after, form)
			}
			if n := utf8.RuneCountInString(after.Name); n < 1 || n > 200 || len(after.Country) != 2 {
				t.Fatalf("saved %+v", after)
			}
		case http.StatusBadRequest, http.StatusRequestEntityTooLarge:
			if !reflect.DeepEqual(before, after) {
				t.Fatalf("refused form %q changed billing from %+v to %+v", form, before, after)
			}
			v, _ := url.ParseQuery(form)
			body := rec.Body.String()
			for _, vals := range v {
				for _, s := range vals {
					// The checkout pages have no script element (their CSP allows none).
					if strings.Contains(s, "<script") && strings.Contains(body, s) {
						t.Fatalf("the page shows %q unescaped", s)
					}
				}
			}
		default:
			t.Fatalf("status %d for form %q: %.300s", rec.Code, form, rec.Body.String())
		}
	})
}
