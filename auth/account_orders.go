package auth

import (
	"context"
	"net/url"

	"github.com/launchdir/launchdir/domain"
)

// AccountOrders lists a signed-in person's most recent orders for /account,
// newest first, each with its checkout link while it can still be paid
// (domain.Service implements it; serve sets it at wiring time, since auth is
// built before the Service).
type AccountOrders interface {
	AccountOrders(ctx context.Context, userID int64, limit int) ([]domain.OrderView, error)
}

// accountOrdersShown is how many orders /account lists; list_my_orders pages
// through all of them.
const accountOrdersShown = 50

// orderNote is one of the account's orders as /account shows it.
type orderNote struct {
	Number, Status, Amount, Created string
	// PayURL is the checkout link while the order can be paid, else "".
	PayURL string
}

// orderStatusWords are the order statuses as people read them.
var orderStatusWords = map[string]string{
	domain.OrderPending: "waiting for payment", domain.OrderPaid: "paid",
	domain.OrderCanceled: "canceled", domain.OrderExpired: "expired (not paid)",
}

// accountOrders loads the account page's orders (none without Config.Orders).
func (a *Auth) accountOrders(ctx context.Context, userID int64) ([]orderNote, error) {
	if a.cfg.Orders == nil {
		return nil, nil
	}
	views, err := a.cfg.Orders.AccountOrders(ctx, userID, accountOrdersShown)
	if err != nil {
		return nil, err
	}
	out := make([]orderNote, 0, len(views))
	for _, v := range views {
		n := orderNote{Number: v.Number, Status: v.Status, Amount: domain.FormatMoney(v.Currency, v.TotalCents), Created: accountStamp(v.CreatedAt)}
		if w, ok := orderStatusWords[v.Status]; ok {
			n.Status = w
		}
		if v.Status == domain.OrderPending && v.CheckoutURL != nil {
			n.PayURL = *v.CheckoutURL
		}
		out = append(out, n)
	}
	return out, nil
}

// listingPage is the path of the public page of a listing of status, or ""
// when a listing in that status has none (docs/free-launch.md: an
// awaiting_badge listing has its upcoming page).
func listingPage(slug, status string) string {
	switch status {
	case domain.ListingLive, domain.ListingScheduled, domain.ListingAwaitingBadge:
		return "/listings/" + url.PathEscape(slug)
	}
	return ""
}
