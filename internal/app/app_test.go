package app

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage"
)

var testNow = time.Date(2026, 3, 4, 12, 0, 0, 0, time.UTC)

// fakePayments is the payment provider of a test: the outside world.
type fakePayments struct{}

func (fakePayments) Name() string   { return "fake" }
func (fakePayments) TestMode() bool { return true }
func (fakePayments) Begin(context.Context, *domain.Order, domain.CheckoutPages) (string, string, error) {
	return "https://pay.example/x", "ref", nil
}

// testConfig is the defaults over a fresh data directory.
func testConfig(t *testing.T) Config {
	c := Defaults()
	c.Data = filepath.Join(t.TempDir(), "data")
	c.Addr = "127.0.0.1:8080"
	return c
}

func open(t *testing.T, c Config, ad Adapters) *App {
	t.Helper()
	if ad.Now == nil {
		ad.Now = func() time.Time { return testNow }
	}
	a, err := Open(context.Background(), c, ad)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = a.Close() })
	return a
}

func TestOpen(t *testing.T) {
	t.Run("EveryStoreExplicit", func(t *testing.T) {
		a := open(t, testConfig(t), Adapters{})
		s := a.Service
		if s.Settings == nil || s.Redirects == nil || s.Trophies == nil || s.Feeds == nil || s.OpenData == nil || s.Matches == nil || s.VoteDays == nil {
			t.Errorf("a store of the Service is not set by the wiring: %+v", s)
		}
		c := a.Console
		if c == nil || c.Team == nil || c.Settings == nil || c.Categories == nil || c.Blog == nil || c.ListingAdmin == nil || c.People == nil ||
			c.Moderation == nil || c.Ratings == nil || c.Revenue == nil || c.Owners == nil {
			t.Errorf("a store of the Console is not set by the wiring: %+v", c)
		}
	})
	t.Run("ServesRESTAndPages", func(t *testing.T) {
		c := testConfig(t)
		c.Demo = true
		a := open(t, c, Adapters{})
		srv := httptest.NewServer(a.Handler)
		defer srv.Close()
		res, err := http.Get(srv.URL + "/v1/listings?q=notes")
		if err != nil {
			t.Fatal(err)
		}
		var out struct {
			Items []json.RawMessage `json:"items"`
		}
		err = json.NewDecoder(res.Body).Decode(&out)
		res.Body.Close()
		if res.StatusCode != 200 || err != nil || len(out.Items) == 0 {
			t.Errorf("GET /v1/listings?q=notes on the demo data: %d, %d items (%v)", res.StatusCode, len(out.Items), err)
		}
		for _, path := range []string{"/", "/signin", "/.well-known/oauth-authorization-server", "/llms.txt"} {
			res, err := http.Get(srv.URL + path)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != 200 {
				t.Errorf("GET %s: %d, want 200", path, res.StatusCode)
			}
		}
	})
	t.Run("AdaptersReplaceTheOutsideWorld", func(t *testing.T) {
		a := open(t, testConfig(t), Adapters{Payments: fakePayments{}})
		if _, ok := a.Service.Orders.Payments.(fakePayments); !ok {
			t.Errorf("Orders.Payments = %T, want the adapter given", a.Service.Orders.Payments)
		}
		b := open(t, testConfig(t), Adapters{})
		if _, ok := b.Service.Orders.Payments.(domain.TestPayments); !ok {
			t.Errorf("without a payments adapter or Stripe key: Orders.Payments = %T, want the built-in test provider", b.Service.Orders.Payments)
		}
	})
	// The Service's mail goes through the outbox auth uses, built before
	// both: kept in the outbox table and written to the mail log.
	t.Run("ServiceMailThroughTheOutbox", func(t *testing.T) {
		var log strings.Builder
		a := open(t, testConfig(t), Adapters{MailLog: &log})
		if err := a.Service.Drafts.Mailer.SendMail(context.Background(), "ada@example.com", "Hello", "a link: http://x/invite/abc"); err != nil {
			t.Fatal(err)
		}
		mails, err := storage.NewAuthStore(a.DB).Outbox(context.Background(), "ada@example.com", 10)
		if err != nil || len(mails) != 1 || mails[0].Subject != "Hello" {
			t.Errorf("outbox after the Service sent one mail: %+v, %v", mails, err)
		}
		if !strings.Contains(log.String(), "----- mail to ada@example.com: Hello -----") {
			t.Errorf("mail log: %q, want the message", log.String())
		}
	})
	t.Run("AdminEmailsMakeTheTeam", func(t *testing.T) {
		c := testConfig(t)
		c.AdminEmails = "Ada@Example.com, bob@example.com"
		if a := open(t, c, Adapters{}); a.Team != 2 {
			t.Errorf("Team = %d, want 2", a.Team)
		}
	})
	// A configuration mistake is refused before the data directory is made.
	t.Run("ConfigErrorsBeforeTheDatabase", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			edit func(*Config)
			want string
		}{
			{"Currency", func(c *Config) { c.Currency = "EURO" }, "--currency"},
			{"CurrencyNotLetters", func(c *Config) { c.Currency = "U$1" }, "--currency"},
			{"SellerCountry", func(c *Config) { c.SellerCountry = "US" }, "--seller-country"},
			{"LLMModel", func(c *Config) { c.LLMBaseURL = "http://127.0.0.1:1/v1" }, "--llm-model"},
			{"OIDCClientID", func(c *Config) { c.OIDCIssuer = "https://id.example" }, "--oidc-client-id"},
			{"SMTPFrom", func(c *Config) { c.SMTPHost = "smtp.example" }, "--smtp-from"},
			{"StripeWebhook", func(c *Config) { c.StripeSecretKey = "sk_test_x" }, "LAUNCHDIR_STRIPE_WEBHOOK_SECRET"},
			{"DNSResolver", func(c *Config) { c.DNSResolver = "1.1.1.1" }, "--dns-resolver"},
			{"TrustedProxies", func(c *Config) { c.TrustedProxies = "not-a-cidr" }, "--trusted-proxies"},
			{"VoteMinAccountAge", func(c *Config) { c.VoteMinAccountAge = -time.Hour }, "0 or more"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				c := testConfig(t)
				tc.edit(&c)
				_, err := Open(context.Background(), c, Adapters{Now: time.Now})
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("Open: error %v, want one naming %s", err, tc.want)
				}
				if _, err := os.Stat(c.Data); !os.IsNotExist(err) {
					t.Errorf("the data directory was made before the mistake was refused (stat: %v)", err)
				}
			})
		}
	})
	t.Run("ClockRequired", func(t *testing.T) {
		if _, err := Open(context.Background(), testConfig(t), Adapters{}); err == nil || !strings.Contains(err.Error(), "Now") {
			t.Errorf("Open without a clock: %v, want an error naming Adapters.Now", err)
		}
	})
}

// TestStart runs the start-up work and the job runner, and Close stops them.
func TestStart(t *testing.T) {
	a := open(t, testConfig(t), Adapters{})
	if err := a.Start(context.Background()); err != nil {
		t.Fatalf("Start: %v", err)
	}
	if err := a.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}
