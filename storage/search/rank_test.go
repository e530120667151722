package search

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSearch_MatchingStrategy checks issue 30 item 1: listings matching
// every word come first, then those matching the most and the rarest words;
// a generic word ("app", "for") neither excludes nor includes a listing on
// its own; total counts every listing matching a non-generic word.
func TestSearch_MatchingStrategy(t *testing.T) {
	t.Parallel()
	ix := fixture()
	tests := []struct {
		name, q string
		want    []string
		total   int
	}{
		{"AllWordsFirst", "app track", []string{"s3", "s2"}, 2},
		{"AllWordsFirstThenOthers", "track invoices", []string{"s2", "s3"}, 2},
		{"NoListingHasAll", "invoices figma", []string{"s2", "s4"}, 2}, // "invoices" also reaches the tagline's "Invoicing"
		{"WordUnknown", "whiteboard qqqzzz", []string{"s4"}, 1},
		{"MoreWordsThenRarerWords", "track payments whiteboard", []string{"s2", "s4", "s3"}, 3},
		{"GenericWordDoesNotExclude", "time tracking app", []string{"s3", "s2"}, 2}, // s2: "track payments"
		{"GenericWordDoesNotInclude", "invoicing app", []string{"s2"}, 1},
		{"GenericWordAddsItsBM25Only", "email for teams", []string{"s6", "s1"}, 2}, // s6 has "email" twice
		{"OnlyGenericWords", "app", []string{"s1", "s3"}, 2},
		{"NothingAtAll", "qqqzzz", []string{}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, total := search(ix, Query{Text: tt.q})
			if diff := cmp.Diff(tt.want, got); diff != "" || total != tt.total {
				t.Errorf("Search(%q): total %d, want %d (-want +got):\n%s", tt.q, total, tt.total, diff)
			}
		})
	}
	// A page shorter than the listings matching every word: the rest are
	// not looked at, and the page is the same as a longer page's start.
	long, _ := search(ix, Query{Text: "track payments whiteboard", Limit: 3})
	short, _ := search(ix, Query{Text: "track payments whiteboard", Limit: 1})
	if !cmp.Equal(long[:1], short) {
		t.Errorf("page of 1 %v, page of 3 starts %v", short, long[:1])
	}
}

// TestSearch_WordForms checks issue 30 item 2: a word matches its other
// forms through its stem (in English and the other drafting languages), and
// a listing's categories' names are searchable like its own words.
func TestSearch_WordForms(t *testing.T) {
	t.Parallel()
	ix := fixture()
	de := mk(7, "Rechnungsheld", "Rechnungen schreiben für Handwerker", "Die Software für Ihre Rechnungen und Angebote, mit der Sie Zeit sparen.")
	ix.Upsert(de)
	cat := mk(8, "Brightbooks", "Get paid faster", "Send quotes and get paid.")
	cat.CategoryNames = []string{"Finance", "Invoicing"}
	ix.Upsert(cat)
	sched := mk(9, "Calendo", "The scheduler for busy clinics", "Book patients in seconds.")
	ix.Upsert(sched)
	tests := []struct {
		q    string
		want []string
	}{
		{"invoice", []string{"s8", "s2"}},        // the category "Invoicing"; the tagline's "Invoicing"
		{"invoicing", []string{"s8", "s2"}},      // the category's name, then the tagline's word
		{"scheduling", []string{"s9"}},           // "scheduler"
		{"rechnung", []string{"s7", "s8", "s2"}}, // German "Rechnungen", then "invoicing" (glossary.go)
		{"finance", []string{"s8"}},              // a parent category's name
	}
	for _, tt := range tests {
		got, _ := search(ix, Query{Text: tt.q})
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Search(%q) (-want +got):\n%s", tt.q, diff)
		}
	}
}

// TestSearchHits_Matched checks that each hit names the query words it
// matched, in query order, by any form (stem, typo, prefix).
func TestSearchHits_Matched(t *testing.T) {
	t.Parallel()
	ix := fixture()
	hits, total := ix.SearchHits(Query{Text: "tracking invoice paymnts app"})
	want := []Hit{
		{ID: 2, Matched: []string{"tracking", "invoice", "paymnts"}},
		{ID: 3, Matched: []string{"tracking", "app"}},
	}
	if diff := cmp.Diff(want, hits); diff != "" || total != 2 {
		t.Errorf("SearchHits: total %d (-want +got):\n%s", total, diff)
	}
	// The page's matched words share one array: appending to one hit's
	// must not change the next one's.
	_ = append(hits[0].Matched, "x")
	if diff := cmp.Diff(want, hits); diff != "" {
		t.Errorf("SearchHits after appending to the first hit's words (-want +got):\n%s", diff)
	}
	browse, _ := ix.SearchHits(Query{Limit: 1})
	if len(browse) != 1 || browse[0].Matched != nil {
		t.Errorf("a query without words: %+v, want no matched words", browse)
	}
}

