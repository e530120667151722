package domain_test

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
)

func TestClaimEmailDomain(t *testing.T) {
	for _, tc := range []struct {
		email, domain string
		ok            bool
	}{
		{"founder@acme.io", "acme.io", true},
		{"Founder@ACME.io", "app.acme.io", true}, // the registrable domain of a subdomain site
		{"x@mail.acme.io", "app.acme.io", true},  // another subdomain of it
		{"x@acme.co.uk", "www.acme.co.uk", true},
		{"x@other.io", "acme.io", false},
		{"x@notacme.io", "acme.io", false},          // a suffix that is not a label
		{"x@acme.io.evil.com", "acme.io", false},    // the domain as a prefix
		{"x@bar.github.io", "foo.github.io", false}, // a sibling under a public suffix
		{"x@github.io", "foo.github.io", false},
		{"x@co.uk", "acme.co.uk", false},
		{"Founder <x@acme.io>", "acme.io", false}, // a bare address only
	} {
		got, err := domain.CheckClaimEmail(tc.email, tc.domain)
		if (err == nil) != tc.ok {
			t.Errorf("%s for %s: %v, want ok=%v", tc.email, tc.domain, err, tc.ok)
			continue
		}
		if err != nil {
			fe := err.(*domain.Error).Fields[0]
			if fe.Field != "email" || !strings.Contains(err.(*domain.Error).Message, domain.RegistrableDomain(tc.domain)) {
				t.Errorf("%s: %+v does not name email and %s", tc.email, fe, domain.RegistrableDomain(tc.domain))
			}
		} else if got != strings.ToLower(got) {
			t.Errorf("%s: domain not lower-cased: %s", tc.email, got)
		}
	}
}

type fakeTXT struct {
	txt []string
	err error
}

func (f fakeTXT) LookupTXT(context.Context, string) ([]string, error) { return f.txt, f.err }

func TestCheckClaimDNS(t *testing.T) {
	rec := &domain.ClaimRecord{Method: domain.ClaimDNS, Token: "TOKEN", Domain: "acme.io"}
	for _, tc := range []struct {
		name    string
		r       fakeTXT
		want    string // "" found, else a part of the message
		seen    string // the values seen, joined by |
		seenErr string
	}{
		{"Found", fakeTXT{txt: []string{"v=spf1 -all", "launchdir-claim=TOKEN"}}, "", "v=spf1 -all|launchdir-claim=TOKEN", ""},
		{"FoundQuoted", fakeTXT{txt: []string{` "launchdir-claim=TOKEN" `}}, "", `"launchdir-claim=TOKEN"`, ""},
		{"WrongToken", fakeTXT{txt: []string{"launchdir-claim=OTHER"}}, `"launchdir-claim=OTHER"; none is this claim's value`, "launchdir-claim=OTHER", ""},
		{"NoRecords", fakeTXT{txt: []string{}}, "No TXT record was found at _launchdir-claim.acme.io", "", ""},
		{"NXDOMAIN", fakeTXT{err: &net.DNSError{Err: "no such host", IsNotFound: true}}, "a record on another name, such as acme.io itself", "", "no such name"},
		{"ServerFailure", fakeTXT{err: &net.DNSError{Err: "server misbehaving", IsTemporary: true, Server: "10.0.0.1:53"}}, "failed (server misbehaving); if the record was just added", "", "server misbehaving"},
		{"Timeout", fakeTXT{err: &net.DNSError{Err: "i/o timeout", IsTimeout: true}}, "(no answer in time)", "", "no answer in time"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := domain.CheckClaimDNS(context.Background(), tc.r, rec)
			if got.Found != (tc.want == "") || !strings.Contains(got.Message, tc.want) {
				t.Fatalf("got %+v, want %q", got, tc.want)
			}
			if lf := got.LookedFor; lf.Kind != "dns_txt" || lf.Where != "_launchdir-claim.acme.io" || lf.Value != "launchdir-claim=TOKEN" {
				t.Fatalf("looked for %+v", lf)
			}
			if strings.Join(got.Seen.Values, "|") != tc.seen || got.Seen.Error != tc.seenErr {
				t.Fatalf("seen %+v, want %q / %q", got.Seen, tc.seen, tc.seenErr)
			}
			if strings.Contains(got.Message+got.Seen.Error, "10.0.0.1") {
				t.Fatalf("the resolver's address leaked: %+v", got)
			}
		})
	}
}

