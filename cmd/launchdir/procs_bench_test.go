//go:build e2e

package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/launchdir/launchdir/storage/pgtest"
)

// BenchmarkProcesses measures launchdir serve as it would run beyond one
// machine (docs/scaling.md): 1, 2 and 3 serve processes (the real
// binary, built here) on one PostgreSQL database (the test's throwaway
// cluster on a Unix socket), behind a round-robin reverse proxy in the test
// (net/http/httputil, the load balancer's part), and the same loads on
// SQLite with one process for comparison. Each database holds
// -launchdir.procs-listings (5,000) synthetic live listings (seed
// --synthetic, once per engine: the demo seed writes its views and votes a
// row at a time through per-row triggers and took over 10 minutes on
// PostgreSQL on the loaded 2-core machine).
//
// Each load is -launchdir.procs-calls calls (times b.N) made by 16
// concurrent keep-alive clients, every response checked (status and shape),
// so that an error cannot count as throughput: a wrong status or shape stops
// the run; a 5xx answer (the service failing under load) is counted apart
// (failed_5xx, with the first of each operation in the log), left out of
// calls/s and latency, and the load goes on:
//   - rest: search_listings (GET /v1/listings?q=) and get_listing (GET
//     /v1/listings/{slug}), alternating;
//   - mcp: the same two as tools/call over /mcp (stateless Streamable HTTP,
//     JSON response, protocol 2026-07-28);
//   - writes: per client, with its own API key (launchdir apikey create) and
//     its own signed-in session: submit_listing (a new draft of a one-page
//     site on loopback, which the job runners then read and draft),
//     update_draft (the tagline of a ready draft), update_my_listing (the
//     tagline of an own listing, a new version each time) and a vote or an
//     unvote (the web form, POST /listings/{slug}/vote with the session
//     cookie), in turn. Each client votes from its own network (the proxy
//     forwards it in X-Forwarded-For, serve trusts 127.0.0.1/32) with
//     --vote-min-account-age 0, so votes count at once. After the writes the
//     benchmark waits until every draft they created is built (drain_s), so
//     that no job is left for the next run.
//
// Reported per load: calls/s, p50 and p99 latency (and p99 per operation),
// and CPU per call measured from /proc: of the serve processes, of the
// PostgreSQL cluster (postmaster, its backends and their exited children)
// and of this process (the 16 clients and the proxy), their sum, and the
// cores that sum kept busy (cpu/wall). On PostgreSQL also the most
// connections open at once (sampled every -launchdir.procs-sample, 50 ms; a
// query that costs PostgreSQL CPU, 0 turns it off) and the connections opened
// per 1000 calls (pg_stat_database.sessions). -launchdir.procs-warmup N makes
// N unmeasured calls before each load (warm pools, prepared statements); the
// write mix also logs its CPU per call with the drafts it queued, up to the
// end of the drain. Before the loads, each process answers every search and
// listing of the read loads once (-launchdir.procs-prime, procs_fair_test.go),
// as the processes of a server that has run a while have; -launchdir.procs-gomaxprocs
// and -launchdir.procs-variants set and compare how the processes share the
// machine's cores. Run it with
//
//	go test ./cmd/launchdir -run '^$' -bench Processes -benchtime 1x -timeout 30m -v
//
// (-launchdir.procs-calls 1000 by default; -launchdir.procs "1,2,3" picks the
// process counts). Processes are stopped at the end of each configuration.
func BenchmarkProcesses(b *testing.B) {
	if pgtest.Skipped() {
		b.Skipf("PostgreSQL tests skipped (%s=1)", pgtest.SkipEnv)
	}
	var counts []int
	for _, f := range strings.Split(*procsCountsFlag, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 8 {
			b.Fatalf("-launchdir.procs: bad process count %q (1 to 8)", f)
		}
		counts = append(counts, n)
	}
	bin := builtBinary(b)
	if *procsCPUProfileFlag != "" {
		bin = profiledBinary(b)
	}
	site := httptest.NewServer(http.HandlerFunc(procsProductSite))
	b.Cleanup(site.Close)

	var pgURL string
	if *procsStatementsFlag > 0 {
		// A cluster of its own, with pg_stat_statements loaded (it must be
		// preloaded at start), to count what each window ran.
		settings := []string{"shared_preload_libraries=pg_stat_statements", "pg_stat_statements.track=all", "pg_stat_statements.max=5000", "pg_stat_statements.track_planning=on"}
		if *procsPGConfFlag != "" {
			settings = append(settings, strings.Split(*procsPGConfFlag, ",")...)
		}
		c, err := pgtest.StartWith(b.Logf, settings...)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { c.Stop() })
		if pgURL, err = c.NewDatabase(context.Background()); err != nil {
			b.Fatal(err)
		}
		if *procsPGLogFlag != "" {
			// Copied before the cluster (and its log) is removed: cleanups
			// run last added first.
			if u, err := url.Parse(pgURL); err == nil {
				b.Cleanup(func() { copyFile(b, filepath.Join(u.Query().Get("host"), "server.log"), *procsPGLogFlag) })
			}
		}
	} else {
		pgURL = pgtest.Database(b)
	}
	pg := &procsDB{name: "postgres", args: []string{"--database", pgURL}, pgURL: pgURL}
	lite := &procsDB{name: "sqlite", args: []string{"--data", b.TempDir()}}
	for _, d := range []*procsDB{pg, lite} {
		t0 := time.Now()
		if out, err := exec.Command(bin, append([]string{"seed", "--synthetic", strconv.Itoa(*procsListingsFlag)}, d.args...)...).CombinedOutput(); err != nil {
			b.Fatalf("seed --synthetic %d on %s: %v\n%s", *procsListingsFlag, d.name, err, out)
		}
		b.Logf("seed --synthetic %d on %s: %v", *procsListingsFlag, d.name, time.Since(t0).Round(100*time.Millisecond))
	}
	if err := pg.openStats(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { pg.stats.Close() })
	b.Cleanup(func() {
		if lite.lite != nil {
			lite.lite.Close()
		}
	})
	if *procsStatementsFlag > 0 {
		if err := pg.enablePGSS(); err != nil {
			b.Fatal(err)
		}
	}
	before := bin
	if *procsBeforeFlag != "" {
		before = *procsBeforeFlag
	}

	type config struct {
		db    *procsDB
		procs int
		bin   string
		name  string
		how   procsVariant
	}
	variants, err := procsVariants(*procsVariantsFlag)
	if err != nil {
		b.Fatal(err)
	}
	var configs []config
	for _, n := range counts {
		for _, v := range variants {
			if *procsBeforeFlag != "" {
				// The binary to compare with, on the same database, right
				// before this one at each process count.
				configs = append(configs, config{pg, n, before, "postgres-before" + v.suffix(), v})
			}
			configs = append(configs, config{pg, n, bin, pg.name + v.suffix(), v})
		}
	}
	configs = append(configs, config{lite, 1, bin, lite.name, variants[0]})
	for _, c := range configs {
		b.Run(fmt.Sprintf("%s/procs=%d", c.name, c.procs), func(b *testing.B) {
			f := startFleet(b, c.bin, c.db, c.procs, site.URL, c.how)
			defer f.stop(b)
			if c.db.fix == nil {
				c.db.fix = prepareFixture(b, f, site.URL)
			}
			fix := c.db.fix
			if c.how.prime {
				f.prime(b, fix)
			}
			ok := f.load(b, "rest", func(cl *http.Client, w, i int) (string, error) {
				if procsTurn(w, i, 2) == 0 {
					q := fix.queries[(i/2)%len(fix.queries)]
					return "search", procsREST(cl, "GET", f.url+"/v1/listings?"+url.Values{"q": {q}}.Encode(), "", nil, 200, checkItems)
				}
				slug := fix.slugs[(i/2)%len(fix.slugs)]
				return "get_listing", procsREST(cl, "GET", f.url+"/v1/listings/"+slug, "", nil, 200, checkSlug(slug))
			})
			ok = ok && f.load(b, "mcp", func(cl *http.Client, w, i int) (string, error) {
				if procsTurn(w, i, 2) == 0 {
					q := fix.queries[(i/2)%len(fix.queries)]
					return "search", procsMCP(cl, f.url+"/mcp", "search_listings", map[string]any{"q": q}, checkItems)
				}
				slug := fix.slugs[(i/2)%len(fix.slugs)]
				return "get_listing", procsMCP(cl, f.url+"/mcp", "get_listing", map[string]any{"slug": slug}, checkSlug(slug))
			})
			var created atomic.Int64
			voted := make([]string, procsClients) // the slug client w voted for last and has not taken back
			votes := make([]int, procsClients)
			ok = ok && f.load(b, "writes", func(cl *http.Client, w, i int) (string, error) {
				wr := fix.writers[w]
				switch procsTurn(w, i, 4) {
				case 0:
					created.Add(1)
					return "submit_listing", procsREST(cl, "POST", f.url+"/v1/drafts", wr.key,
						map[string]any{"url": fmt.Sprintf("%s/?c=%d&i=%d&t=%d", site.URL, w, i, time.Now().UnixNano())}, 201, checkNewDraft)
				case 1:
					tag := fmt.Sprintf("Counts stock for shops, edit %d", i)
					return "update_draft", procsREST(cl, "PATCH", f.url+"/v1/drafts/"+wr.draftID, wr.key,
						map[string]any{"fields": map[string]any{"tagline": tag}}, 200, checkDraftTagline(tag))
				case 2:
					tag := fmt.Sprintf("Inventory counts for small shops, version %d", i)
					return "update_my_listing", procsREST(cl, "PATCH", fmt.Sprintf("%s/v1/me/listings/%d", f.url, wr.listingID), wr.key,
						map[string]any{"fields": map[string]any{"tagline": tag}}, 200, checkListingTagline(tag))
				default:
					if voted[w] != "" {
						slug := voted[w]
						voted[w] = ""
						return "unvote", procsVote(cl, f.url, wr, slug, false)
					}
					slug := fix.slugs[(w*7+votes[w])%len(fix.slugs)]
					votes[w]++
					voted[w] = slug
					return "vote", procsVote(cl, f.url, wr, slug, true)
				}
			})
			if !ok {
				return
			}
			// Take back the votes still standing, so every run starts alike.
			cl := procsClient()
			for w, slug := range voted {
				if slug != "" {
					if err := procsVote(cl, f.url, fix.writers[w], slug, false); err != nil {
						b.Logf("taking back the vote of client %d: %v", w, err)
					}
				}
			}
			t0 := time.Now()
			if err := f.drain(3 * time.Minute); err != nil {
				b.Fatalf("after the writes: %v\n%s", err, f.logTail())
			}
			b.Logf("%s: the %d drafts the writes created were built %.1f s after the writes ended", b.Name(), created.Load(), time.Since(t0).Seconds())
			// The job workers build the drafts during the load on one engine
			// and partly after it on the other (SQLite's writers wait on one
			// another): the write calls' CPU with the drafts they queued is
			// counted up to the end of the drain.
			if c0, c1 := f.last.cpu, f.cpu(); c0.ok && c1.ok && f.last.calls > 0 {
				n := float64(f.last.calls)
				serve, pg, self := (c1.serve - c0.serve).Seconds(), (c1.pg - c0.pg).Seconds(), (c1.self - c0.self).Seconds()
				b.Logf("%s: writes with the drafts they queued: CPU per call %.2f ms (serve %.2f, postgres %.2f, clients and proxy %.2f)",
					b.Name(), 1000*(serve+pg+self)/n, 1000*serve/n, 1000*pg/n, 1000*self/n)
			}
			f.idle(b)
		})
	}
}

