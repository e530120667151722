package tools

import "github.com/launchdir/launchdir/domain"

// ClaimOperations claim an existing listing by proving control of its
// domain, and read the caller's claims back.
func ClaimOperations() []Operation {
	return []Operation{
		Op(Spec{
			Name: "claim_listing", Method: "POST", Path: "/claims", Scope: domain.ScopeListingsWrite, Idem: true, Status: 201,
			NotFound: true, Tag: "Claims", Title: "Claim a listing",
			Summary: "Starts a claim of a public (scheduled or live) listing by slug, to become a co-owner by proving control of its " +
				"domain. method dns: publish a TXT record (_launchdir-claim.<domain> = launchdir-claim=<token>); meta: a " +
				"<meta name=\"launchdir-claim\" content=\"<token>\"> in the homepage head; file: serve the token at " +
				"/.well-known/launchdir-claim.txt; email: a link is mailed to email, an address at the listing's registrable " +
				"domain or a subdomain (any other domain is a 400), and the person opens it and presses Confirm. The answer is " +
				"the claim (id, status pending, expires_at, 7 days) with instructions saying exactly what to publish; then call " +
				"verify_claim. Claiming again with the same method returns the same claim and token; another method replaces " +
				"it. 404 when no public listing has the slug; 409 when you already own it.",
		}, (*domain.Service).ClaimListing),

		Op(Spec{
			Name: "verify_claim", Method: "POST", Path: "/claims/{claim_id}/verify", Scope: domain.ScopeListingsWrite, Idem: true,
			Tag: "Claims", Title: "Verify a claim", OpenWorld: true,
			Summary: "Checks a pending dns, meta or file claim now: the TXT record through DNS, the meta tag or the file through one " +
				"read of the site (redirects on the same host only). Found: the claim is verified, you become an owner of the " +
				"listing (list_my_listings, get_my_listing, update_my_listing) and it is marked verified; verified is not paid, " +
				"the plan is unchanged. Not found yet: 200 with status still pending and last_check: looked_for (kind, where, " +
				"value), seen (the TXT values, meta tag contents or file lines found, the HTTP status, a body excerpt, or the " +
				"error) and message (what to fix). Fix it and call again; a new DNS record may take minutes to be seen. A pending " +
				"answer is never replayed for an idempotency_key, so calling again with the same key checks again. 409 when the " +
				"claim expired or was replaced (claim again) or is an email claim (open the mailed link instead); 404 when the " +
				"claim is not yours.",
		}, (*domain.Service).VerifyClaim),

		Op(Spec{
			Name: "list_my_claims", Method: "GET", Path: "/claims", Scope: domain.ScopeAccountRead, Tag: "Claims",
			Title: "My claims", ReadOnly: true, IdempotentHint: true,
			Summary: "Lists your claims, newest first, with status (pending, verified, expired, replaced), the instructions of " +
				"what to publish (the token included), the last check that did not find the proof (last_check), and what to do next.",
		}, (*domain.Service).ListMyClaims),
	}
}
