package tools

import (
	"html"
	"io"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/auth"
)

// accountPageWith serves /account with auth configured by cfg
// (withAccountPagesOf) and returns the page a fresh sign-in of email sees.
func accountPageWith(t *testing.T, env *catEnv, cfg auth.Config, email string) string {
	t.Helper()
	res, err := withAccountPagesOf(t, env, cfg)(email).Get(env.URL + "/account")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("/account: %d", res.StatusCode)
	}
	return html.UnescapeString(string(b))
}

// TestAccount_WebhooksWiredExplicitly: /account's Webhooks section comes from
// auth.Config.Webhooks, not from whatever Config.Orders happens to implement:
// a site without the shop (Orders unset) still shows the webhooks, and Orders
// set without Webhooks shows none.
func TestAccount_WebhooksWiredExplicitly(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	withWebhooks(t, env)
	if body := accountPageWith(t, env, auth.Config{Webhooks: env.svc}, "noshop@example.com"); !strings.Contains(body, `id="webhooks"`) ||
		!strings.Contains(body, "You have no webhooks.") {
		t.Error("/account with Webhooks set and no Orders has no Webhooks section")
	}
	if body := accountPageWith(t, env, auth.Config{Orders: env.svc}, "shop@example.com"); strings.Contains(body, `id="webhooks"`) {
		t.Error("/account with Orders set and Webhooks unset shows a Webhooks section")
	}
}
