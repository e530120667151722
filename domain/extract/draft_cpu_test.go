package extract

import (
	"regexp"
	"strings"
	"testing"
)

// The shortcuts the drafter takes for speed must answer as the patterns
// they stand in for.

func TestHasYear(t *testing.T) {
	for s, want := range map[string]bool{
		"March 2024": true, "1999": true, "2021年3月": true, "18.03.2024": true, "x2099y": true,
		"": false, "199": false, "1899 and 2100": false, "v2.0.1": false, "２０２４年": false, "20 24": false,
	} {
		if got := hasYear(s); got != want {
			t.Errorf("hasYear(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestFindDate_NoYear: findDate finds nothing where hasYear does not hold,
// and still finds each form that has one.
func TestFindDate_NoYear(t *testing.T) {
	for _, s := range []string{"March 24", "3. März", "12/03", "2021年", "tháng 8", "v1.2.3", "Jan 5, 99"} {
		if d, _, ok := findDate(s, false); ok {
			t.Errorf("findDate(%q) = %q, want none", s, d)
		}
	}
	for s, want := range map[string]string{
		"2024-03-18": "2024-03-18", "March 5, 2024": "2024-03-05", "3. März 2024": "2024-03-03", "2021年3月": "2021-03-01",
		"18.03.2024": "2024-03-18", "2025. március 4.": "2025-03-04", "tháng 8/2023": "2023-08-01", "2019 — launched": "2019-01-01",
	} {
		if d, _, ok := findDate(s, false); !ok || d != want {
			t.Errorf("findDate(%q) = %q, %v, want %q", s, d, ok, want)
		}
	}
}

func TestHasForeignHint(t *testing.T) {
	re := regexp.MustCompile(strings.Join(foreignHints, "|"))
	for _, s := range []string{"testimonial-card", "grid logos-wall", "hero", "", " ", "press-kit", "newsletter", "reviews", "cta subscribe-box", "express"} {
		if got, want := hasForeignHint(s), re.MatchString(s); got != want {
			t.Errorf("hasForeignHint(%q) = %v, the pattern says %v", s, got, want)
		}
	}
}

// TestAnyStage: anyStage matches a text exactly when one of stagePatterns
// does, each pattern keeping its own case rule.
func TestAnyStage(t *testing.T) {
	texts := []string{
		"We were acquired by Acme.", "WE WERE ACQUIRED BY ACME", "We're profitable.", "Used by more than 2,000 teams",
		"Now in open beta", "Join the waitlist", "We launched Tallybird in 2022", "we launched tallybird in 2022",
		"Ferrytask 3 is out now", "Beta features", "A calm inbox for small teams", "", "Wir sind profitabel",
		"launched publicly in March 2023", "Rejoignez la liste d'attente", "Coming soon",
	}
	matched := 0
	for _, s := range texts {
		want := false
		for _, st := range stagePatterns {
			want = want || st.re.MatchString(s)
		}
		if got := anyStage().MatchString(s); got != want {
			t.Errorf("anyStage on %q: %v, the patterns say %v", s, got, want)
		}
		if want {
			matched++
		}
	}
	if matched < 8 || matched == len(texts) {
		t.Errorf("%d of %d texts match a stage pattern: the test texts no longer try both answers", matched, len(texts))
	}
}
