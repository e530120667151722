package main

import (
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"strings"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/stripepay"
	"github.com/launchdir/launchdir/domain/vat"
	"github.com/launchdir/launchdir/storage"
)

// orderConfig configures prices, VAT and the payment provider.
type orderConfig struct {
	currency      string
	sellerCountry string
	vies          bool
	stripeKey     string
	stripeWebhook string
	adminEmails   string
}

func orderFlags(fs *flag.FlagSet, c *orderConfig) {
	fs.StringVar(&c.currency, "currency", env("LAUNCHDIR_CURRENCY", domain.DefaultCurrency), "ISO 4217 currency of every price (env LAUNCHDIR_CURRENCY)")
	fs.StringVar(&c.sellerCountry, "seller-country", env("LAUNCHDIR_SELLER_COUNTRY", "IE"),
		"EU member state the site is VAT-registered in: businesses there pay domestic VAT (env LAUNCHDIR_SELLER_COUNTRY)")
	fs.BoolVar(&c.vies, "vies", false, "also confirm EU VAT numbers online with the EU's VIES service (env LAUNCHDIR_VIES=1)")
	fs.StringVar(&c.stripeKey, "stripe-secret-key", "",
		"Stripe secret key: take payments with Stripe Checkout instead of the built-in test provider (prefer env LAUNCHDIR_STRIPE_SECRET_KEY: flags show in ps)")
	fs.StringVar(&c.stripeWebhook, "stripe-webhook-secret", "", "signing secret of the Stripe webhook endpoint /webhooks/stripe (prefer env LAUNCHDIR_STRIPE_WEBHOOK_SECRET)")
	fs.StringVar(&c.adminEmails, "admin-emails", env("LAUNCHDIR_ADMIN_EMAILS", ""),
		"comma-separated sign-in addresses of the site team, who may open /admin (env LAUNCHDIR_ADMIN_EMAILS)")
}

// newOrdering wires the order operations: the order store, the payment
// provider (Stripe when a key is configured, else the built-in test provider)
// and VIES. It also returns the Stripe provider, whose webhook confirms
// payments (nil with test payments).
func newOrdering(c *orderConfig, db *storage.DB, site domain.Site, runner *domain.Runner, logger *slog.Logger) (*domain.Ordering, *stripepay.Provider, error) {
	if c.stripeKey == "" {
		c.stripeKey = env("LAUNCHDIR_STRIPE_SECRET_KEY", "")
	}
	if c.stripeWebhook == "" {
		c.stripeWebhook = env("LAUNCHDIR_STRIPE_WEBHOOK_SECRET", "")
	}
	c.currency = strings.ToUpper(strings.TrimSpace(c.currency))
	if len(c.currency) != 3 {
		return nil, nil, fmt.Errorf("--currency %q: use an ISO 4217 code such as USD or EUR", c.currency)
	}
	c.sellerCountry = strings.ToUpper(strings.TrimSpace(c.sellerCountry))
	if !vat.IsEU(c.sellerCountry) {
		return nil, nil, fmt.Errorf("--seller-country %q: use the EU member state the site is VAT-registered in, such as IE or DE", c.sellerCountry)
	}
	store, err := storage.NewOrderStore(db, site)
	if err != nil {
		return nil, nil, err
	}
	o := &domain.Ordering{Store: store, Payments: domain.TestPayments{}, EnqueueAt: runner.EnqueueAt, VAT: vat.Rules{},
		Currency: c.currency, SellerCountry: c.sellerCountry}
	if c.vies {
		o.VIES = &vat.VIES{}
	}
	var stripe *stripepay.Provider
	switch {
	case c.stripeKey != "":
		if c.stripeWebhook == "" {
			return nil, nil, errors.New("Stripe payments need the webhook signing secret too (LAUNCHDIR_STRIPE_WEBHOOK_SECRET): orders are marked paid only by signed webhooks") //nolint:staticcheck // ST1005: the message starts with the name Stripe
		}
		p, err := stripepay.New(stripepay.Config{SecretKey: c.stripeKey, WebhookSecret: c.stripeWebhook})
		if err != nil {
			return nil, nil, err
		}
		o.Payments, stripe = p, p
		logger.Info("payments: Stripe Checkout", "test_mode", p.TestMode())
	default:
		logger.Warn("payments: the built-in TEST provider; no money is taken (set LAUNCHDIR_STRIPE_SECRET_KEY for real payments)")
	}
	return o, stripe, nil
}

// adminEmailSet parses the --admin-emails list.
func adminEmailSet(list string) map[string]bool {
	set := map[string]bool{}
	for _, e := range strings.Split(list, ",") {
		if e = strings.ToLower(strings.TrimSpace(e)); e != "" {
			set[e] = true
		}
	}
	return set
}
