package wiring

import (
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strings"
)

// ParseWebhookKey reads the webhook server key: 32 bytes written as hex or
// base64 (docs/webhooks.md).
func ParseWebhookKey(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	if b, err := hex.DecodeString(s); err == nil && len(b) == 32 {
		return b, nil
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil && len(b) == 32 {
			return b, nil
		}
	}
	return nil, errors.New("not 32 bytes as hex or base64")
}
