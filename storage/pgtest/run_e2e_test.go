//go:build e2e

package pgtest

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
)

// runChildEnv makes TestRunCluster_OneForTheRun act as one test binary of
// a run: it reports the cluster and what its copy of the run's template
// holds.
const runChildEnv = "LAUNCHDIR_PGTEST_RUN_CHILD"

// TestRunCluster_OneForTheRun: two test binaries of one run (two children
// of this process, as go test's binaries are children of the go command)
// share one cluster and one build of a template. The first starts the
// cluster and builds the template (a row holding its process id); the
// second finds the cluster running after the first has ended and copies
// the first's template instead of building its own.
func TestRunCluster_OneForTheRun(t *testing.T) {
	if os.Getenv(runChildEnv) == "1" {
		runChild(t)
		return
	}
	if Skipped() {
		t.Skip("PostgreSQL tests are skipped")
	}
	t.Parallel()
	line := regexp.MustCompile(`child pid=(\d+) dir=(\S+) started=(\w+) template-pid=(\d+)`)
	var got [2][]string
	for i := range got {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRunCluster_OneForTheRun$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), runChildEnv+"=1", ShareEnv+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child %d: %v\n%s", i+1, err, out)
		}
		got[i] = line.FindStringSubmatch(string(out))
		if got[i] == nil {
			t.Fatalf("child %d printed no report:\n%s", i+1, out)
		}
		if i == 1 && !bytes.Contains(out, []byte("built by another test binary of this go test run")) {
			t.Errorf("child 2 did not say it copied the run's template:\n%s", out)
		}
	}
	first, second := got[0], got[1]
	t.Cleanup(func() {
		c, err := newCluster(t.Logf)
		if err == nil {
			c.dir = first[2]
			err = c.Stop()
		}
		if err != nil {
			t.Log(err)
		}
	})
	if first[2] != second[2] {
		t.Errorf("the children used clusters %s and %s, want one", first[2], second[2])
	}
	if first[3] != "true" || second[3] != "false" {
		t.Errorf("started: first %s, second %s; want the first to start the cluster and the second to find it running", first[3], second[3])
	}
	if first[4] != first[1] || second[4] != first[1] {
		t.Errorf("the template's row: %s in the first child's copy, %s in the second's; want the first child's pid %s in both (one build)", first[4], second[4], first[1])
	}
}

// runChild is one test binary of the run in TestRunCluster_OneForTheRun.
func runChild(t *testing.T) {
	url := DatabaseFrom(t, "pgtest.run", func(url string) error {
		db, err := sql.Open("pgx", url)
		if err != nil {
			return err
		}
		defer db.Close()
		_, err = db.Exec(`CREATE TABLE built_by AS SELECT ` + strconv.Itoa(os.Getpid()) + ` AS pid`)
		return err
	})
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var pid int
	if err := db.QueryRowContext(context.Background(), `SELECT pid FROM built_by`).Scan(&pid); err != nil {
		t.Fatal(err)
	}
	c := Shared(t)
	fmt.Printf("child pid=%d dir=%s started=%v template-pid=%d\n", os.Getpid(), c.dir, c.Started > 0, pid)
}
