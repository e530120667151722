package domain_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// Stubs that satisfy each interface New checks; New never calls them.
type (
	stubStores   struct{ domain.Stores }
	stubDrafts   struct{ domain.DraftStore }
	stubFetcher  struct{ domain.Fetcher }
	stubDrafter  struct{ domain.Drafter }
	stubMailer   struct{ domain.Mailer }
	stubOrders   struct{ domain.OrderStore }
	stubPayments struct{ domain.Payments }
	stubVAT      struct{ domain.VATRules }
	stubOptions  struct{ domain.OptionsValidator }
	stubPages    struct{ domain.PageFetcher }
	stubTXT      struct{ domain.TXTResolver }
	stubJobs     struct{ domain.JobStore }
	leasedKinds  struct {
		domain.JobStore
		kinds []string
	}
)

// LeaseJob records the kinds a runner leases and has no job due.
func (l *leasedKinds) LeaseJob(_ context.Context, _ string, kinds []string, _ time.Time, _ time.Duration) (*domain.Job, error) {
	l.kinds = append(l.kinds, kinds...)
	return nil, nil
}

// fullDeps returns a Deps with every required dependency set.
func fullDeps() domain.Deps {
	st := stubStores{}
	enqueue := func(context.Context, string, string, any) error { return nil }
	enqueueAt := func(context.Context, string, string, any, time.Time) error { return nil }
	return domain.Deps{
		Site: domain.Site{Key: "main"}, Now: time.Now,
		Store: st, Claims: st, Free: st, MyListings: st, Edits: st, Content: st, Votes: st, Weeks: st, Reviews: st,
		Settings: st, Redirects: st, Trophies: st, Feeds: st, OpenData: st,
		Drafts: &domain.Drafting{Store: stubDrafts{}, Fetcher: stubFetcher{}, Drafter: stubDrafter{}, Enqueue: enqueue, Mailer: stubMailer{}},
		Orders: &domain.Ordering{Store: stubOrders{}, Payments: stubPayments{}, VAT: stubVAT{}, Options: stubOptions{}, EnqueueAt: enqueueAt},
		Owner:  &domain.Owning{Pages: stubPages{}, Resolver: stubTXT{}, Mailer: stubMailer{}, EnqueueAt: enqueueAt},
		Jobs:   domain.NewRunner(stubJobs{}, domain.RunnerOptions{Now: time.Now}),
	}
}

