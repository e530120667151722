//go:build e2e

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestRestartResumesDraft builds the real binary, starts it, submits a site,
// kills the process (SIGKILL, no shutdown) while the site is being read, starts
// it again on the same data directory, and checks the draft completes.
func TestRestartResumesDraft(t *testing.T) {
	t.Parallel() // owns its data directory, processes, ports and product site
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := builtBinary(t)
	data := t.TempDir()
	out, err := exec.Command(bin, "apikey", "create", "--data", data, "--email", "owner@example.com").Output()
	if err != nil {
		t.Fatal(err)
	}
	key := strings.TrimSpace(string(out))

	// The product site answers its home page at once and holds every other page
	// until released, so the first server is killed mid-crawl.
	release := make(chan struct{})
	var served atomic.Int32
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		switch r.URL.Path {
		case "/robots.txt":
			http.NotFound(w, r)
		case "/":
			io.WriteString(w, `<html><head><title>Tally Cat</title><meta name="description" content="Tally Cat counts your inventory for you."></head>
<body><h1>Tally Cat</h1><p>Tally Cat counts your inventory for you.</p><a href="/about">About</a> <a href="/pricing">Pricing</a></body></html>`)
		default:
			select {
			case <-release:
			case <-r.Context().Done():
				return
			}
			io.WriteString(w, `<html><body><h1>About Tally Cat</h1><p>Tally Cat was founded in 2021 in Lisbon, Portugal.</p></body></html>`)
		}
	}))
	defer site.Close()

	start := func() (*exec.Cmd, string) {
		cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--data", data, "--rate-limit", "0",
			"--fetch-allow-loopback", "--job-lease", "2s")
		banner := startServeProcess(t, cmd, &syncBuffer{})
		api := ""
		for _, line := range strings.Split(banner, "\n") {
			if f := strings.Fields(line); len(f) == 3 && f[0] == "REST" {
				api = f[2]
			}
		}
		if api == "" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("serve printed no REST API URL:\n%s", banner)
		}
		return cmd, api
	}
	do := func(method, url string, body any) map[string]any {
		var rd io.Reader
		if body != nil {
			b, _ := json.Marshal(body)
			rd = bytes.NewReader(b)
		}
		req, _ := http.NewRequest(method, url, rd)
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var m map[string]any
		json.NewDecoder(res.Body).Decode(&m)
		if res.StatusCode >= 300 {
			t.Fatalf("%s %s: %d %v", method, url, res.StatusCode, m)
		}
		return m
	}

	first, api := start()
	d := do("POST", api+"/drafts", map[string]any{"url": site.URL})
	id := d["id"].(string)
	// Bounds, not speed checks: the test runs beside the browser tests.
	deadline := time.Now().Add(60 * time.Second)
	for served.Load() < 2 { // the home page was read: the crawl is under way
		if time.Now().After(deadline) {
			first.Process.Kill()
			t.Fatal("the crawl did not start")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := first.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	first.Wait()
	close(release)

	second, api := start()
	defer func() { second.Process.Signal(os.Interrupt); second.Wait() }()
	deadline = time.Now().Add(120 * time.Second)
	for {
		d = do("GET", api+"/drafts/"+id, nil)
		if d["status"] == "ready" || d["status"] == "failed" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the restart the draft is still %v: %v", d["status"], d["progress"])
		}
		time.Sleep(100 * time.Millisecond)
	}
	fields := d["fields"].(map[string]any)
	if d["status"] != "ready" || fields["name"].(map[string]any)["value"] != "Tally Cat" {
		t.Fatalf("draft after restart: %v %v", d["status"], fmt.Sprint(fields["name"]))
	}
	if y := fields["founded_year"].(map[string]any); y["value"] != "2021" {
		t.Errorf("founded_year %v: the about page read after the restart is missing", y)
	}
}
