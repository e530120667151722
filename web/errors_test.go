package web

import (
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/auth/ratelimit"
	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/problem"
)

// TestPages_ErrorStatusTable: a failed service call is shown as a page with
// the status of its code in the one code-to-status table (internal/problem),
// as the API answers it: a conflict is 409, forbidden 403 and rate limited
// 429 (each was a logged 500 before); anything that is not a *domain.Error
// is a 500 saying only "Internal error.". tools' TestStatusTable drives the
// codes a real page request can produce through the router.
func TestPages_ErrorStatusTable(t *testing.T) {
	t.Parallel()
	hd := &handler{svc: demo().svc, pages: parsePages(), log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	for _, code := range problem.Codes() {
		rec := httptest.NewRecorder()
		r := httptest.NewRequest("GET", "/search", nil)
		hd.serviceError(rec, r, domain.Errorf(code, "The %s message.", code))
		want := problem.Status(code)
		if rec.Code != want || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
			t.Errorf("%s: status %d %q, want %d as HTML", code, rec.Code, rec.Header().Get("Content-Type"), want)
		}
		msg := "The " + string(code) + " message."
		if code == domain.EInternal {
			msg = "Internal error."
		}
		if !strings.Contains(rec.Body.String(), msg) {
			t.Errorf("%s: page lacks %q", code, msg)
		}
	}
	rec := httptest.NewRecorder()
	hd.serviceError(rec, httptest.NewRequest("GET", "/", nil), errors.New("driver: secret detail"))
	if rec.Code != 500 || strings.Contains(rec.Body.String(), "secret detail") || !strings.Contains(rec.Body.String(), "Internal error.") {
		t.Errorf("a plain error: %d %.300s", rec.Code, rec.Body.String())
	}
}

// TestPages_RateLimitedPage: over the pages' budget a person's browser gets
// a 429 HTML page with Retry-After and the RateLimit fields, not
// problem+json.
func TestPages_RateLimitedPage(t *testing.T) {
	lim := ratelimit.New(ratelimit.Policy{Name: "pages", Quota: 1, Window: time.Minute}, func() time.Time { return testNow })
	srv := httptest.NewServer(New(demo().svc, WithRateLimit(lim)))
	defer srv.Close()
	for i, want := range []int{200, 429} {
		res, err := http.Get(srv.URL + "/docs")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != want {
			t.Fatalf("request %d: status %d, want %d", i+1, res.StatusCode, want)
		}
		if want == 429 && (res.Header.Get("Retry-After") != "60" || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") ||
			!strings.Contains(res.Header.Get("RateLimit"), `"pages";r=0`) || !strings.Contains(string(b), "Too Many Requests") ||
			res.Header.Get("Content-Security-Policy") == "") {
			t.Errorf("429: %v\n%.400s", res.Header, b)
		}
	}
}
