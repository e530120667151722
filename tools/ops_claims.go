package tools

import "github.com/launchdir/launchdir/domain"

// ClaimOperations claim an existing listing by proving control of its
// domain, and read the caller's claims back.
func ClaimOperations() []Operation {
	return []Operation{
		Op(Spec{
			Name: "claim_listing", Method: "POST", Path: "/claims", Scope: domain.ScopeListingsWrite, Idem: true, Status: 201,
			NotFound: true, Tag: "Claims", Title: "Claim a listing",
			Summary: "Starts a claim of a public listing by slug, proving control of its domain by a method. The answer says exactly what to publish; then call verify_claim (email: the person opens the mailed link).",
		}, (*domain.Service).ClaimListing),

		Op(Spec{
			Name: "verify_claim", Method: "POST", Path: "/claims/{claim_id}/verify", Scope: domain.ScopeListingsWrite, Idem: true,
			Tag: "Claims", Title: "Verify a claim", OpenWorld: true,
			Summary: "Checks a pending dns, meta or file claim now. Verified: you co-own the listing (not a paid plan). Still pending: last_check says what was looked for and seen; fix it and call again (DNS may take minutes).",
		}, (*domain.Service).VerifyClaim),

		Op(Spec{
			Name: "list_my_claims", Method: "GET", Path: "/claims", Scope: domain.ScopeAccountRead, Tag: "Claims",
			Title: "My claims", ReadOnly: true, IdempotentHint: true,
			Summary: "Your claims, newest first, with status, what to publish and the last failed check.",
		}, (*domain.Service).ListMyClaims),
	}
}
