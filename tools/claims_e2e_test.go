package tools

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/miekg/dns"

	"github.com/launchdir/launchdir/domain/testclock"
	"github.com/launchdir/launchdir/storage/fixtures"
	"github.com/launchdir/launchdir/web"
)

// dnsZone is a DNS server on loopback (github.com/miekg/dns) answering TXT
// questions from a map the test changes; other names are NXDOMAIN.
type dnsZone struct {
	mu  sync.Mutex
	txt map[string][]string
}

func (z *dnsZone) set(name string, values ...string) {
	z.mu.Lock()
	defer z.mu.Unlock()
	if values == nil {
		delete(z.txt, name)
		return
	}
	z.txt[name] = values
}

func (z *dnsZone) serveDNS(w dns.ResponseWriter, req *dns.Msg) {
	m := new(dns.Msg)
	m.SetReply(req)
	m.Authoritative = true
	q := req.Question[0]
	name := strings.ToLower(strings.TrimSuffix(q.Name, "."))
	z.mu.Lock()
	vals, ok := z.txt[name]
	z.mu.Unlock()
	switch {
	case !ok:
		m.Rcode = dns.RcodeNameError
	case q.Qtype == dns.TypeTXT:
		for _, v := range vals {
			m.Answer = append(m.Answer, &dns.TXT{Hdr: dns.RR_Header{Name: q.Name, Rrtype: dns.TypeTXT, Class: dns.ClassINET, Ttl: 1}, Txt: []string{v}})
		}
	}
	_ = w.WriteMsg(m)
}

// startDNS serves z on 127.0.0.1 (UDP) and returns a resolver that asks only
// it, built the way serve's --dns-resolver builds one.
func startDNS(t *testing.T) (*dnsZone, *net.Resolver) {
	t.Helper()
	z := &dnsZone{txt: map[string][]string{}}
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{})
	srv := &dns.Server{PacketConn: pc, Handler: dns.HandlerFunc(z.serveDNS), NotifyStartedFunc: func() { close(started) }}
	go func() { _ = srv.ActivateAndServe() }()
	<-started
	t.Cleanup(func() { _ = srv.Shutdown() })
	addr := pc.LocalAddr().String()
	var d net.Dialer
	return z, &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return d.DialContext(ctx, network, addr)
	}}
}

// claimSite is an owner's web site: a homepage that may carry the meta tag or
// redirect, and the /.well-known/ claim file.
type claimSite struct {
	*httptest.Server
	mu       sync.Mutex
	meta     string // content of <meta name="launchdir-claim">, "" for none
	file     string // body of the claim file, "" for 404
	redirect string // homepage redirects here when set
}

