package tools

import "github.com/launchdir/launchdir/domain"

// OwnerFreeOperations are the free launch's operations (docs/free-launch.md).
func OwnerFreeOperations() []Operation {
	return []Operation{
		Op(Spec{
			Name: "choose_free_listing", Method: "POST", Path: "/me/listings/{listing_id}/free", Scope: domain.ScopeListingsWrite,
			Idem: true, Tag: "Own listings", Title: "Launch free (badge on the homepage)", IdempotentHint: true, OpenWorld: true,
			Summary: "Puts your listing in the free launch queue (a week 6-8 weeks out) once our badge or a link to its page is on its homepage; checked now and every few hours, call again after adding it. conflict: no free week left (a paid launch via create_checkout needs no queue) or wrong status.",
		}, (*domain.Service).ChooseFreeListing),
	}
}
