//go:build e2e

package main

import (
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// What makes the configurations of BenchmarkProcesses comparable: each one
// starts new serve processes, and a configuration of several processes on
// this machine shares its cores, where a deployment gives each process a
// machine of its own (docs/scaling.md, "What the benchmark can show").

// procsPrimeFlag: every serve process answers each search and listing of the
// read loads once before the loads, as the processes of a server that has run
// for a while have (their search-page summary and result caches hold them).
// Without it only the fleet the fixture was made on (the first of each
// database) had them: the others read the summaries of a search page from
// the database in the measured window, each process for itself.
var procsPrimeFlag = flag.Bool("launchdir.procs-prime", true, "each serve process of BenchmarkProcesses answers every search and listing of the read loads once before the loads (false: only the fleet the fixture was made on did)")

// procsGOMAXPROCSFlag sets GOMAXPROCS of the serve processes: "" leaves Go's
// default (the machine's cores, for each process); "share" gives each of n
// processes max(1, cores/n), the cores they share; a number sets it.
var procsGOMAXPROCSFlag = flag.String("launchdir.procs-gomaxprocs", "", `GOMAXPROCS of each serve process of BenchmarkProcesses: "" (Go's default: every core), "share" (max(1, cores / processes)) or a number`)

// procsVariantsFlag runs each PostgreSQL process count once per variant, one
// right after the other on the same database, so that they share the
// machine's conditions: "flags" is what -launchdir.procs-prime and
// -launchdir.procs-gomaxprocs say, "warm" primes with Go's GOMAXPROCS, "cold"
// does not prime, "share" primes with GOMAXPROCS share, and "cold+share" is
// both. SQLite runs once, as the first variant says.
var procsVariantsFlag = flag.String("launchdir.procs-variants", "flags", `comma-separated ways to run each PostgreSQL process count of BenchmarkProcesses, one after the other: "flags", "warm", "cold", "share", "cold+share"`)

// procsVariant is how a fleet is run: primed or not, and its GOMAXPROCS.
type procsVariant struct {
	name       string // "" for "flags"
	prime      bool
	gomaxprocs string
}

// suffix is what the variant adds to a configuration's name.
func (v procsVariant) suffix() string {
	if v.name == "" {
		return ""
	}
	return "-" + v.name
}

// procsVariants parses -launchdir.procs-variants.
func procsVariants(list string) ([]procsVariant, error) {
	var out []procsVariant
	for _, name := range strings.Split(list, ",") {
		v := procsVariant{prime: true}
		switch name = strings.TrimSpace(name); name {
		case "flags":
			v = procsVariant{prime: *procsPrimeFlag, gomaxprocs: *procsGOMAXPROCSFlag}
		case "warm":
			v.name = name
		case "cold":
			v = procsVariant{name: name}
		case "share":
			v = procsVariant{name: name, prime: true, gomaxprocs: "share"}
		case "cold+share":
			v = procsVariant{name: "cold-share", gomaxprocs: "share"}
		default:
			return nil, fmt.Errorf("-launchdir.procs-variants: unknown variant %q", name)
		}
		out = append(out, v)
	}
	return out, nil
}

// procsGOMAXPROCS is the GOMAXPROCS value each of n serve processes gets from
// a -launchdir.procs-gomaxprocs value, or "" for Go's default.
func procsGOMAXPROCS(value string, n, cores int) (string, error) {
	switch value {
	case "":
		return "", nil
	case "share":
		return strconv.Itoa(max(1, cores/n)), nil
	}
	if v, err := strconv.Atoi(value); err == nil && v > 0 {
		return value, nil
	}
	return "", fmt.Errorf(`-launchdir.procs-gomaxprocs: %q is not "", "share" or a positive number`, value)
}

// procsEnv is the environment entries a serve process of a fleet of n gets
// for the GOMAXPROCS value (none for Go's default).
func procsEnv(b *testing.B, value string, n int) []string {
	b.Helper()
	v, err := procsGOMAXPROCS(value, n, runtime.NumCPU())
	if err != nil {
		b.Fatal(err)
	}
	if v == "" {
		return nil
	}
	return []string{"GOMAXPROCS=" + v}
}

// prime makes every serve process of f answer each search and listing of
// fix once (-launchdir.procs-prime, the variants but "cold"), sent to the process itself rather than
// through the proxy, with the proxy's Host (the one the processes serve).
// Its calls are not measured.
func (f *fleet) prime(b *testing.B, fix *procsFixture) {
	b.Helper()
	var paths []string
	for _, q := range fix.queries {
		paths = append(paths, "/v1/listings?"+url.Values{"q": {q}}.Encode())
	}
	for _, s := range fix.slugs {
		paths = append(paths, "/v1/listings/"+s)
	}
	host := f.proxy.Listener.Addr().String()
	cl := procsClient()
	t0 := time.Now()
	for _, be := range f.backends {
		work := make(chan string)
		errs := make(chan error, procsClients)
		var wg sync.WaitGroup
		for range procsClients {
			wg.Go(func() {
				for p := range work {
					if err := procsGetAs(cl, be+p, host); err != nil {
						errs <- err
						for range work {
						}
						return
					}
				}
			})
		}
		for _, p := range paths {
			work <- p
		}
		close(work)
		wg.Wait()
		close(errs)
		if err := <-errs; err != nil {
			b.Fatalf("priming %s: %v\n%s", be, err, f.logTail())
		}
	}
	procs := "GOMAXPROCS Go's default"
	if f.gomaxprocs != "" {
		procs = f.gomaxprocs
	}
	b.Logf("%s: primed %d processes (%s) with %d searches and %d listings each in %.1f s",
		b.Name(), len(f.backends), procs, len(fix.queries), len(fix.slugs), time.Since(t0).Seconds())
}

// procsGetAs GETs u with the Host header host and wants a 200.
func procsGetAs(cl *http.Client, u, host string) error {
	req, err := http.NewRequest("GET", u, nil)
	if err != nil {
		return err
	}
	req.Host = host
	res, body, err := procsDo(cl, req)
	if err != nil {
		return err
	}
	if res.StatusCode != 200 {
		return fmt.Errorf("GET %s: %d: %.200s", u, res.StatusCode, body)
	}
	return nil
}

func TestProcsGOMAXPROCS(t *testing.T) {
	for _, c := range []struct {
		flag     string
		n, cores int
		want     string
		wantErr  bool
	}{
		{"", 3, 2, "", false},
		{"share", 1, 2, "2", false},
		{"share", 2, 2, "1", false},
		{"share", 3, 2, "1", false},
		{"share", 3, 8, "2", false},
		{"4", 3, 2, "4", false},
		{"0", 1, 2, "", true},
		{"half", 1, 2, "", true},
	} {
		got, err := procsGOMAXPROCS(c.flag, c.n, c.cores)
		if got != c.want || (err != nil) != c.wantErr {
			t.Errorf("procsGOMAXPROCS(%q, %d, %d) = %q, %v; want %q (error %v)", c.flag, c.n, c.cores, got, err, c.want, c.wantErr)
		}
	}
}

func TestProcsVariants(t *testing.T) {
	got, err := procsVariants("warm, cold,share,cold+share")
	if err != nil {
		t.Fatal(err)
	}
	want := []procsVariant{{"warm", true, ""}, {"cold", false, ""}, {"share", true, "share"}, {"cold-share", false, "share"}}
	if !slices.Equal(got, want) {
		t.Errorf("procsVariants = %+v, want %+v", got, want)
	}
	if _, err := procsVariants("warm,hot"); err == nil {
		t.Error(`procsVariants("warm,hot"): no error`)
	}
}
