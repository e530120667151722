package tools

import "github.com/launchdir/launchdir/domain"

// OrderOperations are the products list (public) and the signed-in order
// operations: quote, checkout, and reading orders back.
func OrderOperations() []Operation {
	return []Operation{
		Op(Spec{
			Name: "list_products", Method: "GET", Path: "/products", Tag: "Orders",
			Title: "Products and prices", ReadOnly: true, IdempotentHint: true,
			Summary: "What can be ordered, at current prices (cents, before VAT): code, rules, weeks on offer, options. The billboard is a PAID ranking. Use it to build items for quote_order.",
		}, (*domain.Service).ListProducts),

		Op(Spec{
			Name: "quote_order", Method: "POST", Path: "/orders/quote", Scope: domain.ScopeOrdersWrite, Tag: "Orders",
			Title: "Price an order", IdempotentHint: true,
			Summary: "Prices items with a VAT preview and checks every rule; nothing is saved or charged. Then create_checkout with the same body.",
		}, (*domain.Service).QuoteOrder),

		Op(Spec{
			Name: "create_checkout", Method: "POST", Path: "/orders/checkout", Scope: domain.ScopeOrdersWrite, Idem: true, Status: 201,
			Tag: "Orders", Title: "Create a checkout link",
			Summary: "Creates a pending order from quote_order's body and returns checkout_url: give it to the person, who pays there. Never ask for card details. Then poll get_order until status is paid.",
		}, (*domain.Service).CreateCheckout),

		Op(Spec{
			Name: "list_my_orders", Method: "GET", Path: "/orders", Scope: domain.ScopeAccountRead, Tag: "Orders",
			Title: "My orders", ReadOnly: true, IdempotentHint: true,
			Summary: "Your orders, newest first, with status, totals with VAT and lines.",
		}, (*domain.Service).ListMyOrders),

		Op(Spec{
			Name: "get_order", Method: "GET", Path: "/orders/{number}", Scope: domain.ScopeAccountRead, Tag: "Orders",
			Title: "Get an order", ReadOnly: true, IdempotentHint: true,
			Summary: "One of your orders: status (pending until the person pays at checkout_url, then paid), totals and each line's outcome.",
		}, (*domain.Service).GetOrder),
	}
}
