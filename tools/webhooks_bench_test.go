package tools

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/webhooksend"
	"github.com/launchdir/launchdir/storage"
)

// BenchmarkWebhookDelivery is issue 34's throughput check: 10,000 events
// through the outbox to a receiver on loopback, as serve delivers them (the
// real SQLite store, the durable job runner's workers, the sender with the
// crawler's guard, secrets encrypted with a server key). The receiver
// verifies every Standard Webhooks signature and notes when each webhook-id
// first arrived; "change to delivery" is from the commit of the transaction
// that wrote the event to that arrival. Sub-benchmarks:
//
//   - backlog: the 10,000 events are queued first (100 transactions of
//     100), then the workers start; events/s is over the drain, and p99
//     includes each event's wait in the backlog (the case).
//   - paced: the workers run while 400 events are written one per
//     transaction at 20/s (under the backlog rate on a loaded machine): the
//     latency of one change when no backlog forms; no events/s.
//
// Each runs with serve's default 2 workers and with 8.
//
//	go test ./tools -run '^$' -bench WebhookDelivery -benchtime 1x -v -timeout 30m
func BenchmarkWebhookDelivery(b *testing.B) {
	for _, workers := range []int{2, 8} {
		b.Run(fmt.Sprintf("backlog/workers=%d", workers), func(b *testing.B) { benchWebhookDelivery(b, workers, 10000, 0) })
		b.Run(fmt.Sprintf("paced/workers=%d", workers), func(b *testing.B) { benchWebhookDelivery(b, workers, 400, 20) })
	}
}

// benchReceiver verifies each POST and notes the first arrival of each webhook-id.
type benchReceiver struct {
	*httptest.Server
	secret  string
	mu      sync.Mutex
	arrived map[string]time.Time
	bad     int
	all     chan struct{} // closed when want distinct ids have arrived
	want    int
}

func (r *benchReceiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	at := time.Now()
	ok := verifyStandardWebhook([]string{r.secret}, req.Header, body, catNow)
	r.mu.Lock()
	id := req.Header.Get("webhook-id")
	if !ok {
		r.bad++
	} else if _, seen := r.arrived[id]; !seen {
		r.arrived[id] = at
		if len(r.arrived) == r.want {
			close(r.all)
		}
	}
	r.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// benchWebhookDelivery delivers n events per iteration; rate 0 queues them
// all first, else they are written one per transaction at rate per second
// while the workers run.
func benchWebhookDelivery(b *testing.B, workers, n, rate int) {
	env := catTestServer(b, Options{}, false)
	ctx := context.Background()
	u, err := env.store.UpsertUser(ctx, auth.EmailIssuer, "bench@example.com", "bench@example.com", "", catNow)
	if err != nil {
		b.Fatal(err)
	}
	snd := webhooksend.New(webhooksend.Options{AllowLoopback: true, Timeout: 10 * time.Second})
	b.Cleanup(snd.Close)
	runner := domain.NewRunner(storage.NewJobStore(env.db), domain.RunnerOptions{Workers: workers, Now: env.clock.Now,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	env.svc.Hooks = &domain.Webhooking{Store: env.svc.Hooks.Store, Sender: snd, Key: webhookTestKey, Wake: runner.Wake}
	env.svc.RegisterWebhookJobs(runner)
	rcv := &benchReceiver{}
	rcv.Server = httptest.NewServer(rcv)
	b.Cleanup(rcv.Close)
	hook, err := env.svc.CreateWebhook(domain.WithCaller(ctx, domain.Caller{UserID: u.ID}),
		domain.CreateWebhookInput{URL: rcv.URL, Events: []string{domain.EventUpdatePosted}})
	if err != nil {
		b.Fatal(err)
	}
	rcv.secret = hook.Webhook.Secret
	store := env.svc.Hooks.Store
	event := func(i int) domain.WebhookEvent {
		return domain.NewWebhookEvent(domain.EventUpdatePosted, u.ID, 0, catNow, map[string]any{
			"update_id": i, "listing_id": 1, "slug": "bench", "title": "Update", "page_url": env.svc.Site.BaseURL + "/listings/bench"})
	}
	var lat []time.Duration
	var total time.Duration
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		rcv.mu.Lock()
		rcv.arrived, rcv.all, rcv.want = map[string]time.Time{}, make(chan struct{}), n
		rcv.mu.Unlock()
		written := map[string]time.Time{}
		rctx, stop := context.WithCancel(ctx)
		var wg sync.WaitGroup
		start := func() {
			wg.Add(1)
			go func() { defer wg.Done(); runner.Run(rctx) }()
		}
		b.StartTimer()
		var began time.Time
		if rate == 0 {
			for i := 0; i < n; i += 100 {
				batch := make([]domain.WebhookEvent, 0, 100)
				for j := i; j < min(i+100, n); j++ {
					batch = append(batch, event(j))
				}
				if err := store.AddWebhookEvents(ctx, batch...); err != nil {
					b.Fatal(err)
				}
				at := time.Now()
				for _, e := range batch {
					written[e.MsgID] = at
				}
			}
			began = time.Now()
			start()
		} else {
			start()
			began = time.Now()
			tick := time.NewTicker(time.Second / time.Duration(rate))
			for i := range n {
				<-tick.C
				e := event(i)
				if err := store.AddWebhookEvents(ctx, e); err != nil {
					b.Fatal(err)
				}
				written[e.MsgID] = time.Now()
				runner.Wake()
			}
			tick.Stop()
		}
		select {
		case <-rcv.all:
		case <-time.After(10 * time.Minute):
			b.Fatalf("only %d of %d events arrived in 10 minutes", len(rcv.arrived), n)
		}
		b.StopTimer()
		stop()
		wg.Wait()
		rcv.mu.Lock()
		last := time.Time{}
		for id, at := range rcv.arrived {
			w, ok := written[id]
			if !ok {
				b.Fatalf("webhook-id %s arrived but was not written in this run", id)
			}
			lat = append(lat, at.Sub(w))
			if at.After(last) {
				last = at
			}
		}
		if rcv.bad > 0 {
			b.Fatalf("%d POSTs failed Standard Webhooks verification", rcv.bad)
		}
		rcv.mu.Unlock()
		total += last.Sub(began)
	}
	slices.Sort(lat)
	pct := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
	if rate == 0 {
		b.ReportMetric(float64(n*b.N)/total.Seconds(), "events/s")
	}
	b.ReportMetric(pct(0.50), "p50_ms")
	b.ReportMetric(pct(0.99), "p99_ms")
	b.ReportMetric(pct(1), "max_ms")
}
