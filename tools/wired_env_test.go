package tools

import (
	"context"
	"encoding/hex"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/fetch"
	"github.com/launchdir/launchdir/internal/webhooksend"
	"github.com/launchdir/launchdir/internal/wiring"
)

// testWorld is the outside world of a test stack, handed to the wiring as
// its adapters: the site reader, the page reader, DNS, payments and the
// webhook sender, each swappable while the stack runs (withDrafting,
// withOwning, withOrdering and withWebhooks swap in the local sites' ones),
// and the mail log every message lands in (mail).
type testWorld struct {
	mu       sync.RWMutex
	sites    domain.Fetcher
	pages    domain.PageFetcher
	resolver domain.TXTResolver
	payments domain.Payments
	sender   domain.WebhookSender
	// mail records each message the outbox writes to its mail log (the
	// stack has no SMTP, as serve without --smtp-host), so the outbox
	// keeps every link whole for the tests that read it there.
	mail *recordingMailer
}

// newTestWorld is the outside world as serve meets it by default: the
// guarded crawler (no loopback), the system resolver, the built-in test
// payments and the guarded webhook sender.
func newTestWorld(t testing.TB) *testWorld {
	sites, pages := fetch.New(fetch.Options{}), fetch.New(fetch.Options{})
	snd := webhooksend.New(webhooksend.Options{})
	t.Cleanup(func() { sites.Close(); pages.Close(); snd.Close() })
	return &testWorld{sites: sites, pages: pages, resolver: net.DefaultResolver, payments: domain.TestPayments{}, sender: snd, mail: &recordingMailer{}}
}

// swap replaces one part of the world under the lock.
func (w *testWorld) swap(f func(w *testWorld)) {
	w.mu.Lock()
	defer w.mu.Unlock()
	f(w)
}

func (w *testWorld) Crawl(ctx context.Context, rawURL string, maxPages int, progress domain.CrawlProgress) (*domain.SiteCrawl, error) {
	w.mu.RLock()
	f := w.sites
	w.mu.RUnlock()
	return f.Crawl(ctx, rawURL, maxPages, progress)
}

func (w *testWorld) FetchPage(ctx context.Context, rawURL string, opts domain.FetchPageOptions) (*domain.FetchedPage, error) {
	w.mu.RLock()
	f := w.pages
	w.mu.RUnlock()
	return f.FetchPage(ctx, rawURL, opts)
}

func (w *testWorld) LookupTXT(ctx context.Context, name string) ([]string, error) {
	w.mu.RLock()
	r := w.resolver
	w.mu.RUnlock()
	return r.LookupTXT(ctx, name)
}

func (w *testWorld) pay() domain.Payments {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.payments
}

func (w *testWorld) Name() string   { return w.pay().Name() }
func (w *testWorld) TestMode() bool { return w.pay().TestMode() }
func (w *testWorld) Begin(ctx context.Context, o *domain.Order, pages domain.CheckoutPages) (string, string, error) {
	return w.pay().Begin(ctx, o, pages)
}

func (w *testWorld) hooks() domain.WebhookSender {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.sender
}

func (w *testWorld) CheckHost(host string) error { return w.hooks().CheckHost(host) }
func (w *testWorld) Send(ctx context.Context, url string, header map[string]string, body []byte) (int, error) {
	return w.hooks().Send(ctx, url, header, body)
}

// Write takes one message of the outbox's mail log ("----- mail to TO:
// SUBJECT -----", the body, "----- end of mail -----"; one Write each) and
// records it as "to|subject|body", as a mailer of the test would.
func (m *recordingMailer) Write(p []byte) (int, error) {
	head, rest, _ := strings.Cut(string(p), "\n")
	head = strings.TrimSuffix(strings.TrimPrefix(head, "----- mail to "), " -----")
	to, subject, _ := strings.Cut(head, ": ")
	body := strings.TrimSuffix(rest, "----- end of mail -----\n")
	return len(p), m.SendMail(context.Background(), to, subject, body)
}

// webhookTestKey is the server key of the test stacks (webhook secrets are
// stored encrypted with it).
var webhookTestKey = []byte("0123456789abcdef0123456789abcdef")

// wiredCore builds a test stack's core through the production wiring
// (internal/wiring, what serve's internal/app builds on) over the SQLite
// file dbPath (named launchdir.db, as fixtures.SeededFile makes it), for
// the site at baseURL on clock now, with the outside world w. The limiters
// are off (the tests that exercise them set tools.Options, or settings) and
// the job runner is not started: a test runs due jobs on its clock
// (catEnv.runJobs). change sets what a test needs of the Config (as a
// serve flag would) or of the outside world beyond w.
func wiredCore(t testing.TB, dbPath, baseURL string, now func() time.Time, w *testWorld, change ...func(*wiring.Config, *wiring.Adapters)) *wiring.Core {
	t.Helper()
	if filepath.Base(dbPath) != "launchdir.db" {
		t.Fatalf("wiredCore: %s: the data directory's database is launchdir.db", dbPath)
	}
	cfg := wiring.Defaults()
	cfg.Data, cfg.BaseURL = filepath.Dir(dbPath), baseURL
	cfg.RateFailures, cfg.RateOAuth, cfg.RateMCP, cfg.RatePages = 0, 0, 0, 0
	cfg.WebhookKey = hex.EncodeToString(webhookTestKey)
	// The drafter is wiring's default, the grounded extractor, drafting each
	// crawled site once per test binary (memoDrafter).
	ad := wiring.Adapters{Now: now, MailLog: w.mail, Sites: w, Pages: w, Resolver: w, Payments: w, WebhookSender: w, Drafter: newMemoDrafter()}
	for _, f := range change {
		f(&cfg, &ad)
	}
	c, err := wiring.Open(context.Background(), cfg, ad)
	if err != nil {
		t.Fatalf("wiring.Open: %v", err)
	}
	// The database only: the store's Close writes a search snapshot, which
	// no test reads and every test would pay for.
	t.Cleanup(func() { c.DB.Close() })
	// The purpose the committed snapshots and examples show, stored as the
	// site team stores it (the console's settings; serve's default purpose
	// is Config.Site's).
	if err := c.Store.SaveSettings(context.Background(), map[string]string{domain.SettingSitePurpose: testSitePurpose}, nil); err != nil {
		t.Fatalf("storing the site's purpose: %v", err)
	}
	return c
}

// testSitePurpose is the site's purpose in the test stacks.
const testSitePurpose = "A public directory of software launches."
