package search

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

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

// TestTypoCandidates_Complete checks that a query word finds every term one
// edit away (by the rules of expand; and its stems, isStem: 3-rune words by substitution or swap
// only) and no other, against a scan of the vocabulary, for every edit at
// every position of short, long and multi-byte words, and for terms added
// one by one as well as by a bulk load.
func TestTypoCandidates_Complete(t *testing.T) {
	t.Parallel()
	words := []string{"app", "apt", "pap", "data", "date", "dada", "team", "tame", "meat",
		"notetaking", "notetakng", "productivity", "café", "cafe", "naïve", "größe", "grösse",
		"日本語", "日本人", "本日語", "ab", "abc", "acb", "bac", "abcd", "abdc", "badc", "abcde", "abcdef",
		"abcdfe", "abdcef", "acbdef", "xyzzy", "xyzyz", "1234", "12345", "a1b2", "kalomi", "kalmoi"}
	c := newCorpus(3)
	for i := range 60 {
		words = append(words, c.vocab[(i*67)%len(c.vocab)])
	}
	alphabet := "aeé日"
	var queries []string
	for _, w := range words {
		r := []rune(w)
		for i := 0; i <= len(r); i++ {
			for _, a := range alphabet {
				queries = append(queries, string(slices.Insert(slices.Clone(r), i, a)))
				if i < len(r) {
					x := slices.Clone(r)
					x[i] = a
					queries = append(queries, string(x))
				}
			}
			if i < len(r) {
				queries = append(queries, string(slices.Delete(slices.Clone(r), i, i+1)))
			}
			if i+1 < len(r) {
				x := slices.Clone(r)
				x[i], x[i+1] = x[i+1], x[i]
				queries = append(queries, string(x))
			}
		}
	}
	one, bulk := New(), New()
	docs := make(chan Doc, len(words))
	for i, w := range words {
		d := mk(int64(i), w, "", "")
		one.Upsert(d)
		docs <- d
	}
	close(docs)
	bulk.UpsertAll(docs, 2)
	for name, ix := range map[string]*Index{"one by one": one, "bulk": bulk} {
		v := &ix.voc
		s := &scratch{}
		for _, q := range queries {
			toks := s.tok.tokens(q, true)
			if len(toks) != 1 || toks[0].text != q {
				continue // not a single folded word
			}
			s.words, s.terms = s.words[:0], s.terms[:0]
			ix.expand(s, q, false, float64(ix.live))
			var got, want []string
			for _, qt := range s.terms {
				got = append(got, v.term(qt.id))
			}
			runes := utf8.RuneCountInString(q)
			stems := queryStems(q) // once per query, not per term (the scan is the test's cost)
			for id := range uint32(v.size()) {
				term := v.term(id)
				typo := runes >= 3 && strings.Trim(q, "0123456789") != "" &&
					(runes >= 4 || utf8.RuneCountInString(term) == runes) && within1(q, term)
				if term == q || typo || slices.Contains(stems, term) {
					want = append(want, term)
				}
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("%s: %q matches %q, want %q", name, q, got, want)
			}
		}
	}
}

// queryStems are query word w's stems in the drafting languages (those
// other than w), which expand also matches.
func queryStems(w string) []string {
	var st stemmer
	var out []string
	for l := range numLangs {
		if t := st.stem(w, l); t != w {
			out = append(out, t)
		}
	}
	return out
}

// isStem reports whether term is query word w's stem in one of the drafting
// languages, which expand also matches.
func isStem(w, term string) bool { return slices.Contains(queryStems(w), term) }
