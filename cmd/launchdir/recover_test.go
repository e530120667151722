package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/app"
	"github.com/launchdir/launchdir/storage"
)

// TestServeRecoversOrphanDraft: a draft left crawling without its build job
// (written through the real store, as a crash between the two writes left
// one before they were one transaction) gets its job when serve starts, and
// is built: get_draft shows it ready. The recovery is logged.
func TestServeRecoversOrphanDraft(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, `<html><head><title>Orphan Owl</title><meta name="description" content="Orphan Owl finds lost jobs."></head>
<body><h1>Orphan Owl</h1><p>Orphan Owl finds lost jobs.</p></body></html>`)
	}))
	defer site.Close()
	data := t.TempDir()
	ctx := context.Background()
	var out strings.Builder
	if err := run(ctx, time.Now, []string{"apikey", "create", "--data", data, "--email", "owner@example.com"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	key := strings.TrimSpace(out.String())

	db, err := storage.Open(filepath.Join(data, "launchdir.db"), storage.WithClock(time.Now))
	if err != nil {
		t.Fatal(err)
	}
	st, err := storage.NewStore(context.Background(), db, app.Config{}.Site())
	if err != nil {
		t.Fatal(err)
	}
	u, err := storage.NewAuthStore(db).UserByEmail(ctx, "owner@example.com")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC().Truncate(time.Second)
	orphan := &domain.DraftRecord{ID: "0f8fad5b-d9cb-469f-a165-70867728950e", UserID: u.ID, URL: site.URL + "/",
		Status: domain.DraftCrawling, Phase: "queued", Doc: domain.DraftDoc{Fields: map[string]*domain.DraftField{}},
		CreatedAt: now, UpdatedAt: now}
	if err := st.CreateDraft(ctx, orphan); err != nil { // no job: the orphan
		t.Fatal(err)
	}
	if ids, err := st.OrphanDrafts(ctx); err != nil || len(ids) != 1 || ids[0] != orphan.ID {
		t.Fatalf("OrphanDrafts before serve: %v %v", ids, err)
	}
	db.Close()

	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	pr, pw := io.Pipe()
	logs := &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- run(sctx, time.Now, []string{"serve", "--addr", "127.0.0.1:0", "--data", data, "--rate-limit", "0", "--fetch-allow-loopback"}, pw, logs)
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
	if api == "" {
		t.Fatalf("serve printed no REST API URL; log:\n%s", logs.String())
	}
	var d struct {
		Status string `json:"status"`
		Fields map[string]struct {
			Value any `json:"value"`
		} `json:"fields"`
	}
	deadline := time.Now().Add(60 * time.Second)
	for d.Status != "ready" && d.Status != "failed" {
		if time.Now().After(deadline) {
			t.Fatalf("the orphan draft is still %q after 60 s; log:\n%s", d.Status, logs.String())
		}
		time.Sleep(50 * time.Millisecond)
		req, _ := http.NewRequest("GET", api+"/drafts/"+orphan.ID, nil)
		req.Header.Set("Authorization", "Bearer "+key)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		err = json.NewDecoder(res.Body).Decode(&d)
		res.Body.Close()
		if err != nil || res.StatusCode != 200 {
			t.Fatalf("get_draft: %d %v", res.StatusCode, err)
		}
	}
	if d.Status != "ready" || d.Fields["name"].Value != "Orphan Owl" {
		t.Fatalf("the recovered draft: %+v", d)
	}
	if l := logs.String(); !strings.Contains(l, "recovered drafts") || !strings.Contains(l, orphan.ID) {
		t.Fatalf("the recovery was not logged:\n%s", l)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