var (
	procsCallsFlag      = flag.Int("launchdir.procs-calls", 1000, "calls per load of BenchmarkProcesses (times b.N)")
	procsListingsFlag   = flag.Int("launchdir.procs-listings", 5000, "synthetic listings (seed --synthetic) behind BenchmarkProcesses")
	procsWarmupFlag     = flag.Int("launchdir.procs-warmup", 0, "unmeasured calls per load of BenchmarkProcesses before the measured ones (rounded up to a multiple of the 16 clients)")
	procsSampleFlag     = flag.Duration("launchdir.procs-sample", 50*time.Millisecond, "how often BenchmarkProcesses counts PostgreSQL's open connections during a load (0: never)")
	procsBeforeFlag     = flag.String("launchdir.procs-before", "", "a launchdir binary (built at another commit) that BenchmarkProcesses also runs on PostgreSQL, right before this one at each process count")
	procsCountsFlag     = flag.String("launchdir.procs", "1,2,3", "comma-separated serve process counts on PostgreSQL in BenchmarkProcesses")
	procsPGConfFlag     = flag.String("launchdir.procs-pgconf", "", "comma-separated name=value server settings added to the benchmark's own cluster (e.g. session_preload_libraries=auto_explain,auto_explain.log_min_duration=0)")
	procsPGLogFlag      = flag.String("launchdir.procs-pglog", "", "a file the benchmark's own cluster's server.log is copied to at the end")
	procsCPUProfileFlag = flag.String("launchdir.procs-cpuprofile", "", "a directory: each serve process (built with -tags benchprof) writes a CPU profile of each measured window there, named CONFIG-LOAD-pI.pprof")
	procsLoadsFlag      = flag.String("launchdir.procs-loads", "rest,mcp,writes", "comma-separated loads BenchmarkProcesses runs (rest, mcp, writes)")
)

