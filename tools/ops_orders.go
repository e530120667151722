package tools

import "github.com/launchdir/launchdir/domain"

// OrderOperations are the products list (public) and the signed-in order
// operations: quote, checkout, and reading orders back.
func OrderOperations() []Operation {
	return []Operation{
		Op(Spec{
			Name: "list_products", Method: "GET", Path: "/products", Tag: "Orders",
			Title: "Products and prices", ReadOnly: true, IdempotentHint: true,
			Summary: "Lists everything that can be ordered, at the site's current prices (cents, before VAT): code, what it does, " +
				"whether it needs a listing_id, its week rule and the launch weeks on offer, its options_schema, the billboard " +
				"minimum, and its other rules. Public: no sign-in needed. Use it to build items for quote_order and create_checkout.",
		}, (*domain.Service).ListProducts),

		Op(Spec{
			Name: "quote_order", Method: "POST", Path: "/orders/quote", Scope: domain.ScopeOrdersWrite, Tag: "Orders",
			Title: "Price an order", IdempotentHint: true,
			Summary: "Prices 1-20 items at the current prices with a VAT preview (send billing_country, and vat_number for an EU " +
				"business) and checks every rule: products, your listing_id, weeks (a Monday the product offers), categories, " +
				"billboard minimum, options. Nothing is saved or charged. A 400 names each wrong item and field " +
				"(items[2].week) and says how to fix it. Then call create_checkout with the same body.",
		}, (*domain.Service).QuoteOrder),

		Op(Spec{
			Name: "create_checkout", Method: "POST", Path: "/orders/checkout", Scope: domain.ScopeOrdersWrite, Idem: true, Status: 201,
			Tag: "Orders", Title: "Create a checkout link",
			Summary: "Builds a pending order from the same body as quote_order (same checks) and returns its number and " +
				"checkout_url: a page of this service where the person reviews the order, enters billing details and pays " +
				"personally. Give checkout_url to the person; never ask for or pass on card details. Nothing is charged by this " +
				"call. Then poll get_order with the number until status is paid. Send an idempotency_key (any unique string) so " +
				"a retried call does not create a second order; the link is only returned here (and on such retries).",
		}, (*domain.Service).CreateCheckout),

		Op(Spec{
			Name: "list_my_orders", Method: "GET", Path: "/orders", Scope: domain.ScopeAccountRead, Tag: "Orders",
			Title: "My orders", ReadOnly: true, IdempotentHint: true,
			Summary: "Lists the signed-in user's orders, newest first, with status (pending, paid, canceled, expired), " +
				"totals with VAT and lines.",
		}, (*domain.Service).ListMyOrders),

		Op(Spec{
			Name: "get_order", Method: "GET", Path: "/orders/{number}", Scope: domain.ScopeAccountRead, Tag: "Orders",
			Title: "Get an order", ReadOnly: true, IdempotentHint: true,
			Summary: "Returns one of your orders by number: status (pending until the person pays on the checkout page, then " +
				"paid), totals with VAT, and each line with whether it was fulfilled and its outcome (live, scheduled for a " +
				"week, queued for the site team). 404 when the order does not exist or is not yours.",
		}, (*domain.Service).GetOrder),
	}
}
