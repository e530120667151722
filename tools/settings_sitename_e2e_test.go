package tools

import (
	"context"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
)

// TestSettings_SiteNameInMail: the mail the service sends names the site as
// the site team named it last (docs/console.md "Site settings"), not the
// name the server started with: a claim's confirmation mail after a rename.
func TestSettings_SiteNameInMail(t *testing.T) {
	t.Parallel()
	env := newClaimsEnv(t)
	key := env.apiKey(t, "claimant@example.com")
	env.apiKey(t, "owner@example.com")
	_, slug := env.publicListing(t, "owner@example.com", "https://renamed-site.example/", "renamed-site.example")
	if err := env.console.SetSiteSettings(context.Background(), console.ActorCommandLine, map[string]string{domain.SettingSiteName: "Rocket Board"}); err != nil {
		t.Fatal(err)
	}
	call := restCaller(env.catEnv, key)
	if st, p := call(t, "claim_listing", map[string]any{"slug": slug, "method": "email", "email": "founder@renamed-site.example"}); st != 201 && st != 200 {
		t.Fatalf("claim_listing: %d %v", st, p)
	}
	sent := env.mailsTo("founder@renamed-site.example")
	if len(sent) != 1 {
		t.Fatalf("claim mails: %d, want 1", len(sent))
	}
	parts := strings.SplitN(sent[0], "|", 3)
	if !strings.HasSuffix(parts[1], "on Rocket Board") || !strings.Contains(parts[2], "on Rocket Board") || strings.Contains(sent[0], env.svc.Site.Name) {
		t.Errorf("claim mail after the rename: %q / %.200q, want Rocket Board, not %q", parts[1], parts[2], env.svc.Site.Name)
	}
}
