package auth

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/launchdir/launchdir/internal/netguard"
)

// The guarded client refuses non-public addresses at dial time, naming the
// address, before any connection is attempted (so it fails at once).
func TestGuardedClientRefuses(t *testing.T) {
	c := guardedClient()
	for url, addr := range map[string]string{
		"https://127.0.0.1/c.json":          "127.0.0.1",
		"https://10.0.0.5/c.json":           "10.0.0.5",
		"https://169.254.169.254/c.json":    "169.254.169.254",
		"https://[::1]/c.json":              "::1",
		"https://[::ffff:127.0.0.1]/c.json": "127.0.0.1",
		"https://[fd00::1]/c.json":          "fd00::1",
		"https://100.64.0.1/c.json":         "100.64.0.1",
		"https://localhost/c.json":          "", // 127.0.0.1 or ::1
	} {
		start := time.Now()
		resp, err := c.Get(url)
		if err == nil {
			resp.Body.Close()
			t.Errorf("%s: fetched", url)
			continue
		}
		var ref *netguard.RefusedError
		if !errors.As(err, &ref) || !strings.Contains(err.Error(), "refusing to connect to") || !strings.Contains(err.Error(), addr) {
			t.Errorf("%s: %v", url, err)
		}
		if time.Since(start) > 2*time.Second {
			t.Errorf("%s took %v: it dialled", url, time.Since(start))
		}
	}
}

// A redirect to an internal address is refused too, and at most 3
// redirects are followed.
func TestMetadataRedirects(t *testing.T) {
	t.Parallel()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/internal":
			http.Redirect(w, r, "https://169.254.169.254/latest/meta-data", http.StatusFound)
		case "/http":
			http.Redirect(w, r, "http://example.com/c.json", http.StatusFound)
		default: // /loop/N
			http.Redirect(w, r, r.URL.Path+"x", http.StatusFound)
		}
	}))
	defer srv.Close()
	// the test server's client trusts its certificate; its dialer is the
	// guard's, but for the test server's own (loopback) address
	tr := srv.Client().Transport.(*http.Transport).Clone()
	srvAddr := srv.Listener.Addr().String()
	tr.DialContext = (&net.Dialer{Timeout: time.Second, Control: func(network, address string, c syscall.RawConn) error {
		if address == srvAddr {
			return nil
		}
		return netguard.Control(false)(network, address, c)
	}}).DialContext
	guarded := &http.Client{Transport: tr, CheckRedirect: checkMetadataRedirect}
	ctx := context.Background()
	get := func(c *http.Client, path string) error {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+path, nil)
		resp, err := c.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		return err
	}
	var ref *netguard.RefusedError
	if err := get(guarded, "/internal"); !errors.As(err, &ref) || !strings.Contains(err.Error(), "169.254.169.254") {
		t.Errorf("redirect to 169.254.169.254: %v", err)
	}
	if err := get(guarded, "/http"); !errors.Is(err, errInsecureRedirect) {
		t.Errorf("redirect to http: %v", err)
	}
	if err := get(guarded, "/loop/"); !errors.Is(err, errTooManyRedirects) {
		t.Errorf("redirect loop: %v", err)
	}
}

func TestCacheTTL(t *testing.T) {
	t.Parallel()
	for cc, want := range map[string]time.Duration{
		"":                        5 * time.Minute,
		"max-age=1":               30 * time.Second,
		"max-age=600":             600 * time.Second,
		"public, max-age=9999999": 24 * time.Hour,
		"no-store":                30 * time.Second,
		"max-age=abc":             5 * time.Minute,
	} {
		h := http.Header{}
		if cc != "" {
			h.Set("Cache-Control", cc)
		}
		if got := cacheTTL(h); got != want {
			t.Errorf("%q: %v, want %v", cc, got, want)
		}
	}
}

func TestValidCIMDURL(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"https://app.test/client.json", "https://app.test:8443/a/b"} {
		if _, err := validCIMDURL(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"http://app.test/c.json", "https://app.test", "https://app.test/", "https://app.test/c.json#f",
		"https://u@app.test/c.json", "https://app.test/a/../c.json", "https://app.test/./c.json", "https://app.test/%2e%2e/c.json",
		"https://app.test/c.json?x=1", "https:///c.json", "https:app.test/c.json"} {
		if _, err := validCIMDURL(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}
