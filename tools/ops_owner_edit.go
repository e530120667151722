package tools

import "github.com/launchdir/launchdir/domain"

// OwnerEditOperations are the edits of a listing the user owns.
func OwnerEditOperations() []Operation {
	return []Operation{
		Op(Spec{
			Name: "update_my_listing", Method: "PATCH", Path: "/me/listings/{listing_id}", Scope: domain.ScopeListingsWrite, Idem: true,
			Tag: "Own listings", Title: "Edit my listing", Destructive: true, IdempotentHint: true,
			Summary: "Edits one of your listings, public at once and kept as a version; send only what changes: fields (empty clears), socials and faqs (replace all). apply_to also writes headline, summary and SEO to the company's listings on other sites. The site team may revert edits.",
		}, (*domain.Service).UpdateMyListing),
	}
}