// copyFile copies from to to, logging a failure.
func copyFile(b *testing.B, from, to string) {
	data, err := os.ReadFile(from)
	if err == nil {
		err = os.WriteFile(to, data, 0o644)
	}
	if err != nil {
		b.Logf("copying %s to %s: %v", from, to, err)
	}
}

// procsProxyRetries counts the MCP calls sent again after the proxy lost
// their answer (procsMCP).
var procsProxyRetries atomic.Int64

// procsClients is the number of concurrent clients of BenchmarkProcesses.
const procsClients = 16

// procsTurn is which of k operations client w makes as its call i: each
// client takes them in turn, and at any moment as many clients make each.
func procsTurn(w, i, k int) int { return (i/procsClients + w) % k }

// procsDB is one database the benchmark serves: PostgreSQL (pgURL set) or a
// SQLite data directory; args select it on the command line.
type procsDB struct {
	name  string
	args  []string
	pgURL string
	stats *sql.DB // PostgreSQL only: reads pg_stat_* views
	pgss  bool    // pg_stat_statements is there
	lite  *sql.DB // SQLite only: the benchmark's read-only connection (draftsDB)
	fix   *procsFixture
}

func (d *procsDB) openStats() error {
	db, err := sql.Open("pgx", d.pgURL)
	if err != nil {
		return err
	}
	db.SetMaxOpenConns(1)
	d.stats = db
	return db.Ping()
}

// procsFixture is what the loads use, made once per database through the
// service itself.
type procsFixture struct {
	queries []string // searches that find live listings
	slugs   []string // live listings (get_listing, votes)
	writers []procsWriter
}

// procsWriter is one client's account: an API key, a ready draft and an own
// listing to edit, a session cookie and the network it votes from.
type procsWriter struct {
	key       string
	draftID   string
	listingID int64
	cookie    string
	network   string
}

// procsProductSite is the product site drafts are made of: one page.
func procsProductSite(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	io.WriteString(w, `<!doctype html><html><head><title>Tally Cat - inventory counts</title>
<meta name="description" content="Tally Cat counts your inventory for you."></head>
<body><h1>Tally Cat</h1><p>Tally Cat counts your inventory for you, every night, from the shelf photos your staff take.</p>
<h2>Features</h2><ul><li>Counts from photos</li><li>Low-stock alerts</li><li>Exports to your accounting tool</li></ul>
<p>Pricing: free for one shop, 19 EUR per month for more.</p></body></html>`)
}

// fleet is n serve processes behind one round-robin proxy.
type fleet struct {
	db    *procsDB
	url   string // the proxy: the one origin clients use
	proxy *httptest.Server
	procs []*exec.Cmd
	logs  *syncBuffer
	// backends are the processes' own URLs, and gomaxprocs the
	// GOMAXPROCS they were given ("" for Go's default).
	backends   []string
	gomaxprocs string
	// profBase is LAUNCHDIR_BENCH_CPUPROFILE of the processes
	// (-launchdir.procs-cpuprofile).
	profBase string
	// last is the CPU at the start of the latest load and its calls
	// answered, for what the calls cost with the jobs they queued (drain).
	last struct {
		cpu   cpuTimes
		calls int
	}
}

// startFleet starts the proxy and n serve processes on db, each with the
// proxy as its --base-url, and waits until each has printed its banner.
func startFleet(b *testing.B, bin string, db *procsDB, n int, siteURL string, how procsVariant) *fleet {
	b.Helper()
	f := &fleet{db: db, logs: &syncBuffer{}}
	var backends atomic.Pointer[[]*url.URL]
	var next atomic.Uint64
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns, tr.MaxIdleConnsPerHost = 256, 64
	rp := &httputil.ReverseProxy{
		Transport: tr,
		Rewrite: func(pr *httputil.ProxyRequest) {
			bs := *backends.Load()
			pr.SetURL(bs[next.Add(1)%uint64(len(bs))])
			pr.Out.Host = pr.In.Host // a load balancer keeps the Host the client used
			// The client's address as a CDN in front would have forwarded it,
			// then ours: serve trusts 127.0.0.1/32 and sees the client.
			pr.Out.Header["X-Forwarded-For"] = pr.In.Header["X-Forwarded-For"]
			pr.SetXForwarded()
		},
	}
	f.proxy = httptest.NewServer(rp)
	f.url = f.proxy.URL
	var bs []*url.URL
	for i := range n {
		cmd := exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0", "--base-url", f.url,
			"--rate-limit", "0", "--rate-pages", "0", "--rate-mcp", "0", "--vote-min-account-age", "0",
			"--trusted-proxies", "127.0.0.1/32", "--fetch-allow-loopback"}, f.dataArgs(b)...)...)
		env := procsEnv(b, how.gomaxprocs, n)
		if len(env) > 0 {
			f.gomaxprocs = env[0]
		}
		if *procsCPUProfileFlag != "" {
			if f.profBase == "" {
				f.profBase = filepath.Join(b.TempDir(), "cpu")
			}
			env = append(env, "LAUNCHDIR_BENCH_CPUPROFILE="+f.profBase)
		}
		if len(env) > 0 {
			cmd.Env = append(os.Environ(), env...)
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			b.Fatal(err)
		}
		cmd.Stderr = f.logs
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		f.procs = append(f.procs, cmd)
		b.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() }) // a no-op after stop
		addr := make(chan string, 1)
		go func() {
			sc := bufio.NewScanner(stdout)
			sent := false
			for sc.Scan() {
				line := sc.Text()
				fmt.Fprintf(f.logs, "[%d] %s\n", i, line)
				if m := reServing.FindStringSubmatch(line); m != nil && !sent {
					addr <- m[1]
					sent = true
				}
			}
			if !sent {
				close(addr)
			}
		}()
		select {
		case a, ok := <-addr:
			if !ok {
				f.stop(b)
				b.Fatalf("serve %d exited without a banner:\n%s", i, f.logTail())
			}
			bs = append(bs, &url.URL{Scheme: "http", Host: a})
		case <-time.After(3 * time.Minute):
			f.stop(b)
			b.Fatalf("serve %d printed no banner in 3 minutes:\n%s", i, f.logTail())
		}
	}
	backends.Store(&bs)
	for _, u := range bs {
		f.backends = append(f.backends, u.String())
	}
	return f
}

