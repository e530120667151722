package storage

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// TestIdemStore_ClaimOfGoneProcess: a pending claim whose
// process on this host has exited (or whose process id now belongs to a
// process started at another time) is abandoned at once: Begin claims the
// key afresh. A claim of a live process, or of another host, still holds
// its key until domain.IdemLease.
func TestIdemStore_ClaimOfGoneProcess(t *testing.T) {
	if procStart(os.Getpid()) == "" {
		t.Skip("no /proc here: the process start time cannot be read")
	}
	e := newIdemEnv(t)
	ctx := context.Background()
	child := exec.Command("true")
	if err := child.Run(); err != nil {
		t.Skip("cannot start a child process:", err)
	}
	deadPID := strconv.Itoa(child.Process.Pid)
	parent := os.Getppid()
	for _, c := range []struct {
		name, claim string
		gone        bool
	}{
		{"exited process", idemHost + "|" + deadPID + "|12345|abc|r", true},
		{"reused process id", idemHost + "|" + strconv.Itoa(parent) + "|1|abc|r", true},
		{"live process", idemHost + "|" + strconv.Itoa(parent) + "|" + procStart(parent) + "|abc|r", false},
		{"another host", "other-host|" + deadPID + "|12345|abc|r", false},
		{"older token", "0123456789abcdef0123456789abcdef", false},
	} {
		key := "k-" + c.name
		if _, err := e.db.sql.Exec(`INSERT INTO idempotency_keys (user_id, key, op, fingerprint, state, claim, status, body, created_at, expires_at)
			VALUES (?, ?, 'op', 'fp', 'pending', ?, 0, NULL, ?, ?)`, e.alice, key, c.claim, idemNow.Unix(), idemNow.Add(domain.IdemTTL).Unix()); err != nil {
			t.Fatal(err)
		}
		rec, err := e.s.Begin(ctx, e.alice, key, "op", "fp", idemNow.Add(1))
		if c.gone {
			if err != nil || rec.State != domain.IdemPending || rec.Claim == c.claim {
				t.Errorf("%s: %v %+v, want a fresh claim", c.name, err, rec)
			}
		} else if !errors.Is(err, domain.ErrIdemInProgress) {
			t.Errorf("%s: %v, want in progress", c.name, err)
		}
	}
}
