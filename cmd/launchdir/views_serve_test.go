package main

import (
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain/testclock"
)

// Browser User-Agents of the views test.
const (
	firefoxUA = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0"
	safariUA  = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1"
)

// TestServe_ListingViews runs serve --demo behind a trusted proxy (the
// client's address in X-Forwarded-For) on a test clock and opens one
// listing page as people and bots would: a visitor counts once per listing
// and UTC day (another user agent or network is another visitor, the next
// day counts again), 20 parallel loads by one visitor count once, and bots,
// a missing User-Agent, HEAD and prefetches count nothing. get_listing's
// views and the most_viewed order over REST follow the recorded views.
func TestServe_ListingViews(t *testing.T) {
	clk := testclock.New(time.Date(2026, 11, 18, 12, 0, 0, 0, time.UTC))
	s := startServeDemoCopy(t, clk.Now, "--trusted-proxies", "127.0.0.1/32, ::1")
	origin := "http://127.0.0.1:" + s.port
	client := s.client()
	page := func(method, slug, network, ua string, hdr ...string) int {
		t.Helper()
		req, _ := http.NewRequest(method, origin+"/listings/"+slug, nil)
		req.Header.Set("X-Forwarded-For", network)
		req.Header.Set("User-Agent", ua) // "" sends none
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		res, err := client.Do(req)
		if err != nil {
			t.Error(err)
			return 0
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode
	}
	api := func(path string, v any) {
		t.Helper()
		if res := s.get(t, origin+path, "", "", v); res.StatusCode != 200 {
			t.Fatalf("GET %s: %d", path, res.StatusCode)
		}
	}
	views := func(slug string) int {
		t.Helper()
		var l struct{ Views int }
		api("/v1/listings/"+slug, &l)
		return l.Views
	}
	type item struct {
		Slug  string
		Views int
	}
	mostViewed := func() []item {
		t.Helper()
		var out struct{ Items []item }
		api("/v1/listings?sort=most_viewed&per_page=100", &out)
		return out.Items
	}

	// Two neighbours in the most_viewed order, a little apart: views of the
	// lower one (b) lift it above the upper one (a).
	top := mostViewed()
	var a, b item
	for i := 1; i < len(top); i++ {
		if g := top[i-1].Views - top[i].Views; g >= 6 && g <= 60 {
			a, b = top[i-1], top[i]
			break
		}
	}
	if b.Slug == "" {
		t.Fatalf("no neighbours 6-60 views apart among the %d most viewed listings", len(top))
	}
	if views(b.Slug) != b.Views {
		t.Fatalf("get_listing and search_listings disagree on the views of %s", b.Slug)
	}
	want := b.Views
	check := func(step string) {
		t.Helper()
		if got := views(b.Slug); got != want {
			t.Fatalf("%s: %s has %d views, want %d", step, b.Slug, got, want)
		}
	}

	for i := 0; i < 2; i++ {
		if st := page("GET", b.Slug, "198.51.100.7", firefoxUA); st != 200 {
			t.Fatalf("listing page: %d", st)
		}
	}
	want++
	check("the same visitor twice the same day")
	page("GET", b.Slug, "198.51.100.7", safariUA)
	want++
	check("another user agent from the same network")
	page("GET", b.Slug, "203.0.113.9", firefoxUA)
	want++
	check("another network")
	page("GET", b.Slug, "2001:db8:5:6::1", firefoxUA)
	page("GET", b.Slug, "2001:db8:5:6:ffff::2", firefoxUA) // the same /64
	want++
	check("two addresses of one IPv6 /64")

	for _, tc := range []struct {
		name, method, ua string
		hdr              []string
	}{
		{"Googlebot", "GET", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", nil},
		{"GPTBot", "GET", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)", nil},
		{"Slack preview", "GET", "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", nil},
		{"curl", "GET", "curl/8.14.1", nil},
		{"Lighthouse", "GET", "Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/137.0.0.0 Mobile Safari/537.36 Chrome-Lighthouse", nil},
		{"no User-Agent", "GET", "", nil},
		{"HEAD", "HEAD", firefoxUA, nil},
		{"Sec-Purpose prefetch", "GET", firefoxUA, []string{"Sec-Purpose", "prefetch"}},
		{"Sec-Purpose prerender", "GET", firefoxUA, []string{"Sec-Purpose", "prefetch;prerender"}},
		{"Purpose prefetch", "GET", firefoxUA, []string{"Purpose", "prefetch"}},
	} {
		if st := page(tc.method, b.Slug, "192.0.2.44", tc.ua, tc.hdr...); st != 200 {
			t.Errorf("%s: %d", tc.name, st)
		}
		check(tc.name + " counts nothing")
	}
	if st := page("GET", "no-such-listing", "192.0.2.45", firefoxUA); st != 404 {
		t.Errorf("a missing listing: %d, want 404", st)
	}

	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if st := page("GET", b.Slug, "192.0.2.50", safariUA); st != 200 {
				t.Errorf("parallel load: %d", st)
			}
		}()
	}
	wg.Wait()
	want++
	check("20 parallel loads by one visitor")

	clk.Advance(24 * time.Hour)
	page("GET", b.Slug, "198.51.100.7", firefoxUA)
	want++
	check("the same visitor the next UTC day")

	// More visitors until b has more views than a; most_viewed follows (the
	// search index polls its change log, so the order is read until it moves).
	for n := 0; want <= a.Views; n++ {
		page("GET", b.Slug, fmt.Sprintf("2001:db8:77:%x::1", n), firefoxUA)
		want++
	}
	check("more visitors")
	if got := views(a.Slug); got != a.Views {
		t.Fatalf("%s: %d views, want %d (nobody viewed it)", a.Slug, got, a.Views)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		pos := map[string]int{}
		var bViews int
		for i, it := range mostViewed() {
			pos[it.Slug] = i + 1
			if it.Slug == b.Slug {
				bViews = it.Views
			}
		}
		if pos[b.Slug] > 0 && pos[b.Slug] < pos[a.Slug] && bViews == want {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("most_viewed: %s at %d with %d views, %s at %d; want %s above with %d", b.Slug, pos[b.Slug], bViews, a.Slug, pos[a.Slug], b.Slug, want)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
