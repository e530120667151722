// Package stripepay is the Stripe payment provider behind the checkout page:
// Begin sends the person to a Stripe Checkout Session for their order, and
// Webhook turns Stripe's signed checkout.session events into
// domain.PaymentEvent confirmations. Card details are entered on Stripe's own
// page and never pass through this service.
package stripepay

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/launchdir/launchdir/domain"
	"github.com/stripe/stripe-go/v85"
)

// ProviderName is the provider's key, stored on orders paid through Stripe.
const ProviderName = "stripe"

// Stripe accepts a Checkout Session expires_at between 30 minutes and 24 hours
// from creation. We stay inside both bounds with a margin for clock skew
// between us and Stripe.
const (
	maxSessionLife = 23 * time.Hour
	minSessionLife = 31 * time.Minute
	// expiryStep rounds a computed expires_at, so that two Begin calls moments
	// apart (a double click) send identical parameters under one idempotency
	// key: Stripe refuses a reused key whose parameters differ.
	expiryStep = 15 * time.Minute
)

// maxNameRunes bounds a product name shown on Stripe's page; listing names are
// bounded already, this only keeps a surprise from becoming a refused session.
const maxNameRunes = 250

// Config configures the Stripe provider.
type Config struct {
	// SecretKey is the secret API key: sk_test_... or sk_live_..., or a
	// restricted key (rk_test_..., rk_live_...) allowed to write Checkout Sessions.
	SecretKey string
	// WebhookSecret is the signing secret (whsec_...) of the webhook endpoint
	// that Stripe posts checkout.session events to.
	WebhookSecret string
	// BackendURL replaces https://api.stripe.com; tests point it at a fake
	// Stripe API. Leave it empty in production.
	BackendURL string
	// HTTPClient is optional; the SDK's default client (80 s timeout) otherwise.
	HTTPClient *http.Client
	// Now is the clock (required): a session's expires_at is counted from it.
	Now func() time.Time
}

// Provider is the Stripe implementation of domain.Payments, plus the handler
// of Stripe's webhook.
type Provider struct {
	client        *stripe.Client
	webhookSecret string
	testMode      bool
	// now is the clock (Config.Now); tests replace it to check expires_at.
	now func() time.Time
}

var _ domain.Payments = (*Provider)(nil)

// New returns a Stripe provider. It refuses an empty or mistaken key or
// webhook secret, saying where to find the right one.
func New(cfg Config) (*Provider, error) {
	key, secret := strings.TrimSpace(cfg.SecretKey), strings.TrimSpace(cfg.WebhookSecret)
	switch {
	case key == "":
		return nil, errors.New("stripe: the secret key is empty; set it to the secret key (sk_live_... or sk_test_...) from the Stripe Dashboard, Developers > API keys")
	case strings.HasPrefix(key, "pk_"):
		return nil, errors.New("stripe: the key given is a publishable key (pk_...); the server needs the secret key (sk_live_... or sk_test_...) or a restricted key (rk_...)")
	case !strings.HasPrefix(key, "sk_") && !strings.HasPrefix(key, "rk_"):
		return nil, errors.New("stripe: the secret key must start with sk_ or rk_ (Stripe Dashboard, Developers > API keys)")
	case secret == "":
		return nil, errors.New("stripe: the webhook secret is empty; set it to the signing secret (whsec_...) of the webhook endpoint for /webhooks/stripe (Stripe Dashboard, Developers > Webhooks)")
	case !strings.HasPrefix(secret, "whsec_"):
		return nil, errors.New("stripe: the webhook secret must be the endpoint's signing secret, starting with whsec_ (Stripe Dashboard, Developers > Webhooks > the endpoint > Signing secret)")
	case cfg.Now == nil:
		return nil, errors.New("stripe: no clock (Config.Now)")
	}
	bc := &stripe.BackendConfig{
		HTTPClient: cfg.HTTPClient,
		// Errors are returned, wrapped with the order number, to the caller,
		// which logs them; the SDK's own stderr logging would only repeat them.
		LeveledLogger: &stripe.LeveledLogger{Level: stripe.LevelNull},
	}
	if cfg.BackendURL != "" {
		bc.URL = stripe.String(cfg.BackendURL)
	}
	return &Provider{
		client:        stripe.NewClient(key, stripe.WithBackends(stripe.NewBackendsWithConfig(bc))),
		webhookSecret: secret,
		testMode:      strings.HasPrefix(key, "sk_test_") || strings.HasPrefix(key, "rk_test_"),
		now:           cfg.Now,
	}, nil
}

// Name implements domain.Payments.
func (p *Provider) Name() string { return ProviderName }

// TestMode implements domain.Payments: true for test keys, with which Stripe
// moves no money.
func (p *Provider) TestMode() bool { return p.testMode }

