package main

import (
	"encoding/base64"
	"encoding/hex"
	"flag"
	"fmt"
	"log/slog"
	"strings"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/webhooksend"
)

// webhookConfig is the webhooks' part of serve (docs/webhooks.md).
type webhookConfig struct {
	key string
}

func webhookFlags(fs *flag.FlagSet, c *webhookConfig) {
	fs.StringVar(&c.key, "webhook-key", "",
		"server key that encrypts webhook signing secrets at rest: 32 bytes as 64 hex characters or base64 (prefer env LAUNCHDIR_WEBHOOK_KEY: flags show in ps); empty: secrets are stored as they are")
}

// parseWebhookKey reads a 32-byte key written as hex or base64.
func parseWebhookKey(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	if b, err := hex.DecodeString(s); err == nil && len(b) == 32 {
		return b, nil
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil && len(b) == 32 {
			return b, nil
		}
	}
	return nil, fmt.Errorf("--webhook-key (env LAUNCHDIR_WEBHOOK_KEY) must be 32 bytes written as 64 hex characters or base64, e.g. the output of: openssl rand -hex 32")
}

// newWebhooking wires the webhooks: the sender with the crawler's address
// rules (loopback only with --fetch-allow-loopback), the server key, the
// owner's mail and the job runner's wake-up.
func newWebhooking(c *webhookConfig, allowLoopback bool, mailer domain.Mailer, runner *domain.Runner, logger *slog.Logger) (*domain.Webhooking, error) {
	key := c.key
	if key == "" {
		key = env("LAUNCHDIR_WEBHOOK_KEY", "")
	}
	h := &domain.Webhooking{Sender: webhooksend.New(webhooksend.Options{AllowLoopback: allowLoopback}), Mailer: mailer, Wake: runner.Wake}
	if key == "" {
		logger.Warn("no --webhook-key (LAUNCHDIR_WEBHOOK_KEY): webhook signing secrets are stored unencrypted; set a key in production (docs/webhooks.md)")
		return h, nil
	}
	b, err := parseWebhookKey(key)
	if err != nil {
		return nil, err
	}
	h.Key = b
	return h, nil
}
