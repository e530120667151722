package search

import (
	"bytes"
	"fmt"
	"testing"
)

// TestTermTable_TaggedAndWide looks up every term, and words that are no
// term, while the term table's slots carry tags, after it turns wide (an id
// above maxTagged: lowered here) and after a snapshot's table is rebuilt.
func TestTermTable_TaggedAndWide(t *testing.T) {
	t.Parallel()
	ix := New()
	ix.voc.maxTagged = 400
	check := func(ix *Index, when string) {
		t.Helper()
		v := &ix.voc
		for id := range uint32(v.size()) {
			if got, ok := v.lookupTerm(v.term(id)); !ok || got != id {
				t.Fatalf("%s: term %d %q found as %d, %v", when, id, v.term(id), got, ok)
			}
		}
		for i := range 2000 {
			if id, ok := v.lookupTerm(fmt.Sprintf("nope%dz", i)); ok {
				t.Fatalf("%s: a word that is no term found as %d %q", when, id, v.term(id))
			}
		}
	}
	sawTagged := false
	for i := range 300 {
		ix.Upsert(mk(int64(i+1), fmt.Sprintf("kalo%d mirate%d", i, i%37), fmt.Sprintf("tracks zorbi%d", i%53), ""))
		if i%25 == 0 {
			check(ix, fmt.Sprintf("after %d docs (wide %v)", i+1, ix.voc.wideIDs))
			sawTagged = sawTagged || !ix.voc.wideIDs
		}
	}
	if !sawTagged || !ix.voc.wideIDs {
		t.Fatalf("the table was never tagged (%v) or never turned wide (%v)", sawTagged, ix.voc.wideIDs)
	}
	check(ix, "wide")
	var buf bytes.Buffer
	if err := ix.WriteSnapshot(&buf); err != nil {
		t.Fatal(err)
	}
	got, err := ReadSnapshot(bytes.NewReader(buf.Bytes()), int64(buf.Len()), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.voc.wideIDs {
		t.Fatal("a loaded table of few terms is wide")
	}
	check(got, "loaded")
	got.voc.maxTagged = 10
	got.voc.rebuildIDs(len(got.voc.ids))
	if !got.voc.wideIDs {
		t.Fatal("a table rebuilt with ids above maxTagged is not wide")
	}
	check(got, "rebuilt wide")
}
