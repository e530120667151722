package tools

import (
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/web"
)

// accountPageWith serves /account with auth configured by cfg (origin,
// store, mail and clock filled here) and returns the page a fresh sign-in of
// email sees.
func accountPageWith(t *testing.T, env *catEnv, cfg auth.Config, email string) string {
	t.Helper()
	mail := &signInMail{}
	cfg.Origin, cfg.SiteName, cfg.Store, cfg.Mailer, cfg.Now = env.URL, "Launchdir", env.store, mail, env.clock.Now
	a, err := auth.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	a.Register(mux)
	mux.Handle("/", web.New(env.svc, web.WithAccount(a.SignedInUser)))
	var h http.Handler = mux
	env.pages.Store(&h)
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.PostForm(env.URL+"/signin", url.Values{"email": {email}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	mail.mu.Lock()
	last := mail.sent[len(mail.sent)-1]
	mail.mu.Unlock()
	link := regexp.MustCompile(`/signin/email\?token=[A-Za-z0-9_-]+`).FindString(last)
	if res, err = c.Get(env.URL + link); err != nil || link == "" {
		t.Fatalf("sign-in link %q: %v", link, err)
	}
	res.Body.Close()
	if res, err = c.Get(env.URL + "/account"); err != nil {
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
