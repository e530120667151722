package vies

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/launchdir/launchdir/domain/vat"
)

// fakeVIES is a loopback web site speaking the VIES REST shape. It records
// each request it gets and answers with status and body.
type fakeVIES struct {
	mu       sync.Mutex
	requests []recordedRequest
	status   int
	body     string
}

type recordedRequest struct {
	method, path, contentType string
	body                      map[string]any
}

func (f *fakeVIES) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	rec := recordedRequest{method: r.Method, path: r.URL.Path, contentType: r.Header.Get("Content-Type")}
	_ = json.Unmarshal(raw, &rec.body)
	f.mu.Lock()
	f.requests = append(f.requests, rec)
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(f.status)
	io.WriteString(w, f.body)
}

func newFakeVIES(t *testing.T, status int, body string) (*fakeVIES, *VIES) {
	t.Helper()
	f := &fakeVIES{status: status, body: body}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, &VIES{BaseURL: srv.URL + "/taxation_customs/vies/rest-api", Client: srv.Client()}
}

// Answers as the VIES REST API gives them (fields beyond "valid" trimmed to
// what a real answer carries).
const (
	viesValid = `{"countryCode":"DE","vatNumber":"118619592","requestDate":"2026-11-21T10:00:00.000Z",` +
		`"valid":true,"requestIdentifier":"","name":"---","address":"---","traderName":"",` +
		`"traderNameMatch":"NOT_PROCESSED"}`
	viesInvalid = `{"countryCode":"DE","vatNumber":"118619592","requestDate":"2026-11-21T10:00:00.000Z",` +
		`"valid":false,"requestIdentifier":"","name":"---","address":"---"}`
	viesMSUnavailable = `{"actionSucceed":false,"errorWrappers":[{"error":"MS_UNAVAILABLE",` +
		`"message":"The application at the Member State is not replying or not available."}]}`
)

func TestVIES_CheckVAT(t *testing.T) {
	tests := []struct {
		name      string
		status    int
		body      string
		wantValid bool
		wantErr   string // "" for no error; else a part of the message
	}{
		{name: "Valid", status: 200, body: viesValid, wantValid: true},
		{name: "Invalid", status: 200, body: viesInvalid, wantValid: false},
		{name: "MemberStateUnavailableOn200", status: 200, body: viesMSUnavailable, wantErr: "MS_UNAVAILABLE"},
		{name: "ServerError", status: 500, body: viesMSUnavailable, wantErr: "HTTP 500: MS_UNAVAILABLE"},
		{name: "ServerErrorHTML", status: 503, body: `<html>Service Unavailable</html>`, wantErr: "HTTP 503"},
		{name: "UserErrorCode", status: 200, body: `{"isValid":false,"valid":false,"userError":"MS_MAX_CONCURRENT_REQ"}`, wantErr: "MS_MAX_CONCURRENT_REQ"},
		{name: "MalformedJSON", status: 200, body: `{"valid": tru`, wantErr: "not the expected JSON"},
		{name: "NoValidField", status: 200, body: `{"countryCode":"DE","vatNumber":"118619592"}`, wantErr: `no "valid" field`},
		{name: "ValidNotABool", status: 200, body: `{"valid":"yes"}`, wantErr: "not the expected JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, v := newFakeVIES(t, tt.status, tt.body)
			valid, err := v.CheckVAT(context.Background(), "DE", "118619592")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("CheckVAT = %v, %v; want an error containing %q", valid, err, tt.wantErr)
				}
				if valid {
					t.Error("valid is true alongside an error")
				}
			} else if err != nil || valid != tt.wantValid {
				t.Fatalf("CheckVAT = %v, %v; want %v, nil", valid, err, tt.wantValid)
			}
			f.mu.Lock()
			defer f.mu.Unlock()
			if len(f.requests) != 1 {
				t.Fatalf("VIES got %d requests, want 1", len(f.requests))
			}
			r := f.requests[0]
			if r.method != http.MethodPost || r.path != "/taxation_customs/vies/rest-api/check-vat-number" {
				t.Errorf("request %s %s, want POST .../check-vat-number", r.method, r.path)
			}
			if r.contentType != "application/json" {
				t.Errorf("Content-Type %q", r.contentType)
			}
			want := map[string]any{"countryCode": "DE", "vatNumber": "118619592"}
			if len(r.body) != len(want) || r.body["countryCode"] != want["countryCode"] || r.body["vatNumber"] != want["vatNumber"] {
				t.Errorf("request body %v, want %v", r.body, want)
			}
		})
	}
}

// TestVIES_GreekPrefix: Greece is asked for with its VAT prefix EL.
func TestVIES_GreekPrefix(t *testing.T) {
	f, v := newFakeVIES(t, 200, `{"valid":true}`)
	n, err := vat.Parse("EL 094012834")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.CheckVAT(context.Background(), n.Prefix, n.Local); err != nil {
		t.Fatal(err)
	}
	if got := f.requests[0].body; got["countryCode"] != "EL" || got["vatNumber"] != "094012834" {
		t.Errorf("request body %v, want EL / 094012834", got)
	}
}

// TestVIES_ContextCanceled: a VIES that does not answer is given up when the
// caller's context ends, and that is an error, not "invalid".
func TestVIES_ContextCanceled(t *testing.T) {
	arrived := make(chan struct{})
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The server notices a client that went away only once the body is read.
		io.ReadAll(r.Body)
		close(arrived)
		select { // hang until the client goes away (or the test ends, so a failure cannot hang the run)
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) }) // runs before srv.Close
	v := &VIES{BaseURL: srv.URL, Client: srv.Client()}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := v.CheckVAT(ctx, "DE", "118619592")
		done <- err
	}()
	<-arrived
	cancel()
	err := <-done
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("CheckVAT after cancel: %v, want context.Canceled", err)
	}
}

func TestVIES_Unreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there any more
	v := &VIES{BaseURL: url}
	if _, err := v.CheckVAT(context.Background(), "DE", "118619592"); err == nil || !strings.Contains(err.Error(), "could not reach VIES") {
		t.Fatalf("CheckVAT on a closed port: %v, want a reach error", err)
	}
}

func TestVIES_Defaults(t *testing.T) {
	var v VIES
	if _, err := v.CheckVAT(context.Background(), "", "118619592"); err == nil {
		t.Error("an empty country was sent")
	}
	if defaultVIESClient.Timeout <= 0 {
		t.Error("the default client has no timeout")
	}
	if !strings.HasPrefix(DefaultVIESBaseURL, "https://ec.europa.eu/") {
		t.Errorf("DefaultVIESBaseURL = %q", DefaultVIESBaseURL)
	}
}
