// Package pgtest runs a throwaway PostgreSQL cluster for tests: it finds
// Debian's PostgreSQL server binaries (installing the postgresql package
// when they are missing, the way web/browsertest installs Chromium), runs
// initdb and pg_ctl as an unprivileged user (initdb refuses root, and the
// tests run as root on CI) in a directory under the temporary directory,
// listens on a Unix socket there only, and hands out fresh databases.
//
// The test binaries of one go test run share one cluster, started on first
// use by whichever needs it first and stopped when the run's go command
// ends, and each template database is built once for the run (runCluster);
// a test binary run by hand starts at most one of its own and stops it when
// it ends. Either way its TestMain calls Main. It is for tests only.
package pgtest

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx"
	"github.com/launchdir/launchdir/internal/testtier"
)

const (
	// SkipEnv skips every PostgreSQL test when set to "1" (offline or quick
	// local work only; CI never sets it).
	SkipEnv = "LAUNCHDIR_SKIP_POSTGRES"
	// BinEnv names a directory holding initdb, pg_ctl and postgres to use
	// instead of Debian's /usr/lib/postgresql/<version>/bin.
	BinEnv = "LAUNCHDIR_POSTGRES_BIN"
	// MaxConnsEnv, when set to n > 0, makes the store test harnesses
	// (storage's openEngine, storage/fixtures) open every database with
	// storage.WithMaxConns(n): with 1, a code path that holds a connection
	// (a transaction, an open rows cursor) and asks the pool for a second
	// one waits on itself, and the test hangs where it does.
	MaxConnsEnv = "LAUNCHDIR_TEST_DB_MAX_CONNS"
	// ShareEnv chooses whether the test binaries of one run share a
	// cluster and its templates (runCluster): unset, they do when their
	// parent process is the go command (go test); "1", test binaries
	// started by the same parent process share one whatever it is; "0",
	// each test binary starts its own.
	ShareEnv = "LAUNCHDIR_POSTGRES_SHARE"
)

// MaxConns is $LAUNCHDIR_TEST_DB_MAX_CONNS as a number (0 when unset or not
// a positive number): the pool bound the store test harnesses open with.
func MaxConns() int {
	n, err := strconv.Atoi(os.Getenv(MaxConnsEnv))
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// Cluster is a running throwaway PostgreSQL cluster.
type Cluster struct {
	dir  string // owns data/, the socket and the log
	bin  string
	cred *syscall.Credential // nil: run as this user
	seq  atomic.Int64
	// ofRun: the cluster of a go test run (runCluster), shared with the
	// run's other test binaries: Main leaves it running, and templates
	// are built once for the run.
	ofRun bool

	// Timings of what it took to get here, for the test log.
	Installed time.Duration // 0 when PostgreSQL was already there
	Started   time.Duration // initdb and pg_ctl start
}

// Skipped reports whether PostgreSQL tests are skipped: in the default,
// in-process tier (they run with -tags e2e, internal/testtier) or by SkipEnv.
func Skipped() bool { return !testtier.E2E || os.Getenv(SkipEnv) == "1" }

// Start installs PostgreSQL if needed and starts a new cluster in a new
// directory under the temporary directory. logf receives progress lines.
func Start(logf func(format string, args ...any)) (*Cluster, error) {
	return StartWith(logf)
}

// StartWith is Start with server settings ("max_connections=20") given
// after the defaults, which they override: a test of what a server with
// such a setting does starts its own cluster (and stops it).
func StartWith(logf func(format string, args ...any), settings ...string) (*Cluster, error) {
	c, err := newCluster(logf)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "launchdir-pg-")
	if err != nil {
		return nil, fmt.Errorf("pgtest: %w", err)
	}
	c.dir = dir
	if err := c.own(dir); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if err := c.start(settings...); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	c.watch(os.Getpid())
	return c, nil
}

