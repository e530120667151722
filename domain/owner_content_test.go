package domain

import (
	"strings"
	"testing"
)

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
		{"MaxCharacters", strings.Repeat("é", 10), true, strings.Repeat("é", 10), ""},
		{"OverMax", strings.Repeat("é", 11), true, "", "maxLength"},
		{"BlankIsEmpty", " \n\t ", false, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := plainText("f", c.in, 10, c.oneLine)
			if c.rule == "" {
				if err != nil || got != c.want {
					t.Fatalf("plainText(%q) = %q, %v; want %q", c.in, got, err, c.want)
				}
				return
			}
			e, ok := err.(*Error)
			if !ok || e.Code != EInvalid || len(e.Fields) != 1 || e.Fields[0].Field != "f" || e.Fields[0].Rule != c.rule {
				t.Fatalf("plainText(%q): %v, want rule %s", c.in, err, c.rule)
			}
		})
	}
	if _, err := requiredText("title", "  ", 10, true); ErrorCode(err) != EInvalid || err.(*Error).Fields[0].Rule != "required" {
		t.Fatalf("requiredText of a blank value: %v", err)
	}
}

func TestCheckMilestone(t *testing.T) {
	ok := AddMilestoneInput{ListingID: 1, Date: "2028-02-29", Title: "Launch", URL: "https://example.com/a"}
	if _, err := checkMilestone(ok); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name        string
		edit        func(*AddMilestoneInput)
		field, rule string
	}{
		{"NotALeapYear", func(m *AddMilestoneInput) { m.Date = "2026-02-29" }, "date", "date"},
		{"Month13", func(m *AddMilestoneInput) { m.Date = "2026-13-01" }, "date", "date"},
		{"HTTP", func(m *AddMilestoneInput) { m.URL = "http://example.com" }, "url", "https"},
		{"NoHost", func(m *AddMilestoneInput) { m.URL = "https://" }, "url", "https"},
		{"UserInfo", func(m *AddMilestoneInput) { m.URL = "https://a@example.com" }, "url", "https"},
		{"BlankTitle", func(m *AddMilestoneInput) { m.Title = " " }, "title", "required"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := ok
			c.edit(&in)
			_, err := checkMilestone(in)
			e, isErr := err.(*Error)
			if !isErr || e.Fields[0].Field != c.field || e.Fields[0].Rule != c.rule {
				t.Fatalf("%v, want %s %s", err, c.field, c.rule)
			}
		})
	}
}
