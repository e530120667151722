package domain

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// The site team's operations: the admin page (web) and the admin subcommand
// call these. They are not operations of the public catalog: whoever calls
// them has already checked that the person is on the site team.

// MaxPriceCents bounds an admin price (1,000,000.00 in the site's currency):
// a typo such as 49000000 for 4900 is refused rather than charged.
const MaxPriceCents = 100000000

// AdminPrices lists every product at its current price, as list_products does.
func (s *Service) AdminPrices(ctx context.Context) ([]Product, error) {
	list, err := s.ListProducts(ctx, ListProductsInput{})
	if err != nil {
		return nil, err
	}
	return list.Items, nil
}

// SetProductPrice sets the admin price of product code, in cents of the
// site's currency; quotes and checkouts made afterwards use it, orders made
// before keep the price they were made at.
func (s *Service) SetProductPrice(ctx context.Context, code string, cents int64) error {
	o, err := s.ordering()
	if err != nil {
		return err
	}
	return o.SetProductPrice(ctx, code, cents, s.now())
}

// SetProductPrice is Service.SetProductPrice stamped at: what the operator
// command "launchdir admin prices set" needs, without a whole Service.
func (o *Ordering) SetProductPrice(ctx context.Context, code string, cents int64, at time.Time) error {
	if o.Store == nil {
		return errors.New("ordering is not configured (it needs a Store)")
	}
	code = strings.TrimSpace(code)
	if _, ok := lookupProduct(code); !ok {
		return Invalid("code", "exists", "There is no product %q; the products are %s.", code, strings.Join(ProductCodes(), ", "))
	}
	switch {
	case cents < 0:
		return Invalid("price_cents", "minimum", "A price is 0 cents (free) or more; %d is negative.", cents)
	case cents > MaxPriceCents:
		return Invalid("price_cents", "maximum", "A price is at most %d cents; %d is more. Prices are in cents: 4900 is 49.00.", MaxPriceCents, cents)
	}
	return o.Store.SetPrice(ctx, code, Price{Cents: cents, Currency: o.currency(), UpdatedAt: at.UTC()})
}

// AdminWorkItems returns the open work items of the site team, newest first,
// at most limit of them (limit <= 0: 100).
func (s *Service) AdminWorkItems(ctx context.Context, limit int) ([]WorkItem, error) {
	o, err := s.ordering()
	if err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = 100
	}
	// The store lists open items first, so the open ones are a prefix.
	items, _, err := o.Store.WorkItems(ctx, 0, limit)
	if err != nil {
		return nil, err
	}
	open := make([]WorkItem, 0, len(items))
	for _, w := range items {
		if w.Status != "open" {
			break
		}
		open = append(open, w)
	}
	return open, nil
}

// FinishWorkItem marks work item id done; ENotFound when there is no such item.
// Finishing an item that is done already changes nothing.
func (s *Service) FinishWorkItem(ctx context.Context, id int64) error {
	o, err := s.ordering()
	if err != nil {
		return err
	}
	if id <= 0 {
		return NotFound("work item", fmt.Sprint(id))
	}
	return o.Store.FinishWorkItem(ctx, id, s.now())
}

// AdminOrders returns the latest orders of every customer, newest first, at
// most limit of them (limit <= 0: 50), with the derived status (expired), and
// the number of orders in all.
func (s *Service) AdminOrders(ctx context.Context, limit int) ([]OrderView, int, error) {
	o, err := s.ordering()
	if err != nil {
		return nil, 0, err
	}
	if limit <= 0 {
		limit = 50
	}
	orders, total, err := o.Store.AllOrders(ctx, 0, limit)
	if err != nil {
		return nil, 0, err
	}
	out := make([]OrderView, 0, len(orders))
	for i := range orders {
		out = append(out, *s.orderView(&orders[i]))
	}
	return out, total, nil
}
