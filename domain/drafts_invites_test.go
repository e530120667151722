package domain_test

import (
	"context"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

func TestWithInvitedFounder(t *testing.T) {
	x := domain.Socials{"x": "https://x.example.com/cara"}
	base := []domain.DraftFounder{{Name: "Ann Owner", Title: "CEO"}, {Name: "Cara Doe", Socials: x, Evidence: []domain.Evidence{{Quote: "Cara Doe, CTO"}}}}
	cara := domain.DraftFounder{Name: "CARA DOE", Title: "CTO", Invited: "cara@example.com"}

	t.Run("ClaimsDraftedEntry", func(t *testing.T) {
		got, err := domain.WithInvitedFounder(base, cara)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[1].Name != "CARA DOE" || got[1].Socials["x"] != x["x"] || got[1].Evidence != nil {
			t.Fatalf("got %+v; want entry 2 claimed, socials kept, the old evidence dropped", got)
		}
		if base[1].Name != "Cara Doe" {
			t.Error("the input slice was changed")
		}
	})
	t.Run("UpdatesByInvitedEmail", func(t *testing.T) {
		claimed, _ := domain.WithInvitedFounder(base, cara)
		renamed := cara
		renamed.Name, renamed.Invited = "Cara Smith", "Cara@Example.com"
		got, err := domain.WithInvitedFounder(claimed, renamed)
		if err != nil || len(got) != 2 || got[1].Name != "Cara Smith" {
			t.Fatalf("got %+v, %v; want the invitee's entry renamed in place", got, err)
		}
	})
	t.Run("Appends", func(t *testing.T) {
		other := domain.DraftFounder{Name: "Dan Roe", Invited: "dan@example.com"}
		got, err := domain.WithInvitedFounder(base, other)
		if err != nil || len(got) != 3 || got[2].Name != "Dan Roe" {
			t.Fatalf("got %+v, %v", got, err)
		}
	})
	t.Run("Max", func(t *testing.T) {
		full := make([]domain.DraftFounder, domain.MaxFounders)
		for i := range full {
			full[i].Name = strings.Repeat("x", i+1)
		}
		_, err := domain.WithInvitedFounder(full, domain.DraftFounder{Name: "Dan Roe", Invited: "dan@example.com"})
		if e, ok := err.(*domain.Error); !ok || e.Code != domain.EInvalid || e.Fields[0].Field != "founders" {
			t.Fatalf("err = %v, want invalid naming founders", err)
		}
	})
}

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
		_, err := domain.CheckFounderInput(c.in)
		if e, ok := err.(*domain.Error); !ok || e.Code != domain.EInvalid || e.Fields[0].Field != c.field {
			t.Errorf("CheckFounderInput(%.20q...) = %v, want invalid naming %s", c.in.Name+c.in.Title+c.in.Bio, err, c.field)
		}
	}
	f, err := domain.CheckFounderInput(domain.FounderInput{Name: "  Cara \n Doe ", Title: " CTO ", Bio: " Builds.\n\nShips. "})
	if err != nil || f.Name != "Cara Doe" || f.Title != "CTO" || f.Bio != "Builds.\n\nShips." {
		t.Errorf("normalised = %+v, %v", f, err)
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
