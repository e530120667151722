package extract_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/extract"
)

// evaluationSetLoaders are every committed evaluation set (a folder of
// testdata), by name, in the order the summary prints them.
var evaluationSetLoaders = []struct {
	name string
	load func(testing.TB) []testSite
}{
	{"unseen", loadUnseen}, {"dev51", loadDev51}, {"dev50", loadDev50}, {"dev49", loadDev49}, {"dev48", loadDev48}, {"dev47", loadDev47}, {"dev46", loadDev46},
	{"dev45", loadDev45}, {"dev44", loadDev44}, {"dev43", loadDev43}, {"dev42", loadDev42}, {"dev41", loadDev41},
	{"dev40", loadDev40}, {"dev39", loadDev39}, {"dev38", loadDev38}, {"dev37", loadDev37}, {"dev36", loadDev36},
	{"dev35", loadDev35}, {"dev34", loadDev34}, {"dev33", loadDev33}, {"dev32", loadDev32}, {"dev31", loadDev31},
	{"sites", loadSites}, {"dev", loadDev}, {"heldout", loadHeldout},
}

// evaluationSets reads every committed evaluation set.
func evaluationSets(t testing.TB) []namedSet {
	out := make([]namedSet, 0, len(evaluationSetLoaders))
	for _, l := range evaluationSetLoaders {
		out = append(out, namedSet{l.name, l.load(t)})
	}
	return out
}

// TestEvaluationSets_EveryFolder: every folder of testdata is an evaluation
// set in evaluationSetLoaders, so the summary, the draft dump and the draft
// benchmark read all of them.
func TestEvaluationSets_EveryFolder(t *testing.T) {
	entries, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, l := range evaluationSetLoaders {
		listed[l.name] = true
	}
	for _, e := range entries {
		if e.IsDir() && !listed[e.Name()] {
			t.Errorf("testdata/%s is not in evaluationSetLoaders", e.Name())
		}
	}
}

type namedSet struct {
	name  string
	sites []testSite
}

// crawledSite is a site of a set read once, ready to be drafted many times.
type crawledSite struct {
	set, name string
	req       domain.DraftRequest
	origin    string // the origin the crawl was served from ("" for files)
}

// crawlAll reads every site of every evaluation set with c (the sites
// robots.txt forbids give no crawl and are left out).
func crawlAll(t testing.TB, c crawler) []crawledSite {
	t.Helper()
	cats := loadCategories(t)
	var out []crawledSite
	for _, set := range evaluationSets(t) {
		for _, ts := range set.sites {
			if ts.truth.RobotsForbidden {
				continue
			}
			crawl, err := c.read(t, ts)
			if err != nil {
				t.Fatalf("%s/%s: crawl: %v", set.name, ts.name, err)
			}
			origin := ""
			if c.robots { // served on loopback: the origin is the test server's
				origin = strings.TrimSuffix(crawl.URL, "/")
			}
			out = append(out, crawledSite{set: set.name, name: ts.name, origin: origin,
				req: domain.DraftRequest{Site: crawl, Categories: cats.Categories, Stages: cats.Stages}})
		}
	}
	return out
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkDraft drafts every site of every evaluation set, crawled once
// the way the evaluations crawl them (served on loopback, read by the real
// fetcher), and reports the CPU time and allocations per draft:
// go test ./domain/extract -run '^$' -bench BenchmarkDraft$ -benchmem -benchtime 3x
func BenchmarkDraft(b *testing.B) {
	sites := crawlAll(b, fetched)
	d := extract.New()
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	for b.Loop() {
		for _, s := range sites {
			if _, err := d.Draft(context.Background(), s.req); err != nil {
				b.Fatal(err)
			}
		}
	}
	drafts := float64(b.N * len(sites))
	b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/1000/drafts, "cpu-ms/draft")
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/drafts, "ms/draft")
	b.ReportMetric(float64(len(sites)), "sites")
}

// TestDraftDump writes every evaluation site's full draft, as JSON, under
// the directory LAUNCHDIR_DRAFT_DUMP names: files/<set>/<site>.json from
// all the site's files and fetched/<set>/<site>.json from the crawl the
// evaluations use (its loopback origin written as {origin}). Two dumps, one
// before and one after a change meant to keep the output, must be equal:
// LAUNCHDIR_DRAFT_DUMP=/tmp/before go test ./domain/extract -run TestDraftDump -count=1
// ... change ...
// LAUNCHDIR_DRAFT_DUMP=/tmp/after go test ./domain/extract -run TestDraftDump -count=1
// diff -r /tmp/before /tmp/after
func TestDraftDump(t *testing.T) {
	dir := os.Getenv("LAUNCHDIR_DRAFT_DUMP")
	if dir == "" {
		t.Skip("set LAUNCHDIR_DRAFT_DUMP to a directory to write the drafts")
	}
	d := extract.New()
	for _, c := range []struct {
		name string
		c    crawler
	}{{"files", allFiles}, {"fetched", fetched}} {
		for _, s := range crawlAll(t, c.c) {
			dr, err := d.Draft(context.Background(), s.req)
			if err != nil {
				t.Fatalf("%s/%s: draft: %v", s.set, s.name, err)
			}
			out, err := json.MarshalIndent(dr, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			if s.origin != "" {
				out = []byte(strings.ReplaceAll(string(out), s.origin, "{origin}"))
			}
			p := filepath.Join(dir, c.name, s.set, s.name+".json")
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, append(out, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
