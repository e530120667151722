//go:build e2e

package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx", to check the database

	"github.com/launchdir/launchdir/storage/pgtest"
)

// mpProc is one `launchdir serve` process of TestMultiProcess.
type mpProc struct {
	cmd *exec.Cmd
	s   *served // its port, log (stderr) and a client dialling it directly
	url *url.URL
}

// mpCluster is three serve processes on one PostgreSQL database behind a
// reverse proxy, the one origin every URL names.
type mpCluster struct {
	t     *testing.T
	db    *sql.DB
	proxy *httptest.Server
	procs []*mpProc
	down  []atomic.Bool // backends the proxy no longer sends to
	next  atomic.Uint64
	key   string // an API key of owner@example.com
}

// backendHeader pins a request to one process (its index); without it the
// proxy takes the next live process in turn.
const backendHeader = "X-Test-Backend"

func (c *mpCluster) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	i := -1
	if h := r.Header.Get(backendHeader); h != "" {
		i, _ = strconv.Atoi(h)
	} else {
		for range c.procs {
			j := int(c.next.Add(1) % uint64(len(c.procs)))
			if !c.down[j].Load() {
				i = j
				break
			}
		}
	}
	if i < 0 || i >= len(c.procs) || c.procs[i] == nil {
		http.Error(w, "no backend", http.StatusBadGateway)
		return
	}
	p := httputil.NewSingleHostReverseProxy(c.procs[i].url)
	p.ErrorLog = nil
	p.ErrorHandler = func(w http.ResponseWriter, _ *http.Request, err error) {
		http.Error(w, err.Error(), http.StatusBadGateway)
	}
	p.ServeHTTP(w, r) // the Host header stays the proxy's: the origin of --base-url
}

// newMPCluster is the cluster of the multi-process tests: n process slots
// (each started with startProc) on the PostgreSQL database dbURL behind a
// reverse proxy, with an API key of owner@example.com made by bin. When t
// ends, every process started is interrupted and waited for (one killed
// before is just waited for), then the proxy and the database handle close.
func newMPCluster(t *testing.T, bin, dbURL string, n int) *mpCluster {
	t.Helper()
	out, err := exec.Command(bin, "apikey", "create", "--database", dbURL, "--email", "owner@example.com").Output()
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("pgx", dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	c := &mpCluster{t: t, db: db, key: strings.TrimSpace(string(out)), procs: make([]*mpProc, n), down: make([]atomic.Bool, n)}
	c.proxy = httptest.NewServer(c)
	t.Cleanup(c.proxy.Close)
	t.Cleanup(func() {
		for _, p := range c.procs {
			if p != nil {
				p.cmd.Process.Signal(os.Interrupt)
				p.cmd.Wait()
			}
		}
	})
	return c
}

// startProc runs `launchdir serve` as process i and reads its banner.
func (c *mpCluster) startProc(bin, dbURL string, i int) *mpProc {
	t := c.t
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--database", dbURL, "--data", t.TempDir(),
		"--base-url", c.proxy.URL, "--rate-limit", "0", "--rate-pages", "0", "--rate-oauth", "0",
		"--fetch-allow-loopback", "--job-lease", "2s")
	logs := &syncBuffer{}
	banner := startServeProcess(t, cmd, logs)
	m := regexp.MustCompile(`on 127\.0\.0\.1:(\d+)\n`).FindStringSubmatch(banner)
	if m == nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("serve %d printed no listen address:\n%s\n%s", i, banner, logs.String())
	}
	addr := "127.0.0.1:" + m[1]
	var d net.Dialer
	u, _ := url.Parse("http://" + addr)
	return &mpProc{cmd: cmd, url: u, s: &served{port: m[1], banner: banner, logs: logs,
		dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, addr)
		}}}
}

// mpResult is one answer through the proxy.
type mpResult struct {
	status int
	body   []byte
	header http.Header
	m      map[string]any
}

// call sends a JSON request with the API key through the proxy, to process
// backend (-1: whichever the proxy picks). A transport error is status 0.
func (c *mpCluster) call(method string, backend int, path string, body any, hdr ...string) mpResult {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, c.proxy.URL+path, rd)
	req.Header.Set("Authorization", "Bearer "+c.key)
	req.Header.Set("Content-Type", "application/json")
	if backend >= 0 {
		req.Header.Set(backendHeader, strconv.Itoa(backend))
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return mpResult{}
	}
	defer res.Body.Close()
	r := mpResult{status: res.StatusCode, header: res.Header}
	r.body, _ = io.ReadAll(res.Body)
	json.Unmarshal(r.body, &r.m)
	return r
}

