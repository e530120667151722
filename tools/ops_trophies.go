package tools

import "github.com/launchdir/launchdir/domain"

// TrophyOperations are the trophy cabinets, the trophy leaderboard and the
// Hall of Fame (docs/trophies.md): their own toolset, trophies.
func TrophyOperations() []Operation {
	return []Operation{
		Op(publicRead(Spec{
			Name: "get_trophy_cabinet", Path: "/listings/{slug}/trophies", Tag: "Trophies", Title: "Get a trophy cabinet",
			Summary: "A listing's awards won here and its verified trophies from other launch sites, each saying how and when it was verified; unconfirmed ones say since when.",
		}), (*domain.Service).GetTrophyCabinet),

		Op(publicRead(Spec{
			Name: "get_trophy_leaderboard", Path: "/trophies/leaderboard", Tag: "Trophies", Title: "Trophy leaderboard",
			Summary: "Listings ranked by points of verified trophies, all-time or one year; the answer states the points rule. Not a community or PAID board.",
		}), (*domain.Service).GetTrophyLeaderboard),

		Op(publicRead(Spec{
			Name: "get_hall_of_fame", Path: "/hall-of-fame", Tag: "Trophies", Title: "Hall of Fame",
			Summary: "The Hall of Fame: every Launch of the Week #1 winner, grouped by year (newest year first), with the votes that decided it.",
		}), (*domain.Service).GetHallOfFame),

		Op(Spec{
			Name: "list_my_trophies", Method: "GET", Path: "/me/listings/{listing_id}/trophies", Scope: domain.ScopeAccountRead,
			Tag: "Trophies", Title: "My trophy cabinet", ReadOnly: true, IdempotentHint: true,
			Summary: "Your listing's cabinet with every trophy: pending, verified, rejected (with the reason) and unconfirmed.",
		}, (*domain.Service).ListMyTrophies),

		Op(Spec{
			Name: "add_trophy", Method: "POST", Path: "/me/listings/{listing_id}/trophies", Scope: domain.ScopeListingsWrite,
			Idem: true, Status: 201, Tag: "Trophies", Title: "Add a trophy", OpenWorld: true,
			Summary: "Adds an award won on another site to your listing's cabinet; pending until its award page is read and names the listing (see list_my_trophies).",
		}, (*domain.Service).AddTrophy),

		Op(Spec{
			Name: "delete_trophy", Method: "DELETE", Path: "/me/listings/{listing_id}/trophies/{trophy_id}", Scope: domain.ScopeListingsWrite,
			Idem: true, Tag: "Trophies", Title: "Delete a trophy", Destructive: true,
			Summary: "Removes a trophy you added from your listing's cabinet and returns it.",
		}, (*domain.Service).DeleteTrophy),
	}
}
