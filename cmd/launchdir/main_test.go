package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/app"
	"github.com/launchdir/launchdir/storage"
)

// TestServe runs the real binary's serve command on a free port with --demo and
// reads the URLs it prints, then uses them.
func TestServe(t *testing.T) {
	t.Parallel()
	serveDemo(t, "--data", t.TempDir())
}

// serveDemo runs the real binary's serve command on a free port with --demo
// and args, reads the URLs it prints and uses them; it returns the banner.
func serveDemo(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, time.Now, append([]string{"serve", "--addr", "127.0.0.1:0", "--demo", "--rate-limit", "0"}, args...), pw, io.Discard)
		pw.Close()
	}()
	urls := map[string]string{}
	var banner strings.Builder
	sc := bufio.NewScanner(pr)
	re := regexp.MustCompile(`^\s+(Web|REST API|OpenAPI|MCP|Docs):\s+(\S+)$`)
	for len(urls) < 5 && sc.Scan() {
		banner.WriteString(sc.Text() + "\n")
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			urls[m[1]] = m[2]
		}
	}
	go io.Copy(io.Discard, pr)
	if len(urls) != 5 {
		t.Fatalf("serve printed %v, want Web, REST API, OpenAPI, MCP and Docs URLs", urls)
	}
	if !strings.HasPrefix(urls["Web"], "http://127.0.0.1:") {
		t.Errorf("Web URL = %q, want the listen address, http://127.0.0.1:PORT/", urls["Web"])
	}

	res, err := http.Get(urls["REST API"] + "/site")
	if err != nil {
		t.Fatal(err)
	}
	var site struct {
		MCPURL       string `json:"mcp_url"`
		LiveListings int    `json:"live_listings"`
	}
	if err := json.NewDecoder(res.Body).Decode(&site); err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 || site.LiveListings < 300 || site.MCPURL != urls["MCP"] {
		t.Errorf("GET /v1/site = %d %+v; want 200, >= 300 live demo listings, mcp_url %s", res.StatusCode, site, urls["MCP"])
	}
	for _, u := range []string{urls["OpenAPI"], urls["Web"], urls["Docs"]} {
		res, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Errorf("GET %s = %d, want 200", u, res.StatusCode)
		}
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve returned %v after shutdown", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop after its context ended")
	}
	return banner.String()
}

// TestSeedAndMigrate checks the operator subcommands on a fresh data directory.
func TestSeedAndMigrate(t *testing.T) {
	data := filepath.Join(t.TempDir(), "nested", "data")
	var out strings.Builder
	ctx := context.Background()
	if err := run(ctx, time.Now, []string{"migrate", "--data", data}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if err := run(ctx, time.Now, []string{"seed", "--data", data}, &out, io.Discard); err == nil {
		t.Error("seed without --demo succeeded, want an error naming --demo")
	}
	if err := run(ctx, time.Now, []string{"seed", "--demo", "--data", data}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if err := run(ctx, time.Now, []string{"seed", "--demo", "--data", data}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if !strings.Contains(got, "loaded the demo data") || !strings.Contains(got, "nothing loaded") {
		t.Errorf("seed output = %q; want a first load and then a no-op", got)
	}
	t.Setenv("LAUNCHDIR_DATA", data)
	out.Reset()
	if err := run(ctx, time.Now, []string{"migrate"}, &out, io.Discard); err != nil || !strings.Contains(out.String(), data) {
		t.Errorf("migrate with LAUNCHDIR_DATA: err=%v out=%q", err, out.String())
	}
	if err := run(ctx, time.Now, []string{"bogus"}, io.Discard, io.Discard); err == nil {
		t.Error("unknown command succeeded")
	}
}

// TestSeedSynthetic adds synthetic listings with seed --synthetic, refuses
// counts outside 1..maxSynthetic and --demo beside it, and serves them.
func TestSeedSynthetic(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	ctx := context.Background()
	for _, bad := range [][]string{
		{"--synthetic", "-1"},
		{"--synthetic", strconv.Itoa(maxSynthetic + 1)},
		{"--synthetic", "10", "--demo"},
		{"--synthetic", "many"},
	} {
		var errOut strings.Builder
		err := run(ctx, time.Now, append([]string{"seed", "--data", data}, bad...), io.Discard, &errOut)
		if err == nil || !strings.Contains(err.Error()+errOut.String(), "synthetic") {
			t.Errorf("seed %v: err %v (stderr %q), want an error naming --synthetic", bad, err, errOut.String())
		}
	}
	var out strings.Builder
	if err := run(ctx, time.Now, []string{"seed", "--data", data, "--synthetic", "1"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if err := run(ctx, time.Now, []string{"seed", "--data", data, "--synthetic", "120"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "added 120 synthetic listings") {
		t.Errorf("seed output = %q", out.String())
	}
	db, err := storage.Open(filepath.Join(data, "launchdir.db"), storage.WithClock(time.Now))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st, err := storage.NewStore(ctx, db, app.Config{}.Site())
	if err != nil {
		t.Fatal(err)
	}
	if _, total, err := st.SearchListings(ctx, domain.ListingQuery{}); err != nil || total != 121 {
		t.Errorf("listings after seeding 1 and 120: total %d, err %v; want 121", total, err)
	}
}

// TestAPIKeyCreate creates a key with the operator subcommand and uses it
// against the served REST API.
func TestAPIKeyCreate(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	var out, errOut strings.Builder
	ctx := context.Background()
	if err := run(ctx, time.Now, []string{"apikey", "create", "--data", data}, &out, &errOut); err == nil {
		t.Error("apikey create without --email succeeded")
	}
	if err := run(ctx, time.Now, []string{"apikey", "create", "--data", data, "--email", "ops@example.com", "--name", "deploy"}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	key := strings.TrimSpace(out.String())
	if !strings.HasPrefix(key, "ld_sk_") || strings.Contains(errOut.String(), key) {
		t.Fatalf("stdout %q (want only the key), stderr %q (must not repeat it)", key, errOut.String())
	}

	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(sctx, time.Now, []string{"serve", "--addr", "127.0.0.1:0", "--data", data, "--rate-limit", "0"}, pw, io.Discard)
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	var api string
	for api == "" && sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) == 3 && f[0] == "REST" {
			api = f[2]
		}
	}
	go io.Copy(io.Discard, pr)
	req, _ := http.NewRequest(http.MethodGet, api+"/me", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var me struct {
		Email        string `json:"email"`
		SignedInWith string `json:"signed_in_with"`
	}
	json.NewDecoder(res.Body).Decode(&me)
	res.Body.Close()
	if res.StatusCode != 200 || me.Email != "ops@example.com" || me.SignedInWith != "api_key" {
		t.Errorf("GET /v1/me with the key: %d %+v", res.StatusCode, me)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