func TestNew(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		d := fullDeps()
		leased := &leasedKinds{}
		d.Jobs = domain.NewRunner(leased, domain.RunnerOptions{Now: time.Now})
		s, err := domain.New(d)
		if err != nil {
			t.Fatalf("New: %v", err)
		}
		if s.Settings == nil || s.Redirects == nil ||
			s.Trophies == nil || s.Feeds == nil || s.OpenData == nil {
			t.Fatalf("New left the settings, the redirects, the trophies, feeds or open data out of the Service: %+v", s)
		}
		if s.Claims == nil || s.Free == nil || s.MyListings == nil || s.Edits == nil || s.Content == nil || s.Votes == nil || s.Weeks == nil || s.Reviews == nil || s.Drafts == nil || s.Orders == nil || s.Owner == nil {
			t.Fatalf("New left a dependency out of the Service: %+v", s)
		}
		// Every job kind of the Service is registered on the runner: a
		// runner leases the jobs of the kinds registered on it.
		if _, err := d.Jobs.RunDue(context.Background()); err != nil {
			t.Fatalf("RunDue: %v", err)
		}
		for _, kind := range []string{domain.DraftJob, domain.FulfilJob, domain.WeekStartJob, domain.BadgeCheckJob, domain.UpdateFanOutJob, domain.VoteCountJob, domain.WeekClockJob, domain.ReviewCountJob} {
			if !slices.Contains(leased.kinds, kind) {
				t.Errorf("job kind %q not registered by New", kind)
			}
		}
	})
	// Each required dependency, left out, is named by New's error.
	missing := []struct {
		name string
		drop func(*domain.Deps)
	}{
		{"Site.Key", func(d *domain.Deps) { d.Site.Key = "" }},
		{"Now", func(d *domain.Deps) { d.Now = nil }},
		{"Store", func(d *domain.Deps) { d.Store = nil }},
		{"Claims", func(d *domain.Deps) { d.Claims = nil }},
		{"Free", func(d *domain.Deps) { d.Free = nil }},
		{"MyListings", func(d *domain.Deps) { d.MyListings = nil }},
		{"Edits", func(d *domain.Deps) { d.Edits = nil }},
		{"Content", func(d *domain.Deps) { d.Content = nil }},
		{"Votes", func(d *domain.Deps) { d.Votes = nil }},
		{"Weeks", func(d *domain.Deps) { d.Weeks = nil }},
		{"Reviews", func(d *domain.Deps) { d.Reviews = nil }},
		{"Jobs", func(d *domain.Deps) { d.Jobs = nil }},
		{"Settings", func(d *domain.Deps) { d.Settings = nil }},
		{"Redirects", func(d *domain.Deps) { d.Redirects = nil }},
		{"Trophies", func(d *domain.Deps) { d.Trophies = nil }},
		{"Feeds", func(d *domain.Deps) { d.Feeds = nil }},
		{"OpenData", func(d *domain.Deps) { d.OpenData = nil }},
		{"Drafts", func(d *domain.Deps) { d.Drafts = nil }},
		{"Drafts.Store", func(d *domain.Deps) { d.Drafts.Store = nil }},
		{"Drafts.Fetcher", func(d *domain.Deps) { d.Drafts.Fetcher = nil }},
		{"Drafts.Drafter", func(d *domain.Deps) { d.Drafts.Drafter = nil }},
		{"Drafts.Enqueue", func(d *domain.Deps) { d.Drafts.Enqueue = nil }},
		{"Drafts.Mailer", func(d *domain.Deps) { d.Drafts.Mailer = nil }},
		{"Orders", func(d *domain.Deps) { d.Orders = nil }},
		{"Orders.Store", func(d *domain.Deps) { d.Orders.Store = nil }},
		{"Orders.Payments", func(d *domain.Deps) { d.Orders.Payments = nil }},
		{"Orders.VAT", func(d *domain.Deps) { d.Orders.VAT = nil }},
		{"Orders.EnqueueAt", func(d *domain.Deps) { d.Orders.EnqueueAt = nil }},
		{"Orders.Options", func(d *domain.Deps) { d.Orders.Options = nil }},
		{"Owner", func(d *domain.Deps) { d.Owner = nil }},
		{"Owner.Pages", func(d *domain.Deps) { d.Owner.Pages = nil }},
		{"Owner.Resolver", func(d *domain.Deps) { d.Owner.Resolver = nil }},
		{"Owner.Mailer", func(d *domain.Deps) { d.Owner.Mailer = nil }},
		{"Owner.EnqueueAt", func(d *domain.Deps) { d.Owner.EnqueueAt = nil }},
	}
	for _, tc := range missing {
		t.Run("Missing"+strings.ReplaceAll(tc.name, ".", ""), func(t *testing.T) {
			d := fullDeps()
			tc.drop(&d)
			s, err := domain.New(d)
			if err == nil {
				t.Fatalf("New without %s: no error, Service %+v", tc.name, s)
			}
			if want := "Deps." + tc.name; !strings.Contains(err.Error()+",", want+",") && !strings.HasSuffix(err.Error(), want) {
				t.Errorf("New without %s: error %q does not name %s", tc.name, err, want)
			}
		})
	}
	t.Run("MissingSeveral", func(t *testing.T) {
		_, err := domain.New(domain.Deps{Site: domain.Site{Key: "main"}, Now: time.Now})
		if err == nil || !strings.Contains(err.Error(), "Deps.Store, Deps.Claims, Deps.Free") || !strings.Contains(err.Error(), "Deps.Owner") {
			t.Errorf("New(Deps{}): error %v, want every missing dependency named", err)
		}
	})
	// Optional dependencies stay optional: nil means off.
	t.Run("OptionalNil", func(t *testing.T) {
		d := fullDeps()
		d.Drafts.Wake, d.Orders.VIES, d.Logger, d.TrophyPages, d.Matches, d.VoteDays = nil, nil, nil, nil, nil, nil
		if _, err := domain.New(d); err != nil {
			t.Errorf("New without the optional Wake, VIES, Logger, TrophyPages, Matches and VoteDays: %v", err)
		}
	})
}

// oneOwnListing is an owner's store holding one listing of the caller.
type oneOwnListing struct{ domain.OwnerStore }

func (oneOwnListing) OwnListings(context.Context, int64, int, int) ([]domain.MyListingSummary, int, error) {
	return []domain.MyListingSummary{{ID: 1}}, 1, nil
}

// Without its store, an operation of the owner's area is an internal error,
// not an empty answer: list_my_listings used to come back without its free
// queue fields when the free queue's store was missing.
func TestService_FillFreeQueueWithoutStore(t *testing.T) {
	s := &domain.Service{MyListings: oneOwnListing{}}
	ctx := domain.WithCaller(context.Background(), domain.Caller{UserID: 1})
	out, err := s.ListMyListings(ctx, domain.ListMyListingsInput{})
	if domain.ErrorCode(err) != domain.EInternal {
		t.Errorf("list_my_listings without the free queue's store: %+v, %v; want an internal error", out, err)
	}
}

// TestNewService_ClockRequired: the tests' constructor takes the clock it
// is given and has no default: a nil clock is refused at construction.
func TestNewService_ClockRequired(t *testing.T) {
	at := time.Date(2026, 11, 18, 12, 0, 0, 0, time.FixedZone("CET", 3600))
	s := domain.NewService(nil, domain.Site{Key: "main"}, func() time.Time { return at })
	// An operation stamps what it writes with the clock read in UTC.
	st := &oneClaim{target: domain.ClaimableListing{ID: 3, Slug: "acme", Name: "Acme", Status: domain.ListingLive, URL: "https://acme.io/", Domain: "acme.io"}}
	s.Claims = st
	if _, err := s.ClaimListing(domain.WithCaller(context.Background(), domain.Caller{UserID: 1}), domain.ClaimListingInput{Slug: "acme", Method: domain.ClaimDNS}); err != nil {
		t.Fatal(err)
	}
	if got := st.rec.CreatedAt; !got.Equal(at) || got.Location() != time.UTC {
		t.Errorf("claim created at %v; want %v in UTC", got, at)
	}
	defer func() {
		if recover() == nil {
			t.Error("NewService with a nil clock did not panic")
		}
	}()
	domain.NewService(nil, domain.Site{Key: "main"}, nil)
}
