package domain

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// CheckoutOrder returns the order of a checkout page by its token; ENotFound
// for an unknown token.
func (s *Service) CheckoutOrder(ctx context.Context, token string) (*Order, error) {
	o, err := s.ordering()
	if err != nil {
		return nil, err
	}
	ord, err := o.Store.TokenOrder(ctx, SecretHash(token))
	if err != nil {
		return nil, err
	}
	ord.Status = s.orderStatus(ord)
	return ord, nil
}

// View renders an order for a page (status derived).
func (s *Service) View(o *Order) *OrderView { return s.orderView(o) }

// payable returns the order of a checkout token if it can still be paid.
func (s *Service) payable(ctx context.Context, token string) (*Ordering, *Order, error) {
	o, err := s.ordering()
	if err != nil {
		return nil, nil, err
	}
	ord, err := s.CheckoutOrder(ctx, token)
	if err != nil {
		return nil, nil, err
	}
	if ord.Status != OrderPending {
		return nil, nil, Errorf(EConflict, "This order is %s and can no longer be changed or paid.", ord.Status)
	}
	return o, ord, nil
}

// SetBilling stores the billing details entered on the checkout page and
// recomputes the VAT from them. Prices stay as they were at order creation.
func (s *Service) SetBilling(ctx context.Context, token string, b Billing) (*Order, error) {
	o, ord, err := s.payable(ctx, token)
	if err != nil {
		return nil, err
	}
	for _, f := range []struct{ field, value string }{{"name", b.Name}, {"address", b.Address}, {"country", b.Country}, {"vat_number", b.VATNumber}} {
		// Stored as JSON, a byte that is not UTF-8 would become U+FFFD: the
		// invoice would not show what was sent.
		if !utf8.ValidString(f.value) {
			return nil, Invalid(f.field, "format", "The %s must be text (valid UTF-8).", strings.ReplaceAll(f.field, "_", " "))
		}
	}
	b.Name, b.Address = strings.TrimSpace(b.Name), strings.TrimSpace(b.Address)
	b.Country, b.VATNumber = strings.ToUpper(strings.TrimSpace(b.Country)), strings.TrimSpace(b.VATNumber)
	switch {
	case b.Name == "":
		return nil, Invalid("name", "required", "Enter the name to put on the invoice (a person or a company).")
	case utf8.RuneCountInString(b.Name) > 200:
		return nil, Invalid("name", "maxLength", "The name is too long: at most 200 characters.")
	case b.Address == "":
		return nil, Invalid("address", "required", "Enter the billing address.")
	case utf8.RuneCountInString(b.Address) > 500:
		return nil, Invalid("address", "maxLength", "The address is too long: at most 500 characters.")
	case b.Country == "":
		return nil, Invalid("country", "required", "Choose the billing country.")
	case len(b.VATNumber) > 32:
		return nil, Invalid("vat_number", "maxLength", "The VAT number is too long: at most 32 characters.")
	}
	v, err := s.vatFor(ctx, "country", "vat_number", b.Country, b.VATNumber)
	if err != nil {
		return nil, err
	}
	b.VATNumber = v.VATNumber
	lines, vatCents := applyVAT(ord.Lines, v.RateBasisPoints)
	v.Cents = vatCents
	if err := o.Store.SaveBilling(ctx, ord.ID, b, v, lines, ord.SubtotalCents, ord.SubtotalCents+vatCents); err != nil {
		return nil, err
	}
	return s.CheckoutOrder(ctx, token)
}

// BeginPayment starts paying the order of a checkout page with the configured
// provider and returns where to send the person's browser.
func (s *Service) BeginPayment(ctx context.Context, token string, pages CheckoutPages) (string, error) {
	o, ord, err := s.payable(ctx, token)
	if err != nil {
		return "", err
	}
	if ord.Billing == nil || ord.Billing.Name == "" || ord.Billing.Address == "" {
		return "", Invalid("billing", "required", "Enter and save the billing details first: VAT depends on them.")
	}
	if o.Payments == nil {
		return "", errors.New("no payment provider is configured")
	}
	redirect, ref, err := o.Payments.Begin(ctx, ord, pages)
	if err != nil {
		return "", fmt.Errorf("begin payment with %s: %w", o.Payments.Name(), err)
	}
	if err := o.Store.BeginPayment(ctx, ord.ID, o.Payments.Name(), ref); err != nil {
		return "", err
	}
	return redirect, nil
}

