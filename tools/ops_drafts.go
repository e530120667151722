package tools

import "github.com/launchdir/launchdir/domain"

// DraftOperations are the signed-in operations that turn a product URL into a
// listing: submit, poll, edit, invite, submit as a listing.
func DraftOperations() []Operation {
	return []Operation{
		Op(Spec{
			Name: "submit_listing", Method: "POST", Path: "/drafts", Scope: domain.ScopeListingsWrite, Idem: true, Status: 201,
			Tag: "Drafts", Title: "Submit a product by URL", OpenWorld: true,
			Summary: "Starts a listing draft from a product's web site: the service reads the site (respecting robots.txt) and drafts " +
				"every profile field with evidence quotes from its pages, in the background (usually seconds, at most about a minute). " +
				"Returns the draft with status crawling; existing_listing names a listing the site already has. Then call get_draft with its id every 3-5 seconds until status is ready " +
				"(or failed), review and edit with update_draft, and save it with submit_draft. Nothing is published or charged. " +
				"Send an idempotency_key (any unique string) so a retried call does not start a second draft.",
		}, (*domain.Service).SubmitListing),

		Op(Spec{
			Name: "list_my_drafts", Method: "GET", Path: "/drafts", Scope: domain.ScopeAccountRead,
			Tag: "Drafts", Title: "My drafts", ReadOnly: true, IdempotentHint: true,
			Summary: "Lists the signed-in user's drafts, newest first, with status (crawling, drafting, ready, failed), " +
				"completeness (0-100; absent while the draft is being built) and the listing_id once submitted. Use get_draft for a full draft.",
		}, (*domain.Service).ListMyDrafts),

		Op(Spec{
			Name: "get_draft", Method: "GET", Path: "/drafts/{id}", Scope: domain.ScopeAccountRead,
			Tag: "Drafts", Title: "Get a draft", ReadOnly: true, IdempotentHint: true,
			Summary: "Returns one draft. While status is crawling or drafting, progress says the phase and how far it is, every " +
				"field is state pending and completeness is absent; call again after poll_after_seconds (every few seconds). When " +
				"ready, fields holds every profile field with its value, state (ai, not_found, edited, manual, override, deleted) " +
				"and evidence (quotes from the site with the page URL); " +
				"not_found_on_website lists facts the site does not state: ask the person for them rather than guessing. " +
				"completeness and missing say what is still empty. 404 when the draft does not exist or is not yours.",
		}, (*domain.Service).GetDraft),

		Op(Spec{
			Name: "update_draft", Method: "PATCH", Path: "/drafts/{id}", Scope: domain.ScopeListingsWrite, Idem: true,
			Tag: "Drafts", Title: "Edit a draft", Destructive: true, OpenWorld: true,
			Summary: "Edits a ready draft; send only what changes. fields sets profile values (null removes one; typed values " +
				"become edited or manual); lock_fields locks fields against AI redrafts (state override); restore puts back the AI's " +
				"original; regenerate (up to 5 names) redrafts fields from the site's evidence (a typed value the site does not state " +
				"is kept, with a note; one the site states is replaced and kept in typed_value); faqs, founders (first is primary, " +
				"max 6) and milestones replace their lists; company_socials, founder_socials, story and seo merge. competitor_url " +
				"reads a competitor's site and adds a comparison (empty string clears). If the draft was already submitted, " +
				"its listing is updated too. 409 while the draft is still being built.",
		}, (*domain.Service).UpdateDraft),

		Op(Spec{
			Name: "invite_cofounder", Method: "POST", Path: "/drafts/{id}/invites", Scope: domain.ScopeListingsWrite, Idem: true, Status: 201,
			Tag: "Drafts", Title: "Invite a co-founder",
			Summary: "Emails a co-founder a link to add their own founder profile (name, role, bio) to this draft after signing " +
				"in. Up to 10 invites per listing; inviting the same address again sends a new link and does not count twice.",
		}, (*domain.Service).InviteCofounder),

		Op(Spec{
			Name: "submit_draft", Method: "POST", Path: "/drafts/{id}/submit", Scope: domain.ScopeListingsWrite, Idem: true,
			Tag: "Drafts", Title: "Save a draft as a listing", IdempotentHint: true,
			Summary: "Saves a ready draft as the user's listing, not yet published, and returns its listing_id. Running it again " +
				"after edits updates the same listing (and update_draft on a submitted draft updates it too). To publish, use " +
				"choose_free_listing, or create_checkout with product launch and this listing_id. 400 names what is missing " +
				"(a listing needs at least a name). 409 when the site (its registrable domain) already has a listing, as the " +
				"draft's existing_listing says: claim_listing takes over someone else's, update_my_listing edits your own.",
		}, (*domain.Service).SubmitDraft),
	}
}