// Begin implements domain.Payments: it creates a Stripe Checkout Session
// (mode payment) for o, with one line per order line at its VAT-included
// total, and returns the session's URL and id. Stripe offers the payment
// methods enabled in its dashboard (cards, wallets, Link, ...).
func (p *Provider) Begin(ctx context.Context, o *domain.Order, pages domain.CheckoutPages) (redirectURL, ref string, err error) {
	if o.TotalCents <= 0 {
		return "", "", fmt.Errorf("stripe: order %s totals %d cents; there is nothing to pay by card", o.Number, o.TotalCents)
	}
	if pages.Return == "" || pages.Cancel == "" {
		return "", "", fmt.Errorf("stripe: order %s: the checkout pages lack a return or cancel address", o.Number)
	}
	currency := strings.ToLower(o.Currency)
	var sum int64
	items := make([]*stripe.CheckoutSessionCreateLineItemParams, 0, len(o.Lines))
	for _, l := range o.Lines {
		if l.TotalCents < 0 {
			return "", "", fmt.Errorf("stripe: order %s line %d has a negative total (%d cents)", o.Number, l.Index, l.TotalCents)
		}
		sum += l.TotalCents
		product := &stripe.CheckoutSessionCreateLineItemPriceDataProductDataParams{Name: stripe.String(lineName(l))}
		if l.Effect != "" {
			product.Description = stripe.String(l.Effect)
		}
		items = append(items, &stripe.CheckoutSessionCreateLineItemParams{
			Quantity: stripe.Int64(1),
			PriceData: &stripe.CheckoutSessionCreateLineItemPriceDataParams{
				Currency:    stripe.String(currency),
				UnitAmount:  stripe.Int64(l.TotalCents),
				ProductData: product,
			},
		})
	}
	// The webhook's amount_total must equal the order's total or the payment is
	// refused after the money moved; refuse before sending the person to pay.
	if sum != o.TotalCents {
		return "", "", fmt.Errorf("stripe: order %s: its lines add up to %d cents but its total is %d; not starting a payment that could not be matched", o.Number, sum, o.TotalCents)
	}
	expires := p.expiresAt(o.ExpiresAt)
	params := &stripe.CheckoutSessionCreateParams{
		Mode:              stripe.String(string(stripe.CheckoutSessionModePayment)),
		LineItems:         items,
		ClientReferenceID: stripe.String(o.Number),
		Metadata:          map[string]string{"order_number": o.Number},
		// The payment itself carries the number too, so a refund in the
		// dashboard can be traced to its order.
		PaymentIntentData: &stripe.CheckoutSessionCreatePaymentIntentDataParams{
			Metadata: map[string]string{"order_number": o.Number},
		},
		SuccessURL: stripe.String(pages.Return + "?session_id={CHECKOUT_SESSION_ID}"),
		CancelURL:  stripe.String(pages.Cancel),
		ExpiresAt:  stripe.Int64(expires.Unix()),
	}
	params.SetIdempotencyKey(idempotencyKey(o, expires))
	s, err := p.client.V1CheckoutSessions.Create(ctx, params)
	if err != nil {
		return "", "", fmt.Errorf("stripe: create checkout session for order %s: %w", o.Number, describe(err))
	}
	if s.URL == "" || s.ID == "" {
		return "", "", fmt.Errorf("stripe: the checkout session for order %s came back without a URL or id", o.Number)
	}
	return s.URL, s.ID, nil
}

// expiresAt is the session's expiry: the order's own expiry or now+23h,
// whichever is earlier, but at least Stripe's minimum from now. Computed
// values are rounded to expiryStep so that retries repeat them.
func (p *Provider) expiresAt(orderExpires time.Time) time.Time {
	now := p.now()
	latest := now.Add(maxSessionLife).Truncate(expiryStep)
	exp := latest
	if !orderExpires.IsZero() && orderExpires.Before(latest) {
		exp = orderExpires.Truncate(time.Second)
	}
	if earliest := now.Add(minSessionLife); exp.Before(earliest) {
		// Rounded up: never below Stripe's minimum, still far under 24 h.
		exp = earliest.Truncate(expiryStep).Add(expiryStep)
	}
	return exp
}

// idempotencyKey names one payment attempt: the same order, total and expiry
// (a double click, an SDK retry) gets the same session back from Stripe; a
// changed total (new billing details, so new VAT) gets a new session.
func idempotencyKey(o *domain.Order, expires time.Time) string {
	return "launchdir-checkout-" + o.Number + "-" + strconv.FormatInt(o.TotalCents, 10) +
		strings.ToLower(o.Currency) + "-" + strconv.FormatInt(expires.Unix(), 10)
}

// lineName is what Stripe's page shows for a line: the product, the listing
// and the week it is for.
func lineName(l domain.OrderLine) string {
	name := l.Name
	if name == "" {
		name = l.Product
	}
	if l.ListingName != "" {
		name += " · " + l.ListingName
	}
	if len(l.Categories) > 0 {
		name += " · " + strings.Join(l.Categories, ", ")
	}
	if l.Week != "" {
		name += " · week of " + l.Week
	}
	if utf8.RuneCountInString(name) > maxNameRunes {
		name = string([]rune(name)[:maxNameRunes-1]) + "…"
	}
	return name
}

// describe turns a Stripe API error into one readable sentence (the SDK's own
// Error() is its JSON), keeping the original for errors.As.
func describe(err error) error {
	var se *stripe.Error
	if !errors.As(err, &se) {
		return err
	}
	msg := fmt.Sprintf("Stripe answered %d (%s", se.HTTPStatusCode, se.Type)
	if se.Code != "" {
		msg += ", " + string(se.Code)
	}
	if se.Param != "" {
		msg += ", parameter " + se.Param
	}
	msg += "): " + se.Msg
	if se.RequestID != "" {
		msg += " (request " + se.RequestID + ")"
	}
	return &apiError{msg: msg, err: se}
}

// apiError is a Stripe API error with a readable message.
type apiError struct {
	msg string
	err *stripe.Error
}

func (e *apiError) Error() string { return e.msg }
func (e *apiError) Unwrap() error { return e.err }
