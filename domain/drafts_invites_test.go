package domain_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// oneInvite is a DraftStore holding one ready draft with founders and one
// invite of it, so that accept_invite runs without a database; saved is
// the draft as accept_invite wrote it (nil before). The methods these tests
// do not reach are the nil embedded interface's.
type oneInvite struct {
	domain.DraftStore
	founders []domain.DraftFounder
	email    string
	saved    *domain.DraftRecord
	accepted bool
}

func (f *oneInvite) DraftInviteByHash(context.Context, string) (string, *domain.DraftInvite, error) {
	return "d1", &domain.DraftInvite{ID: 1, Email: f.email, Status: "sent", CreatedAt: time.Now()}, nil
}

func (f *oneInvite) Draft(context.Context, string, bool) (*domain.DraftRecord, error) {
	// The founders are the store's own slice: accept_invite must not change it.
	return &domain.DraftRecord{ID: "d1", UserID: 9, URL: "https://acme.io/", Status: domain.DraftReady, Doc: domain.DraftDoc{Founders: f.founders}}, nil
}

func (f *oneInvite) AcceptDraftInvite(context.Context, int64, int64, time.Time) error {
	f.accepted = true
	return nil
}

func (f *oneInvite) SaveDraftAndListing(_ context.Context, d *domain.DraftRecord, _ *domain.ListingWrite) error {
	f.saved = d
	return nil
}

// acceptInvite runs accept_invite of st's invite as its invitee with in:
// the founders saved (nil when nothing was) and the error.
func acceptInvite(st *oneInvite, in domain.FounderInput) ([]domain.DraftFounder, error) {
	s := &domain.Service{Now: time.Now, Drafts: &domain.Drafting{Store: st}}
	ctx := domain.WithCaller(context.Background(), domain.Caller{UserID: 2, Email: strings.ToUpper(st.email)})
	err := s.AcceptInvite(ctx, domain.InviteTokenPrefix+"x", in)
	if st.saved == nil {
		return nil, err
	}
	return st.saved.Doc.Founders, err
}

// TestWithInvitedFounder: accept_invite claims the drafted entry of the
// invitee's name, updates the entry of the invitee's address, or appends,
// never past MaxFounders, and leaves the draft it read unchanged.
func TestWithInvitedFounder(t *testing.T) {
	x := domain.Socials{"x": "https://x.example.com/cara"}
	base := []domain.DraftFounder{{Name: "Ann Owner", Title: "CEO"}, {Name: "Cara Doe", Socials: x, Evidence: []domain.Evidence{{Quote: "Cara Doe, CTO"}}}}
	cara := domain.FounderInput{Name: "CARA DOE", Title: "CTO"}

	t.Run("ClaimsDraftedEntry", func(t *testing.T) {
		st := &oneInvite{founders: base, email: "cara@example.com"}
		got, err := acceptInvite(st, cara)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[1].Name != "CARA DOE" || got[1].Invited != "cara@example.com" || got[1].Socials["x"] != x["x"] || got[1].Evidence != nil || !st.accepted {
			t.Fatalf("got %+v; want entry 2 claimed, socials kept, the old evidence dropped", got)
		}
		if base[1].Name != "Cara Doe" || base[1].Invited != "" {
			t.Error("the draft's founders as read were changed")
		}
	})
	t.Run("UpdatesByInvitedEmail", func(t *testing.T) {
		claimed := []domain.DraftFounder{base[0], {Name: "CARA DOE", Title: "CTO", Invited: "Cara@Example.com"}}
		got, err := acceptInvite(&oneInvite{founders: claimed, email: "cara@example.com"}, domain.FounderInput{Name: "Cara Smith"})
		if err != nil || len(got) != 2 || got[1].Name != "Cara Smith" {
			t.Fatalf("got %+v, %v; want the invitee's entry renamed in place", got, err)
		}
	})
	t.Run("Appends", func(t *testing.T) {
		got, err := acceptInvite(&oneInvite{founders: base, email: "dan@example.com"}, domain.FounderInput{Name: "Dan Roe"})
		if err != nil || len(got) != 3 || got[2].Name != "Dan Roe" || got[2].Invited != "dan@example.com" {
			t.Fatalf("got %+v, %v", got, err)
		}
	})
	t.Run("Max", func(t *testing.T) {
		full := make([]domain.DraftFounder, domain.MaxFounders)
		for i := range full {
			full[i].Name = strings.Repeat("x", i+1)
		}
		st := &oneInvite{founders: full, email: "dan@example.com"}
		_, err := acceptInvite(st, domain.FounderInput{Name: "Dan Roe"})
		if e, ok := err.(*domain.Error); !ok || e.Code != domain.EInvalid || e.Fields[0].Field != "founders" {
			t.Fatalf("err = %v, want invalid naming founders", err)
		}
		if st.accepted || st.saved != nil {
			t.Fatal("a refused profile marked the invite accepted or saved the draft")
		}
	})
}

// TestCheckFounderInput: accept_invite refuses a profile out of bounds,
// naming its field, before it marks the invite accepted, and saves one
// within them normalised.
func TestCheckFounderInput(t *testing.T) {
	for _, c := range []struct {
		in    domain.FounderInput
		field string
	}{
		{domain.FounderInput{Name: " \t "}, "name"},
		{domain.FounderInput{Name: strings.Repeat("é", 161)}, "name"},
		{domain.FounderInput{Name: "Cara", Title: strings.Repeat("t", 161)}, "title"},
		{domain.FounderInput{Name: "Cara", Bio: strings.Repeat("b", 3001)}, "bio"},
		{domain.FounderInput{Name: "Cara", Bio: "\xff"}, "bio"},
	} {
		st := &oneInvite{email: "cara@example.com"}
		_, err := acceptInvite(st, c.in)
		if e, ok := err.(*domain.Error); !ok || e.Code != domain.EInvalid || e.Fields[0].Field != c.field || st.accepted {
			t.Errorf("accept_invite(%.20q...) = %v (accepted %v), want invalid naming %s", c.in.Name+c.in.Title+c.in.Bio, err, st.accepted, c.field)
		}
	}
	got, err := acceptInvite(&oneInvite{email: "cara@example.com"}, domain.FounderInput{Name: "  Cara \n Doe ", Title: " CTO ", Bio: " Builds.\n\nShips. "})
	if err != nil || len(got) != 1 || got[0].Name != "Cara Doe" || got[0].Title != "CTO" || got[0].Bio != "Builds.\n\nShips." {
		t.Errorf("normalised = %+v, %v", got, err)
	}
}

func TestInviteNeedsSignIn(t *testing.T) {
	s := &domain.Service{}
	if _, err := s.InviteInfo(context.Background(), "ld_inv_x"); domain.ErrorCode(err) != domain.EUnauthenticated {
		t.Errorf("InviteInfo without a caller: %v", err)
	}
	if err := s.AcceptInvite(context.Background(), "ld_inv_x", domain.FounderInput{Name: "Cara"}); domain.ErrorCode(err) != domain.EUnauthenticated {
		t.Errorf("AcceptInvite without a caller: %v", err)
	}
}
