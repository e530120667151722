package tools

import "github.com/launchdir/launchdir/domain"

// OwnerFreeOperations are the free launch's operations (docs/free-launch.md).
func OwnerFreeOperations() []Operation {
	return []Operation{
		Op(Spec{
			Name: "choose_free_listing", Method: "POST", Path: "/me/listings/{listing_id}/free", Scope: domain.ScopeListingsWrite,
			Idem: true, Tag: "Own listings", Title: "Launch free (badge on the homepage)", IdempotentHint: true, OpenWorld: true,
			Summary: "Puts one of your listings (draft or submitted, free plan) in the free launch queue: it gets the earliest launch " +
				"week (a Monday) 6-8 weeks out (site setting) with room, status awaiting_badge, and our badge is looked for on its " +
				"homepage (its url) at once and then every few hours. Any link to the listing's page here counts: badge.embed_html, " +
				"any other badge shape, mode or size of get_badges, or a plain text link. Found, the listing is scheduled for its " +
				"week and goes live when the week starts. Returns the listing (status, launch_week, queue_position, " +
				"expected_launch_date), the badge code, the check schedule and the last check. Already awaiting_badge: it keeps " +
				"its week and the homepage is checked again now, so call it again after adding the badge. 409 when every free week " +
				"is full (a paid launch via create_checkout needs no queue), and for scheduled, live, paid, rejected or archived " +
				"listings, saying what to do. 404 when the listing is not yours.",
		}, (*domain.Service).ChooseFreeListing),
	}
}
