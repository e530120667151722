package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServe_MalformedEnv starts serve with one malformed environment value at
// a time: each is refused at start, naming the variable and what it expects,
// before the data directory is touched. They used to fall back to their
// defaults silently.
func TestServe_MalformedEnv(t *testing.T) {
	for _, tc := range []struct{ name, value, want string }{
		{"LAUNCHDIR_RATE_LIMIT", "fast", "a number"},
		{"LAUNCHDIR_RATE_BURST", "40.5", "a whole number"},
		{"LAUNCHDIR_RATE_FAILURES", "twenty", "a whole number"},
		{"LAUNCHDIR_RATE_OAUTH", "60/min", "a whole number"},
		{"LAUNCHDIR_RATE_MCP", "lots", "a whole number"},
		{"LAUNCHDIR_RATE_PAGES", "1e3x", "a whole number"},
		{"LAUNCHDIR_JOB_WORKERS", "two", "a whole number"},
		{"LAUNCHDIR_JOB_LEASE", "30", "a duration"},
		{"LAUNCHDIR_VOTE_MIN_ACCOUNT_AGE", "1 day", "a duration"},
		{"LAUNCHDIR_VOTE_MIN_ACCOUNT_AGE", "-1h", "0 or more"},
		{"LAUNCHDIR_SMTP_PORT", "smtp", "a whole number"},
		{"LAUNCHDIR_DEMO", "yes please", "true or false"},
		{"LAUNCHDIR_VIES", "on", "true or false"},
		{"LAUNCHDIR_FETCH_ALLOW_LOOPBACK", "maybe", "true or false"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(tc.name, tc.value)
			data := filepath.Join(t.TempDir(), "data")
			err := run(context.Background(), time.Now, []string{"serve", "--addr", "127.0.0.1:0", "--data", data}, io.Discard, io.Discard)
			if err == nil {
				t.Fatalf("serve with %s=%q started, want an error at start", tc.name, tc.value)
			}
			if msg := err.Error(); !strings.Contains(msg, tc.name) || !strings.Contains(msg, tc.want) {
				t.Errorf("serve with %s=%q: error %q, want it to name %s and say it wants %s", tc.name, tc.value, msg, tc.name, tc.want)
			}
			if _, err := os.Stat(data); !os.IsNotExist(err) {
				t.Errorf("serve with %s=%q touched the data directory before refusing (stat: %v)", tc.name, tc.value, err)
			}
		})
	}
}

// TestMigrate_EnvApplied checks that a well-formed variable still sets its
// flag through the same path, and the command line wins over it.
func TestMigrate_EnvApplied(t *testing.T) {
	fromEnv, fromFlag := t.TempDir(), t.TempDir()
	t.Setenv("LAUNCHDIR_DATA", fromEnv)
	var out strings.Builder
	if err := run(context.Background(), time.Now, []string{"migrate"}, &out, io.Discard); err != nil || !strings.Contains(out.String(), fromEnv) {
		t.Errorf("migrate with LAUNCHDIR_DATA: err=%v out=%q, want %s", err, out.String(), fromEnv)
	}
	out.Reset()
	if err := run(context.Background(), time.Now, []string{"migrate", "--data", fromFlag}, &out, io.Discard); err != nil || !strings.Contains(out.String(), fromFlag) {
		t.Errorf("migrate --data with LAUNCHDIR_DATA set: err=%v out=%q, want %s", err, out.String(), fromFlag)
	}
}
