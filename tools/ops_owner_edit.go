package tools

import "github.com/launchdir/launchdir/domain"

// OwnerEditOperations are the edits of a listing the user owns.
func OwnerEditOperations() []Operation {
	return []Operation{
		Op(Spec{
			Name: "update_my_listing", Method: "PATCH", Path: "/me/listings/{listing_id}", Scope: domain.ScopeListingsWrite, Idem: true,
			Tag: "Own listings", Title: "Edit my listing", Destructive: true, IdempotentHint: true,
			Summary: "Edits one of your listings; the change is public at once (in any status) and kept as a version. Send only " +
				"what changes: fields (tagline max 200, short_description 300, description 20000, pricing_model 40, " +
				"pricing_summary 300, country ISO code, city 120, founded_year 1800-2100 or null, demo_video_url http(s) 500, " +
				"contact_email 254, features/usps/keywords up to 20 items of 200, headline 200, summary 20000, seo_title 200, " +
				"seo_description 320; an empty string or list clears one), socials (links by platform; replaces all, {} clears), " +
				"faqs (up to 10; replaces all, [] clears). apply_to ([\"all\"] or other sites' keys, get_site_info names this " +
				"site) also writes the headline, summary and SEO fields sent to the same company's listings on those sites, " +
				"where you own them or nobody does; others are reported as skipped. Answers the listing as get_my_listing does, " +
				"version (null when nothing changed) and applied_to. The site team reviews every edit and may revert it. " +
				"404 when the listing does not exist or is not yours.",
		}, (*domain.Service).UpdateMyListing),
	}
}
