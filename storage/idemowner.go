package storage

import (
	"bytes"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
)

// The owner of a pending idempotency claim. A claim token
// is "host|pid|start|store|random": the host name, the process id and its
// start time (Linux: field 22 of /proc/<pid>/stat, in clock ticks since
// boot; "" elsewhere), and the IdemStore that took it. When Begin meets a
// pending claim it can tell whether the claim's call can still finish:
//
//   - a claim of a store of this process is gone when that store's database
//     was closed (a test's "process" that stopped);
//   - a claim of another process on this host is gone when no process has
//     that id any more, or the process with that id started at another time
//     (the id was reused, as pid 1 is by a restarted container);
//   - a claim of another host, or a token of another form, is taken to be
//     live until domain.IdemLease, as before: nothing here can tell.
//
// So the retry of a request whose process was killed goes through as soon as
// the service is back on the same host, instead of answering 409 for up to
// IdemLease.

var (
	idemHost  = url.QueryEscape(hostName())
	idemPID   = os.Getpid()
	idemStart = procStart(idemPID)
	// idemStores are this process's IdemStores, by instance: the database
	// each uses (its claims are gone once it is closed).
	idemStores sync.Map
)

func hostName() string {
	h, err := os.Hostname()
	if err != nil {
		return ""
	}
	return h
}

// procStart is the start time of process pid as /proc reports it (Linux),
// or "" when it cannot be read (no such process, or no /proc).
func procStart(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	// The command name (field 2) is in parentheses and may hold spaces.
	if i := bytes.LastIndexByte(b, ')'); i >= 0 {
		b = b[i+1:]
	}
	f := strings.Fields(string(b))
	if len(f) < 20 { // field 22 is the 20th after the name
		return ""
	}
	return f[19]
}

// idemOwnerPrefix is the owner part of the claim tokens of the store inst.
func idemOwnerPrefix(inst string) string {
	return idemHost + "|" + strconv.Itoa(idemPID) + "|" + idemStart + "|" + inst + "|"
}

// idemOwnerGone says whether the call that holds claim can no longer finish
// (see above); false when that cannot be told.
func idemOwnerGone(claim string) bool {
	f := strings.Split(claim, "|")
	if len(f) != 5 || f[0] != idemHost || idemHost == "" {
		return false
	}
	pid, err := strconv.Atoi(f[1])
	if err != nil || pid <= 0 {
		return false
	}
	start, inst := f[2], f[3]
	if pid == idemPID && start == idemStart {
		v, ok := idemStores.Load(inst)
		if !ok {
			return false // not a store of this process: cannot tell
		}
		return v.(*DB).closed.Load()
	}
	if start != "" {
		if now := procStart(pid); now != "" {
			return now != start // another process got the id
		}
		if _, err := os.Stat("/proc/self/stat"); err == nil {
			return true // /proc works and has no such process
		}
	}
	return processGone(pid) // no /proc: ask the kernel
}
