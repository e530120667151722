package tools

import "github.com/launchdir/launchdir/domain"

// OwnerOperations are the signed-in operations on the listings a user owns.
func OwnerOperations() []Operation {
	return []Operation{
		Op(Spec{
			Name: "list_my_listings", Method: "GET", Path: "/me/listings", Scope: domain.ScopeAccountRead, Tag: "Own listings",
			Title: "My listings", ReadOnly: true, IdempotentHint: true,
			Summary: "Lists every listing the signed-in user owns, in any status (draft, submitted, awaiting_badge, scheduled, " +
				"live, ...), newest first, with plan, launch week and unlocked paid sections. Use the id as listing_id.",
		}, (*domain.Service).ListMyListings),

		Op(Spec{
			Name: "get_my_listing", Method: "GET", Path: "/me/listings/{listing_id}", Scope: domain.ScopeAccountRead, Tag: "Own listings",
			Title: "Get my listing", ReadOnly: true, IdempotentHint: true,
			Summary: "Returns one of your listings: status, plan (free or paid), launch week, unlocked paid sections, the whole " +
				"profile (with every paid section you wrote) and next: what you can do now (publish free or paid, wait for the " +
				"week). 404 when the listing does not exist or is not yours.",
		}, (*domain.Service).GetMyListing),
	}
}
