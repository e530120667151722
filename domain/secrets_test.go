package domain_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// TestSecrets: the shapes the stores and the links rely on: a version 4
// UUID in lower case, a 43-character base64url secret after its prefix,
// hex of the length asked, and no repeats.
func TestSecrets(t *testing.T) {
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	secret := regexp.MustCompile(`^ld_at_[A-Za-z0-9_-]{43}$`)
	seen := map[string]bool{}
	for range 1000 {
		u, s, h := domain.NewUUID(), domain.NewSecret("ld_at_"), domain.RandomHex(16)
		if !uuid.MatchString(u) || !secret.MatchString(s) || len(h) != 32 || strings.Trim(h, "0123456789abcdef") != "" {
			t.Fatalf("NewUUID %q, NewSecret %q, RandomHex(16) %q", u, s, h)
		}
		for _, v := range []string{u, s, h} {
			if seen[v] {
				t.Fatalf("%q made twice", v)
			}
			seen[v] = true
		}
	}
	if got := domain.SecretHash("abc"); got != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Errorf("SecretHash(abc) = %s, want its SHA-256", got)
	}
}
