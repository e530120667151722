package domain_test

import (
	"context"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// milestoneStore keeps the milestone add_milestone passes it, after the
// service's checks.
type milestoneStore struct {
	domain.OwnerContentStore
	got *domain.Milestone
}

func (m *milestoneStore) AddMilestone(_ context.Context, _, _ int64, ms domain.Milestone, _ int) (*domain.Milestone, domain.ListingRef, error) {
	m.got = &ms
	return &ms, domain.ListingRef{}, nil
}

// addMilestone runs add_milestone as a signed-in owner and returns what
// reached the store (nil when the checks refused the input).
func addMilestone(in domain.AddMilestoneInput) (*domain.Milestone, error) {
	st := &milestoneStore{}
	s := &domain.Service{Content: st}
	ctx := domain.WithCaller(context.Background(), domain.Caller{UserID: 1})
	_, err := s.AddMilestone(ctx, in)
	return st.got, err
}

// TestPlainText: a milestone's title (one line) and description (text)
// are plain text: trimmed, CR LF and CR read as LF, control characters
// refused (a tab only in text), HTML kept as text, lengths in characters.
func TestPlainText(t *testing.T) {
	for _, c := range []struct {
		name, in string
		oneLine  bool
		want     string
		rule     string
	}{
		{"TrimAndCRLF", "  a\r\nb\rc\t \n", false, "a\nb\nc", ""},
		{"TabKeptInText", "a\tb", false, "a\tb", ""},
		{"TabRefusedInTitle", "a\tb", true, "", "plain_text"},
		{"NewlineRefusedInTitle", "a\r\nb", true, "", "plain_text"},
		{"BellRefused", "a\x07", false, "", "plain_text"},
		{"C1Refused", "a\u0085b", false, "", "plain_text"},
		{"DELRefused", "a\x7fb", false, "", "plain_text"},
		{"HTMLKeptAsText", "<b>x</b>&", true, "<b>x</b>&", ""},
		{"MaxCharacters", strings.Repeat("é", domain.MaxMilestoneTitle), true, strings.Repeat("é", domain.MaxMilestoneTitle), ""},
		{"OverMax", strings.Repeat("é", domain.MaxMilestoneTitle+1), true, "", "maxLength"},
		{"TextOverMax", strings.Repeat("é", domain.MaxMilestoneText+1), false, "", "maxLength"},
		{"BlankIsEmpty", " \n\t ", false, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			in, field := domain.AddMilestoneInput{ListingID: 1, Date: "2026-11-18", Title: "Launch"}, "description"
			if c.oneLine {
				in.Title, field = c.in, "title"
			} else {
				in.Description = c.in
			}
			got, err := addMilestone(in)
			if c.rule == "" {
				if err != nil || got == nil {
					t.Fatalf("%s %q: %v", field, c.in, err)
				}
				if v := map[string]string{"title": got.Title, "description": got.Description}[field]; v != c.want {
					t.Fatalf("%s %q stored as %q; want %q", field, c.in, v, c.want)
				}
				return
			}
			e, ok := err.(*domain.Error)
			if !ok || e.Code != domain.EInvalid || len(e.Fields) != 1 || e.Fields[0].Field != field || e.Fields[0].Rule != c.rule || got != nil {
				t.Fatalf("%s %q: %v, want rule %s", field, c.in, err, c.rule)
			}
		})
	}
	if _, err := addMilestone(domain.AddMilestoneInput{ListingID: 1, Date: "2026-11-18", Title: "  "}); domain.ErrorCode(err) != domain.EInvalid || err.(*domain.Error).Fields[0].Rule != "required" {
		t.Fatalf("a blank title: %v", err)
	}
}

func TestCheckMilestone(t *testing.T) {
	ok := domain.AddMilestoneInput{ListingID: 1, Date: "2028-02-29", Title: "Launch", URL: "https://example.com/a"}
	if got, err := addMilestone(ok); err != nil || got == nil || got.Date != ok.Date || got.URL != ok.URL {
		t.Fatalf("%+v, %v", got, err)
	}
	for _, c := range []struct {
		name        string
		edit        func(*domain.AddMilestoneInput)
		field, rule string
	}{
		{"NotALeapYear", func(m *domain.AddMilestoneInput) { m.Date = "2026-02-29" }, "date", "date"},
		{"Month13", func(m *domain.AddMilestoneInput) { m.Date = "2026-13-01" }, "date", "date"},
		{"HTTP", func(m *domain.AddMilestoneInput) { m.URL = "http://example.com" }, "url", "https"},
		{"NoHost", func(m *domain.AddMilestoneInput) { m.URL = "https://" }, "url", "https"},
		{"UserInfo", func(m *domain.AddMilestoneInput) { m.URL = "https://a@example.com" }, "url", "https"},
		{"BlankTitle", func(m *domain.AddMilestoneInput) { m.Title = " " }, "title", "required"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := ok
			c.edit(&in)
			got, err := addMilestone(in)
			e, isErr := err.(*domain.Error)
			if !isErr || e.Fields[0].Field != c.field || e.Fields[0].Rule != c.rule || got != nil {
				t.Fatalf("%v, want %s %s", err, c.field, c.rule)
			}
		})
	}
}
