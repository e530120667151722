package tools

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/extract"
	"github.com/launchdir/launchdir/internal/fetch"
)

// memoDrafter is the grounded extractor (what wiring uses when no drafter
// is given) drafting each crawled site once per test binary. Most stacks
// draft the same local site (draftSiteDir), each on a server of its own
// port; the extractor is deterministic and reads no clock, so a request
// that differs from an earlier one only in the site's host gets the earlier
// draft with the host written back in. The key and the stored draft are
// the request's and the draft's JSON with the host replaced by draftMemoHost;
// each caller gets a draft decoded for it (callers may change it). Errors
// are not kept.
type memoDrafter struct{ d domain.Drafter }

// draftMemoHost stands for the crawled site's host in the memo's keys and
// drafts.
const draftMemoHost = "site.draft-memo.invalid"

var draftMemo sync.Map // request key -> *memoDraft

type memoDraft struct {
	once  sync.Once
	draft []byte // the draft's JSON, the host replaced; nil: drafting failed
}

func newMemoDrafter() memoDrafter { return memoDrafter{extract.New()} }

func (m memoDrafter) Draft(ctx context.Context, req domain.DraftRequest) (*domain.Drafted, error) {
	host := ""
	if req.Site != nil {
		if u, err := url.Parse(req.Site.URL); err == nil {
			host = u.Host
		}
	}
	b, err := json.Marshal(req)
	if host == "" || err != nil || strings.Contains(string(b), draftMemoHost) {
		return m.d.Draft(ctx, req)
	}
	key := sha256.Sum256([]byte(strings.ReplaceAll(string(b), host, draftMemoHost)))
	v, _ := draftMemo.LoadOrStore(key, &memoDraft{})
	e := v.(*memoDraft)
	var first *domain.Drafted
	var firstErr error
	e.once.Do(func() {
		first, firstErr = m.d.Draft(ctx, req)
		if firstErr != nil {
			return
		}
		if out, err := json.Marshal(first); err == nil {
			e.draft = []byte(strings.ReplaceAll(string(out), host, draftMemoHost))
		}
	})
	if first != nil || firstErr != nil {
		return first, firstErr
	}
	if e.draft == nil || ctx.Err() != nil {
		return m.d.Draft(ctx, req)
	}
	var d domain.Drafted
	if err := json.Unmarshal([]byte(strings.ReplaceAll(string(e.draft), draftMemoHost, host)), &d); err != nil {
		return m.d.Draft(ctx, req)
	}
	return &d, nil
}

// TestMemoDrafter_SameAsDrafting: the memo's draft of a site served on a
// second address (a hit) is the extractor's own draft of it there, and
// its first draft is the extractor's too.
func TestMemoDrafter_SameAsDrafting(t *testing.T) {
	t.Parallel()
	crawl := func() domain.DraftRequest {
		site := httptest.NewServer(http.FileServer(http.Dir(draftSiteDir)))
		t.Cleanup(site.Close)
		sites := fetch.New(fetch.Options{AllowLoopback: true})
		t.Cleanup(sites.Close)
		c, err := sites.Crawl(context.Background(), site.URL, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		return domain.DraftRequest{Site: c, Categories: []domain.CategoryChoice{{Slug: "finance", Name: "Finance"}, {Slug: "developer-tools", Name: "Developer Tools"}},
			Stages: []string{"idea", "launched", "growing"}}
	}
	ctx := context.Background()
	memo := memoDrafter{extract.New()}
	for i, req := range []domain.DraftRequest{crawl(), crawl()} {
		want, err := extract.New().Draft(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		got, err := memo.Draft(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			t.Fatalf("draft %d of %s by the memo:\n%s\nwant the extractor's:\n%s", i+1, req.Site.URL, g, w)
		}
		if w, _ := json.Marshal(want); i == 0 && !strings.Contains(string(w), "127.0.0.1:") {
			t.Fatalf("the draft names no address of the site, so a hit would prove nothing: %s", w)
		}
	}
}
