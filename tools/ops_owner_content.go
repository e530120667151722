package tools

import "github.com/launchdir/launchdir/domain"

// OwnerContentOperations are what owners write besides the listing's fields:
// updates (followers are told), milestones, the founder story and the
// account's interview answers.
func OwnerContentOperations() []Operation {
	return []Operation{
		Op(Spec{
			Name: "post_listing_update", Method: "POST", Path: "/me/listings/{listing_id}/updates", Scope: domain.ScopeListingsWrite,
			Idem: true, Status: 201, Tag: "Own listings", Title: "Post an update",
			Summary: "Posts a news update (title 1-200 characters, one line; body 1-5000 characters of plain text, shown as typed, " +
				"never as HTML) on one of your listings. When the listing is public (scheduled or live) the update shows on its page " +
				"and on the site's latest-updates page at once, and every signed-in follower is told by mail and in their " +
				"notifications (followers_told says how many). Updates of a listing that is not public yet are kept and appear " +
				"once it is; nobody is told then. Send an idempotency_key so a retry does not post twice. 404 when the listing " +
				"is not yours.",
		}, (*domain.Service).PostListingUpdate),

		Op(Spec{
			Name: "add_milestone", Method: "POST", Path: "/me/listings/{listing_id}/milestones", Scope: domain.ScopeListingsWrite,
			Idem: true, Status: 201, Tag: "Own listings", Title: "Add a milestone",
			Summary: "Adds a dated milestone (date: a real calendar date YYYY-MM-DD; title 1-200 characters; description up to 2000; " +
				"url an https link up to 500) to one of your listings, at most 50 per listing (409 past that: delete_milestone " +
				"first). Milestones are a paid section: public is true only when the listing is on the paid plan or has the " +
				"milestones section unlocked, and is scheduled or live. Returns the milestone with its id. 404 when the listing " +
				"is not yours.",
		}, (*domain.Service).AddMilestone),

		Op(Spec{
			Name: "delete_milestone", Method: "DELETE", Path: "/me/listings/{listing_id}/milestones/{milestone_id}",
			Scope: domain.ScopeListingsWrite, Idem: true, Tag: "Own listings", Title: "Delete a milestone", Destructive: true,
			Summary: "Deletes one milestone of one of your listings and returns what was deleted. get_my_listing lists the " +
				"milestones with their ids. 404, worded the same, when the milestone is not on that listing or the listing is " +
				"not yours.",
		}, (*domain.Service).DeleteMilestone),

		Op(Spec{
			Name: "set_founder_story", Method: "PUT", Path: "/me/listings/{listing_id}/story", Scope: domain.ScopeListingsWrite,
			Idem: true, Tag: "Own listings", Title: "Set the founder story", Destructive: true, IdempotentHint: true,
			Summary: "Replaces the whole founder story of one of your listings: title (one line, up to 200 characters) and the " +
				"sections story, why_started, problem, journey, challenges, achievements, lessons, whats_next (plain text, up to " +
				"8000 each), all optional; a section left out is removed, and an all-empty body clears the story. The story is a " +
				"paid section, published with the listing: public is true only when the listing is on the paid plan or has the " +
				"story section unlocked, and is scheduled or live. 404 when the listing is not yours.",
		}, (*domain.Service).SetFounderStory),

		Op(Spec{
			Name: "answer_interview", Method: "PUT", Path: "/me/interview", Scope: domain.ScopeListingsWrite,
			Idem: true, Tag: "Own listings", Title: "Answer the founder interview", IdempotentHint: true,
			Summary: "Sets your answers to the founder interview questions (list_interview_questions gives the ids): 1-30 answers " +
				"per call, each question once, answer plain text up to 4000 characters; an empty answer removes your answer to " +
				"that question, and questions not sent keep their answers. Answers belong to your account and show in an " +
				"Interview section on the public page of each of your scheduled and live listings (published_on). Returns every " +
				"answer of your account with its question.",
		}, (*domain.Service).AnswerInterview),
	}
}
