package tools

import "github.com/launchdir/launchdir/domain"

// OwnerOperations are the signed-in operations on the listings a user owns.
func OwnerOperations() []Operation {
	return []Operation{
		Op(Spec{
			Name: "list_my_listings", Method: "GET", Path: "/me/listings", Scope: domain.ScopeAccountRead, Tag: "Own listings",
			Title: "My listings", ReadOnly: true, IdempotentHint: true,
			Summary: "Every listing you own, any status, newest first, with plan and launch week. Use id as listing_id.",
		}, (*domain.Service).ListMyListings),

		Op(Spec{
			Name: "get_my_listing", Method: "GET", Path: "/me/listings/{listing_id}", Scope: domain.ScopeAccountRead, Tag: "Own listings",
			Title: "Get my listing", ReadOnly: true, IdempotentHint: true,
			Summary: "One of your listings: status, plan, launch week, the whole profile and next (what you can do now).",
		}, (*domain.Service).GetMyListing),
	}
}
