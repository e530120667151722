package auth_test

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/auth/ratelimit"
)

// fromAddr is an HTTP client whose connections come from the loopback
// address ip: each address is another network to the server.
func fromAddr(t *testing.T, ip string) *http.Client {
	t.Helper()
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	tr := &http.Transport{DialContext: d.DialContext}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

type limitedResp struct {
	status int
	header http.Header
	body   string
}

func sendFrom(t *testing.T, c *http.Client, method, u, contentType, body string) limitedResp {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return limitedResp{res.StatusCode, res.Header, string(b)}
}

// limitedEnv is the auth service with the per-network budgets of serve on
// the env's clock: failures (n per 15 minutes) and oauth (n per minute).
func limitedEnv(t *testing.T, failures, oauth int) *env {
	var e *env
	e = newEnv(t, func(c *auth.Config) {
		now := func() time.Time { return e.clock() }
		c.Failures = ratelimit.New(ratelimit.Policy{Name: "failures", Quota: failures, Window: 15 * time.Minute}, now)
		c.OAuthLimit = ratelimit.New(ratelimit.Policy{Name: "oauth", Quota: oauth, Window: time.Minute}, now)
	})
	return e
}

// checkLimited checks a 429: Retry-After, the RateLimit fields of policy
// with r=0 (parsed as structured fields) and the problem+json body.
func checkLimited(t *testing.T, r limitedResp, policy string, retryAfter int) {
	t.Helper()
	if r.status != http.StatusTooManyRequests {
		t.Fatalf("status %d, want 429; body %.300s", r.status, r.body)
	}
	if r.header.Get("Retry-After") != strconv.Itoa(retryAfter) {
		t.Errorf("Retry-After %q, want %d", r.header.Get("Retry-After"), retryAfter)
	}
	checkLimit(t, r.header, policy, 0, retryAfter)
	var p struct {
		Status     int    `json:"status"`
		Code       string `json:"code"`
		RetryAfter int    `json:"retry_after"`
	}
	if r.header.Get("Content-Type") != "application/problem+json" || json.Unmarshal([]byte(r.body), &p) != nil ||
		p.Status != 429 || p.Code != "rate_limited" || p.RetryAfter != retryAfter {
		t.Errorf("429 body %s (%s), want problem+json rate_limited", r.body, r.header.Get("Content-Type"))
	}
}

func checkLimit(t *testing.T, h http.Header, policy string, remaining, reset int) {
	t.Helper()
	items, err := ratelimit.ParseItems(h, "RateLimit")
	if err != nil {
		t.Fatal(err)
	}
	pols, err := ratelimit.ParseItems(h, "RateLimit-Policy")
	if err != nil {
		t.Fatal(err)
	}
	for i, it := range items {
		if it.Name == policy {
			if it.Params["r"] != remaining || it.Params["t"] != reset {
				t.Errorf("RateLimit %q: want %s r=%d t=%d", h.Values("RateLimit"), policy, remaining, reset)
			}
			if i >= len(pols) || pols[i].Name != policy {
				t.Errorf("RateLimit-Policy %q does not name %s", h.Values("RateLimit-Policy"), policy)
			}
			return
		}
	}
	t.Errorf("RateLimit %q has no item %s", h.Values("RateLimit"), policy)
}

// TestRateLimit_TokenAndLinkFailures: a refused /token request and an
// invalid sign-in link cost from the budget of the credential they send
// (the client and its code or refresh token; the link's token) from that
// network; once it is used up that credential gets 429 before anything is
// checked, until the window ends. Another credential from the same network
// and another network are not affected.
func TestRateLimit_TokenAndLinkFailures(t *testing.T) {
	e := limitedEnv(t, 3, 0)
	attacker, other := fromAddr(t, "127.0.0.2"), fromAddr(t, "127.0.0.3")
	tokenForm := func(code string) string {
		return url.Values{"grant_type": {"authorization_code"}, "client_id": {"no-such-client"}, "code": {code},
			"code_verifier": {strings.Repeat("v", 43)}}.Encode()
	}
	badToken := tokenForm("guess")
	const form = "application/x-www-form-urlencoded"
	for i := 0; i < 3; i++ {
		r := sendFrom(t, attacker, "POST", e.srv.URL+"/token", form, badToken)
		if r.status != 400 && r.status != 401 {
			t.Fatalf("bad /token %d: status %d; %s", i+1, r.status, r.body)
		}
		checkLimit(t, r.header, "failures", 2-i, 900)
	}
	checkLimited(t, sendFrom(t, attacker, "POST", e.srv.URL+"/token", form, badToken), "failures", 900)
	// The body the guard read is still the handler's: another code is checked.
	if r := sendFrom(t, attacker, "POST", e.srv.URL+"/token", form, tokenForm("another")); r.status != 401 {
		t.Fatalf("/token with another code from the same network: %d %s", r.status, r.body)
	}
	for i := 0; i < 3; i++ {
		r := sendFrom(t, attacker, "GET", e.srv.URL+"/signin/email?token=guessed-link", "", "")
		if r.status != 400 {
			t.Fatalf("bad sign-in link %d: %d", i+1, r.status)
		}
		checkLimit(t, r.header, "failures", 2-i, 900)
	}
	e.advance(time.Minute)
	checkLimited(t, sendFrom(t, attacker, "GET", e.srv.URL+"/signin/email?token=guessed-link", "", ""), "failures", 840)
	if r := sendFrom(t, attacker, "GET", e.srv.URL+"/signin/email?token=another-guess", "", ""); r.status != 400 {
		t.Fatalf("another link from the same network: %d, want 400", r.status)
	}
	checkLimited(t, sendFrom(t, attacker, "POST", e.srv.URL+"/token", form, badToken), "failures", 840)
	if r := sendFrom(t, attacker, "POST", e.srv.URL+"/revoke", form, "token=x&client_id=no-such-client"); r.status != 401 {
		t.Fatalf("/revoke from the same network: %d, want 401", r.status)
	}
	if r := sendFrom(t, other, "POST", e.srv.URL+"/token", form, badToken); r.status == 429 {
		t.Fatalf("another network was limited: %s", r.body)
	}
	e.advance(14 * time.Minute)
	if r := sendFrom(t, attacker, "POST", e.srv.URL+"/token", form, badToken); r.status == 429 {
		t.Fatalf("after the window: still 429")
	}
}

// TestRateLimit_OAuthEndpoints: /register, /authorize and /token share the
// network's OAuth budget; every answer within it carries the RateLimit
// fields, the next request is 429; another network is not affected.
func TestRateLimit_OAuthEndpoints(t *testing.T) {
	e := limitedEnv(t, 0, 3)
	flood, other := fromAddr(t, "127.0.0.2"), fromAddr(t, "127.0.0.3")
	reg := `{"redirect_uris":["http://127.0.0.1:9/cb"],"client_name":"flood","token_endpoint_auth_method":"none"}`
	steps := []func(c *http.Client) limitedResp{
		func(c *http.Client) limitedResp {
			return sendFrom(t, c, "POST", e.srv.URL+"/register", "application/json", reg)
		},
		func(c *http.Client) limitedResp {
			return sendFrom(t, c, "GET", e.srv.URL+"/authorize?response_type=code&client_id=nope", "", "")
		},
		func(c *http.Client) limitedResp {
			return sendFrom(t, c, "POST", e.srv.URL+"/token", "application/x-www-form-urlencoded", "grant_type=refresh_token")
		},
	}
	for i, step := range steps {
		r := step(flood)
		if r.status == 429 {
			t.Fatalf("request %d within the budget: 429", i+1)
		}
		checkLimit(t, r.header, "oauth", 2-i, 60)
	}
	e.advance(10 * time.Second)
	for i, step := range steps {
		r := step(flood)
		checkLimited(t, r, "oauth", 50)
		if i != 1 && r.header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("429 of a JSON endpoint without CORS: %v", r.header)
		}
	}
	if r := steps[0](other); r.status != http.StatusCreated {
		t.Fatalf("/register from another network: %d %s", r.status, r.body)
	}
	e.advance(50 * time.Second)
	if r := steps[0](flood); r.status != http.StatusCreated {
		t.Fatalf("/register after the window: %d %s", r.status, r.body)
	}
}
