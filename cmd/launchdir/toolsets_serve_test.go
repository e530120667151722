package main

import (
	"fmt"
	"html"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/tools"
)

// TestServe_DocsToolsets runs serve --demo and reads /docs: the toolsets
// section lists every toolset with its tools and the cost of its
// definitions, as tools.Toolsets computes them from the catalog; and /mcp
// of the same process refuses an unknown toolset with a 400.
func TestServe_DocsToolsets(t *testing.T) {
	t.Parallel()
	s := startServeDemoCopy(t, nil)
	origin := "http://127.0.0.1:" + s.port
	res, err := s.client().Get(origin + "/docs")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	page := string(b)
	if res.StatusCode != 200 || !strings.Contains(page, `<section id="toolsets">`) {
		t.Fatalf("GET /docs: %d, no toolsets section", res.StatusCode)
	}
	sets := tools.Toolsets(tools.Catalog())
	if len(sets) != 9 { // seven, trophies and webhooks
		t.Fatalf("%d toolsets, want 9", len(sets))
	}
	for _, ts := range sets {
		_, row, ok := strings.Cut(page, "<code>"+ts.Name+"</code></th>")
		if !ok {
			t.Errorf("/docs has no row for %s", ts.Name)
			continue
		}
		row, _, _ = strings.Cut(row, "</tr>")
		for _, want := range append([]string{html.EscapeString(ts.Summary), fmt.Sprintf("(%d)", len(ts.Tools)), " bytes"}, ts.Tools...) {
			if !strings.Contains(row, want) {
				t.Errorf("/docs row %s lacks %q", ts.Name, want)
			}
		}
		if !strings.Contains(strings.ReplaceAll(row, ",", ""), fmt.Sprint(ts.Cost)) {
			t.Errorf("/docs row %s lacks its cost %d", ts.Name, ts.Cost)
		}
	}
	if !strings.Contains(page, origin+"/mcp?toolsets=public,drafts") {
		t.Error("/docs shows no ?toolsets= example URL")
	}
	req, _ := http.NewRequest(http.MethodPost, origin+"/mcp?toolsets=nope", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err = s.client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 400 || !strings.Contains(string(b), `"field":"toolsets"`) {
		t.Errorf("POST /mcp?toolsets=nope: %d %s, want 400 naming toolsets", res.StatusCode, b)
	}
}
