package llmdraft_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/extract"
	"github.com/launchdir/launchdir/internal/llmdraft"
)

// TestDrafter_FailingEndpointFallsBack: when the model's endpoint keeps
// failing for a reason that may pass (5xx, a reply that is not JSON, a
// timeout), the draft is the extractor's grounded draft after Attempts
// tries, not an error; a failure that needs the configuration fixed (a wrong
// key) is still an error, and an endpoint that recovers on the second try
// gives the model's values.
func TestDrafter_FailingEndpointFallsBack(t *testing.T) {
	t.Parallel()
	req := acmeRequest()
	want := func(t *testing.T) *domain.Drafted {
		d, err := extract.New().Draft(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := domain.Ground(req, d)
		return out
	}(t)
	if len(want.Fields) < 3 {
		t.Fatalf("the extractor drafts only %d fields of the test site", len(want.Fields))
	}
	drafter := func(t *testing.T, url string, hc *http.Client, key string, timeout time.Duration) *llmdraft.Drafter {
		d, err := llmdraft.New(llmdraft.Config{BaseURL: url + "/v1", Model: testModel, APIKey: key, HTTPClient: hc,
			Fallback: extract.New(), Attempts: 3, RetryWait: time.Millisecond, Timeout: timeout})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	for _, tc := range []struct {
		name     string
		reply    fakeReply
		requests int
	}{
		{"ServerError", fakeReply{status: http.StatusInternalServerError}, 3},
		{"Overloaded", fakeReply{status: http.StatusServiceUnavailable}, 3},
		{"NotJSON", fakeReply{content: "Sure! Here is the profile: {\"fields\": ["}, 6}, // each try asks twice
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFakeModel(t, tc.reply)
			got, err := drafter(t, f.URL, f.Client(), testKey, 0).Draft(context.Background(), req)
			if err != nil {
				t.Fatalf("err = %v, want the extractor's draft", err)
			}
			if n := len(f.Requests()); n != tc.requests {
				t.Errorf("%d requests, want %d", n, tc.requests)
			}
			if !reflect.DeepEqual(got.Fields, want.Fields) || len(got.Founders) != len(want.Founders) || len(got.FAQs) != len(want.FAQs) {
				t.Errorf("draft = %+v\nwant the extractor's %+v", got.Fields, want.Fields)
			}
			assertGrounded(t, req.Site, got)
		})
	}
	t.Run("Timeout", func(t *testing.T) {
		t.Parallel()
		release := make(chan struct{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			select {
			case <-r.Context().Done():
			case <-release:
			}
		}))
		defer srv.Close()
		defer close(release)
		got, err := drafter(t, srv.URL, srv.Client(), testKey, 50*time.Millisecond).Draft(context.Background(), req)
		if err != nil || !reflect.DeepEqual(got.Fields, want.Fields) {
			t.Fatalf("err = %v, fields = %+v: want the extractor's draft", err, got)
		}
	})
	t.Run("WrongKeyStillFails", func(t *testing.T) {
		t.Parallel()
		f := newFakeModel(t, fakeReply{})
		if _, err := drafter(t, f.URL, f.Client(), "sk-wrong-key-42", 0).Draft(context.Background(), req); err == nil {
			t.Fatal("a wrong key gave a draft: it must fail so the operator sees it")
		}
	})
	t.Run("RecoversOnSecondTry", func(t *testing.T) {
		t.Parallel()
		type m = map[string]any
		f := newFakeModel(t, fakeReply{status: http.StatusBadGateway}, fakeReply{content: jsonReply(t, m{"fields": []m{
			{"field": "tagline", "text": "Meeting notes your team will actually read.", "evidence": ev("Meeting notes your team will actually read.", home)},
		}})})
		got, err := drafter(t, f.URL, f.Client(), testKey, 0).Draft(context.Background(), req)
		if err != nil || got.Fields["tagline"].Text != "Meeting notes your team will actually read." || len(f.Requests()) != 2 {
			t.Fatalf("err = %v, tagline = %q, %d requests: want the model's value on the second try", err, got.Fields["tagline"].Text, len(f.Requests()))
		}
	})
	t.Run("CancelledIsAnError", func(t *testing.T) {
		t.Parallel()
		f := newFakeModel(t, fakeReply{status: http.StatusInternalServerError})
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := drafter(t, f.URL, f.Client(), testKey, 0).Draft(ctx, req); err == nil {
			t.Fatal("a cancelled draft gave the fallback: the job was stopped, it must not be marked ready")
		}
	})
}
