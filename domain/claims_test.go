package domain_test

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// oneClaim is a ClaimStore holding one public listing and the caller's one
// claim of it, so that the claim operations run without a database. The
// methods these tests do not reach are the nil embedded interface's.
type oneClaim struct {
	domain.ClaimStore
	target   domain.ClaimableListing
	rec      *domain.ClaimRecord
	checked  *domain.ClaimCheck
	verified bool
}

func (f *oneClaim) ClaimTarget(context.Context, int64, string) (*domain.ClaimableListing, error) {
	l := f.target
	return &l, nil
}

func (f *oneClaim) CreateClaim(_ context.Context, rec *domain.ClaimRecord) error {
	rec.ID, f.rec = 1, rec
	return nil
}

func (f *oneClaim) SetClaimLink(context.Context, int64, string, time.Time) error { return nil }

func (f *oneClaim) UserClaim(context.Context, int64, int64) (*domain.ClaimRecord, error) {
	rec := *f.rec
	return &rec, nil
}

func (f *oneClaim) UserClaims(context.Context, int64, int, int) ([]domain.ClaimRecord, int, error) {
	return []domain.ClaimRecord{*f.rec}, 1, nil
}

func (f *oneClaim) RecordClaimCheck(_ context.Context, _ int64, c domain.ClaimCheck) error {
	f.checked = &c
	return nil
}

func (f *oneClaim) VerifyClaim(context.Context, int64, time.Time, ...domain.ListingEventFunc) ([]string, bool, error) {
	f.verified = true
	return nil, true, nil
}

var claimNow = time.Date(2026, 11, 18, 12, 0, 0, 0, time.UTC)

// claimService is a service on st at claimNow whose owner's area reads
// pages and TXT records through o, and a caller signed in.
func claimService(st *oneClaim, o *domain.Owning) (*domain.Service, context.Context) {
	s := &domain.Service{Now: func() time.Time { return claimNow }, Claims: st, Owner: o}
	return s, domain.WithCaller(context.Background(), domain.Caller{UserID: 1, Email: "claimant@example.com"})
}

// pendingClaim is a pending claim by method of the listing at home (on
// domain acme.io), as it is stored, expiring in an hour.
func pendingClaim(method, token, home string) *domain.ClaimRecord {
	return &domain.ClaimRecord{ID: 7, ListingID: 3, UserID: 1, Method: method, Status: domain.ClaimPending, Token: token,
		Domain: "acme.io", HomeURL: home, CreatedAt: claimNow.Add(-time.Hour), ExpiresAt: claimNow.Add(time.Hour),
		Slug: "acme", ListingName: "Acme", ListingStatus: domain.ListingLive, ListingURL: home, ListingDomain: "acme.io"}
}

// verify runs verify_claim on st's claim: the claim as answered, and the
// check that did not find the proof (nil when it was found).
func verify(t *testing.T, st *oneClaim, o *domain.Owning) (*domain.Claim, *domain.ClaimCheck) {
	t.Helper()
	s, ctx := claimService(st, o)
	got, err := s.VerifyClaim(ctx, domain.VerifyClaimInput{ClaimID: st.rec.ID})
	if err != nil {
		t.Fatalf("verify_claim: %v", err)
	}
	if found := got.Status == domain.ClaimVerified; found != st.verified || found == (st.checked != nil) || (!found && got.LastCheck == nil) {
		t.Fatalf("claim %+v: verified in the store %v, check recorded %+v", got, st.verified, st.checked)
	}
	return got, st.checked
}

// TestClaimEmailDomain: claim_listing by email takes an address at the
// listing's registrable domain or a subdomain of it, lower-cased, and refuses
// any other naming the field and the domain.
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
		st := &oneClaim{target: domain.ClaimableListing{ID: 3, Slug: "acme", Name: "Acme", Status: domain.ListingLive,
			URL: "https://" + tc.domain + "/", Domain: tc.domain}}
		mail := &mailbox{}
		s, ctx := claimService(st, &domain.Owning{Mailer: mail})
		got, err := s.ClaimListing(ctx, domain.ClaimListingInput{Slug: "acme", Method: domain.ClaimEmail, Email: tc.email})
		if (err == nil) != tc.ok {
			t.Errorf("%s for %s: %v, want ok=%v", tc.email, tc.domain, err, tc.ok)
			continue
		}
		if err != nil {
			fe := err.(*domain.Error).Fields[0]
			if fe.Field != "email" || !strings.Contains(err.(*domain.Error).Message, domain.RegistrableDomain(tc.domain)) {
				t.Errorf("%s: %+v does not name email and %s", tc.email, fe, domain.RegistrableDomain(tc.domain))
			}
			if st.rec != nil || len(mail.sent) != 0 {
				t.Errorf("%s: a refused claim was stored (%+v) or mailed (%v)", tc.email, st.rec, mail.sent)
			}
		} else if got.Email != strings.ToLower(tc.email) || len(mail.sent) != 1 || !strings.HasPrefix(mail.sent[0], got.Email+"|") {
			t.Errorf("%s: claim for %q mailed %v; want the address lower-cased, mailed once", tc.email, got.Email, mail.sent)
		}
	}
}

type fakeTXT struct {
	txt []string
	err error
}

func (f fakeTXT) LookupTXT(context.Context, string) ([]string, error) { return f.txt, f.err }

