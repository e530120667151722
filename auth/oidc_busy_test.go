package auth_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/launchdir/launchdir/auth"
)

// TestOIDC_BusyPageSaysWhenToRetry: when the most sign-ins a process keeps
// pending (10,000; 40 here) are in progress, /signin/oidc answers the site's error
// page "Sign-in is busy" (503) whose message and Retry-After name the same
// wait: until the oldest pending sign-in expires (10 minutes after it
// began). After that wait a sign-in starts again. Before, the page said "a
// few minutes" and sent no Retry-After.
func TestOIDC_BusyPageSaysWhenToRetry(t *testing.T) {
	const pending, workers = 40, 4
	m := siStartOIDC(t).Config()
	e := newEnv(t, func(c *auth.Config) {
		c.OIDC = &auth.OIDCProvider{Issuer: m.Issuer, ClientID: m.ClientID, ClientSecret: m.ClientSecret, Name: "MockID", MaxPending: pending}
	})
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	start := func() *http.Response {
		resp, err := c.Get(e.srv.URL + "/signin/oidc")
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	first := start()
	first.Body.Close()
	if first.StatusCode != http.StatusFound {
		t.Fatalf("first sign-in: %d", first.StatusCode)
	}
	e.advance(4 * time.Minute)
	var wg sync.WaitGroup
	var mu sync.Mutex
	statuses := map[int]int{}
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < pending-1; i += workers {
				resp, err := c.Get(e.srv.URL + "/signin/oidc")
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
				mu.Lock()
				statuses[resp.StatusCode]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if statuses[http.StatusFound] != pending-1 {
		t.Fatalf("filling the pending sign-ins: %v", statuses)
	}

	resp, body := siDo(t, c, http.MethodGet, e.srv.URL+"/signin/oidc", nil, nil)
	siWantStatus(t, resp, body, http.StatusServiceUnavailable)
	if ra := resp.Header.Get("Retry-After"); ra != "360" {
		t.Errorf("Retry-After %q, want 360 (the first sign-in expires in 6 minutes)", ra)
	}
	for _, want := range []string{"Sign-in is busy", "Try again in 6 minutes.", `<p class="status">HTTP 503</p>`} {
		if !strings.Contains(body, want) {
			t.Errorf("the busy page lacks %q:\n%s", want, body)
		}
	}
	if len(resp.Cookies()) != 0 {
		t.Errorf("the busy page set cookies: %v", resp.Cookies())
	}
	siWantPageHeaders(t, resp)

	e.advance(6 * time.Minute)
	again := start()
	again.Body.Close()
	if again.StatusCode != http.StatusFound {
		t.Errorf("after the Retry-After: %d, want a sign-in (302)", again.StatusCode)
	}
}
