package llmdraft_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain/extract"
	"github.com/launchdir/launchdir/internal/llmdraft"
)

// TestDrafter_ErrorBodyNotJSON: an error answer whose body is not an OpenAI
// error object (a reverse proxy's HTML 502 page, a server's plain-text 400)
// is judged by its status like any other: a 502 or 504 from the proxy in
// front of a local model is temporary (the draft falls back to the
// extractor's), a 401 page is not, and a plain-text 400 that names
// response_format makes the drafter ask again without structured output.
func TestDrafter_ErrorBodyNotJSON(t *testing.T) {
	t.Parallel()
	html := func(status int) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(status)
			_, _ = io.WriteString(w, "<html><head><title>"+http.StatusText(status)+"</title></head><body><center><h1>"+
				http.StatusText(status)+"</h1></center><hr><center>nginx</center></body></html>"+
				strings.Repeat("<!-- a padding to disable MSIE and Chrome friendly error page -->\n", 2000))
		}
	}
	for _, tc := range []struct {
		status    int
		temporary bool
	}{
		{http.StatusBadGateway, true},
		{http.StatusGatewayTimeout, true},
		{http.StatusUnauthorized, false},
	} {
		t.Run(http.StatusText(tc.status), func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(html(tc.status))
			defer srv.Close()
			d, err := llmdraft.New(llmdraft.Config{BaseURL: srv.URL + "/v1", Model: testModel, HTTPClient: srv.Client()})
			if err != nil {
				t.Fatal(err)
			}
			_, err = d.Draft(context.Background(), acmeRequest())
			if err == nil || llmdraft.Temporary(err) != tc.temporary {
				t.Fatalf("err = %v, Temporary = %v, want %v", err, llmdraft.Temporary(err), tc.temporary)
			}
			// The error goes into logs and the job's last error: the page's
			// start names the status, the rest of its 130 KB is left out.
			if msg := err.Error(); len(msg) > 2000 || !strings.Contains(msg, http.StatusText(tc.status)) {
				t.Errorf("the error is %d bytes (want the page's start, under 2000): %.300s", len(msg), msg)
			}
			fb, err := llmdraft.New(llmdraft.Config{BaseURL: srv.URL + "/v1", Model: testModel, HTTPClient: srv.Client(),
				Fallback: extract.New(), Attempts: 2, RetryWait: time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			got, err := fb.Draft(context.Background(), acmeRequest())
			if tc.temporary && (err != nil || len(got.Fields) == 0) {
				t.Fatalf("err = %v, draft = %+v: want the extractor's draft", err, got)
			}
			if !tc.temporary && err == nil {
				t.Fatal("a 401 page gave a draft: it must fail so the operator sees it")
			}
		})
	}
	t.Run("PlainTextFormatRefusal", func(t *testing.T) {
		t.Parallel()
		var mu sync.Mutex
		var formats []string
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var req struct {
				ResponseFormat *struct {
					Type string `json:"type"`
				} `json:"response_format"`
			}
			_ = json.NewDecoder(r.Body).Decode(&req)
			f := "none"
			if req.ResponseFormat != nil {
				f = req.ResponseFormat.Type
			}
			mu.Lock()
			formats = append(formats, f)
			mu.Unlock()
			if f != "none" {
				w.Header().Set("Content-Type", "text/plain")
				w.WriteHeader(http.StatusBadRequest)
				_, _ = io.WriteString(w, "unsupported parameter: response_format\n")
				return
			}
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"index": 0,
				"message": map[string]any{"role": "assistant", "content": jsonReply(t, fullReply(map[string]any{
					"field": "tagline", "text": "Meeting notes your team will actually read.",
					"evidence": ev("Meeting notes your team will actually read.", home)}))}}}})
		}))
		defer srv.Close()
		d, err := llmdraft.New(llmdraft.Config{BaseURL: srv.URL + "/v1", Model: testModel, HTTPClient: srv.Client()})
		if err != nil {
			t.Fatal(err)
		}
		got, err := d.Draft(context.Background(), acmeRequest())
		if err != nil || got.Fields["tagline"].Text == "" {
			t.Fatalf("err = %v, draft = %+v: want the tagline, asked for without response_format", err, got)
		}
		mu.Lock()
		defer mu.Unlock()
		if want := []string{"json_schema", "json_object", "none"}; !slices.Equal(formats, want) {
			t.Errorf("formats asked = %v, want %v", formats, want)
		}
	})
}
