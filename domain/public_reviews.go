package domain

// Reviews are written by signed-in people on the site (docs/reviews.md).
// A review counts in community_rating and is shown when its status is
// ReviewCounted; it is held by the holding rules of votes (HeldNewAccount,
// HeldOwner, HeldBurst) or, in the demo data, HeldFlagged.

// Review statuses and the reason a review is held besides those of votes.
const (
	ReviewCounted   = "counted"
	ReviewHeld      = "held"
	ReviewDiscarded = "discarded"
	ReviewHidden    = "hidden"
	HeldFlagged     = "flagged"
)
