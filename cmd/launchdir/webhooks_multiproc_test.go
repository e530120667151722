//go:build e2e

package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/launchdir/launchdir/storage/pgtest"
)

// TestMultiProcess_WebhooksOneOutbox: serve processes on one PostgreSQL
// database deliver from one outbox. Process 0 is killed (SIGKILL) while its
// POST of the first test event hangs at the receiver; processes 1 and 2,
// started after, take the delivery over once its lease lapses and deliver
// it, then deliver ten more events between them. Every event reaches the
// receiver; each delivery has one outcome in the log (one attempt, delivered);
// only the killed one was POSTed twice, with the same webhook-id: delivery is
// at least once, and the duplicate is marked by its id.
func TestMultiProcess_WebhooksOneOutbox(t *testing.T) {
	t.Parallel() // owns its database, processes, ports and receiver
	if testing.Short() {
		t.Skip("builds the binary and runs three servers")
	}
	dbURL := pgtest.Database(t)
	bin := builtBinary(t)
	var mu sync.Mutex
	posts := map[string]int{} // webhook-id -> POSTs received
	var first atomic.Bool
	hung := make(chan struct{})
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		id := r.Header.Get("webhook-id")
		mu.Lock()
		posts[id]++
		mu.Unlock()
		if first.CompareAndSwap(false, true) {
			close(hung)
			<-r.Context().Done() // hangs until its sender dies
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer rcv.Close()

	c := newMPCluster(t, bin, dbURL, 3)
	c.procs[0] = c.startProc(bin, dbURL, 0)

	hook := c.must(201, "POST", 0, "/v1/me/webhooks", map[string]any{"url": rcv.URL + "/hook", "events": []string{"draft.ready"}})
	id := strconv.FormatFloat(hook["webhook"].(map[string]any)["id"].(float64), 'f', -1, 64)
	c.must(202, "POST", 0, "/v1/me/webhooks/"+id+"/test", nil)
	select {
	case <-hung:
	case <-time.After(30 * time.Second):
		t.Fatal("process 0 never POSTed the first event")
	}
	if err := c.procs[0].cmd.Process.Kill(); err != nil { // SIGKILL mid-delivery
		t.Fatal(err)
	}
	c.procs[0].cmd.Wait()
	c.down[0].Store(true)
	c.procs[1] = c.startProc(bin, dbURL, 1)
	c.procs[2] = c.startProc(bin, dbURL, 2)
	for i := range 10 {
		c.must(202, "POST", 1+i%2, "/v1/me/webhooks/"+id+"/test", nil)
	}
	c.waitFor(60*time.Second, "not every delivery was delivered", func() bool {
		return c.count(`SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'delivered'`) == 11
	})
	if n := c.count(`SELECT COUNT(*) FROM webhook_deliveries`); n != 11 {
		t.Errorf("%d deliveries, want 11 (one per event)", n)
	}
	if n := c.count(`SELECT COUNT(*) FROM webhook_attempts`); n != 11 {
		t.Errorf("%d attempts in the log, want 11: one outcome per delivery", n)
	}
	mu.Lock()
	defer mu.Unlock()
	twice := 0
	for mid, n := range posts {
		if c.count(`SELECT COUNT(*) FROM webhook_events WHERE msg_id = $1`, mid) != 1 {
			t.Errorf("the receiver got %s, which is not an outbox event", mid)
		}
		if n > 1 {
			twice++
		}
	}
	if len(posts) != 11 || twice != 1 {
		t.Errorf("the receiver got %d events (%d more than once), want 11 with only the interrupted one twice: %v", len(posts), twice, posts)
	}
}
