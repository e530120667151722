package domain

import (
	"context"
	"strings"
	"testing"
	"time"
)

// Stubs that satisfy each interface New checks; New never calls them.
type (
	stubStores   struct{ Stores }
	stubDrafts   struct{ DraftStore }
	stubFetcher  struct{ Fetcher }
	stubDrafter  struct{ Drafter }
	stubMailer   struct{ Mailer }
	stubOrders   struct{ OrderStore }
	stubPayments struct{ Payments }
	stubVAT      struct{ VATRules }
	stubOptions  struct{ OptionsValidator }
	stubPages    struct{ PageFetcher }
	stubTXT      struct{ TXTResolver }
	stubJobs     struct{ JobStore }
)

// fullDeps returns a Deps with every required dependency set.
func fullDeps() Deps {
	st := stubStores{}
	enqueue := func(context.Context, string, string, any) error { return nil }
	enqueueAt := func(context.Context, string, string, any, time.Time) error { return nil }
	return Deps{
		Site: Site{Key: "main"}, Now: time.Now,
		Store: st, Claims: st, Free: st, MyListings: st, Edits: st, Content: st, Votes: st, Weeks: st, Reviews: st,
		Settings: st, Redirects: st, Trophies: st, Feeds: st, OpenData: st,
		Drafts: &Drafting{Store: stubDrafts{}, Fetcher: stubFetcher{}, Drafter: stubDrafter{}, Enqueue: enqueue, Mailer: stubMailer{}},
		Orders: &Ordering{Store: stubOrders{}, Payments: stubPayments{}, VAT: stubVAT{}, Options: stubOptions{}, EnqueueAt: enqueueAt},
		Owner:  &Owning{Pages: stubPages{}, Resolver: stubTXT{}, Mailer: stubMailer{}, EnqueueAt: enqueueAt},
		Jobs:   NewRunner(stubJobs{}, RunnerOptions{Now: time.Now}),
	}
}