// must is call that fails the test unless the answer is want.
func (c *mpCluster) must(want int, method string, backend int, path string, body any, hdr ...string) map[string]any {
	c.t.Helper()
	r := c.call(method, backend, path, body, hdr...)
	if r.status != want {
		c.t.Fatalf("%s %s via process %d: %d %s, want %d", method, path, backend, r.status, r.body, want)
	}
	return r.m
}

// count runs a COUNT query on the database.
func (c *mpCluster) count(query string, args ...any) int {
	c.t.Helper()
	var n int
	if err := c.db.QueryRow(query, args...).Scan(&n); err != nil {
		c.t.Fatalf("%s: %v", query, err)
	}
	return n
}

// waitFor polls cond every 100 ms for up to d; it fails the test with what
// when cond is still false.
func (c *mpCluster) waitFor(d time.Duration, what string, cond func() bool) {
	c.t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			c.t.Fatalf("after %s: %s", d, what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// browser is a person's browser on the proxy origin: a cookie jar, form
// posts from the page's own origin, redirects reported.
func (c *mpCluster) browser() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// post submits a form through the proxy (to backend, or -1: any) and
// returns the status and the Location of a redirect (or the body).
func (c *mpCluster) post(b *http.Client, backend int, u string, form url.Values) (int, string) {
	req, _ := http.NewRequest("POST", u, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	if backend >= 0 {
		req.Header.Set(backendHeader, strconv.Itoa(backend))
	}
	res, err := b.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if loc := res.Header.Get("Location"); loc != "" {
		return res.StatusCode, loc
	}
	return res.StatusCode, string(body)
}

// signIn signs email in with the emailed link: the sign-in form is posted
// to process 0 (whose log holds the mail), the link is opened through the
// proxy (any process: the session is in the database).
func (c *mpCluster) signIn(email string) *http.Client {
	c.t.Helper()
	b := c.browser()
	logs := c.procs[0].s.logs
	before := len(reLinkLine.FindAllString(logs.String(), -1))
	if st, _ := c.post(b, 0, c.proxy.URL+"/signin", url.Values{"email": {email}}); st != 200 {
		c.t.Fatalf("POST /signin for %s: %d", email, st)
	}
	links := newLinks(logs, before)
	if len(links) != before+1 || !strings.HasPrefix(links[len(links)-1], c.proxy.URL+"/signin/email?token=") {
		c.t.Fatalf("sign-in of %s: %d new links naming the proxy origin %s", email, len(links)-before, c.proxy.URL)
	}
	res, err := b.Get(links[len(links)-1])
	if err != nil || res.StatusCode != http.StatusSeeOther {
		c.t.Fatalf("sign-in link: %v %v", err, res)
	}
	res.Body.Close()
	return b
}

// TestMultiProcess runs three serve processes on one PostgreSQL database
// behind one origin (a reverse proxy in the test): they start together
// (the weekly clock is scheduled once), an assistant signs in through one
// and uses the token through another, submits a draft through one, polls it
// through another, and the draft is built by whichever runner leases it; an
// order is paid on the checkout pages and fulfilled once; an Idempotency-Key
// sent to two processes at once and replayed to the third has one effect and
// one answer; and a process killed (SIGKILL) during a load of writes loses
// nothing it acknowledged, while the jobs it held are finished by the others
// once their lease ends.
func TestMultiProcess(t *testing.T) {
	t.Parallel() // owns its database, processes, ports and proxy
	if testing.Short() {
		t.Skip("builds the binary and runs three servers")
	}
	began := time.Now()
	dbURL := pgtest.Database(t) // skipped with LAUNCHDIR_SKIP_POSTGRES=1
	bin := builtBinary(t)
	t.Logf("%s: built", time.Since(began).Round(time.Millisecond))
	if out, err := exec.Command(bin, "seed", "--synthetic", "40", "--database", dbURL).CombinedOutput(); err != nil {
		t.Fatalf("seed --synthetic: %v\n%s", err, out)
	}
	t.Logf("%s: seeded", time.Since(began).Round(time.Millisecond))
	c := newMPCluster(t, bin, dbURL, 3)

	// The product site: each page but the home page takes a while, so that
	// building a draft holds its job for a few hundred milliseconds.
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			http.NotFound(w, r)
		case "/":
			io.WriteString(w, `<html><head><title>Tally Cat</title><meta name="description" content="Tally Cat counts your inventory for you."></head>
<body><h1>Tally Cat</h1><p>Tally Cat counts your inventory for you.</p><a href="/about">About</a> <a href="/pricing">Pricing</a></body></html>`)
		default:
			select {
			case <-time.After(300 * time.Millisecond):
			case <-r.Context().Done():
				return
			}
			io.WriteString(w, `<html><body><h1>About Tally Cat</h1><p>Tally Cat was founded in 2021 in Lisbon, Portugal.</p></body></html>`)
		}
	}))
	defer site.Close()

	// The three start together: each schedules the weekly clock at start.
	var wg sync.WaitGroup
	for i := range c.procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.procs[i] = c.startProc(bin, dbURL, i)
		}()
	}
	wg.Wait()
	for _, p := range c.procs {
		if p == nil {
			t.FailNow() // startProc reported why
		}
	}
	t.Logf("%s: three processes started", time.Since(began).Round(time.Millisecond))
	// The weekly clock: this Monday's run is done (by one runner or more: it
	// is idempotent) and exactly one clock job waits for next Monday.
	c.waitFor(20*time.Second, "the weekly clock's due run never finished", func() bool {
		return c.count(`SELECT COUNT(*) FROM jobs WHERE kind = 'week_clock' AND state = 'queued' AND run_at <= $1`, time.Now().Unix()) == 0
	})
	if n := c.count(`SELECT COUNT(*) FROM jobs WHERE kind = 'week_clock' AND state = 'queued'`); n != 1 {
		t.Errorf("%d weekly clock jobs queued after three processes started together, want 1", n)
	}
	if n := c.count(`SELECT COUNT(*) FROM jobs WHERE kind = 'week_clock' AND state = 'failed'`); n != 0 {
		t.Errorf("%d weekly clock jobs failed", n)
	}

	t.Logf("%s: weekly clock checked", time.Since(began).Round(time.Millisecond))
	// OAuth sign-in through process 0; the token works through process 1.
	token := c.procs[0].s.oauthSignIn(t, c.proxy.URL, "assistant@example.com")
	req, _ := http.NewRequest("GET", c.proxy.URL+"/v1/me", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set(backendHeader, "1")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var me struct{ Email string }
	json.NewDecoder(res.Body).Decode(&me)
	res.Body.Close()
	if res.StatusCode != 200 || me.Email != "assistant@example.com" {
		t.Fatalf("GET /v1/me with the token from process 0 through process 1: %d %+v", res.StatusCode, me)
	}

	t.Logf("%s: signed in", time.Since(began).Round(time.Millisecond))
	// A draft submitted through process 1, polled through process 2.
	d := c.must(201, "POST", 1, "/v1/drafts", map[string]any{"url": site.URL})
	id := d["id"].(string)
	c.waitFor(120*time.Second, "the draft was not built", func() bool {
		d = c.must(200, "GET", 2, "/v1/drafts/"+id, nil)
		return d["status"] == "ready" || d["status"] == "failed"
	})
	if d["status"] != "ready" {
		t.Fatalf("draft: %v", d)
	}
	listing := c.must(200, "POST", 0, "/v1/drafts/"+id+"/submit", map[string]any{})
	listingID := int64(listing["listing_id"].(float64))

	t.Logf("%s: draft built and submitted", time.Since(began).Round(time.Millisecond))
	// An order: checkout through process 0, paid on the pages (each step on
	// whichever process the proxy picks), read through process 2.
	o := c.must(201, "POST", 0, "/v1/orders/checkout", map[string]any{
		"items": []any{map[string]any{"product": "launch", "listing_id": listingID}}, "billing_country": "DE"})
	number, checkout := o["number"].(string), o["checkout_url"].(string)
	if !strings.HasPrefix(checkout, c.proxy.URL+"/checkout/") {
		t.Fatalf("checkout_url %s, want one at the proxy origin %s", checkout, c.proxy.URL)
	}
	b := c.browser()
	if st, loc := c.post(b, -1, checkout+"/billing", url.Values{"name": {"Ada GmbH"}, "address": {"Hauptstr. 1, Berlin"}, "country": {"DE"}}); st != 303 {
		t.Fatalf("billing: %d %s", st, loc)
	}
	st, loc := c.post(b, -1, checkout+"/pay", url.Values{})
	if st != 303 || !strings.HasSuffix(loc, "/test-pay") {
		t.Fatalf("pay: %d %s", st, loc)
	}
	if !strings.HasPrefix(loc, "http") {
		loc = c.proxy.URL + loc
	}
	if st, done := c.post(b, -1, loc, url.Values{}); st != 303 || !strings.HasSuffix(done, "/done") {
		t.Fatalf("test pay: %d %s", st, done)
	}
	c.waitFor(30*time.Second, "the order was not fulfilled", func() bool {
		o = c.must(200, "GET", 2, "/v1/orders/"+number, nil)
		return o["status"] == "paid" && o["fulfilled"] == true
	})
	if n := c.count(`SELECT COUNT(*) FROM jobs WHERE kind = 'order.fulfil' AND key = $1 AND state = 'done'`, number); n != 1 {
		t.Errorf("%d fulfilment jobs done for %s, want 1", n, number)
	}
	if n := c.count(`SELECT COUNT(*) FROM listings WHERE id = $1 AND plan = 'paid' AND status = 'live'`, listingID); n != 1 {
		t.Errorf("listing %d is not live on the paid plan after the order", listingID)
	}

	t.Logf("%s: order fulfilled", time.Since(began).Round(time.Millisecond))
	// Search follows writes made through another process: an edit through
	// process 0 is found by process 2's index (search_log, polled every 500 ms).
	c.must(200, "PATCH", 0, "/v1/me/listings/"+strconv.FormatInt(listingID, 10), map[string]any{"fields": map[string]any{"tagline": "Counts every zanzibarian widget"}})
	c.waitFor(20*time.Second, "process 2's search never found the edit made through process 0", func() bool {
		items, _ := c.must(200, "GET", 2, "/v1/listings?q=zanzibarian", nil)["items"].([]any)
		return len(items) == 1 && items[0].(map[string]any)["tagline"] == "Counts every zanzibarian widget"
	})
	// One Idempotency-Key sent to processes 0 and 1 at once, then replayed
	// to process 2: one draft, one answer.
	drafts := c.count(`SELECT COUNT(*) FROM drafts`)
	var same [2]mpResult
	for i := range same {
		wg.Add(1)
		go func() {
			defer wg.Done()
			same[i] = c.call("POST", i, "/v1/drafts", map[string]any{"url": site.URL}, "Idempotency-Key", "multi-process-key")
		}()
	}
	wg.Wait()
	replay := c.call("POST", 2, "/v1/drafts", map[string]any{"url": site.URL}, "Idempotency-Key", "multi-process-key")
	if same[0].status != 201 || same[1].status != 201 || replay.status != 201 {
		t.Fatalf("the same key through three processes: %d %d %d", same[0].status, same[1].status, replay.status)
	}
	if !bytes.Equal(same[0].body, same[1].body) || !bytes.Equal(same[0].body, replay.body) || replay.header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("the same key gave different answers:\n%s\n%s\n%s (replayed %q)", same[0].body, same[1].body, replay.body, replay.header.Get("Idempotent-Replayed"))
	}
	if n := c.count(`SELECT COUNT(*) FROM drafts`); n != drafts+1 {
		t.Errorf("the same key through three processes stored %d drafts, want 1", n-drafts)
	}

	t.Logf("%s: idempotency checked", time.Since(began).Round(time.Millisecond))
	// A load of writes through the proxy: drafts and edits with the API key,
	// votes from three signed-in people. Process 1 is killed in the middle.
	var slugs []string
	for _, it := range c.must(200, "GET", -1, "/v1/listings?per_page=50&sort=newest", nil)["items"].([]any) {
		slugs = append(slugs, it.(map[string]any)["slug"].(string))
	}
	voters := []*http.Client{c.signIn("v1@example.com"), c.signIn("v2@example.com"), c.signIn("v3@example.com")}
	var (
		mu                  sync.Mutex
		ackDrafts, ackEdits []string
		ackVotes            [][2]string // email, slug
		acks                atomic.Int32
		stop                = make(chan struct{})
		stopped             = func() bool {
			select {
			case <-stop:
				return true
			default:
				return false
			}
		}
	)
	for w := 0; w < 2; w++ {
		wg.Add(2)
		go func() { // drafts
			defer wg.Done()
			for !stopped() {
				if r := c.call("POST", -1, "/v1/drafts", map[string]any{"url": site.URL}); r.status == 201 {
					mu.Lock()
					ackDrafts = append(ackDrafts, r.m["id"].(string))
					mu.Unlock()
					acks.Add(1)
				}
				time.Sleep(200 * time.Millisecond)
			}
		}()
		go func() { // edits
			defer wg.Done()
			for i := 0; !stopped(); i++ {
				tagline := fmt.Sprintf("Counts inventory, edit %d-%d", w, i)
				if r := c.call("PATCH", -1, "/v1/me/listings/"+strconv.FormatInt(listingID, 10), map[string]any{"fields": map[string]any{"tagline": tagline}}); r.status == 200 {
					mu.Lock()
					ackEdits = append(ackEdits, tagline)
					mu.Unlock()
					acks.Add(1)
				}
				time.Sleep(20 * time.Millisecond)
			}
		}()
	}
	for v, vb := range voters {
		wg.Add(1)
		go func() { // votes, each person on each listing once
			defer wg.Done()
			for _, slug := range slugs {
				if stopped() {
					return
				}
				st, loc := c.post(vb, -1, c.proxy.URL+"/listings/"+slug+"/vote", url.Values{"next": {"/"}})
				if st == http.StatusSeeOther && !strings.Contains(loc, "signin") {
					mu.Lock()
					ackVotes = append(ackVotes, [2]string{fmt.Sprintf("v%d@example.com", v+1), slug})
					mu.Unlock()
					acks.Add(1)
				}
				time.Sleep(20 * time.Millisecond)
			}
		}()
	}
	// Kill process 1 while each process holds a draft job (three lease
	// owners at once), after some writes were acknowledged.
	held := map[int64]bool{}
	c.waitFor(60*time.Second, "three processes never held draft jobs at once", func() bool {
		if acks.Load() < 20 {
			return false
		}
		rows, err := c.db.Query(`SELECT id, lease_owner FROM jobs WHERE kind = 'draft.build' AND state = 'queued' AND lease_until > $1`, time.Now().Unix())
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		owners := map[string]bool{}
		clear(held)
		for rows.Next() {
			var id int64
			var owner string
			rows.Scan(&id, &owner)
			owners[owner], held[id] = true, true
		}
		return len(owners) == 3
	})
	t.Logf("%s: killing process 1", time.Since(began).Round(time.Millisecond))
	if err := c.procs[1].cmd.Process.Kill(); err != nil { // SIGKILL: no shutdown
		t.Fatal(err)
	}
	c.down[1].Store(true)
	c.procs[1].cmd.Wait()
	killedAt := acks.Load()
	time.Sleep(3 * time.Second)
	close(stop)
	wg.Wait()
	if acks.Load() <= killedAt {
		t.Errorf("no write was acknowledged after process 1 was killed")
	}

	t.Logf("%s: load stopped", time.Since(began).Round(time.Millisecond))
	// Every acknowledged write is in the database.
	for _, id := range ackDrafts {
		if c.count(`SELECT COUNT(*) FROM drafts WHERE id = $1`, id) != 1 {
			t.Errorf("acknowledged draft %s is not in the database", id)
		}
	}
	for _, tagline := range ackEdits {
		if c.count(`SELECT COUNT(*) FROM listing_versions WHERE listing_id = $1 AND after LIKE '%"' || $2 || '"%'`, listingID, tagline) != 1 {
			t.Errorf("acknowledged edit %q has no version in the database", tagline)
		}
	}
	for _, v := range ackVotes {
		if c.count(`SELECT COUNT(*) FROM votes v JOIN users u ON u.id = v.user_id JOIN listings l ON l.id = v.listing_id
			WHERE u.email = $1 AND l.slug = $2`, v[0], v[1]) != 1 {
			t.Errorf("acknowledged vote of %s on %s is not in the database", v[0], v[1])
		}
	}
	t.Logf("acknowledged before and after the kill: %d drafts, %d edits, %d votes (%d before the kill)",
		len(ackDrafts), len(ackEdits), len(ackVotes), killedAt)

	t.Logf("%s: acknowledged writes checked", time.Since(began).Round(time.Millisecond))
	// The draft jobs held at the kill, the killed process's among them, are
	// finished by the survivors once the lease (2 s) ends; every
	// acknowledged draft is built.
	c.waitFor(90*time.Second, "draft jobs were left unfinished after the kill", func() bool {
		return c.count(`SELECT COUNT(*) FROM jobs WHERE kind = 'draft.build' AND state = 'queued'`) == 0
	})
	retried := 0
	for id := range held {
		var state string
		var attempts int
		if err := c.db.QueryRow(`SELECT state, attempts FROM jobs WHERE id = $1`, id).Scan(&state, &attempts); err != nil {
			t.Fatal(err)
		}
		if state != "done" {
			t.Errorf("job %d held at the kill ended %s, want done", id, state)
		}
		if attempts > 1 {
			retried++
		}
	}
	if retried == 0 {
		t.Errorf("none of the jobs held at the kill (%d) took a second attempt: the killed process's jobs were not taken over", len(held))
	}
	if n := c.count(`SELECT COUNT(*) FROM drafts WHERE status <> 'ready'`); n != 0 {
		t.Errorf("%d drafts not ready after the load", n)
	}
}
