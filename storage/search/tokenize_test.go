package search

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTokens(t *testing.T) {
	tests := []struct {
		in    string
		query bool
		want  []string // primary tokens plain, derived ones with a "+" prefix
	}{
		{"Note-taking App", false, []string{"note", "taking", "+notetaking", "app"}},
		{"NoteFlow AI", false, []string{"+note", "+flow", "noteflow", "ai"}},
		{"Café crème, naïve ÆON straße", false, []string{"cafe", "creme", "naive", "aeon", "strasse"}},
		{"e\u0301clair", false, []string{"eclair"}},
		{"don't stop - now", false, []string{"don", "t", "+dont", "stop", "now"}},
		{"example.com/path", false, []string{"example", "com", "+examplecom", "path"}},
		{"  !!  ", false, nil},
		{"note-taking app", true, []string{"notetaking[note taking]", "app"}},
		{"NoteFlow", true, []string{"noteflow"}},
		{"v2 2024", false, []string{"v2", "2024"}},
		{"Привет Мир", false, []string{"привет", "мир"}},
	}
	var tk tokenizer
	for _, tt := range tests {
		var got []string
		for _, tok := range tk.tokens(tt.in, tt.query) {
			s := tok.text
			if !tok.primary {
				s = "+" + s
			}
			if tok.parts != nil {
				s += "["
				for i, p := range tok.parts {
					if i > 0 {
						s += " "
					}
					s += p
				}
				s += "]"
			}
			got = append(got, s)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("tokens(%q, %v) (-want +got):\n%s", tt.in, tt.query, diff)
		}
	}
}

func TestWithin1(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"notetaking", "notetakng", true}, // deletion
		{"app", "apps", true},             // insertion
		{"search", "saerch", true},        // transposition
		{"search", "seerch", true},        // substitution
		{"search", "search", true},
		{"search", "sarech", false},
		{"search", "seaarchh", false},
		{"abc", "cba", false},
		{"café", "cafè", true},
		{"naïve", "naive", true},
		{"aa", "aaa", true},
		{"ab", "ba", true},
		{"abcd", "badc", false},
	}
	for _, tt := range tests {
		if got := within1(tt.a, tt.b); got != tt.want {
			t.Errorf("within1(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if got := within1(tt.b, tt.a); got != tt.want {
			t.Errorf("within1(%q, %q) = %v, want %v", tt.b, tt.a, got, tt.want)
		}
	}
}
