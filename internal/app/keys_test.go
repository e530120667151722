package app

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestOpenKeys: the key `apikey create` makes through OpenKeys (database and
// auth only) is accepted by the whole App over the same database.
func TestOpenKeys(t *testing.T) {
	t.Parallel()
	c := testConfig(t)
	keys, err := OpenKeys(context.Background(), c, Adapters{Now: func() time.Time { return testNow }})
	if err != nil {
		t.Fatal(err)
	}
	plain, _, err := keys.Auth.CreateAPIKey(context.Background(), "ops@example.com", "deploy")
	if err != nil {
		t.Fatal(err)
	}
	if err := keys.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenKeys(context.Background(), c, Adapters{}); err == nil {
		t.Error("OpenKeys without a clock succeeded")
	}
	a := open(t, c, Adapters{})
	srv := httptest.NewServer(a.Handler)
	defer srv.Close()
	req, _ := http.NewRequest("GET", srv.URL+"/v1/me", nil)
	req.Header.Set("Authorization", "Bearer "+plain)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("GET /v1/me with the key OpenKeys made: %d, want 200", res.StatusCode)
	}
}
