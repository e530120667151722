package tools

import "github.com/launchdir/launchdir/domain"

// DraftOperations are the signed-in operations that turn a product URL into a
// listing: submit, poll, edit, invite, submit as a listing.
func DraftOperations() []Operation {
	return []Operation{
		Op(Spec{
			Name: "submit_listing", Method: "POST", Path: "/drafts", Scope: domain.ScopeListingsWrite, Idem: true, Status: 201,
			Tag: "Drafts", Title: "Submit a product by URL", OpenWorld: true,
			Summary: "Starts a listing draft from a product's URL: the service reads the site and drafts every field in the background. Then call get_draft with the id every poll_after_seconds until status is ready or failed, edit with update_draft, save with submit_draft. Nothing is published or charged.",
		}, (*domain.Service).SubmitListing),

		Op(Spec{
			Name: "list_my_drafts", Method: "GET", Path: "/drafts", Scope: domain.ScopeAccountRead,
			Tag: "Drafts", Title: "My drafts", ReadOnly: true, IdempotentHint: true,
			Summary: "Your drafts, newest first, with status, completeness and listing_id once submitted. Then get_draft.",
		}, (*domain.Service).ListMyDrafts),

		Op(Spec{
			Name: "get_draft", Method: "GET", Path: "/drafts/{id}", Scope: domain.ScopeAccountRead,
			Tag: "Drafts", Title: "Get a draft", ReadOnly: true, IdempotentHint: true,
			Summary: "One draft. While status is crawling or drafting, call again after poll_after_seconds. When ready, fields have value, state and evidence; ask the person for facts in not_found_on_website rather than guessing. missing lists empty fields.",
		}, (*domain.Service).GetDraft),

		Op(Spec{
			Name: "update_draft", Method: "PATCH", Path: "/drafts/{id}", Scope: domain.ScopeListingsWrite, Idem: true,
			Tag: "Drafts", Title: "Edit a draft", Destructive: true, OpenWorld: true,
			Summary: "Edits a ready draft; send only what changes. fields set values (null removes); lock_fields, restore and regenerate steer the AI; faqs, founders, milestones replace their lists; socials, story, seo merge. A submitted draft updates its listing too.",
		}, (*domain.Service).UpdateDraft),

		Op(Spec{
			Name: "invite_cofounder", Method: "POST", Path: "/drafts/{id}/invites", Scope: domain.ScopeListingsWrite, Idem: true, Status: 201,
			Tag: "Drafts", Title: "Invite a co-founder",
			Summary: "Emails a co-founder a link to add their own founder profile to this draft (up to 10 invites per listing).",
		}, (*domain.Service).InviteCofounder),

		Op(Spec{
			Name: "submit_draft", Method: "POST", Path: "/drafts/{id}/submit", Scope: domain.ScopeListingsWrite, Idem: true,
			Tag: "Drafts", Title: "Save a draft as a listing", IdempotentHint: true,
			Summary: "Saves a ready draft as your unpublished listing and returns listing_id; again after edits updates it. Publish with choose_free_listing, or create_checkout (product launch). conflict: the domain already has a listing (claim_listing, or update_my_listing if yours).",
		}, (*domain.Service).SubmitDraft),
	}
}
