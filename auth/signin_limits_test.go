package auth_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"testing"

	"github.com/launchdir/launchdir/auth"
)

// TestSignIn_LimitHeaders: the sign-in limits' 429
// carries Retry-After and the RateLimit / RateLimit-Policy fields of its
// policy (r=0, t = Retry-After) as every other limit of the service does,
// and an answer within them carries the fields too: per address
// ("signin-email", 5 per 15 minutes) and per IP ("signin", 20 per 15
// minutes). Before, the 429 had a fixed Retry-After and no RateLimit field.
func TestSignIn_LimitHeaders(t *testing.T) {
	e := newEnv(t, nil)
	post := func(addr string) (*http.Response, string) {
		return siDo(t, e.browser(), http.MethodPost, e.srv.URL+"/signin", url.Values{"email": {addr}}, nil)
	}
	for i := range 5 {
		resp, body := post("busy@example.com")
		siWantStatus(t, resp, body, http.StatusOK)
		checkLimit(t, resp.Header, "signin-email", 4-i, (i+1)*180)
		checkLimit(t, resp.Header, "signin", 19-i, (i+1)*45)
	}
	resp, body := post("busy@example.com")
	siWantStatus(t, resp, body, http.StatusTooManyRequests)
	if resp.Header.Get("Retry-After") != "180" {
		t.Errorf("Retry-After %q, want 180 (one link per 3 minutes comes back)", resp.Header.Get("Retry-After"))
	}
	checkLimit(t, resp.Header, "signin-email", 0, 180)
	if pol := resp.Header.Values("RateLimit-Policy"); !bytes.Contains([]byte(fmt.Sprint(pol)), []byte(`"signin-email";q=5;w=900`)) {
		t.Errorf("RateLimit-Policy %q", pol)
	}
	for i := 6; i < 20; i++ {
		resp, body := post(fmt.Sprintf("p%d@example.com", i))
		siWantStatus(t, resp, body, http.StatusOK)
	}
	resp, body = post("p99@example.com")
	siWantStatus(t, resp, body, http.StatusTooManyRequests)
	ra, err := strconv.Atoi(resp.Header.Get("Retry-After"))
	if err != nil || ra < 1 {
		t.Fatalf("Retry-After %q", resp.Header.Get("Retry-After"))
	}
	checkLimit(t, resp.Header, "signin", 0, ra)
}

var csrfInputRE = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// TestSession_CSRFStoredHashed: after a real sign-in by
// the emailed link, the CSRF token the account page shows is nowhere in the
// database files (the sessions row holds its SHA-256, as for every other
// secret), and the page's forms work with it. Before, the token was stored
// as it is.
func TestSession_CSRFStoredHashed(t *testing.T) {
	e := newEnv(t, nil)
	b := e.browser()
	link := e.siRequestLink(b, "hash@example.com", "/account")
	resp, body := siDo(t, b, http.MethodGet, link, nil, nil)
	siWantStatus(t, resp, body, http.StatusSeeOther)
	resp, body = siDo(t, b, http.MethodGet, e.srv.URL+"/account", nil, nil)
	siWantStatus(t, resp, body, http.StatusOK)
	m := csrfInputRE.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no CSRF field on the account page:\n%s", body)
	}
	token := m[1]
	db := e.acctDBBytes()
	if bytes.Contains(db, []byte(token)) {
		t.Fatalf("the CSRF token %q is stored in plain text", token)
	}
	if !bytes.Contains(db, []byte(auth.Hash(token))) {
		t.Errorf("the sessions row does not hold the token's hash")
	}
	key := e.acctCreateKeyWith(b, token)
	if key == "" {
		t.Fatal("no key created with the page's token")
	}
	resp, body = siDo(t, b, http.MethodPost, e.srv.URL+"/signout", url.Values{"csrf": {token}}, nil)
	siWantStatus(t, resp, body, http.StatusSeeOther)
}

// acctCreateKeyWith posts the create-key form with csrf and returns the key
// shown ("" when none).
func (e *env) acctCreateKeyWith(b *http.Client, csrf string) string {
	e.t.Helper()
	resp, body := siDo(e.t, b, http.MethodPost, e.srv.URL+"/account/keys", url.Values{"csrf": {csrf}, "name": {"hashed"}}, nil)
	siWantStatus(e.t, resp, body, http.StatusOK)
	return siKeyRE.FindString(body)
}
