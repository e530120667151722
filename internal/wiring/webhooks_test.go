package wiring

import "testing"

// TestParseWebhookKey: 32 bytes as hex or base64 are accepted; anything else is an error.
func TestParseWebhookKey(t *testing.T) {
	for _, ok := range []string{"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="} {
		if b, err := ParseWebhookKey(ok); err != nil || len(b) != 32 || b[31] != 31 {
			t.Errorf("%s: %v %v", ok, b, err)
		}
	}
	for _, bad := range []string{"short", "000102030405060708090a0b0c0d0e0f", "zz0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"} {
		if _, err := ParseWebhookKey(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}
