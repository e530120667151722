package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestServe_SearchSnapshot: serve writes the search snapshot beside the
// database (after its build and at shutdown); seed --synthetic forgets it
// (the database's snapshot token is deleted); the next serve answers
// searches with the seeded listings and writes a new one.
//
// The first serve runs on a copy of the demo template (demoDataCopy) whose
// snapshot is removed, file and token, as a new seed leaves the directory:
// serve --demo finds the demo there, builds the index from the database and
// writes the snapshot. The seed of an empty directory is proved by TestServe
// and the template's build.
func TestServe_SearchSnapshot(t *testing.T) {
	t.Parallel()
	data, _ := demoDataCopy(t)
	snapshot := filepath.Join(data, "launchdir.db.search")
	forgetSnapshot(t, data)
	tokens := func() int {
		db, err := storage.Open(filepath.Join(data, "launchdir.db"), storage.WithClock(time.Now))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		return fixtures.Count(t, db, "search_snapshot", nil)
	}
	// serveOnce runs serve on data, searches for q and stops it (SIGINT's
	// path: its context ends).
	serveOnce := func(q string, args ...string) (total int) {
		ctx, cancel := context.WithCancel(context.Background())
		pr, pw := io.Pipe()
		done := make(chan error, 1)
		go func() {
			done <- run(ctx, time.Now, append([]string{"serve", "--addr", "127.0.0.1:0", "--data", data, "--rate-limit", "0"}, args...), pw, io.Discard)
			pw.Close()
		}()
		var out strings.Builder
		buf := make([]byte, 64<<10)
		for !strings.Contains(out.String(), "Admin:") {
			n, err := pr.Read(buf)
			out.Write(buf[:n])
			if err != nil {
				t.Fatalf("serve: %v\n%s", err, out.String())
			}
		}
		go io.Copy(io.Discard, pr)
		m := regexp.MustCompile(`on (127\.0\.0\.1:\d+)\n`).FindStringSubmatch(out.String())
		if m == nil {
			t.Fatalf("no address in the banner:\n%s", out.String())
		}
		resp, err := http.Get("http://" + m[1] + "/v1/listings?q=" + q)
		if err != nil {
			t.Fatal(err)
		}
		var page struct {
			Total int `json:"total"`
		}
		err = json.NewDecoder(resp.Body).Decode(&page)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("search %q: %d %v", q, resp.StatusCode, err)
		}
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("serve: %v", err)
			}
		case <-time.After(60 * time.Second):
			t.Fatal("serve did not stop")
		}
		return page.Total
	}
	if _, err := os.Stat(snapshot); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("snapshot before the first serve: %v, want none", err)
	}
	if n := tokens(); n != 0 {
		t.Fatalf("%d snapshot tokens before the first serve, want 0", n)
	}
	if n := serveOnce("notes", "--demo"); n == 0 {
		t.Error("demo: no listing found for notes")
	}
	if _, err := os.Stat(snapshot); err != nil {
		t.Fatalf("no snapshot after serve: %v", err)
	}
	if n := tokens(); n != 1 {
		t.Fatalf("%d snapshot tokens after serve, want 1", n)
	}
	var stdout strings.Builder
	if err := run(context.Background(), time.Now, []string{"seed", "--data", data, "--synthetic", "30"}, &stdout, io.Discard); err != nil {
		t.Fatal(err)
	}
	if n := tokens(); n != 0 {
		t.Fatalf("%d snapshot tokens after seed --synthetic, want 0", n)
	}
	if n := serveOnce("notes"); n == 0 {
		t.Error("after seed: no listing found for notes")
	}
	if n := tokens(); n != 1 {
		t.Fatalf("%d snapshot tokens after the second serve, want 1", n)
	}
}

// forgetSnapshot removes the search snapshot of the data directory data:
// its file and the database's token of it.
func forgetSnapshot(t *testing.T, data string) {
	t.Helper()
	if err := os.Remove(filepath.Join(data, "launchdir.db.search")); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(data, "launchdir.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`DELETE FROM search_snapshot`); err != nil {
		t.Fatal(err)
	}
}