// CancelCheckout cancels the pending order of a checkout page.
func (s *Service) CancelCheckout(ctx context.Context, token string) error {
	o, ord, err := s.payable(ctx, token)
	if err != nil {
		return err
	}
	return o.Store.CancelOrder(ctx, ord.ID, s.now())
}

// TestPaymentsEnabled reports whether the built-in test provider takes payments.
func (s *Service) TestPaymentsEnabled() bool {
	return s.Orders != nil && s.Orders.Payments != nil && s.Orders.Payments.Name() == TestProvider
}

// PayWithTestProvider confirms payment of a checkout page's order through the
// built-in test provider: no money moves. Refused unless it is the configured provider.
func (s *Service) PayWithTestProvider(ctx context.Context, token string) (*Order, error) {
	if !s.TestPaymentsEnabled() {
		return nil, Errorf(EForbidden, "Test payments are off: this site takes real payments.")
	}
	ord, err := s.CheckoutOrder(ctx, token)
	if err != nil {
		return nil, err
	}
	// Only a pending order: the store accepts a real provider's payment of a
	// canceled order (money was taken), but a test payment takes none.
	if ord.Status != OrderPending && ord.Status != OrderPaid {
		return nil, Errorf(EConflict, "This order is %s and can no longer be paid.", ord.Status)
	}
	if ord.Status == OrderPending && (ord.Billing == nil || ord.Billing.Name == "") {
		return nil, Invalid("billing", "required", "Enter and save the billing details first: VAT depends on them.")
	}
	// One event id per order: paying twice (a double-clicked button) is a replay.
	ev := PaymentEvent{Provider: TestProvider, EventID: "test-" + ord.Number, OrderNumber: ord.Number, Ref: ord.ProviderRef,
		AmountCents: ord.TotalCents, Currency: ord.Currency, TestMode: true}
	if _, err := s.ConfirmPayment(ctx, ev); err != nil {
		return nil, err
	}
	return s.CheckoutOrder(ctx, token)
}

// ConfirmPayment records a provider's confirmation that an order was paid
// and starts fulfilling it. A replayed event changes nothing (false). The
// amount and currency must be the order's.
func (s *Service) ConfirmPayment(ctx context.Context, ev PaymentEvent) (bool, error) {
	o, err := s.ordering()
	if err != nil {
		return false, err
	}
	ord, err := o.Store.NumberOrder(ctx, ev.OrderNumber)
	if err != nil {
		return false, err
	}
	if ev.AmountCents != ord.TotalCents || !strings.EqualFold(ev.Currency, ord.Currency) {
		return false, Errorf(EConflict, "Payment of %d %s does not match order %s (%d %s); not marked paid.",
			ev.AmountCents, strings.ToUpper(ev.Currency), ord.Number, ord.TotalCents, ord.Currency)
	}
	// The fulfilment job is written with the payment, in one transaction.
	fulfil := JobSpec{Kind: FulfilJob, Key: ord.Number, Payload: fulfilPayload{Number: ord.Number}, RunAt: s.now()}
	changed, err := o.Store.MarkPaid(ctx, ord.ID, ev, s.now(), fulfil)
	if err != nil {
		return false, err
	}
	if !changed && ord.Status == OrderPaid {
		// Enqueued again on a replay: fulfilment is idempotent, and this
		// recovers an order paid before the two were written together.
		if err := o.EnqueueAt(ctx, FulfilJob, ord.Number, fulfil.Payload, s.now()); err != nil {
			return changed, err
		}
	}
	return changed, nil
}

// TestProvider is the name of the built-in test payment provider.
const TestProvider = "test"

// TestPayments is the built-in test provider, the embedded default: the
// checkout page shows a plainly marked test payment step and no money moves.
type TestPayments struct{}

// Name implements Payments.
func (TestPayments) Name() string { return TestProvider }

// TestMode implements Payments.
func (TestPayments) TestMode() bool { return true }

// Begin implements Payments: the test payment step is a page of the checkout.
func (TestPayments) Begin(_ context.Context, o *Order, pages CheckoutPages) (string, string, error) {
	return pages.Page + "/test-pay", "test-" + o.Number, nil
}