// reLogOp and reSQLState find the operation and the SQLSTATE in an error
// line of serve's log.
var (
	reLogOp    = regexp.MustCompile(`op=("[^"]*"|\S+)`)
	reSQLState = regexp.MustCompile(`SQLSTATE [0-9A-Z]{5}`)
	reLogSlug  = regexp.MustCompile(`/listings/[^/ ]+/`)
)

// reServing is the first line of serve's banner: "launchdir is serving DB on ADDR".
var reServing = regexp.MustCompile(`^launchdir is serving \S+ on (\S+)$`)

// dataArgs selects the database; a PostgreSQL process still gets a data
// directory of its own.
func (f *fleet) dataArgs(b *testing.B) []string {
	if f.db.pgURL != "" {
		return append([]string{"--data", b.TempDir()}, f.db.args...)
	}
	return f.db.args
}

// stop interrupts every serve process (the way a deploy stops one), kills
// one that has not stopped after 15 s, and closes the proxy.
func (f *fleet) stop(b *testing.B) {
	for _, cmd := range f.procs {
		cmd.Process.Signal(os.Interrupt)
	}
	for _, cmd := range f.procs {
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			b.Errorf("serve (pid %d) did not stop 15 s after SIGINT; killed", cmd.Process.Pid)
			cmd.Process.Kill()
			<-done
		}
	}
	f.procs = nil
	f.proxy.Close()
}

// logTail is the end of the processes' output, for a failure message.
func (f *fleet) logTail() string {
	s := f.logs.String()
	if len(s) > 6000 {
		s = "...\n" + s[len(s)-6000:]
	}
	return s
}

// prepareFixture makes, through the service behind f, what the loads need:
// queries and slugs from the listings, and per client an API key (apikey
// create), a session (the emailed sign-in link, read from the log), an own
// listing and a ready draft (submit_listing of the one-page site).
func prepareFixture(b *testing.B, f *fleet, siteURL string) *procsFixture {
	b.Helper()
	t0 := time.Now()
	cl := procsClient()
	fix := &procsFixture{}
	var page struct {
		Items []struct {
			Slug    string `json:"slug"`
			Name    string `json:"name"`
			Tagline string `json:"tagline"`
		} `json:"items"`
	}
	if err := procsJSON(cl, "GET", f.url+"/v1/listings?sort=newest&per_page=100", "", nil, 200, &page); err != nil || len(page.Items) < 20 {
		b.Fatalf("listings: %d, %v", len(page.Items), err)
	}
	for _, it := range page.Items {
		fix.slugs = append(fix.slugs, it.Slug)
		words := strings.FieldsFunc(strings.ToLower(it.Name+" "+it.Tagline), func(r rune) bool { return r < 'a' || r > 'z' })
		words = slices.DeleteFunc(words, func(w string) bool { return len(w) < 4 })
		if len(words) >= 2 {
			fix.queries = append(fix.queries, words[len(words)-2]+" "+words[len(words)-1]) // two tagline words
		}
		if len(words) >= 1 && len(fix.queries)%3 == 0 {
			fix.queries = append(fix.queries, words[0]) // a name word
		}
	}
	fix.queries = slices.DeleteFunc(slices.Compact(fix.queries), func(q string) bool {
		return procsREST(cl, "GET", f.url+"/v1/listings?"+url.Values{"q": {q}}.Encode(), "", nil, 200, checkItems) != nil
	})
	if len(fix.queries) < 10 {
		b.Fatalf("only %d queries find a listing: %q", len(fix.queries), fix.queries)
	}
	// Keys and sessions first: sign-in links are read from the log one at a time.
	for w := range procsClients {
		var wr procsWriter
		email := fmt.Sprintf("writer-%02d@example.com", w)
		out, err := exec.Command(f.procs[0].Path, append([]string{"apikey", "create", "--email", email}, f.db.args...)...).Output()
		if err != nil {
			b.Fatalf("apikey create: %v", err)
		}
		wr.key = strings.TrimSpace(string(out))
		wr.network = fmt.Sprintf("198.51.100.%d", w+1)
		wr.cookie = procsSignIn(b, cl, f, email, wr.network)
		fix.writers = append(fix.writers, wr)
	}
	// Drafts: one saved as the own listing, one kept as a draft.
	ids := make([][2]string, procsClients)
	for w, wr := range fix.writers {
		for k := range 2 {
			var d struct{ ID string }
			if err := procsJSON(cl, "POST", f.url+"/v1/drafts", wr.key, map[string]any{"url": fmt.Sprintf("%s/?setup=%d-%d", siteURL, w, k)}, 201, &d); err != nil {
				b.Fatal(err)
			}
			ids[w][k] = d.ID
		}
	}
	for w := range fix.writers {
		wr := &fix.writers[w]
		for k, id := range ids[w] {
			var d struct{ Status string }
			for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(100 * time.Millisecond) {
				if err := procsJSON(cl, "GET", f.url+"/v1/drafts/"+id, wr.key, nil, 200, &d); err != nil {
					b.Fatal(err)
				}
				if d.Status == "ready" || d.Status == "failed" || time.Now().After(deadline) {
					break
				}
			}
			if d.Status != "ready" {
				b.Fatalf("setup draft %s: %s, want ready\n%s", id, d.Status, f.logTail())
			}
			if k == 0 {
				var saved struct {
					ListingID int64 `json:"listing_id"`
				}
				if err := procsJSON(cl, "POST", f.url+"/v1/drafts/"+id+"/submit", wr.key, nil, 200, &saved); err != nil || saved.ListingID == 0 {
					b.Fatalf("submit_draft: %+v, %v", saved, err)
				}
				wr.listingID = saved.ListingID
			} else {
				wr.draftID = id
			}
		}
	}
	b.Logf("%s: fixture (%d queries, %d slugs, %d clients with key, session, listing and draft) in %.1f s",
		f.db.name, len(fix.queries), len(fix.slugs), len(fix.writers), time.Since(t0).Seconds())
	return fix
}

// reMailedLink is a sign-in link alone on a line of the log.
var reMailedLink = regexp.MustCompile(`(?m)^(http://\S+/signin/email\?token=[A-Za-z0-9_-]+)$`)

