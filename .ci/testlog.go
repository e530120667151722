//go:build ignore

// testlog reads `go test -json` on stdin, keeps the whole stream in a file
// and prints what `go test` without -json prints: each package's ok line,
// and the output of every failed test, failed package and build in full.
// After the run it prints each package's seconds and the slowest top-level
// tests, so a CI log shows where a tier's time went (docs/testing.md).
//
//	go test -json ./... | go run .ci/testlog.go -o e2e.json -slowest 15
//
// It exits 1 when a test, a package or a build failed (the pipe's other
// side says so too under `set -o pipefail`).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"
)

type event struct {
	Time       time.Time
	Action     string
	Package    string
	ImportPath string // build-output and build-fail
	Test       string
	Elapsed    float64
	Output     string
}

type key struct{ pkg, test string }

type result struct {
	key
	action  string
	elapsed float64
}

func main() {
	out := flag.String("o", "", "file to keep the JSON stream in")
	slowest := flag.Int("slowest", 15, "how many of the slowest top-level tests to list")
	flag.Parse()

	var keep io.Writer = io.Discard
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(os.Stderr, "testlog:", err)
			os.Exit(2)
		}
		defer f.Close()
		keep = f
	}
	failed := run(os.Stdin, keep, os.Stdout, *slowest)
	if *out != "" {
		fmt.Printf("== the go test -json stream: %s\n", *out)
	}
	if failed {
		os.Exit(1)
	}
}

// run copies in to keep, prints the plain log and the summary to w, and
// reports whether anything failed.
func run(in io.Reader, keep, w io.Writer, slowest int) bool {
	buf := map[key][]string{} // output not printed yet, per test ("" for the package's own)
	var pkgs, tests []result
	var first, last time.Time
	failed := false
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1024*1024), 64*1024*1024)
	for sc.Scan() {
		line := sc.Text()
		fmt.Fprintln(keep, line)
		var e event
		if !strings.HasPrefix(line, "{") || json.Unmarshal([]byte(line), &e) != nil {
			fmt.Fprintln(w, line) // not an event: go's own message, print it as it is
			continue
		}
		if !e.Time.IsZero() {
			if first.IsZero() {
				first = e.Time
			}
			last = e.Time
		}
		k := key{e.Package, e.Test}
		switch e.Action {
		case "build-output":
			fmt.Fprint(w, e.Output)
		case "build-fail":
			failed = true
		case "output":
			if e.Test == "" && isSummary(e.Output) {
				fmt.Fprint(w, e.Output)
				continue
			}
			buf[k] = append(buf[k], e.Output)
		case "pass", "skip", "fail":
			if e.Action == "fail" {
				failed = true
				if e.Test == "" {
					// A package that failed outside a test (a panic, a
					// timeout): first the output of its tests that never
					// ended, the test that hung among them.
					for ok, lines := range buf {
						if ok.pkg == e.Package && ok.test != "" {
							fmt.Fprintf(w, "--- (output of %s, which did not end)\n%s", ok.test, strings.Join(lines, ""))
							delete(buf, ok)
						}
					}
				}
				fmt.Fprint(w, strings.Join(buf[k], ""))
			}
			delete(buf, k)
			r := result{k, e.Action, e.Elapsed}
			if e.Test == "" {
				pkgs = append(pkgs, r)
			} else if !strings.Contains(e.Test, "/") {
				tests = append(tests, r)
			}
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(w, "testlog: reading the stream:", err)
		failed = true
	}
	summary(w, pkgs, tests, last.Sub(first), slowest)
	return failed
}

// isSummary reports whether a package's own output line is one that go test
// prints without -json for a package that passed: its ok or "no test files"
// line. (A failed package's lines, its FAIL line among them, are printed
// when it fails.)
func isSummary(s string) bool {
	return strings.HasPrefix(s, "ok ") || strings.HasPrefix(s, "?   ")
}

// summary prints the packages by seconds and the slowest top-level tests.
func summary(w io.Writer, pkgs, tests []result, wall time.Duration, slowest int) {
	byElapsed := func(rs []result) {
		sort.SliceStable(rs, func(i, j int) bool { return rs[i].elapsed > rs[j].elapsed })
	}
	byElapsed(pkgs)
	byElapsed(tests)
	counts := map[string]int{}
	for _, t := range tests {
		counts[t.action]++
	}
	fmt.Fprintf(w, "== test time by package (seconds the test binary ran; %.0f s from the first event to the last; top-level tests: %d passed, %d failed, %d skipped):\n",
		wall.Seconds(), counts["pass"], counts["fail"], counts["skip"])
	small, smallSum := 0, 0.0
	for _, p := range pkgs {
		if p.elapsed < 1 && p.action != "fail" {
			small++
			smallSum += p.elapsed
			continue
		}
		fmt.Fprintf(w, "%8.1f s  %-4s %s\n", p.elapsed, p.action, p.pkg)
	}
	if small > 0 {
		fmt.Fprintf(w, "%8.1f s       %d packages under 1 s each\n", smallSum, small)
	}
	fmt.Fprintf(w, "== the %d slowest top-level tests (seconds from their start, or from their t.Parallel resuming, to their end):\n", min(slowest, len(tests)))
	for _, t := range tests[:min(slowest, len(tests))] {
		fmt.Fprintf(w, "%8.1f s  %-4s %s %s\n", t.elapsed, t.action, t.pkg, t.test)
	}
}
