package domain

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
)

// The one home of random ids and secrets: every token, key, link secret and
// random id of the service is made here, from crypto/rand (which never
// fails: it crashes the program rather than return weak bytes).

// NewSecret returns prefix followed by 256 random bits in base64url without
// padding (43 characters): access and refresh tokens, API keys, sessions,
// sign-in, checkout and claim links.
func NewSecret(prefix string) string {
	return prefix + base64.RawURLEncoding.EncodeToString(RandomBytes(32))
}

// SecretHash is what the store keeps of a secret sent to a person (a
// token, a key, a checkout link, an invite or claim link): its SHA-256 in
// hex, never the secret itself.
func SecretHash(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// NewUUID returns a random (version 4) UUID in its lower-case text form.
func NewUUID() string {
	b := RandomBytes(16)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b)
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// RandomHex returns n random bytes in hex (2n characters).
func RandomHex(n int) string { return hex.EncodeToString(RandomBytes(n)) }

// RandomBytes returns n random bytes.
func RandomBytes(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b) // never fails (crypto/rand, Go 1.24 and later)
	return b
}
