//go:build e2e

package pgtest

import (
	"os"
	"testing"
	"time"
)

// TestCluster_StopRemoveLater: Main's stop leaves no server running and no
// directory behind, though the directory goes in a process of its own.
func TestCluster_StopRemoveLater(t *testing.T) {
	if Skipped() {
		t.Skip("PostgreSQL tests are skipped")
	}
	t.Parallel()
	c, err := Start(t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.stopRemoveLater(); err != nil {
		t.Fatal(err)
	}
	if err := c.run("pg_ctl", "-D", c.data(), "status"); err == nil {
		t.Error("pg_ctl status: the server still runs after stopRemoveLater")
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if _, err := os.Stat(c.dir); os.IsNotExist(err) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s still there 2 minutes after stopRemoveLater", c.dir)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