// procsSignIn signs email in through the sign-in form and the emailed link
// (read from the processes' log) and returns the session cookie.
func procsSignIn(b *testing.B, cl *http.Client, f *fleet, email, network string) string {
	b.Helper()
	before := len(reMailedLink.FindAllString(f.logs.String(), -1))
	req, _ := http.NewRequest("POST", f.url+"/signin", strings.NewReader(url.Values{"email": {email}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Forwarded-For", network)
	res, err := cl.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != 200 {
		b.Fatalf("POST /signin %s: %d", email, res.StatusCode)
	}
	var links []string
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if links = reMailedLink.FindAllString(f.logs.String(), -1); len(links) > before || time.Now().After(deadline) {
			break
		}
	}
	if len(links) != before+1 {
		b.Fatalf("sign-in of %s put %d links in the log", email, len(links)-before)
	}
	if !strings.HasPrefix(links[before], f.url+"/") {
		b.Fatalf("sign-in link %s is not at the proxy's origin %s", links[before], f.url)
	}
	req, _ = http.NewRequest("GET", links[before], nil)
	req.Header.Set("X-Forwarded-For", network)
	res, err = cl.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	res.Body.Close()
	for _, c := range res.Cookies() {
		if c.Name == "launchdir_session" && c.Value != "" {
			return c.Name + "=" + c.Value
		}
	}
	b.Fatalf("the sign-in link of %s answered %d without a session cookie", email, res.StatusCode)
	return ""
}

// drain waits until no draft of the fixture's clients is still being built.
func (f *fleet) drain(limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		busy, err := f.busyDrafts()
		if err != nil || busy == 0 {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d drafts still being built after %v", busy, limit)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// busyDrafts counts the drafts still being built (crawling or drafting),
// with one COUNT on the database rather than calls to the service: the drain
// polls every 200 ms, and 16 list calls a poll were charged to the write
// calls' CPU with their drafts, more of them the longer the drain (SQLite's
// and one process's).
func (f *fleet) busyDrafts() (int, error) {
	db, err := f.db.draftsDB()
	if err != nil {
		return 0, err
	}
	var n int
	err = db.QueryRow(`SELECT COUNT(*) FROM drafts WHERE status IN ('crawling', 'drafting')`).Scan(&n)
	return n, err
}

// draftsDB is a connection of the benchmark's own to the database: the
// stats connection on PostgreSQL, the data directory's file on SQLite.
func (d *procsDB) draftsDB() (*sql.DB, error) {
	if d.pgURL != "" {
		return d.stats, nil
	}
	if d.lite == nil {
		db, err := sql.Open("sqlite3", "file:"+(&url.URL{Path: filepath.Join(d.args[1], "launchdir.db")}).EscapedPath()+"?mode=ro&_busy_timeout=5000")
		if err != nil {
			return nil, err
		}
		db.SetMaxOpenConns(1)
		d.lite = db
	}
	return d.lite, nil
}

// load runs one sub-benchmark: -launchdir.procs-calls times b.N calls of op
// by procsClients clients (client w makes calls i with i%procsClients == w
// in order, so a client's calls never race each other), and reports calls/s,
// latency percentiles and CPU per call.
func (f *fleet) load(b *testing.B, name string, op func(cl *http.Client, w, i int) (kind string, err error)) bool {
	if !slices.Contains(strings.Split(*procsLoadsFlag, ","), name) {
		return true // not asked for (-launchdir.procs-loads)
	}
	return b.Run(name, func(b *testing.B) {
		calls := *procsCallsFlag * b.N
		cl := procsClient()
		type sample struct {
			kind string
			d    time.Duration
		}
		per := make([][]sample, procsClients)
		failed := make([]map[string]int, procsClients) // 5xx answers by operation, per client
		var firstFail sync.Map                         // operation -> its first 5xx
		var firstErr error
		var errOnce sync.Once
		var stop atomic.Bool
		// Warm-up (-launchdir.procs-warmup): the same calls, unmeasured, so
		// that the processes' pools hold their connections and each
		// connection has prepared its statements, as in a server that has
		// run for a while; a 5xx or a wrong answer here stops the run too.
		warm := (*procsWarmupFlag + procsClients - 1) / procsClients * procsClients
		if warm > 0 {
			var wwg sync.WaitGroup
			var warmErr atomic.Pointer[error]
			for w := range procsClients {
				wwg.Go(func() {
					for i := w; i < warm && warmErr.Load() == nil; i += procsClients {
						if kind, err := op(cl, w, i); err != nil {
							err = fmt.Errorf("warm-up call %d (%s): %w", i, kind, err)
							warmErr.CompareAndSwap(nil, &err)
						}
					}
				})
			}
			wwg.Wait()
			if e := warmErr.Load(); e != nil {
				b.Fatalf("%s: %v\n%s", name, *e, f.logTail())
			}
			// The drafts the warm-up queued are built before the window
			// opens: else the job workers build some of them inside it, more
			// of them the more processes (and workers) there are.
			if name == "writes" {
				if err := f.drain(3 * time.Minute); err != nil {
					b.Fatalf("%s: after the warm-up: %v\n%s", name, err, f.logTail())
				}
			}
		}
		logFrom := len(f.logs.String())
		win := f.db.statsReset()
		cpu0 := f.cpu()
		sessions0 := f.pgSessions()
		var maxConns atomic.Int64
		sampled := make(chan struct{})
		sampleCtx, endSampling := context.WithCancel(context.Background())
		go func() {
			defer close(sampled)
			// Each sample is a pg_stat_activity query: PostgreSQL CPU
			// counted in the load's (-launchdir.procs-sample 0: none).
			for every := *procsSampleFlag; every > 0 && sampleCtx.Err() == nil; {
				if n := f.pgConnections(); n > maxConns.Load() {
					maxConns.Store(n)
				}
				select {
				case <-sampleCtx.Done():
				case <-time.After(every):
				}
			}
		}()
		f.profile(syscall.SIGUSR1)
		b.ResetTimer()
		start := time.Now()
		var wg sync.WaitGroup
		for w := range procsClients {
			wg.Go(func() {
				for i := warm + w; i < warm+calls && !stop.Load(); i += procsClients {
					t0 := time.Now()
					kind, err := op(cl, w, i)
					var se *serverError
					if errors.As(err, &se) {
						// A 5xx is the service failing under load: counted and
						// reported, never as throughput; the load goes on.
						if failed[w] == nil {
							failed[w] = map[string]int{}
						}
						failed[w][kind]++
						firstFail.LoadOrStore(kind, fmt.Sprintf("call %d: %v", i, err))
						continue
					}
					per[w] = append(per[w], sample{kind, time.Since(t0)})
					if err != nil {
						errOnce.Do(func() { firstErr = fmt.Errorf("call %d (%s): %w", i, kind, err) })
						stop.Store(true)
						return
					}
				}
			})
		}
		wg.Wait()
		elapsed := time.Since(start)
		b.StopTimer()
		cpu1 := f.cpu()
		win = f.db.statsRead(win)
		f.profile(syscall.SIGUSR2)
		f.profiled(b)
		// What the job workers had not built when the window closed: the
		// window's CPU holds the builds of the others only (serve's CPU per
		// write call in the window grows with the workers, not the calls).
		unbuilt := -1
		if name == "writes" {
			if n, err := f.busyDrafts(); err == nil {
				unbuilt = n
			}
		}
		f.last.cpu = cpu0
		endSampling()
		<-sampled
		if firstErr != nil {
			b.Fatalf("%s: %v\n%s", name, firstErr, f.logTail())
		}
		var all []time.Duration
		byKind := map[string][]time.Duration{}
		for _, s := range per {
			for _, x := range s {
				all = append(all, x.d)
				byKind[x.kind] = append(byKind[x.kind], x.d)
			}
		}
		fails := map[string]int{}
		nFailed := 0
		for _, m := range failed {
			for k, n := range m {
				fails[k] += n
				nFailed += n
			}
		}
		f.last.calls = len(all)
		rate := float64(len(all)) / elapsed.Seconds()
		b.ReportMetric(rate, "calls/s")
		b.ReportMetric(float64(nFailed), "failed_5xx")
		for _, k := range slices.Sorted(maps.Keys(fails)) {
			first, _ := firstFail.Load(k)
			b.Logf("%s: %d of the %s calls failed with a server error; the first: %v", b.Name(), fails[k], k, first)
		}
		if nFailed > 0 {
			// What the processes logged about them, by operation and cause.
			causes := map[string]int{}
			for line := range strings.Lines(f.logs.String()[logFrom:]) {
				if !strings.Contains(line, "level=ERROR") {
					continue
				}
				op := reLogSlug.ReplaceAllString(reLogOp.FindString(line), "/listings/{slug}/")
				cause := "other"
				if m := reSQLState.FindString(line); m != "" {
					cause = m
				}
				causes[op+" "+cause]++
			}
			for _, c := range slices.Sorted(maps.Keys(causes)) {
				b.Logf("%s: logged errors: %d × %s", b.Name(), causes[c], c)
			}
		}
		b.ReportMetric(procsPct(all, 0.50), "p50_ms")
		b.ReportMetric(procsPct(all, 0.99), "p99_ms")
		kinds := slices.Sorted(maps.Keys(byKind))
		var per99 []string
		for _, k := range kinds {
			p := procsPct(byKind[k], 0.99)
			b.ReportMetric(p, "p99_ms_"+k)
			per99 = append(per99, fmt.Sprintf("%s %.1f", k, p))
		}
		line := fmt.Sprintf("%s: %d calls answered (and %d 5xx) in %.2f s = %.0f calls/s, p50 %.1f ms, p99 %.1f ms (p99 by operation: %s)",
			b.Name(), len(all), nFailed, elapsed.Seconds(), rate, procsPct(all, 0.50), procsPct(all, 0.99), strings.Join(per99, ", "))
		if cpu0.ok && cpu1.ok {
			n := float64(len(all))
			serve, pg, self := (cpu1.serve - cpu0.serve).Seconds(), (cpu1.pg - cpu0.pg).Seconds(), (cpu1.self - cpu0.self).Seconds()
			total := serve + pg + self
			b.ReportMetric(1000*total/n, "cpu_ms/call")
			b.ReportMetric(1000*serve/n, "serve_cpu_ms/call")
			if f.db.pgURL != "" {
				b.ReportMetric(1000*pg/n, "pg_cpu_ms/call")
			}
			b.ReportMetric(1000*self/n, "bench_cpu_ms/call")
			b.ReportMetric(total/elapsed.Seconds(), "cores")
			line += fmt.Sprintf("; CPU per call %.2f ms (serve %.2f, postgres %.2f, clients and proxy %.2f) = %.2f cores busy; load average %s",
				1000*total/n, 1000*serve/n, 1000*pg/n, 1000*self/n, total/elapsed.Seconds(), procsLoadAvg())
		}
		if f.db.pgURL != "" {
			b.ReportMetric(float64(maxConns.Load()), "pg_conns_max")
			if s1 := f.pgSessions(); sessions0 >= 0 && s1 >= 0 {
				b.ReportMetric(1000*float64(s1-sessions0)/float64(len(all)), "pg_sessions/1kcalls")
				line += fmt.Sprintf("; PostgreSQL: at most %d connections open, %d opened", maxConns.Load(), s1-sessions0)
			}
		}
		if n := procsProxyRetries.Swap(0); n > 0 {
			line += fmt.Sprintf("; %d MCP calls sent again after the proxy lost their answer", n)
		}
		if unbuilt >= 0 {
			line += fmt.Sprintf("; %d drafts not yet built at the end of the window", unbuilt)
		}
		b.Log(line)
		win.log(b, b.Name(), len(all), 0)
	})
}

// profiledBinary is the binary built with -tags benchprof, whose serve
// processes write CPU profiles on SIGUSR1/SIGUSR2 (benchprof.go).
func profiledBinary(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "launchdir-benchprof")
	if out, err := exec.Command("go", "build", "-tags", "benchprof", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build -tags benchprof: %v\n%s", err, out)
	}
	return bin
}

// profile signals every serve process to start (SIGUSR1) or end (SIGUSR2)
// its CPU profile, with -launchdir.procs-cpuprofile; a process of a binary
// built without the tag is not sent anything.
func (f *fleet) profile(sig syscall.Signal) {
	if *procsCPUProfileFlag == "" {
		return
	}
	for _, cmd := range f.procs {
		if strings.HasSuffix(cmd.Path, "launchdir-benchprof") {
			cmd.Process.Signal(sig)
		}
	}
}

// profiled moves the profiles of the window just ended to
// -launchdir.procs-cpuprofile, named after the sub-benchmark and process.
func (f *fleet) profiled(b *testing.B) {
	if *procsCPUProfileFlag == "" {
		return
	}
	name := strings.NewReplacer("/", "-", "=", "").Replace(strings.TrimPrefix(b.Name(), "BenchmarkProcesses/"))
	for i, cmd := range f.procs {
		pattern := fmt.Sprintf("%s.%d.*", f.profBase, cmd.Process.Pid)
		var found []string
		for range 50 { // the process writes it when it handles SIGUSR2
			if found, _ = filepath.Glob(pattern); len(found) > 0 && strings.Contains(f.logs.String(), fmt.Sprintf("benchprof: wrote %s.%d.", f.profBase, cmd.Process.Pid)) {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		for _, p := range found {
			to := filepath.Join(*procsCPUProfileFlag, fmt.Sprintf("%s-p%d.pprof", name, i))
			if err := os.Rename(p, to); err != nil {
				b.Logf("cpu profile: %v", err)
			} else {
				b.Logf("cpu profile of serve %d: %s", i, to)
			}
		}
	}
}

// idle counts, for -launchdir.procs-idle, what the processes cost while no
// call comes in: their background work (job polling, lease renewals,
// timers), per second.
func (f *fleet) idle(b *testing.B) {
	if *procsIdleFlag <= 0 {
		return
	}
	time.Sleep(time.Second) // the last calls' and drafts' statements settle
	win := f.db.statsReset()
	c0 := f.cpu()
	time.Sleep(*procsIdleFlag)
	c1 := f.cpu()
	win = f.db.statsRead(win)
	secs := procsIdleFlag.Seconds()
	if c0.ok && c1.ok {
		b.Logf("%s: idle %.0f s: CPU per second %.2f ms (serve %.2f, postgres %.2f)", b.Name(), secs,
			1000*((c1.serve-c0.serve)+(c1.pg-c0.pg)).Seconds()/secs, 1000*(c1.serve-c0.serve).Seconds()/secs, 1000*(c1.pg-c0.pg).Seconds()/secs)
	}
	win.log(b, b.Name()+" idle", 0, secs)
}

// procsPct is the p-th percentile of ds in milliseconds (ds is sorted).
func procsPct(ds []time.Duration, p float64) float64 {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	return float64(ds[int(p*float64(len(ds)-1))]) / 1e6
}

// cpuTimes is CPU used so far: by the serve processes, by the PostgreSQL
// cluster and by this process.
type cpuTimes struct {
	serve, pg, self time.Duration
	ok              bool
}

// cpu reads the CPU times of the fleet's processes and of the PostgreSQL
// cluster from /proc (ok false when it cannot).
func (f *fleet) cpu() cpuTimes {
	var c cpuTimes
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return c
	}
	c.self = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	for _, cmd := range f.procs {
		st, err := procStat(cmd.Process.Pid)
		if err != nil {
			return c
		}
		c.serve += st.own
	}
	if f.db.pgURL != "" {
		pg, err := pgClusterCPU(f.db.pgURL)
		if err != nil {
			return c
		}
		c.pg = pg
	}
	c.ok = true
	return c
}

// clockTick is USER_HZ, the unit of /proc/<pid>/stat's times (100 on Linux).
const clockTick = 10 * time.Millisecond

// procTimes are a process's CPU times from /proc/<pid>/stat.
type procTimes struct {
	ppid     int
	own      time.Duration // utime + stime
	children time.Duration // cutime + cstime: children it has waited for
}

func procStat(pid int) (procTimes, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return procTimes{}, err
	}
	// The command name (field 2) may hold spaces: fields are counted after its ")".
	i := bytes.LastIndexByte(raw, ')')
	if i < 0 {
		return procTimes{}, fmt.Errorf("/proc/%d/stat: %q", pid, raw)
	}
	f := strings.Fields(string(raw[i+1:])) // f[0] is field 3 (state)
	if len(f) < 15 {
		return procTimes{}, fmt.Errorf("/proc/%d/stat: %q", pid, raw)
	}
	n := func(k int) int64 { v, _ := strconv.ParseInt(f[k-3], 10, 64); return v }
	return procTimes{
		ppid:     int(n(4)),
		own:      time.Duration(n(14)+n(15)) * clockTick,
		children: time.Duration(n(16)+n(17)) * clockTick,
	}, nil
}

// pgClusterCPU is the CPU used by the cluster serving pgURL: its postmaster
// (found through postmaster.pid in the data directory beside the socket
// directory the URL names), the children it has reaped, and the live ones.
func pgClusterCPU(pgURL string) (time.Duration, error) {
	u, err := url.Parse(pgURL)
	if err != nil {
		return 0, err
	}
	host := u.Query().Get("host")
	if host == "" || !strings.HasPrefix(host, "/") {
		return 0, errors.New("the PostgreSQL URL names no socket directory")
	}
	raw, err := os.ReadFile(filepath.Join(host, "data", "postmaster.pid"))
	if err != nil {
		return 0, err
	}
	pm, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(raw), "\n", 2)[0]))
	if err != nil {
		return 0, err
	}
	st, err := procStat(pm)
	if err != nil {
		return 0, err
	}
	total := st.own + st.children
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0, err
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if c, err := procStat(pid); err == nil && c.ppid == pm {
			total += c.own
		}
	}
	return total, nil
}