// TestSearch_GenericLastWord checks that a generic last word beside other
// words matches as written and by its forms, not as a prefix: "email with"
// does not match "without" (its BM25 would only reorder the page), while
// "with" alone, a query of generic words only, still completes.
func TestSearch_GenericLastWord(t *testing.T) {
	t.Parallel()
	ix := fixture()
	hits, total := ix.SearchHits(Query{Text: "email with"})
	if want := []Hit{{ID: 6, Matched: []string{"email"}}}; !cmp.Equal(want, hits) || total != 1 {
		t.Errorf("email with: total %d, %+v; want 1, %+v", total, hits, want)
	}
	hits, _ = ix.SearchHits(Query{Text: "with"})
	if !slices.ContainsFunc(hits, func(h Hit) bool { return h.ID == 6 }) {
		t.Errorf("with: %+v, want listing 6 (\"without\") among them", hits)
	}
}

// TestSearch_OtherLanguages checks the glossary (glossary.go): a directory
// term of another drafting language brings its English words into the
// query, inflected and in compounds; an English word that merely starts
// like a key ("temporary", "talent") brings nothing.
func TestSearch_OtherLanguages(t *testing.T) {
	t.Parallel()
	ix := fixture()
	for _, tt := range []struct {
		q    string
		want []string
	}{
		{"logiciel de facturation", []string{"s2"}},  // French
		{"Rechnungen", []string{"s2"}},               // German, inflected
		{"Zeiterfassung App", []string{"s3", "s2"}},  // German compound; s2 tracks payments
		{"app per prendere appunti", []string{"s1"}}, // Italian
		{"temporary", []string{}},
		{"talent", []string{}},
	} {
		got, _ := search(ix, Query{Text: tt.q})
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Search(%q) (-want +got):\n%s", tt.q, diff)
		}
	}
}

// TestSearch_CompoundsAndStemTypos checks the two last kinds of zero-result
// queries of issue 30: a closed compound no listing writes joined
// ("helpdesk", "videoediting") matches its two parts, and a typo in an
// inflected form ("invoise": no term is one edit away) matches through the
// word's stem ("invois", one edit from "invoic", the stem of "invoices").
// Neither fallback runs when the word matches as it is.
func TestSearch_CompoundsAndStemTypos(t *testing.T) {
	t.Parallel()
	ix := fixture()
	desk := mk(7, "Deskly", "A shared inbox", "Answer customers from one place.")
	desk.CategoryNames = []string{"Help Desk"}
	ix.Upsert(desk)
	ix.Upsert(mk(8, "Cutroom", "Video editing in the browser", "Trim and export clips."))
	ix.Upsert(mk(9, "Joinly", "The helpdesk for small shops", "Tickets by email.")) // only later
	check := func(q string, want []string, total int) {
		t.Helper()
		got, n := search(ix, Query{Text: q})
		if diff := cmp.Diff(want, got); diff != "" || n != total {
			t.Errorf("Search(%q): total %d, want %d (-want +got):\n%s", q, n, total, diff)
		}
	}
	check("videoediting", []string{"s8"}, 1)  // "video" "editing"
	check("video editing", []string{"s8"}, 1) // as written
	check("invoise app", []string{"s2"}, 1)   // s2: "Invoicing for freelancers", "Send invoices"
	check("invoise", []string{"s2"}, 1)       // without a generic word
	check("helpdesk", []string{"s9"}, 1)      // written joined by s9: matched as it is, not split
	ix.Delete(9)
	for range 300 { // churn until a compaction drops the tombstoned "helpdesk"
		ix.Upsert(mk(10, "Other", "Nothing", "Nothing."))
	}
	check("helpdesk", []string{"s7"}, 1) // "help" is generic: "desk" finds the Help Desk category's listing
	check("emails", []string{"s6"}, 1)   // a plain typo match ("email"): no stem typos
}
