package search

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// mk returns a live doc; tests name it "s<id>".
func mk(id int64, name, tagline, desc string, kw ...string) Doc {
	return Doc{
		ID: id, Name: name, Tagline: tagline, Description: desc, Keywords: kw,
		Status: "live",
	}
}

// slugs names listing ids as mk's slugs: "s<id>".
func slugs(ids []int64) []string {
	out := []string{}
	for _, id := range ids {
		out = append(out, fmt.Sprintf("s%d", id))
	}
	return out
}

// search runs q and returns the result slugs and the total.
func search(ix *Index, q Query) ([]string, int) {
	items, total := ix.Search(q)
	return slugs(items), total
}

func fixture() *Index {
	ix := New()
	docs := []Doc{
		mk(1, "NoteFlow AI", "Note-taking app for teams", "Capture meeting notes and share them with your team.", "notes", "productivity"),
		mk(2, "Ledgerly", "Invoicing for freelancers", "Send invoices, track payments and expenses in one place."),
		mk(3, "Trackwise", "Time tracking that stays out of the way", "A simple app to track billable hours, with reports."),
		mk(4, "Pixelpad", "Design mockups fast", "Collaborative whiteboard for designers; exports to Figma.", "design"),
		mk(5, "Searchable", "Site search for docs", "Typo tolerant search over your documentation pages."),
		mk(6, "Quietmail", "Email without the noise", "An email client that batches notifications."),
	}
	for _, d := range docs {
		ix.Upsert(d)
	}
	return ix
}

func TestSearch_Typos(t *testing.T) {
	t.Parallel()
	ix := fixture()
	tests := []struct {
		name, q string
		want    string
	}{
		{"Exact", "invoicing", "s2"},
		{"Deletion", "invocing", "s2"},
		{"Insertion", "invoiceing", "s2"},
		{"Substitution", "invoixing", "s2"},
		{"Transposition", "inovicing", "s2"},
		{"EveryWordATypo", "tyop tolerent serch", "s5"},
		{"CompoundTypoPhrase", "notetakng app", "s1"},
		{"HyphenatedQuery", "note-taking", "s1"},
		{"HyphenatedQueryParts", "billable-hours", "s3"},
		{"WholeName", "noteflowai", "s1"},
		{"CamelCasePart", "flow", "s1"},
		{"Accents", "Désign mockùps", "s4"},
		{"ThreeLetterSubstitution", "epp timd", "s3"}, // app, time
		{"Prefix", "pixelp", "s4"},
		{"PrefixLastWordOnly", "collab white", "s4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, total := search(ix, Query{Text: tt.q})
			if len(got) == 0 || got[0] != tt.want {
				t.Fatalf("Search(%q) = %v (total %d), want %s first", tt.q, got, total, tt.want)
			}
		})
	}
	misses := []struct{ name, q string }{
		{"TwoTypos", "invxcing"},
		{"Nonsense", "zzqxmail"},
		{"PrefixNotFirstWord", "pixelp zzzz"},
		{"ShortWordNoTypo", "xo"},
	}
	for _, tt := range misses {
		t.Run(tt.name, func(t *testing.T) {
			if got, total := search(ix, Query{Text: tt.q}); total != 0 {
				t.Fatalf("Search(%q) = %v (total %d), want nothing", tt.q, got, total)
			}
		})
	}
}

func TestSearch_ManyWords(t *testing.T) {
	t.Parallel()
	ix := fixture()
	// 20 compounds of 3 parts each, none written joined anywhere: the parts
	// would make 60 words; only the first MaxQueryWords take part.
	q := "track-invoices-fast "
	for range 19 {
		q += "zzq-yyq-xxq "
	}
	if got, total := search(ix, Query{Text: q}); total != 3 || got[0] != "s2" {
		t.Errorf("Search(%q) = %v, %d; want s2 first of 3 (OR over track, invoices, fast)", q, got, total)
	}
}

func TestSearch_ShortWords(t *testing.T) {
	t.Parallel()
	ix := New()
	ix.Upsert(mk(1, "Cat", "", ""))
	ix.Upsert(mk(2, "Cart", "", ""))
	ix.Upsert(mk(3, "Act", "", ""))
	ix.Upsert(mk(4, "Cot", "", ""))
	tests := []struct {
		q    string
		want []string
	}{
		{"cat", []string{"s1", "s3", "s4"}}, // exact, "act" a transposition, "cot" a substitution
		{"cta", []string{"s1"}},             // transposition at length 3
		{"cst", []string{"s1", "s4"}},       // substitution at length 3; "cart" is an insertion + substitution
		{"ct", []string{}},                  // no typo below 3 letters, no prefix match
		{"ca", []string{"s1", "s2"}},        // prefix of the last word
		{"crt", []string{"s1", "s4"}},       // "cart" would be an insertion: not at length 3
	}
	for _, tt := range tests {
		got, _ := search(ix, Query{Text: tt.q})
		slices.Sort(got)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Search(%q) (-want +got):\n%s", tt.q, diff)
		}
	}
}
