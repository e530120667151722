package stripepay

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"

	"github.com/launchdir/launchdir/domain"
	"github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/webhook"
)

// maxWebhookBody bounds what is read of a webhook: checkout.session events
// are a few KiB, and an unsigned sender must not make us buffer more.
const maxWebhookBody = 64 << 10

// The events that say a Checkout Session was paid: completed (cards pay at
// once) and async_payment_succeeded (bank debits and the like pay later).
const (
	eventCompleted    = "checkout.session.completed"
	eventAsyncSuccess = "checkout.session.async_payment_succeeded"
)

// session is the part of a Checkout Session the webhook reads. We decode it
// ourselves rather than into stripe.CheckoutSession: these fields have kept
// their shape across API versions, while the full object changes with them
// (see Webhook on API versions).
type session struct {
	ID                string            `json:"id"`
	Object            string            `json:"object"`
	ClientReferenceID string            `json:"client_reference_id"`
	Metadata          map[string]string `json:"metadata"`
	AmountTotal       int64             `json:"amount_total"`
	Currency          string            `json:"currency"`
	PaymentStatus     string            `json:"payment_status"`
}

// Webhook is the handler of POST /webhooks/stripe. It verifies the
// Stripe-Signature header, and for a paid checkout session calls confirm,
// which records the payment (a replayed event changes nothing).
//
// Answers: 400 for a missing or bad signature or a stale timestamp (Stripe
// shows it in the endpoint's log); 200 once confirm succeeds, and also when
// confirm refuses with a conflict or not-found (an amount that does not match,
// an unknown order: retrying would not help, so it is logged as a warning for
// a person to look at); 500 for any other error, so that Stripe retries.
//
// API versions: stripe-go refuses, by default, events rendered in another API
// version than its own. The version is a setting of each webhook endpoint in
// the Stripe Dashboard, and an endpoint created earlier or by the CLI often
// differs; refusing would leave every payment unconfirmed while Stripe retries
// for days. The signature proves the event is Stripe's whatever its version,
// and the few session fields read here are the same in every version, so a
// mismatch is tolerated and logged at debug level.
func (p *Provider) Webhook(confirm func(ctx context.Context, ev domain.PaymentEvent) (bool, error), logger *slog.Logger) http.Handler {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	logger = logger.With("provider", ProviderName)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			writeError(w, http.StatusMethodNotAllowed, "invalid", "Stripe webhooks are POST requests.")
			return
		}
		payload, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxWebhookBody))
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				logger.Warn("stripe webhook: body too large, refused", "limit_bytes", maxWebhookBody)
				writeError(w, http.StatusRequestEntityTooLarge, "invalid", "The webhook body is larger than 64 KiB.")
				return
			}
			writeError(w, http.StatusBadRequest, "invalid", "The webhook body could not be read.")
			return
		}
		ev, err := webhook.ConstructEventWithOptions(payload, r.Header.Get("Stripe-Signature"), p.webhookSecret,
			webhook.ConstructEventOptions{IgnoreAPIVersionMismatch: true})
		if err != nil {
			msg := signatureMessage(err)
			logger.Warn("stripe webhook: refused", "reason", msg, "remote", r.RemoteAddr)
			writeError(w, http.StatusBadRequest, "invalid", msg)
			return
		}
		log := logger.With("event_id", ev.ID, "event_type", string(ev.Type))
		if ev.APIVersion != stripe.APIVersion {
			log.Debug("stripe webhook: event API version differs from stripe-go's; reading only stable fields",
				"event_api_version", ev.APIVersion, "sdk_api_version", stripe.APIVersion)
		}
		if t := string(ev.Type); t != eventCompleted && t != eventAsyncSuccess {
			log.Debug("stripe webhook: event type not handled, ignored")
			writeReceived(w)
			return
		}
		// Test and live mode have separate endpoints and secrets; an event of
		// the other mode means the key and the webhook secret are mismatched,
		// and a test payment must never pay a real order.
		if ev.Livemode == p.testMode {
			log.Error("stripe webhook: event mode does not match the API key's mode, ignored; configure the webhook secret of the same mode as the key",
				"event_livemode", ev.Livemode, "key_test_mode", p.testMode)
			writeReceived(w)
			return
		}
		var s session
		if ev.Data == nil || json.Unmarshal(ev.Data.Raw, &s) != nil || s.Object != "checkout.session" || s.ID == "" {
			log.Warn("stripe webhook: event does not carry a checkout session, ignored")
			writeError(w, http.StatusBadRequest, "invalid", "The event's data.object is not a checkout session.")
			return
		}
		log = log.With("session", s.ID)
		if s.PaymentStatus != string(stripe.CheckoutSessionPaymentStatusPaid) {
			// An async method (a bank debit) completes unpaid; its
			// async_payment_succeeded event comes later.
			log.Debug("stripe webhook: session not paid yet, ignored", "payment_status", s.PaymentStatus)
			writeReceived(w)
			return
		}
		number := s.ClientReferenceID
		if number == "" {
			number = s.Metadata["order_number"]
		}
		if number == "" {
			// A session of the same Stripe account that is not ours (a
			// payment link, another integration).
			log.Warn("stripe webhook: paid session names no order, ignored")
			writeReceived(w)
			return
		}
		pe := domain.PaymentEvent{
			Provider:    ProviderName,
			EventID:     ev.ID,
			OrderNumber: number,
			Ref:         s.ID,
			AmountCents: s.AmountTotal,
			Currency:    strings.ToUpper(s.Currency),
			TestMode:    !ev.Livemode,
		}
		log = log.With("order", number)
		changed, err := confirm(r.Context(), pe)
		if err != nil {
			if code := domain.ErrorCode(err); code == domain.EConflict || code == domain.ENotFound {
				log.Warn("stripe webhook: payment not recorded; a person must look at it (refund or fix the order)",
					"amount_cents", pe.AmountCents, "currency", pe.Currency, "error", err)
				writeReceived(w)
				return
			}
			log.Error("stripe webhook: confirming the payment failed; Stripe will retry", "error", err)
			writeError(w, http.StatusInternalServerError, "internal", "Internal error; the event was not recorded and Stripe will send it again.")
			return
		}
		log.Info("stripe webhook: payment confirmed", "changed", changed, "amount_cents", pe.AmountCents, "currency", pe.Currency)
		writeReceived(w)
	})
}

// signatureMessage says why a webhook was refused, for Stripe's endpoint log
// and ours.
func signatureMessage(err error) string {
	switch {
	case errors.Is(err, webhook.ErrNotSigned):
		return "The Stripe-Signature header is missing."
	case errors.Is(err, webhook.ErrInvalidHeader):
		return "The Stripe-Signature header is malformed."
	case errors.Is(err, webhook.ErrNoValidSignature):
		return "No valid signature: the body was altered or the endpoint's signing secret differs from the configured one."
	case errors.Is(err, webhook.ErrTooOld):
		return "The signature's timestamp is older than 5 minutes: a replayed or delayed request."
	default:
		return "The body is not a Stripe event: " + err.Error()
	}
}

func writeReceived(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = io.WriteString(w, `{"received":true}`+"\n")
}

func writeError(w http.ResponseWriter, status int, code, message string) {
	var body struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	body.Error.Code, body.Error.Message = code, message
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}
