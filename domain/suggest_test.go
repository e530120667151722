package domain

import "testing"

// TestSlugClose: a guessed slug is close to a listing's when it is within
// one edit (two from eight letters) or one begins with the other (five
// letters or more); short and unrelated words are not.
func TestSlugClose(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"studyloop", "studyloop", true},
		{"regreso", "regresso", true},       // one deletion
		{"backloger", "backlogger", true},   // one deletion
		{"backlggr", "backlogger", true},    // two edits, eight letters
		{"bcklggr", "backlogger", false},    // three edits
		{"studyloopapp", "studyloop", true}, // a name with a word after it
		{"leaflet", "leafletnotes", true},
		{"note", "notesapp", false}, // a prefix under five letters
		{"notesapp", "leafletnotes", false},
		{"app", "apt", false}, // one edit, but under four letters
		{"ab", "ac", false},   // too short to guess from
		{"nosuchlistinghere", "chronobar", false},
	} {
		if got := slugClose(c.a, c.b); got != c.want {
			t.Errorf("slugClose(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