func TestNew(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		d := fullDeps()
		s, err := New(d)
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
		// Every job kind of the Service is registered on the runner.
		for _, kind := range []string{DraftJob, FulfilJob, WeekStartJob, BadgeCheckJob, UpdateFanOutJob, VoteCountJob, WeekClockJob, ReviewCountJob} {
			if _, ok := d.Jobs.kinds[kind]; !ok {
				t.Errorf("job kind %q not registered by New", kind)
			}
		}
	})
	// Each required dependency, left out, is named by New's error.
	missing := []struct {
		name string
		drop func(*Deps)
	}{
		{"Site.Key", func(d *Deps) { d.Site.Key = "" }},
		{"Now", func(d *Deps) { d.Now = nil }},
		{"Store", func(d *Deps) { d.Store = nil }},
		{"Claims", func(d *Deps) { d.Claims = nil }},
		{"Free", func(d *Deps) { d.Free = nil }},
		{"MyListings", func(d *Deps) { d.MyListings = nil }},
		{"Edits", func(d *Deps) { d.Edits = nil }},
		{"Content", func(d *Deps) { d.Content = nil }},
		{"Votes", func(d *Deps) { d.Votes = nil }},
		{"Weeks", func(d *Deps) { d.Weeks = nil }},
		{"Reviews", func(d *Deps) { d.Reviews = nil }},
		{"Jobs", func(d *Deps) { d.Jobs = nil }},
		{"Settings", func(d *Deps) { d.Settings = nil }},
		{"Redirects", func(d *Deps) { d.Redirects = nil }},
		{"Trophies", func(d *Deps) { d.Trophies = nil }},
		{"Feeds", func(d *Deps) { d.Feeds = nil }},
		{"OpenData", func(d *Deps) { d.OpenData = nil }},
		{"Drafts", func(d *Deps) { d.Drafts = nil }},
		{"Drafts.Store", func(d *Deps) { d.Drafts.Store = nil }},
		{"Drafts.Fetcher", func(d *Deps) { d.Drafts.Fetcher = nil }},
		{"Drafts.Drafter", func(d *Deps) { d.Drafts.Drafter = nil }},
		{"Drafts.Enqueue", func(d *Deps) { d.Drafts.Enqueue = nil }},
		{"Drafts.Mailer", func(d *Deps) { d.Drafts.Mailer = nil }},
		{"Orders", func(d *Deps) { d.Orders = nil }},
		{"Orders.Store", func(d *Deps) { d.Orders.Store = nil }},
		{"Orders.Payments", func(d *Deps) { d.Orders.Payments = nil }},
		{"Orders.VAT", func(d *Deps) { d.Orders.VAT = nil }},
		{"Orders.EnqueueAt", func(d *Deps) { d.Orders.EnqueueAt = nil }},
		{"Orders.Options", func(d *Deps) { d.Orders.Options = nil }},
		{"Owner", func(d *Deps) { d.Owner = nil }},
		{"Owner.Pages", func(d *Deps) { d.Owner.Pages = nil }},
		{"Owner.Resolver", func(d *Deps) { d.Owner.Resolver = nil }},
		{"Owner.Mailer", func(d *Deps) { d.Owner.Mailer = nil }},
		{"Owner.EnqueueAt", func(d *Deps) { d.Owner.EnqueueAt = nil }},
	}
	for _, tc := range missing {
		t.Run("Missing"+strings.ReplaceAll(tc.name, ".", ""), func(t *testing.T) {
			d := fullDeps()
			tc.drop(&d)
			s, err := New(d)
			if err == nil {
				t.Fatalf("New without %s: no error, Service %+v", tc.name, s)
			}
			if want := "Deps." + tc.name; !strings.Contains(err.Error()+",", want+",") && !strings.HasSuffix(err.Error(), want) {
				t.Errorf("New without %s: error %q does not name %s", tc.name, err, want)
			}
		})
	}
	t.Run("MissingSeveral", func(t *testing.T) {
		_, err := New(Deps{Site: Site{Key: "main"}, Now: time.Now})
		if err == nil || !strings.Contains(err.Error(), "Deps.Store, Deps.Claims, Deps.Free") || !strings.Contains(err.Error(), "Deps.Owner") {
			t.Errorf("New(Deps{}): error %v, want every missing dependency named", err)
		}
	})
	// Optional dependencies stay optional: nil means off.
	t.Run("OptionalNil", func(t *testing.T) {
		d := fullDeps()
		d.Drafts.Wake, d.Orders.VIES, d.Logger, d.TrophyPages, d.Matches, d.VoteDays = nil, nil, nil, nil, nil, nil
		if _, err := New(d); err != nil {
			t.Errorf("New without the optional Wake, VIES, Logger, TrophyPages, Matches and VoteDays: %v", err)
		}
	})
}

// Without its store, an operation of the owner's area is an internal error,
// not an empty answer: list_my_listings used to come back without its free
// queue fields when the free queue's store was missing.
func TestService_FillFreeQueueWithoutStore(t *testing.T) {
	s := &Service{}
	_, err := s.fillFreeQueue(context.Background(), []MyListingSummary{{ID: 1}})
	if ErrorCode(err) != EInternal {
		t.Errorf("fillFreeQueue without its store: %v, want an internal error", err)
	}
}

// TestNewService_ClockRequired: the tests' constructor takes the clock it
// is given and has no default: a nil clock is refused at construction.
func TestNewService_ClockRequired(t *testing.T) {
	at := time.Date(2026, 11, 18, 12, 0, 0, 0, time.FixedZone("CET", 3600))
	s := NewService(nil, Site{Key: "main"}, func() time.Time { return at })
	if got := s.now(); !got.Equal(at) || got.Location() != time.UTC {
		t.Errorf("now() = %v; want %v in UTC", got, at)
	}
	defer func() {
		if recover() == nil {
			t.Error("NewService with a nil clock did not panic")
		}
	}()
	NewService(nil, Site{Key: "main"}, nil)
}