// pgSessions is pg_stat_database.sessions of the benchmark's database (-1
// on SQLite or on error). Statistics reach the view within about a second.
func (f *fleet) pgSessions() int64 {
	if f.db.stats == nil {
		return -1
	}
	time.Sleep(1100 * time.Millisecond)
	var n int64
	if err := f.db.stats.QueryRow(`SELECT sessions FROM pg_stat_database WHERE datname = current_database()`).Scan(&n); err != nil {
		return -1
	}
	return n
}

// pgConnections is the number of connections to the benchmark's database
// other than the one asking.
func (f *fleet) pgConnections() int64 {
	if f.db.stats == nil {
		return 0
	}
	var n int64
	if err := f.db.stats.QueryRow(`SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`).Scan(&n); err != nil {
		return 0
	}
	return n
}

// procsLoadAvg is the machine's 1-minute load average.
func procsLoadAvg() string {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Fields(string(raw))[0]
}

// procsClient is a keep-alive client for procsClients workers that does not
// follow redirects (a vote answers 303).
func procsClient() *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns, tr.MaxIdleConnsPerHost = 4*procsClients, 2*procsClients
	return &http.Client{Transport: tr, Timeout: time.Minute,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// serverError is a 5xx answer.
type serverError struct {
	status int
	what   string
}

func (e *serverError) Error() string { return fmt.Sprintf("%s: %d", e.what, e.status) }

// procsDo sends one request and returns the response's status and body.
func procsDo(cl *http.Client, req *http.Request) (*http.Response, []byte, error) {
	res, err := cl.Do(req)
	if err != nil {
		return nil, nil, err
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	return res, body, err
}

// procsREST makes a REST call with an optional API key and JSON body and
// checks its status and body.
func procsREST(cl *http.Client, method, u, key string, body any, status int, check func([]byte) error) error {
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, u, rd)
	if err != nil {
		return err
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, got, err := procsDo(cl, req)
	if err != nil {
		return err
	}
	if res.StatusCode >= 500 {
		return &serverError{res.StatusCode, method + " " + u}
	}
	if res.StatusCode != status || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		return fmt.Errorf("%s %s: %d %s, want %d JSON: %.300s", method, u, res.StatusCode, res.Header.Get("Content-Type"), status, got)
	}
	if check != nil {
		if err := check(got); err != nil {
			return fmt.Errorf("%s %s: %w", method, u, err)
		}
	}
	return nil
}

// procsJSON is procsREST decoding the answer into v.
func procsJSON(cl *http.Client, method, u, key string, body any, status int, v any) error {
	return procsREST(cl, method, u, key, body, status, func(raw []byte) error { return json.Unmarshal(raw, v) })
}

// procsMCP calls tool over MCP as a stateless Streamable HTTP client of
// protocol 2026-07-28 (a plain POST with the _meta and Mcp-* headers, no
// initialize), asks for a JSON answer, and checks it is a successful result
// whose structured content passes check.
func procsMCP(cl *http.Client, endpoint, tool string, args map[string]any, check func([]byte) error) error {
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": map[string]any{
		"name": tool, "arguments": args,
		"_meta": map[string]any{
			"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
			"io.modelcontextprotocol/clientCapabilities": map[string]any{},
			"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "launchdir-bench", "version": "0"},
		}}})
	if err != nil {
		return err
	}
	req, err := http.NewRequest("POST", endpoint, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", tool)
	res, got, err := procsDo(cl, req)
	if errors.Is(err, io.ErrUnexpectedEOF) {
		// The benchmark's reverse proxy sometimes loses a backend
		// connection while copying an answer ("ReverseProxy read error
		// during body copy: use of closed network connection", on either
		// engine; docs/scaling.md): both tools read only, so the call is
		// sent once more, and counted.
		procsProxyRetries.Add(1)
		req, _ = http.NewRequest("POST", endpoint, bytes.NewReader(body))
		for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
			"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": tool} {
			req.Header.Set(k, v)
		}
		res, got, err = procsDo(cl, req)
	}
	if err != nil {
		return err
	}
	if res.StatusCode >= 500 {
		return &serverError{res.StatusCode, "MCP " + tool}
	}
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		return fmt.Errorf("MCP %s: %d %s, want 200 JSON: %.300s", tool, res.StatusCode, res.Header.Get("Content-Type"), got)
	}
	var rpc struct {
		Result *struct {
			IsError           bool            `json:"isError"`
			StructuredContent json.RawMessage `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal(got, &rpc); err != nil || rpc.Result == nil || rpc.Result.IsError {
		return fmt.Errorf("MCP %s: not a successful result (%v): %.300s", tool, err, got)
	}
	if err := check(rpc.Result.StructuredContent); err != nil {
		return fmt.Errorf("MCP %s: %w", tool, err)
	}
	return nil
}

// procsVote posts the vote (or unvote) form of slug with wr's session from
// wr's network, and checks the answer is the 303 back to the listing's page
// (without a session it would be a redirect to sign-in).
func procsVote(cl *http.Client, base string, wr procsWriter, slug string, on bool) error {
	path := "/listings/" + slug + "/unvote"
	if on {
		path = "/listings/" + slug + "/vote"
	}
	req, err := http.NewRequest("POST", base+path, strings.NewReader(""))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Cookie", wr.cookie)
	req.Header.Set("X-Forwarded-For", wr.network)
	res, got, err := procsDo(cl, req)
	if err != nil {
		return err
	}
	if res.StatusCode >= 500 {
		return &serverError{res.StatusCode, "POST " + path}
	}
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/listings/"+slug {
		return fmt.Errorf("POST %s: %d to %q, want 303 to /listings/%s: %.300s", path, res.StatusCode, res.Header.Get("Location"), slug, got)
	}
	return nil
}

// checkItems accepts a page with at least one item that has a slug.
func checkItems(raw []byte) error {
	var p struct {
		Items []struct {
			Slug string `json:"slug"`
		} `json:"items"`
	}
	if err := json.Unmarshal(raw, &p); err != nil || len(p.Items) == 0 || p.Items[0].Slug == "" {
		return fmt.Errorf("want a page of listings (%v): %.300s", err, raw)
	}
	return nil
}

// checkSlug accepts the listing slug.
func checkSlug(slug string) func([]byte) error {
	return func(raw []byte) error {
		var l struct {
			Slug string `json:"slug"`
			Name string `json:"name"`
		}
		if err := json.Unmarshal(raw, &l); err != nil || l.Slug != slug || l.Name == "" {
			return fmt.Errorf("want listing %s (%v): %.300s", slug, err, raw)
		}
		return nil
	}
}

// checkNewDraft accepts a new draft being built.
func checkNewDraft(raw []byte) error {
	var d struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	}
	if err := json.Unmarshal(raw, &d); err != nil || len(d.ID) != 36 || (d.Status != "crawling" && d.Status != "drafting") {
		return fmt.Errorf("want a new draft being built (%v): %.300s", err, raw)
	}
	return nil
}

// checkDraftTagline accepts a draft whose tagline is tag.
func checkDraftTagline(tag string) func([]byte) error {
	return func(raw []byte) error {
		var d struct {
			Fields struct {
				Tagline struct {
					Value any `json:"value"`
				} `json:"tagline"`
			} `json:"fields"`
		}
		if err := json.Unmarshal(raw, &d); err != nil || d.Fields.Tagline.Value != tag {
			return fmt.Errorf("want the draft with tagline %q (%v): %.300s", tag, err, raw)
		}
		return nil
	}
}

// checkListingTagline accepts an own listing whose tagline is tag, saved as
// a new version.
func checkListingTagline(tag string) func([]byte) error {
	return func(raw []byte) error {
		var l struct {
			Profile struct {
				Tagline string `json:"tagline"`
			} `json:"profile"`
			Version *struct{} `json:"version"`
		}
		if err := json.Unmarshal(raw, &l); err != nil || l.Profile.Tagline != tag || l.Version == nil {
			return fmt.Errorf("want the listing with tagline %q in a new version, got profile tagline %q and version %v (%v): %.300s",
				tag, l.Profile.Tagline, l.Version != nil, err, raw)
		}
		return nil
	}
}