// newCluster finds (or installs) the server binaries and the user the
// cluster's files and processes belong to; it starts nothing.
func newCluster(logf func(format string, args ...any)) (*Cluster, error) {
	c := &Cluster{}
	bin, err := serverBin()
	if err != nil {
		t0 := time.Now()
		if err := install(logf); err != nil {
			return nil, err
		}
		c.Installed = time.Since(t0)
		if bin, err = serverBin(); err != nil {
			return nil, fmt.Errorf("pgtest: after installing Debian's postgresql package: %w", err)
		}
	}
	c.bin = bin
	if os.Geteuid() == 0 {
		// initdb refuses to run as root: the cluster belongs to nobody.
		u, err := user.Lookup("nobody")
		if err != nil {
			return nil, fmt.Errorf("pgtest: running as root needs the user nobody to own the cluster: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		c.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	return c, nil
}

// own gives path to the cluster's owner (when this process is root).
func (c *Cluster) own(path string) error {
	if c.cred == nil {
		return nil
	}
	if err := os.Chown(path, int(c.cred.Uid), int(c.cred.Gid)); err != nil {
		return fmt.Errorf("pgtest: %w", err)
	}
	return nil
}

// start runs initdb in c.dir and starts the server there.
func (c *Cluster) start(settings ...string) error {
	t0 := time.Now()
	if err := c.run("initdb", "-D", c.data(), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"); err != nil {
		return err
	}
	// Unix socket only (no TCP port to collide with other test processes);
	// durability is not wanted from a throwaway cluster. Nor autovacuum:
	// its launcher starts a worker in each database in turn, every
	// autovacuum_naptime divided by their number (hundreds of test
	// databases: several a second), and the stores run ANALYZE themselves
	// after a bulk load (storage's analyzeAfterLoad), as they must where
	// autovacuum lags (measured: docs/testing.md).
	opts := "-k " + c.dir + " -c listen_addresses= -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c autovacuum=off -c max_connections=400"
	for _, kv := range settings {
		opts += " -c " + kv
	}
	if err := c.run("pg_ctl", "-D", c.data(), "-l", filepath.Join(c.dir, "server.log"), "-w", "-t", "120", "-o", opts, "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(c.dir, "server.log"))
		return fmt.Errorf("%w\nserver.log:\n%s", err, log)
	}
	c.Started = time.Since(t0)
	return nil
}

// watch starts a watchdog that stops the cluster and removes its directory
// once process pid is gone: this test binary, when it ends without Stop (a
// panicking test binary skips TestMain's Stop; go test kills a binary that
// times out), or the go command of a run's cluster (runCluster). It runs as
// the cluster's owner (pg_ctl refuses root) in its own session.
func (c *Cluster) watch(pid int) {
	cmd := exec.Command("/bin/sh", "-c",
		`while [ -d "/proc/$0" ]; do sleep 1; done; "$1" -D "$2" -m immediate -w stop >/dev/null 2>&1; rm -rf "$3"`,
		strconv.Itoa(pid), filepath.Join(c.bin, "pg_ctl"), c.data(), c.dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Credential: c.cred}
	if err := cmd.Start(); err == nil {
		go cmd.Wait()
	}
}

func (c *Cluster) data() string { return filepath.Join(c.dir, "data") }

// run runs one of the server binaries as the cluster's owner.
func (c *Cluster) run(name string, args ...string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(c.bin, name), args...)
	cmd.Dir = c.dir
	cmd.Env = append(os.Environ(), "LC_ALL=C", "HOME="+c.dir)
	if c.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("pgtest: %s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return nil
}

// Stop stops the cluster and removes its directory.
func (c *Cluster) Stop() error {
	err := c.run("pg_ctl", "-D", c.data(), "-m", "immediate", "-w", "stop")
	if rerr := os.RemoveAll(c.dir); err == nil {
		err = rerr
	}
	return err
}

// stopRemoveLater stops the server and removes the cluster's directory in a
// process of its own, so the test binary ends without waiting for it. The
// directory holds every database the binary's tests made (storage's e2e
// tier makes hundreds, each a copy of a migrated database's files): removing
// it took 34 s for the 40 databases of a subset of storage's tests, and the
// whole package's binary ended 270 s after its last test, at load average
// 40-60, while go test held the package's slot (docs/testing.md). Stopping
// the server takes under a second.
func (c *Cluster) stopRemoveLater() error {
	if err := c.run("pg_ctl", "-D", c.data(), "-m", "immediate", "-w", "stop"); err != nil {
		os.RemoveAll(c.dir)
		return err
	}
	rm := exec.Command("rm", "-rf", c.dir)
	rm.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Credential: c.cred}
	if err := rm.Start(); err != nil {
		return os.RemoveAll(c.dir)
	}
	return rm.Process.Release()
}

// URL is the postgres:// URL of database name in the cluster.
func (c *Cluster) URL(name string) string {
	return "postgres://postgres@/" + name + "?host=" + c.dir + "&sslmode=disable"
}

// NewDatabase creates an empty database with a fresh name and returns its URL.
func (c *Cluster) NewDatabase(ctx context.Context) (string, error) {
	return c.copyOf(ctx, "template0")
}

// copyOf creates a database with a fresh name as a copy of template (which
// nobody may be connected to) and returns its URL. It copies the files
// (STRATEGY FILE_COPY): PostgreSQL 15's default, WAL_LOG, writes every block
// of the copy to the WAL, and took 2.4-3.3 s per copy of a migrated database
// at load average 18 against 0.14-1.4 s (the checkpoint FILE_COPY needs costs
// little with fsync off); an empty database from template0, 0.45-0.95 s
// against 0.06-0.25 s.
func (c *Cluster) copyOf(ctx context.Context, template string) (string, error) {
	admin, err := sql.Open("pgx", c.URL("postgres"))
	if err != nil {
		return "", err
	}
	defer admin.Close()
	// The process id in the name keeps the databases of a run's test
	// binaries apart in the run's cluster.
	name := "t" + strconv.Itoa(os.Getpid()) + "_" + strconv.FormatInt(c.seq.Add(1), 10)
	if _, err := admin.ExecContext(ctx, `CREATE DATABASE `+name+` TEMPLATE `+template+` STRATEGY FILE_COPY ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`); err != nil {
		return "", fmt.Errorf("pgtest: create database %s from %s: %w", name, template, err)
	}
	return c.URL(name), nil
}

// name is the database name in a URL made by URL.
func name(url string) string {
	rest := strings.TrimPrefix(url, "postgres://postgres@/")
	if i := strings.IndexByte(rest, '?'); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

var (
	templatesMu sync.Mutex
	templates   = map[string]*template{}
)

// template is a database built once per test binary and copied per test.
type template struct {
	once sync.Once
	name string
	err  error
	mu   sync.Mutex // held while a copy is made
}

// DatabaseFrom returns the URL of a fresh database holding what build put
// into the template named key. The template is built once per test binary,
// or once per go test run when the binary uses the run's cluster
// (runCluster): build gets the URL of an empty database, fills it (a seeded
// demo, say) and must close every connection to it before returning; every
// call copies it with CREATE DATABASE ... TEMPLATE, which takes a fraction
// of building it. A key names one content: every caller's build must put
// the same into it, whichever test binary of the run builds it.
func DatabaseFrom(t testing.TB, key string, build func(url string) error) string {
	t.Helper()
	c := Shared(t)
	templatesMu.Lock()
	tp := templates[key]
	if tp == nil {
		tp = &template{}
		templates[key] = tp
	}
	templatesMu.Unlock()
	tp.once.Do(func() {
		if c.ofRun {
			tp.name, tp.err = c.runTemplate(t, key, build)
			return
		}
		url, err := c.NewDatabase(context.Background())
		if err == nil {
			start := time.Now()
			err = build(url)
			t.Logf("pgtest: template %q built in %v", key, time.Since(start).Round(time.Millisecond))
		}
		tp.name, tp.err = name(url), err
	})
	if tp.err != nil {
		t.Fatalf("pgtest: template %q: %v", key, tp.err)
	}
	// Copies are made one at a time: PostgreSQL refuses a copy while another
	// session is connected to the template, and a copy in flight is one
	// (in a run's cluster, another test binary's copy too: the file lock).
	tp.mu.Lock()
	defer tp.mu.Unlock()
	if c.ofRun {
		unlock, err := lockFile(c.templateLock(tp.name))
		if err != nil {
			t.Fatal(err)
		}
		defer unlock()
	}
	url, err := c.copyOf(context.Background(), tp.name)
	if err != nil {
		t.Fatal(err)
	}
	return url
}

// runTemplate returns the name of the run's template database for key,
// building it with build when no test binary of the run has yet: under a
// file lock in the cluster's directory, so the others wait for the first
// build and then copy it. A build that failed leaves no mark, and the next
// caller builds again.
func (c *Cluster) runTemplate(t testing.TB, key string, build func(url string) error) (string, error) {
	tpl := "tpl_" + strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, strings.ToLower(key))
	unlock, err := lockFile(c.templateLock(tpl))
	if err != nil {
		return "", err
	}
	defer unlock()
	built := filepath.Join(c.dir, tpl+".built")
	if _, err := os.Stat(built); err == nil {
		t.Logf("pgtest: template %q built by another test binary of this go test run", key)
		return tpl, nil
	}
	admin, err := sql.Open("pgx", c.URL("postgres"))
	if err != nil {
		return "", err
	}
	defer admin.Close()
	ctx := context.Background()
	if _, err := admin.ExecContext(ctx, `DROP DATABASE IF EXISTS `+tpl); err != nil {
		return "", fmt.Errorf("pgtest: drop a failed build of %s: %w", tpl, err)
	}
	if _, err := admin.ExecContext(ctx, `CREATE DATABASE `+tpl+` TEMPLATE template0 STRATEGY FILE_COPY ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`); err != nil {
		return "", fmt.Errorf("pgtest: create database %s: %w", tpl, err)
	}
	start := time.Now()
	if err := build(c.URL(tpl)); err != nil {
		return "", err
	}
	t.Logf("pgtest: template %q built in %v (for this go test run)", key, time.Since(start).Round(time.Millisecond))
	return tpl, os.WriteFile(built, nil, 0o644)
}

func (c *Cluster) templateLock(tpl string) string { return filepath.Join(c.dir, tpl+".lock") }

// lockFile takes an exclusive lock on the file at path (made if missing),
// waiting for another holder, in this process or another; unlock releases it.
func lockFile(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o666)
	if err != nil {
		return nil, fmt.Errorf("pgtest: open the lock %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("pgtest: lock %s: %w", path, err)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// runKey names the go test run this test binary belongs to, "" when it
// starts a cluster of its own (ShareEnv): its parent process (go test runs
// every test binary of a run as a child of the go command, all built from
// the same source, so a template's key names the same content in each)
// and that process's start time, so a later process with the same id is
// another run. The parent process is returned too: the run's cluster lives
// until it ends.
func runKey() (key string, parent int) {
	share := os.Getenv(ShareEnv)
	if share == "0" {
		return "", 0
	}
	parent = os.Getppid()
	if share != "1" {
		comm, err := os.ReadFile("/proc/" + strconv.Itoa(parent) + "/comm")
		if err != nil || strings.TrimSpace(string(comm)) != "go" {
			return "", 0
		}
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(parent) + "/stat")
	if err != nil {
		return "", 0
	}
	// The fields after the command's closing parenthesis start at the
	// state (field 3); the start time is field 22.
	rest := string(stat)
	rest = rest[strings.LastIndexByte(rest, ')')+1:]
	fields := strings.Fields(rest)
	if len(fields) < 20 {
		return "", 0
	}
	return strconv.Itoa(parent) + "-" + fields[19], parent
}

// runCluster returns the cluster of the go test run named key, starting it
// if this is the run's first test binary to ask, or attaching to it: one
// cluster start and one build of each template for all of the run's test
// binaries instead of one per binary (docs/testing.md). It is stopped and
// its directory removed once the run's go command (parent) ends; Main
// leaves it running.
func runCluster(logf func(format string, args ...any), key string, parent int) (*Cluster, error) {
	c, err := newCluster(logf)
	if err != nil {
		return nil, err
	}
	c.ofRun = true
	c.dir = filepath.Join(os.TempDir(), "launchdir-pg-run-"+key)
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return nil, fmt.Errorf("pgtest: %w", err)
	}
	if err := c.own(c.dir); err != nil {
		return nil, err
	}
	unlock, err := lockFile(filepath.Join(c.dir, "cluster.lock"))
	if err != nil {
		return nil, err
	}
	defer unlock()
	ready := filepath.Join(c.dir, "ready")
	if _, err := os.Stat(ready); err == nil {
		return c, nil
	}
	// A start that failed left no mark: start again on a clean directory.
	if err := os.RemoveAll(c.data()); err != nil {
		return nil, fmt.Errorf("pgtest: %w", err)
	}
	// Two test binaries of the run at a time, each with its tests' pools.
	if err := c.start("max_connections=800"); err != nil {
		return nil, err
	}
	c.watch(parent)
	return c, os.WriteFile(ready, nil, 0o644)
}

var (
	sharedMu  sync.Mutex
	shared    *Cluster
	sharedErr error
)

// Shared returns the test binary's cluster, starting it on first use (or
// the go test run's, which the run's test binaries share: runKey). It
// skips t when SkipEnv is set and fails it when PostgreSQL cannot be
// installed or started. The binary's TestMain must call Main so the cluster
// is stopped.
func Shared(t testing.TB) *Cluster {
	t.Helper()
	testtier.Skip(t, "PostgreSQL")
	if Skipped() {
		t.Skipf("%s=1: PostgreSQL test skipped", SkipEnv)
	}
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if shared == nil && sharedErr == nil {
		if key, parent := runKey(); key != "" {
			shared, sharedErr = runCluster(t.Logf, key, parent)
		} else {
			shared, sharedErr = Start(t.Logf)
		}
		switch {
		case shared == nil:
		case shared.ofRun && shared.Started == 0:
			t.Logf("pgtest: the go test run's cluster %s, started by another test binary", shared.dir)
		default:
			t.Logf("pgtest: cluster %s started in %v (install %v; the go test run's: %v)", shared.dir, shared.Started.Round(time.Millisecond), shared.Installed.Round(time.Second), shared.ofRun)
		}
	}
	if sharedErr != nil {
		t.Fatalf("PostgreSQL tests need a PostgreSQL server: %v\n"+
			"Install Debian's package as root: apt-get install -y postgresql\n"+
			"(or point %s at its bin directory, or set %s=1 to skip the PostgreSQL tests)", sharedErr, BinEnv, SkipEnv)
	}
	return shared
}

// Database returns the URL of a fresh, empty database in the shared cluster.
func Database(t testing.TB) string {
	t.Helper()
	c := Shared(t)
	url, err := c.NewDatabase(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return url
}

// Main runs the tests and stops the shared cluster, if one was started and
// it is not the go test run's (the run's go command ending stops that one).
// Use it as TestMain's body: os.Exit(pgtest.Main(m)). It is testtier.Main
// (in the e2e tier only the tier's selection of the tests runs; then the
// fixtures' template files are removed) with the cluster stopped after.
func Main(m *testing.M) int {
	code := testtier.Main(m)
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if shared != nil && !shared.ofRun {
		if err := shared.stopRemoveLater(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			if code == 0 {
				code = 1
			}
		}
		shared = nil
	}
	return code
}

// serverBin finds the directory of initdb, pg_ctl and postgres: $LAUNCHDIR_POSTGRES_BIN,
// else the newest /usr/lib/postgresql/<version>/bin.
func serverBin() (string, error) {
	if d := os.Getenv(BinEnv); d != "" {
		return d, hasServer(d)
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if hasServer(d) == nil {
			return d, nil
		}
	}
	return "", fmt.Errorf("no PostgreSQL server under /usr/lib/postgresql/*/bin")
}

func version(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

func hasServer(dir string) error {
	for _, name := range []string{"initdb", "pg_ctl", "postgres"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	return nil
}

// install installs Debian's postgresql package. go test runs packages in
// parallel processes, so an exclusive lock on a file in the temporary
// directory lets one process install while the others wait and find it
// installed.
func install(logf func(string, ...any)) error {
	lockPath := filepath.Join(os.TempDir(), "launchdir-postgres-install.lock")
	logf("pgtest: PostgreSQL is missing; waiting for the install lock %s", lockPath)
	unlock, err := lockFile(lockPath)
	if err != nil {
		return err
	}
	defer unlock()
	if _, err := serverBin(); err == nil {
		logf("pgtest: another test process installed PostgreSQL")
		return nil
	}
	var prefix []string
	if os.Geteuid() != 0 {
		sudo, err := exec.LookPath("sudo")
		if err != nil {
			return fmt.Errorf("pgtest: PostgreSQL is missing and this user (uid %d) is not root and has no sudo to install it", os.Geteuid())
		}
		prefix = []string{sudo, "-n", "env", "DEBIAN_FRONTEND=noninteractive"}
	}
	// Another test process may be running apt-get at the same time (the
	// browser tests install Chromium): wait for dpkg's lock, and try again
	// while apt reports a lock held.
	apt := func(args ...string) error {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
		defer cancel()
		argv := append(append([]string{}, prefix...), append([]string{"apt-get", "-o", "DPkg::Lock::Timeout=600"}, args...)...)
		start := time.Now()
		for attempt := 1; ; attempt++ {
			logf("pgtest: running %s", strings.Join(argv, " "))
			cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
			cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
			out, err := cmd.CombinedOutput()
			if err == nil {
				break
			}
			if attempt < 20 && ctx.Err() == nil && strings.Contains(string(out), "Could not get lock") {
				time.Sleep(15 * time.Second)
				continue
			}
			return fmt.Errorf("%s: %v\n%s", strings.Join(argv, " "), err, tail(out, 40))
		}
		logf("pgtest: %s took %v", strings.Join(argv, " "), time.Since(start).Round(time.Second))
		return nil
	}
	// The package lists may be missing (a fresh image) or stale: update first.
	if err := apt("update"); err != nil {
		return err
	}
	return apt("install", "-y", "--no-install-recommends", "postgresql")
}

// tail is the last n lines of out.
func tail(out []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
