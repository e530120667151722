package app

import (
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strings"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/webhooksend"
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

// webhooking wires the webhooks: the sender with the crawler's address rules
// (loopback only with --fetch-allow-loopback), the server key, the owner's
// mail and the job runner's wake-up.
func (a *App) webhooking(mailer domain.Mailer) (*domain.Webhooking, error) {
	c := &a.Config
	h := &domain.Webhooking{Store: a.Store, Sender: webhooksend.New(webhooksend.Options{AllowLoopback: c.FetchAllowLoopback}), Mailer: mailer, Wake: a.Runner.Wake}
	if c.WebhookKey == "" {
		// A note for Start, so serve warns and the admin commands do not.
		a.notes = append(a.notes, func() {
			a.logger.Warn("no --webhook-key (LAUNCHDIR_WEBHOOK_KEY): webhook signing secrets are stored unencrypted; set a key in production (docs/webhooks.md)")
		})
		return h, nil
	}
	b, err := ParseWebhookKey(c.WebhookKey)
	if err != nil {
		return nil, errors.New("--webhook-key (env LAUNCHDIR_WEBHOOK_KEY) must be 32 bytes written as 64 hex characters or base64, e.g. the output of: openssl rand -hex 32")
	}
	h.Key = b
	return h, nil
}