func newClaimSite(t *testing.T) *claimSite {
	s := &claimSite{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		meta, file, redirect := s.meta, s.file, s.redirect
		s.mu.Unlock()
		switch r.URL.Path {
		case "/":
			if redirect != "" {
				http.Redirect(w, r, redirect, http.StatusFound)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			tag := ""
			if meta != "" {
				tag = `<meta name="launchdir-claim" content="` + meta + `">`
			}
			fmt.Fprintf(w, "<!doctype html><html><head><title>Acme</title>%s</head><body><h1>Acme</h1></body></html>", tag)
		case "/.well-known/launchdir-claim.txt":
			if file == "" {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, file)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *claimSite) set(f func(s *claimSite)) { s.mu.Lock(); defer s.mu.Unlock(); f(s) }

// claimsEnv is a server with the owner's area wired to a loopback DNS server
// and the pages served next to the API.
type claimsEnv struct {
	*catEnv
	zone   *dnsZone
	mailer *recordingMailer
	clock  *testclock.Clock
}

func newClaimsEnv(t *testing.T) *claimsEnv {
	env := catTestServer(t, Options{}, true)
	zone, resolver := startDNS(t)
	mailer := withOwning(t, env, resolver)
	pages := web.New(env.svc)
	env.pages.Store(&pages)
	return &claimsEnv{catEnv: env, zone: zone, mailer: mailer, clock: env.clock}
}

// publicListing inserts a live listing owned by owner at siteURL (domain ""
// means the URL's host) and returns its id and slug.
func (e *claimsEnv) publicListing(t *testing.T, owner, siteURL, domain string) (int64, string) {
	t.Helper()
	id := e.ownedListing(t, owner, fixtures.Cols{"status": "live", "launched_at": catNow.Add(-48 * time.Hour).Unix(), "url": siteURL, "domain": domain})
	return id, listingColumn(t, e.catEnv, id, "slug")
}

// count is the number of rows of table matching where (nil: all).
func (e *claimsEnv) count(t *testing.T, table string, where fixtures.Cols) int {
	t.Helper()
	return fixtures.Count(t, e.db, table, where)
}

func (e *claimsEnv) mailsTo(to string) []string {
	e.mailer.mu.Lock()
	defer e.mailer.mu.Unlock()
	var out []string
	for _, m := range e.mailer.sent {
		if strings.HasPrefix(m, to+"|") {
			out = append(out, m)
		}
	}
	return out
}

// transports runs f over REST and over MCP with the API key.
func transports(t *testing.T, env *catEnv, key string, f func(t *testing.T, tr string, call draftCaller)) {
	for _, tr := range []struct {
		name string
		call func(t *testing.T) draftCaller
	}{
		{"rest", func(*testing.T) draftCaller { return restCaller(env, key) }},
		{"mcp", mcpCaller(env, key)},
	} {
		t.Run(tr.name, func(t *testing.T) { f(t, tr.name, tr.call(t)) })
	}
}

// notYet checks a verification that did not find the proof: 200, the claim
// still pending, last_check not found with every piece of text in its
// message, and next saying so too. It returns last_check.
func notYet(t *testing.T, st int, v map[string]any, texts ...string) map[string]any {
	t.Helper()
	lc, _ := v["last_check"].(map[string]any)
	if st != 200 || v["status"] != "pending" || lc == nil || lc["found"] != false || lc["checked_at"] == nil ||
		lc["looked_for"] == nil || lc["seen"] == nil {
		t.Fatalf("want 200 pending with last_check, got %d %v", st, v)
	}
	msg, _ := lc["message"].(string)
	next, _ := v["next"].(string)
	for _, s := range texts {
		if !strings.Contains(msg, s) {
			t.Fatalf("last_check.message %q does not say %q", msg, s)
		}
	}
	if !strings.Contains(next, "Not found yet") || !strings.Contains(next, "stays pending") {
		t.Fatalf("next does not say the claim stays pending: %q", next)
	}
	return lc
}

// seen is last_check.seen of a check.
func seen(lc map[string]any) map[string]any { return lc["seen"].(map[string]any) }

// seenValues are last_check.seen.values joined by |.
func seenValues(lc map[string]any) string {
	var out []string
	for _, v := range seen(lc)["values"].([]any) {
		out = append(out, v.(string))
	}
	return strings.Join(out, "|")
}

// wantConflict checks a refused call: 409 with every piece of text.
func wantConflict(t *testing.T, st int, p map[string]any, texts ...string) {
	t.Helper()
	detail, _ := p["detail"].(string)
	if st != 409 || p["code"] != "conflict" {
		t.Fatalf("want 409 conflict, got %d %v", st, p)
	}
	for _, s := range texts {
		if !strings.Contains(detail, s) {
			t.Fatalf("message %q does not say %q", detail, s)
		}
	}
}

func claim(t *testing.T, call draftCaller, args map[string]any) map[string]any {
	t.Helper()
	st, c := call(t, "claim_listing", args)
	if st != 201 || c["status"] != "pending" {
		t.Fatalf("claim_listing %v: %d %v", args, st, c)
	}
	return c
}

func instr(c map[string]any, key string) string {
	s, _ := c["instructions"].(map[string]any)[key].(string)
	return s
}

var tokenShape = regexp.MustCompile(`^[A-Za-z0-9_-]{43}$`)

// TestClaims_DNS claims a listing with a TXT record served by a DNS server
// on loopback: no record, a record on another name, the wrong token, then
// the right one; the claimant becomes an owner and the owner is told.
func TestClaims_DNS(t *testing.T) {
	t.Parallel()
	env := newClaimsEnv(t)
	key := env.apiKey(t, "claimant@example.com")
	env.apiKey(t, "owner@example.com")
	transports(t, env.catEnv, key, func(t *testing.T, tr string, call draftCaller) {
		domain := "acme-" + tr + ".test"
		id, slug := env.publicListing(t, "owner@example.com", "https://"+domain+"/", domain)
		c := claim(t, call, map[string]any{"slug": slug, "method": "dns"})
		tok := instr(c, "token")
		name, value := "_launchdir-claim."+domain, "launchdir-claim="+tok
		if !tokenShape.MatchString(tok) || instr(c, "record_type") != "TXT" || instr(c, "record_name") != name ||
			instr(c, "record_value") != value || !strings.Contains(instr(c, "text"), name) || c["method"] != "dns" ||
			c["listing_name"] == "" || c["expires_at"] != catNow.AddDate(0, 0, 7).Format(time.RFC3339) {
			t.Fatalf("claim: %v", c)
		}
		cid := c["id"]

		st, p := call(t, "verify_claim", map[string]any{"claim_id": cid})
		lc := notYet(t, st, p, "No TXT record", name, value)
		if lf := lc["looked_for"].(map[string]any); lf["kind"] != "dns_txt" || lf["where"] != name || lf["value"] != value ||
			seen(lc)["error"] != "no such name" || seenValues(lc) != "" {
			t.Fatalf("no record: last_check %v", lc)
		}
		env.zone.set(domain, value) // on the apex instead of the label
		st, p = call(t, "verify_claim", map[string]any{"claim_id": cid})
		notYet(t, st, p, "No TXT record", "does not count")
		env.zone.set(domain)
		env.zone.set(name, "v=spf1 -all", "launchdir-claim=not-the-token")
		st, p = call(t, "verify_claim", map[string]any{"claim_id": cid})
		lc = notYet(t, st, p, `"launchdir-claim=not-the-token"`, "none is this claim's value "+value)
		if seenValues(lc) != "v=spf1 -all|launchdir-claim=not-the-token" || seen(lc)["error"] != nil {
			t.Fatalf("wrong token: seen %v", seen(lc))
		}
		if got := listingColumn(t, env.catEnv, id, "verified"); got != "0" {
			t.Fatalf("a failed check marked the listing verified: %s", got)
		}
		st, list := call(t, "list_my_claims", map[string]any{})
		first := list["items"].([]any)[0].(map[string]any)
		lc, _ = first["last_check"].(map[string]any)
		if st != 200 || first["id"] != cid || first["status"] != "pending" || lc == nil || lc["found"] != false ||
			!strings.Contains(lc["message"].(string), "not-the-token") || instr(first, "token") != tok {
			t.Fatalf("list_my_claims after a failed check: %d %v", st, first)
		}

		env.zone.set(name, "v=spf1 -all", value)
		st, v := call(t, "verify_claim", map[string]any{"claim_id": cid})
		if st != 200 || v["status"] != "verified" || v["listing_id"] != float64(id) || v["verified_at"] == nil {
			t.Fatalf("verify_claim: %d %v", st, v)
		}
		if listingColumn(t, env.catEnv, id, "verified") != "1" || listingColumn(t, env.catEnv, id, "plan") != "free" {
			t.Fatalf("verified listing: verified=%s plan=%s", listingColumn(t, env.catEnv, id, "verified"), listingColumn(t, env.catEnv, id, "plan"))
		}
		st, mine := call(t, "get_my_listing", map[string]any{"listing_id": id})
		if st != 200 || mine["slug"] != slug || mine["verified"] != true || mine["plan"] != "free" {
			t.Fatalf("get_my_listing after the claim: %d %v", st, mine)
		}
		st, l := call(t, "list_my_listings", map[string]any{"per_page": 100})
		found := false
		for _, it := range l["items"].([]any) {
			found = found || it.(map[string]any)["id"] == float64(id)
		}
		if st != 200 || !found {
			t.Fatalf("list_my_listings does not list the claimed listing: %v", l)
		}
		if m := env.mailsTo("owner@example.com"); len(m) == 0 || !strings.Contains(m[len(m)-1], "claimant@example.com") {
			t.Fatalf("the owner was not told: %v", m)
		}
		if n := env.count(t, "listing_owners", fixtures.Cols{"listing_id": id}); n != 1 {
			t.Fatalf("listing_owners rows: %d", n)
		}
		// Again: still verified, nothing more; claiming an owned listing is refused.
		if st, v := call(t, "verify_claim", map[string]any{"claim_id": cid}); st != 200 || v["status"] != "verified" {
			t.Fatalf("verify_claim again: %d %v", st, v)
		}
		st, p = call(t, "claim_listing", map[string]any{"slug": slug, "method": "dns"})
		wantConflict(t, st, p, "already own")
	})
}

// TestClaims_MetaAndFile claims through the homepage meta tag and the
// /.well-known/ file of local sites, with every way of getting it wrong; two
// people claim one listing with their own tokens and both become owners.
func TestClaims_MetaAndFile(t *testing.T) {
	t.Parallel()
	env := newClaimsEnv(t)
	key := env.apiKey(t, "claimant@example.com")
	env.apiKey(t, "owner@example.com")
	transports(t, env.catEnv, key, func(t *testing.T, tr string, call draftCaller) {
		site, other := newClaimSite(t), newClaimSite(t)
		id, slug := env.publicListing(t, "owner@example.com", site.URL+"/", "")

		c := claim(t, call, map[string]any{"slug": slug, "method": "meta"})
		tok := instr(c, "token")
		tag := `<meta name="launchdir-claim" content="` + tok + `">`
		if instr(c, "meta_tag") != tag || instr(c, "page_url") != site.URL+"/" || !tokenShape.MatchString(tok) {
			t.Fatalf("meta claim: %v", c)
		}
		cid := c["id"]
		st, p := call(t, "verify_claim", map[string]any{"claim_id": cid})
		lc := notYet(t, st, p, "has no <meta", tag)
		if lf := lc["looked_for"].(map[string]any); lf["kind"] != "meta_tag" || lf["where"] != site.URL+"/" || lf["value"] != tag ||
			seen(lc)["http_status"] != float64(200) || seen(lc)["url"] != site.URL+"/" || seenValues(lc) != "" {
			t.Fatalf("no tag: last_check %v", lc)
		}
		site.set(func(s *claimSite) { s.meta = "someone-elses-token" })
		st, p = call(t, "verify_claim", map[string]any{"claim_id": cid})
		if lc = notYet(t, st, p, `"someone-elses-token"`, "not this claim's token"); seenValues(lc) != "someone-elses-token" {
			t.Fatalf("another token: seen %v", seen(lc))
		}
		// The right tag, but only on another host the homepage redirects to.
		other.set(func(s *claimSite) { s.meta = tok })
		site.set(func(s *claimSite) { s.redirect = other.URL + "/" })
		st, p = call(t, "verify_claim", map[string]any{"claim_id": cid})
		lc = notYet(t, st, p, "redirects to another host", strings.TrimPrefix(other.URL, "http://"))
		if e, _ := seen(lc)["error"].(string); !strings.Contains(e, "redirects to another host") {
			t.Fatalf("redirect: seen %v", seen(lc))
		}
		site.set(func(s *claimSite) { s.redirect, s.meta = "", tok })
		if st, v := call(t, "verify_claim", map[string]any{"claim_id": cid}); st != 200 || v["status"] != "verified" {
			t.Fatalf("meta verify: %d %v", st, v)
		}

		// file, on a second listing, by two claimants.
		site2 := newClaimSite(t)
		id2, slug2 := env.publicListing(t, "owner@example.com", site2.URL+"/", "")
		second := "second-" + tr + "@example.com"
		call2 := restCaller(env.catEnv, env.apiKey(t, second))
		c = claim(t, call, map[string]any{"slug": slug2, "method": "file"})
		c2 := claim(t, call2, map[string]any{"slug": slug2, "method": "file"})
		tok, tok2 := instr(c, "token"), instr(c2, "token")
		if tok == tok2 || c["id"] == c2["id"] || instr(c, "file_url") != site2.URL+"/.well-known/launchdir-claim.txt" || instr(c, "file_body") != tok {
			t.Fatalf("two claimants: %v / %v", c, c2)
		}
		cid = c["id"]
		st, p = call(t, "verify_claim", map[string]any{"claim_id": cid})
		lc = notYet(t, st, p, "404 Not Found", "/.well-known/launchdir-claim.txt", tok)
		if lf := lc["looked_for"].(map[string]any); lf["kind"] != "file" || lf["where"] != site2.URL+"/.well-known/launchdir-claim.txt" ||
			lf["value"] != tok || seen(lc)["http_status"] != float64(404) {
			t.Fatalf("no file: last_check %v", lc)
		}
		site2.set(func(s *claimSite) { s.file = tok2 + "\n" })
		st, p = call(t, "verify_claim", map[string]any{"claim_id": cid})
		lc = notYet(t, st, p, "holds", "not this claim's token")
		if seen(lc)["http_status"] != float64(200) || seen(lc)["body_excerpt"] != tok2 || seenValues(lc) != tok2 {
			t.Fatalf("another token in the file: seen %v", seen(lc))
		}
		// The second claimant's token is published: they are verified, the first is not.
		if st, v := call2(t, "verify_claim", map[string]any{"claim_id": c2["id"]}); st != 200 || v["status"] != "verified" {
			t.Fatalf("second claimant: %d %v", st, v)
		}
		if st, p := call2(t, "verify_claim", map[string]any{"claim_id": cid}); st != 404 || p["code"] != "not_found" {
			t.Fatalf("someone else's claim: %d %v", st, p)
		}
		site2.set(func(s *claimSite) { s.file = tok2 + "\n" + tok + "\n" })
		if st, v := call(t, "verify_claim", map[string]any{"claim_id": cid}); st != 200 || v["status"] != "verified" {
			t.Fatalf("file verify: %d %v", st, v)
		}
		if n := env.count(t, "listing_owners", fixtures.Cols{"listing_id": id2}); n != 2 {
			t.Fatalf("co-owners of the file listing: %d, want 2", n)
		}
		// The second claimant, already an owner, was told of the first.
		if m := env.mailsTo(second); len(m) != 1 || !strings.Contains(m[0], "claimant@example.com") {
			t.Fatalf("mail to the earlier co-owner: %v", m)
		}
		for _, l := range []int64{id, id2} {
			if st, _ := call(t, "get_my_listing", map[string]any{"listing_id": l}); st != 200 {
				t.Fatalf("get_my_listing %d: %d", l, st)
			}
		}
	})
}

// outboxLink returns the claim link of the newest mail to addr in the outbox.
func (e *claimsEnv) outboxLink(t *testing.T, addr string) (string, int64) {
	t.Helper()
	mails := fixtures.Rows(t, e.db, "outbox", fixtures.Cols{"to_addr": addr})
	n := int64(len(mails))
	if n == 0 {
		return "", 0
	}
	body := mails[len(mails)-1]["body"]
	link := regexp.MustCompile(regexp.QuoteMeta(e.URL) + `/claims/confirm/[A-Za-z0-9_-]+`).FindString(body)
	if link == "" {
		t.Fatalf("no claim link in the mail: %s", body)
	}
	return link, n
}

// TestClaims_Email claims through a link mailed by the real auth mailer (the
// outbox): the page shows the claim, Confirm verifies it, the link then no
// longer works; addresses on other domains are refused.
func TestClaims_Email(t *testing.T) {
	t.Parallel()
	env := newClaimsEnv(t)
	env.svc.Owner.Mailer = env.auth
	key := env.apiKey(t, "claimant@example.com")
	env.apiKey(t, "owner@example.com")
	transports(t, env.catEnv, key, func(t *testing.T, tr string, call draftCaller) {
		domain := "app.acme-" + tr + ".io" // registrable: acme-<tr>.io
		_, slug := env.publicListing(t, "owner@example.com", "https://"+domain+"/", domain)
		for _, bad := range []struct{ email, rule string }{
			{"founder@other.io", "domain"},
			{"founder@notacme-" + tr + ".io", "domain"},
			{"founder@acme-" + tr + ".com", "domain"},
		} {
			st, p := call(t, "claim_listing", map[string]any{"slug": slug, "method": "email", "email": bad.email})
			wantInvalid(t, "claims", st, p, "email", bad.rule)
			if !strings.Contains(p["detail"].(string), "acme-"+tr+".io") {
				t.Fatalf("the 400 does not say which domain is accepted: %v", p)
			}
		}
		st, p := call(t, "claim_listing", map[string]any{"slug": slug, "method": "email"})
		wantInvalid(t, "claims", st, p, "email", "required")
		st, p = call(t, "claim_listing", map[string]any{"slug": slug, "method": "dns", "email": "founder@acme-" + tr + ".io"})
		wantInvalid(t, "claims", st, p, "email", "not_allowed")
		if n := env.count(t, "claims", nil); n != 0 && tr == "rest" {
			t.Fatalf("refused claims stored %d rows", n)
		}

		// 254 characters is accepted, 255 is not.
		long := strings.Repeat("a", 64) + "@" + strings.Repeat("b", 60) + "." + strings.Repeat("c", 60) + "." +
			strings.Repeat("d", 254-64-1-60-1-60-1-len("acme-"+tr+".io")-1) + ".acme-" + tr + ".io"
		if len(long) != 254 {
			t.Fatalf("test address is %d characters", len(long))
		}
		st, p = call(t, "claim_listing", map[string]any{"slug": slug, "method": "email", "email": long[:64] + "@d" + long[65:]})
		wantInvalid(t, "claims", st, p, "email", "maxLength")
		c := claim(t, call, map[string]any{"slug": slug, "method": "email", "email": long})
		if _, n := env.outboxLink(t, long); n != 1 || instr(c, "mailed_to") != long {
			t.Fatalf("254-character address: %d mails, claim %v", n, c)
		}

		// A subdomain address of the registrable domain; it replaces the claim above.
		addr := "founder@mail.acme-" + tr + ".io"
		c2 := claim(t, call, map[string]any{"slug": slug, "method": "email", "email": addr})
		if c2["id"] == c["id"] || instr(c2, "token") != "" || !strings.Contains(instr(c2, "text"), addr) {
			t.Fatalf("email claim: %v", c2)
		}
		link, n := env.outboxLink(t, addr)
		if n != 1 {
			t.Fatalf("mails to %s: %d", addr, n)
		}
		st, p = call(t, "verify_claim", map[string]any{"claim_id": c["id"]})
		wantConflict(t, st, p, "replaced")
		st, p = call(t, "verify_claim", map[string]any{"claim_id": c2["id"]})
		wantConflict(t, st, p, "open the link mailed to "+addr)
		// The same claim again within 10 minutes: same claim, no second mail.
		if again := claim(t, call, map[string]any{"slug": slug, "method": "email", "email": addr}); again["id"] != c2["id"] {
			t.Fatalf("same claim again: %v", again)
		}
		if _, n := env.outboxLink(t, addr); n != 1 {
			t.Fatalf("a second mail within 10 minutes: %d", n)
		}

		b := newBrowser(t)
		st, page := b.get(link)
		if st != 200 || !strings.Contains(page, "claimant@example.com") || !strings.Contains(page, addr) || !strings.Contains(page, ">Confirm<") {
			t.Fatalf("link page: %d %s", st, page)
		}
		if st, _ := b.get(link); st != 200 || env.count(t, "claims", fixtures.Cols{"status": "verified", "email": addr}) != 0 {
			t.Fatalf("opening the link verified the claim (mail scanners open links)")
		}
		// A form from another site is refused.
		req, _ := http.NewRequest("POST", link, strings.NewReader(""))
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 403 {
			t.Fatalf("cross-site confirm: %d", res.StatusCode)
		}
		st, page = b.post(link, url.Values{})
		if st != 200 || !strings.Contains(page, "Claim confirmed") {
			t.Fatalf("confirm: %d %s", st, page)
		}
		st, list := call(t, "list_my_claims", map[string]any{})
		if first := list["items"].([]any)[0].(map[string]any); st != 200 || first["id"] != c2["id"] || first["status"] != "verified" {
			t.Fatalf("after confirm: %d %v", st, first)
		}
		if st, _ := b.get(link); st != 410 {
			t.Fatalf("used link: %d", st)
		}
		if st, _ := b.post(link, url.Values{}); st != 410 {
			t.Fatalf("used link posted: %d", st)
		}
		if st, _ := b.get(env.URL + "/claims/confirm/" + strings.Repeat("x", 43)); st != 404 {
			t.Fatalf("unknown link: %d", st)
		}
	})
}

// TestClaims_Rules: bounds of the input, one pending claim per person and
// listing, expiry, and claims that are not the caller's.
func TestClaims_Rules(t *testing.T) {
	t.Parallel()
	env := newClaimsEnv(t)
	key := env.apiKey(t, "claimant@example.com")
	env.apiKey(t, "owner@example.com")
	otherCall := restCaller(env.catEnv, env.apiKey(t, "other@example.com"))
	transports(t, env.catEnv, key, func(t *testing.T, tr string, call draftCaller) {
		env.clock.Set(catNow)
		_, slug := env.publicListing(t, "owner@example.com", "https://rules-"+tr+".test/", "rules-"+tr+".test")
		draft := env.ownedListing(t, "owner@example.com", fixtures.Cols{"url": "https://draft.test/"})

		if st, p := call(t, "claim_listing", map[string]any{"slug": strings.Repeat("a", 220), "method": "dns"}); st != 404 || p["code"] != "not_found" {
			t.Fatalf("slug of 220: %d %v", st, p)
		}
		st, p := call(t, "claim_listing", map[string]any{"slug": strings.Repeat("a", 221), "method": "dns"})
		wantInvalid(t, "claims", st, p, "slug", "maxLength")
		st, p = call(t, "claim_listing", map[string]any{"slug": slug, "method": "phone"})
		wantInvalid(t, "claims", st, p, "method", "enum")
		st, p = call(t, "claim_listing", map[string]any{"slug": slug})
		wantInvalid(t, "claims", st, p, "method", "required")
		if st, p := call(t, "claim_listing", map[string]any{"slug": listingColumn(t, env.catEnv, draft, "slug"), "method": "dns"}); st != 404 {
			t.Fatalf("a listing that is not public: %d %v", st, p)
		}
		before := env.count(t, "claims", nil)

		// One pending claim per person and listing.
		c := claim(t, call, map[string]any{"slug": slug, "method": "dns"})
		same := claim(t, call, map[string]any{"slug": slug, "method": "dns"})
		if same["id"] != c["id"] || instr(same, "token") != instr(c, "token") {
			t.Fatalf("the same claim again gave another: %v / %v", c, same)
		}
		meta := claim(t, call, map[string]any{"slug": slug, "method": "meta"})
		if meta["id"] == c["id"] || instr(meta, "token") == instr(c, "token") {
			t.Fatalf("another method: %v", meta)
		}
		if n := env.count(t, "claims", nil) - before; n != 2 {
			t.Fatalf("claims stored: %d, want 2", n)
		}
		st, p = call(t, "verify_claim", map[string]any{"claim_id": c["id"]})
		wantConflict(t, st, p, "replaced by a newer claim")
		// Someone else's claim is 404, worded as a missing one.
		st, p = otherCall(t, "verify_claim", map[string]any{"claim_id": meta["id"]})
		st2, p2 := otherCall(t, "verify_claim", map[string]any{"claim_id": 999999})
		if st != 404 || st2 != 404 || strings.ReplaceAll(p["detail"].(string), fmt.Sprint(meta["id"]), "N") != strings.ReplaceAll(p2["detail"].(string), "999999", "N") {
			t.Fatalf("someone else's claim: %d %v / %d %v", st, p, st2, p2)
		}
		if st, l := otherCall(t, "list_my_claims", map[string]any{}); st != 200 || len(l["items"].([]any)) != 0 {
			t.Fatalf("someone else's list: %d %v", st, l)
		}
		st, p = call(t, "verify_claim", map[string]any{"claim_id": 0})
		wantInvalid(t, "claims", st, p, "claim_id", "minimum")

		// Expiry: 7 days, to the second.
		env.clock.Set(catNow.AddDate(0, 0, 7).Add(-time.Second))
		st, p = call(t, "verify_claim", map[string]any{"claim_id": meta["id"]})
		notYet(t, st, p, "Could not read https://rules-"+tr+".test/", "could not be resolved")
		env.clock.Set(catNow.AddDate(0, 0, 7))
		st, p = call(t, "verify_claim", map[string]any{"claim_id": meta["id"]})
		wantConflict(t, st, p, "expired", "claim_listing again")
		st, l := call(t, "list_my_claims", map[string]any{"per_page": 100})
		var items []map[string]any // this listing's, in the order listed
		for _, it := range l["items"].([]any) {
			if it.(map[string]any)["slug"] == slug {
				items = append(items, it.(map[string]any))
			}
		}
		if st != 200 || len(items) != 2 || items[0]["id"] != meta["id"] || items[0]["status"] != "expired" ||
			items[1]["id"] != c["id"] || items[1]["status"] != "replaced" {
			t.Fatalf("list_my_claims newest first: %d %v", st, items)
		}
		all := l["items"].([]any)
		st, pg := call(t, "list_my_claims", map[string]any{"per_page": 1, "page": 2})
		if got := pg["items"].([]any); st != 200 || len(got) != 1 || got[0].(map[string]any)["id"] != all[1].(map[string]any)["id"] ||
			pg["total"] != float64(len(all)) || pg["has_more"] != (len(all) > 2) {
			t.Fatalf("page 2 of 1: %d %v", st, pg)
		}
		fresh := claim(t, call, map[string]any{"slug": slug, "method": "meta"})
		if fresh["id"] == meta["id"] {
			t.Fatalf("an expired claim was given back: %v", fresh)
		}
		st, p = call(t, "list_my_claims", map[string]any{"per_page": 101})
		wantInvalid(t, "claims", st, p, "per_page", "maximum")
	})
}
