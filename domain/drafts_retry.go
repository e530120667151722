package domain

import (
	"strings"
	"sync"
)

// Concurrent writes of one draft. A draft has a version, and DraftStore.
// UpdateDraft writes only over the version it read (ErrStale otherwise); a
// write based on a stale read is re-applied to a fresh read of the draft
// (docs/drafts.md). Within one process the read-modify-writes of one draft
// also take lockDraft, so they follow one another: a re-read under the lock
// is fresh unless another process (a second replica) wrote in between, and
// draftWriteAttempts bounds that case.

// draftWriteAttempts is how often one edit is re-applied to a fresh read
// before it gives up with ErrStale (409).
const draftWriteAttempts = 10

// draftLocks holds a mutex per draft id while someone uses it.
var draftLocks = struct {
	sync.Mutex
	m map[string]*draftLock
}{m: map[string]*draftLock{}}

type draftLock struct {
	sync.Mutex
	users int
}

// lockDraft serialises the read-modify-writes of draft id in this process;
// call the function it returns to unlock.
func lockDraft(id string) (unlock func()) {
	id = strings.ToLower(id)
	draftLocks.Lock()
	l := draftLocks.m[id]
	if l == nil {
		l = &draftLock{}
		draftLocks.m[id] = l
	}
	l.users++
	draftLocks.Unlock()
	l.Lock()
	return func() {
		l.Unlock()
		draftLocks.Lock()
		if l.users--; l.users == 0 {
			delete(draftLocks.m, id)
		}
		draftLocks.Unlock()
	}
}
