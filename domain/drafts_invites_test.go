package domain

import (
	"context"
	"strings"
	"testing"
)

func TestWithInvitedFounder(t *testing.T) {
	x := Socials{"x": "https://x.example.com/cara"}
	base := []DraftFounder{{Name: "Ann Owner", Title: "CEO"}, {Name: "Cara Doe", Socials: x, Evidence: []Evidence{{Quote: "Cara Doe, CTO"}}}}
	cara := DraftFounder{Name: "CARA DOE", Title: "CTO", Invited: "cara@example.com"}

	t.Run("ClaimsDraftedEntry", func(t *testing.T) {
		got, err := withInvitedFounder(base, cara)
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
		claimed, _ := withInvitedFounder(base, cara)
		renamed := cara
		renamed.Name, renamed.Invited = "Cara Smith", "Cara@Example.com"
		got, err := withInvitedFounder(claimed, renamed)
		if err != nil || len(got) != 2 || got[1].Name != "Cara Smith" {
			t.Fatalf("got %+v, %v; want the invitee's entry renamed in place", got, err)
		}
	})
	t.Run("Appends", func(t *testing.T) {
		other := DraftFounder{Name: "Dan Roe", Invited: "dan@example.com"}
		got, err := withInvitedFounder(base, other)
		if err != nil || len(got) != 3 || got[2].Name != "Dan Roe" {
			t.Fatalf("got %+v, %v", got, err)
		}
	})
	t.Run("Max", func(t *testing.T) {
		full := make([]DraftFounder, MaxFounders)
		for i := range full {
			full[i].Name = strings.Repeat("x", i+1)
		}
		_, err := withInvitedFounder(full, DraftFounder{Name: "Dan Roe", Invited: "dan@example.com"})
		if e, ok := err.(*Error); !ok || e.Code != EInvalid || e.Fields[0].Field != "founders" {
			t.Fatalf("err = %v, want invalid naming founders", err)
		}
	})
}

func TestCheckFounderInput(t *testing.T) {
	for _, c := range []struct {
		in    FounderInput
		field string
	}{
		{FounderInput{Name: " \t "}, "name"},
		{FounderInput{Name: strings.Repeat("é", 161)}, "name"},
		{FounderInput{Name: "Cara", Title: strings.Repeat("t", 161)}, "title"},
		{FounderInput{Name: "Cara", Bio: strings.Repeat("b", 3001)}, "bio"},
		{FounderInput{Name: "Cara", Bio: "\xff"}, "bio"},
	} {
		_, err := checkFounderInput(c.in)
		if e, ok := err.(*Error); !ok || e.Code != EInvalid || e.Fields[0].Field != c.field {
			t.Errorf("checkFounderInput(%.20q...) = %v, want invalid naming %s", c.in.Name+c.in.Title+c.in.Bio, err, c.field)
		}
	}
	f, err := checkFounderInput(FounderInput{Name: "  Cara \n Doe ", Title: " CTO ", Bio: " Builds.\n\nShips. "})
	if err != nil || f.Name != "Cara Doe" || f.Title != "CTO" || f.Bio != "Builds.\n\nShips." {
		t.Errorf("normalised = %+v, %v", f, err)
	}
}

func TestInviteNeedsSignIn(t *testing.T) {
	s := &Service{}
	if _, err := s.InviteInfo(context.Background(), "ld_inv_x"); ErrorCode(err) != EUnauthenticated {
		t.Errorf("InviteInfo without a caller: %v", err)
	}
	if err := s.AcceptInvite(context.Background(), "ld_inv_x", FounderInput{Name: "Cara"}); ErrorCode(err) != EUnauthenticated {
		t.Errorf("AcceptInvite without a caller: %v", err)
	}
}
