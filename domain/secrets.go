package domain

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
)

// newSecret returns 256 random bits, base64url without padding (43
// characters): checkout links and emailed claim links.
func newSecret() string {
	var b [32]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// SecretHash is what the store keeps of a secret sent to a person (a
// checkout link, an invite or claim link): its SHA-256 in hex, never the
// secret itself.
func SecretHash(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}