// TestCheckClaimDNS: verify_claim of a dns claim reads the TXT records at
// _launchdir-claim.<domain>; without the claim's value there, the claim
// stays pending with what was looked for and seen, and no resolver address.
func TestCheckClaimDNS(t *testing.T) {
	for _, tc := range []struct {
		name    string
		r       fakeTXT
		want    string // "" found, else a part of the message
		seen    string // the values seen, joined by |
		seenErr string
	}{
		{"Found", fakeTXT{txt: []string{"v=spf1 -all", "launchdir-claim=TOKEN"}}, "", "", ""},
		{"FoundQuoted", fakeTXT{txt: []string{` "launchdir-claim=TOKEN" `}}, "", "", ""},
		{"WrongToken", fakeTXT{txt: []string{"launchdir-claim=OTHER"}}, `"launchdir-claim=OTHER"; none is this claim's value`, "launchdir-claim=OTHER", ""},
		{"NoRecords", fakeTXT{txt: []string{}}, "No TXT record was found at _launchdir-claim.acme.io", "", ""},
		{"NXDOMAIN", fakeTXT{err: &net.DNSError{Err: "no such host", IsNotFound: true}}, "a record on another name, such as acme.io itself", "", "no such name"},
		{"ServerFailure", fakeTXT{err: &net.DNSError{Err: "server misbehaving", IsTemporary: true, Server: "10.0.0.1:53"}}, "failed (server misbehaving); if the record was just added", "", "server misbehaving"},
		{"Timeout", fakeTXT{err: &net.DNSError{Err: "i/o timeout", IsTimeout: true}}, "(no answer in time)", "", "no answer in time"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := &oneClaim{rec: pendingClaim(domain.ClaimDNS, "TOKEN", "https://acme.io/")}
			_, got := verify(t, st, &domain.Owning{Resolver: tc.r})
			if tc.want == "" {
				if got != nil {
					t.Fatalf("not found: %+v", got)
				}
				return
			}
			if got == nil || !strings.Contains(got.Message, tc.want) {
				t.Fatalf("got %+v, want %q", got, tc.want)
			}
			if lf := got.LookedFor; lf.Kind != "dns_txt" || lf.Where != "_launchdir-claim.acme.io" || lf.Value != "launchdir-claim=TOKEN" {
				t.Fatalf("looked for %+v", lf)
			}
			if strings.Join(got.Seen.Values, "|") != tc.seen || got.Seen.Error != tc.seenErr || got.Seen.Values == nil {
				t.Fatalf("seen %+v, want %q / %q", got.Seen, tc.seen, tc.seenErr)
			}
			if strings.Contains(got.Message+got.Seen.Error, "10.0.0.1") {
				t.Fatalf("the resolver's address leaked: %+v", got)
			}
			if !got.CheckedAt.Equal(claimNow) {
				t.Fatalf("checked at %v, want %v", got.CheckedAt, claimNow)
			}
		})
	}
}

// TestClaimView_Expiry: a pending claim reads as pending, with its
// instructions, until the second it expires, then as expired, and
// verify_claim refuses it; a listing that moved makes it stale.
func TestClaimView_Expiry(t *testing.T) {
	rec := pendingClaim(domain.ClaimFile, "T", "https://www.acme.io/start")
	rec.CreatedAt, rec.ExpiresAt = claimNow.AddDate(0, 0, -domain.ClaimDays), claimNow.Add(time.Second)
	st := &oneClaim{rec: rec}
	o := &domain.Owning{Pages: &fakePages{page: &domain.FetchedPage{URL: "f", Body: "OTHER"}}}
	s, ctx := claimService(st, o)
	listed := func() domain.Claim {
		t.Helper()
		l, err := s.ListMyClaims(ctx, domain.ListMyClaimsInput{})
		if err != nil || len(l.Items) != 1 {
			t.Fatalf("list_my_claims: %+v, %v", l, err)
		}
		return l.Items[0]
	}
	v := listed()
	if v.Status != domain.ClaimPending || v.Instructions.FileURL != "https://www.acme.io/.well-known/launchdir-claim.txt" {
		t.Fatalf("one second before expiry: %+v", v)
	}
	if got, err := s.VerifyClaim(ctx, domain.VerifyClaimInput{ClaimID: rec.ID}); err != nil || got.Status != domain.ClaimPending || st.checked == nil {
		t.Fatalf("verify_claim one second before expiry: %+v, %v; want it checked and still pending", got, err)
	}
	rec.ExpiresAt = claimNow
	if v := listed(); v.Status != domain.ClaimExpired {
		t.Fatalf("at expiry: %+v", v)
	}
	if _, err := s.VerifyClaim(ctx, domain.VerifyClaimInput{ClaimID: rec.ID}); domain.ErrorCode(err) != domain.EConflict {
		t.Fatalf("verify_claim at expiry: %v, want a conflict", err)
	}
	// A listing that moved to another domain makes the claim stale.
	rec.ExpiresAt, rec.ListingDomain, rec.ListingURL = claimNow.Add(time.Hour), "acme.com", "https://acme.com/"
	if _, err := s.VerifyClaim(ctx, domain.VerifyClaimInput{ClaimID: rec.ID}); domain.ErrorCode(err) != domain.EConflict || !strings.Contains(err.Error(), "moved to https://acme.com/") {
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

// TestCheckClaimPages: verify_claim of a meta or file claim reads the
// listing's homepage or its /.well-known/ file on the same host only, and
// says what it found there when the token is not.
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
			st := &oneClaim{rec: pendingClaim(tc.method, "T", home)}
			_, got := verify(t, st, &domain.Owning{Pages: tc.f})
			if (got == nil) != (tc.want == "") || (got != nil && (!strings.Contains(got.Message, tc.want) || got.Seen.Values == nil)) {
				t.Fatalf("got %+v, want %q", got, tc.want)
			}
			if len(tc.f.got) != 1 || tc.f.got[0] != tc.wantURL || tc.f.opts[0] != tc.wantOpts {
				t.Fatalf("read %v with %v, want %s with %+v", tc.f.got, tc.f.opts, tc.wantURL, tc.wantOpts)
			}
		})
	}
}
