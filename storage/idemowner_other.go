//go:build !unix

package storage

// processGone cannot tell here: a claim of another process is taken to be
// live until domain.IdemLease.
func processGone(int) bool { return false }