func TestClaimView_Expiry(t *testing.T) {
	now := time.Date(2026, 11, 18, 12, 0, 0, 0, time.UTC)
	s := &domain.Service{Now: func() time.Time { return now }}
	rec := &domain.ClaimRecord{ID: 7, Method: domain.ClaimFile, Status: domain.ClaimPending, Token: "T", Domain: "acme.io", HomeURL: "https://www.acme.io/start",
		CreatedAt: now.AddDate(0, 0, -domain.ClaimDays), ExpiresAt: now.Add(time.Second), ListingStatus: domain.ListingLive,
		ListingURL: "https://www.acme.io/start", ListingDomain: "acme.io"}
	v := s.ClaimView(rec)
	if v.Status != domain.ClaimPending || v.Instructions.FileURL != "https://www.acme.io/.well-known/launchdir-claim.txt" || s.ClaimOpen(rec) != nil {
		t.Fatalf("one second before expiry: %+v", v)
	}
	rec.ExpiresAt = now
	if v := s.ClaimView(rec); v.Status != domain.ClaimExpired || domain.ErrorCode(s.ClaimOpen(rec)) != domain.EConflict {
		t.Fatalf("at expiry: %+v", v)
	}
	// A listing that moved to another domain makes the claim stale.
	rec.ExpiresAt, rec.ListingDomain, rec.ListingURL = now.Add(time.Hour), "acme.com", "https://acme.com/"
	if err := s.ClaimOpen(rec); domain.ErrorCode(err) != domain.EConflict || !strings.Contains(err.Error(), "moved to https://acme.com/") {
		t.Fatalf("moved listing: %v", err)
	}
}

type fakePages struct {
	page *domain.FetchedPage
	err  error
	got  []string
	opts []domain.FetchPageOptions
}

func (f *fakePages) FetchPage(_ context.Context, u string, o domain.FetchPageOptions) (*domain.FetchedPage, error) {
	f.got, f.opts = append(f.got, u), append(f.opts, o)
	return f.page, f.err
}

func TestCheckClaimPages(t *testing.T) {
	home := "https://www.acme.io/en/"
	for _, tc := range []struct {
		name, method string
		f            *fakePages
		wantURL      string
		wantOpts     domain.FetchPageOptions
		want         string
	}{
		{"MetaFound", domain.ClaimMeta, &fakePages{page: &domain.FetchedPage{URL: home, Meta: map[string][]string{"launchdir-claim": {"x", " T "}}}},
			home, domain.FetchPageOptions{SameHost: true}, ""},
		{"MetaRefused", domain.ClaimMeta, &fakePages{err: &domain.CrawlError{Reason: domain.CrawlRefused, Message: "https://www.acme.io/en/ leads to 10.0.0.5, a private address; only sites on public addresses are read"}},
			home, domain.FetchPageOptions{SameHost: true}, "Could not read https://www.acme.io/en/: https://www.acme.io/en/ leads to 10.0.0.5"},
		{"FileLines", domain.ClaimFile, &fakePages{page: &domain.FetchedPage{URL: "f", Body: "OTHER\r\nT\n"}},
			"https://www.acme.io/.well-known/launchdir-claim.txt", domain.FetchPageOptions{SameHost: true, AnyType: true}, ""},
		{"FileEmpty", domain.ClaimFile, &fakePages{page: &domain.FetchedPage{URL: "f", Body: " \n"}},
			"https://www.acme.io/.well-known/launchdir-claim.txt", domain.FetchPageOptions{SameHost: true, AnyType: true}, "is empty"},
		{"FileTokenInside", domain.ClaimFile, &fakePages{page: &domain.FetchedPage{URL: "f", Body: "token: T"}},
			"https://www.acme.io/.well-known/launchdir-claim.txt", domain.FetchPageOptions{SameHost: true, AnyType: true}, `holds "token: T", not this claim's token`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &domain.ClaimRecord{Method: tc.method, Token: "T", Domain: "acme.io", HomeURL: home}
			got := (&domain.Service{}).CheckClaim(context.Background(), &domain.Owning{Pages: tc.f}, rec, time.Unix(0, 0))
			if got.Found != (tc.want == "") || !strings.Contains(got.Message, tc.want) || got.Seen.Values == nil {
				t.Fatalf("got %+v, want %q", got, tc.want)
			}
			if len(tc.f.got) != 1 || tc.f.got[0] != tc.wantURL || tc.f.opts[0] != tc.wantOpts {
				t.Fatalf("read %v with %v, want %s with %+v", tc.f.got, tc.f.opts, tc.wantURL, tc.wantOpts)
			}
		})
	}
}
