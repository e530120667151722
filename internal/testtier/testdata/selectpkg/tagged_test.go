//go:build e2e

package selectpkg

import "testing"

func TestTagged(t *testing.T) {}

func BenchmarkTagged(b *testing.B) {}

func helperTagged() {}
