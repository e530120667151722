package auth

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/launchdir/launchdir/domain"
)

// AccountWebhooks is what /account needs for the person's webhook
// endpoints (docs/webhooks.md): domain.Service implements it; serve wires it
// as Config.Webhooks.
type AccountWebhooks interface {
	ListWebhooks(ctx context.Context, in domain.ListWebhooksInput) (*domain.WebhookList, error)
	CreateWebhook(ctx context.Context, in domain.CreateWebhookInput) (*domain.WebhookAnswer, error)
	DeleteWebhook(ctx context.Context, in domain.WebhookIDInput) (*domain.WebhookAnswer, error)
	ListWebhookDeliveries(ctx context.Context, in domain.ListWebhookDeliveriesInput) (*domain.WebhookDeliveryList, error)
}

// accountHooksShown is how many recent deliveries /account shows per endpoint.
const accountHooksShown = 5

// hookNote is one endpoint on /account with its latest deliveries.
type hookNote struct {
	domain.WebhookEndpoint
	Deliveries []domain.WebhookDelivery
}

// hookSection is the Webhooks section of /account.
type hookSection struct {
	Endpoints []hookNote
	Types     []string
	// Secret is shown once, right after creating an endpoint; URL and Error refill the form after a refusal.
	Secret, URL, Error string
}

func (a *Auth) accountHooks() AccountWebhooks {
	return a.cfg.Webhooks
}

// asCaller is ctx with the signed-in person as the Service's caller (a
// session has the account's full access, as an API key has).
func asCaller(ctx context.Context, u User) context.Context {
	return domain.WithCaller(ctx, domain.Caller{UserID: u.ID, Email: u.Email, Name: u.Name, Via: domain.ViaAPIKey})
}

// hookSectionFor loads the section (nil when webhooks are not served).
func (a *Auth) hookSectionFor(ctx context.Context, u User) (*hookSection, error) {
	h := a.accountHooks()
	if h == nil {
		return nil, nil
	}
	ctx = asCaller(ctx, u)
	list, err := h.ListWebhooks(ctx, domain.ListWebhooksInput{})
	if err != nil {
		return nil, err
	}
	sec := &hookSection{Types: domain.WebhookEventTypes}
	for _, w := range list.Items {
		ds, err := h.ListWebhookDeliveries(ctx, domain.ListWebhookDeliveriesInput{WebhookID: w.ID, Pagination: domain.Pagination{PerPage: accountHooksShown}})
		if err != nil {
			return nil, err
		}
		sec.Endpoints = append(sec.Endpoints, hookNote{WebhookEndpoint: w, Deliveries: ds.Items})
	}
	return sec, nil
}

// accountCreateHook creates an endpoint from the form (url, events) and
// shows /account with its secret, once.
func (a *Auth) accountCreateHook(w http.ResponseWriter, r *http.Request) {
	u, ok := a.checkForm(w, r)
	if !ok {
		return
	}
	h := a.accountHooks()
	if h == nil {
		a.problemPage(w, r, domain.ENotFound, "Not found", "Webhooks are not served here.")
		return
	}
	in := domain.CreateWebhookInput{URL: strings.TrimSpace(r.PostFormValue("url")), Events: r.PostForm["events"], Description: r.PostFormValue("description")}
	ans, err := h.CreateWebhook(asCaller(r.Context(), u), in)
	extra := &hookSection{URL: in.URL}
	status := statusOK
	switch {
	case domain.ErrorCode(err) == domain.EInvalid:
		extra.Error, status = err.Error(), pageStatus(domain.EInvalid)
	case err != nil:
		a.log.Error("create webhook", "user", u.ID, "err", err)
		a.problemPage(w, r, domain.EInternal, "Something went wrong", "The webhook could not be created. Try again in a moment.")
		return
	default:
		extra.Secret, extra.URL = ans.Webhook.Secret, ""
		a.log.Info("webhook created", "user", u.ID, "webhook", ans.Webhook.ID)
	}
	a.showAccountHooks(w, r, status, extra)
}

// accountDeleteHook deletes one of the person's endpoints.
func (a *Auth) accountDeleteHook(w http.ResponseWriter, r *http.Request) {
	u, ok := a.checkForm(w, r)
	if !ok {
		return
	}
	h := a.accountHooks()
	id, perr := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if h == nil || perr != nil {
		a.problemPage(w, r, domain.ENotFound, "No such webhook", "You have no webhook with that id.")
		return
	}
	_, err := h.DeleteWebhook(asCaller(r.Context(), u), domain.WebhookIDInput{WebhookID: id})
	if domain.ErrorCode(err) == domain.ENotFound {
		a.problemPage(w, r, domain.ENotFound, "No such webhook", "You have no webhook with that id.")
		return
	}
	if err != nil {
		a.log.Error("delete webhook", "user", u.ID, "err", err)
		a.problemPage(w, r, domain.EInternal, "Something went wrong", "The webhook could not be deleted. Try again in a moment.")
		return
	}
	http.Redirect(w, r, "/account#webhooks", statusSeeOther)
}
