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
			Summary: "Posts a news update (title, plain-text body) on your listing; shown at once when public, and followers are told (followers_told).",
		}, (*domain.Service).PostListingUpdate),

		Op(Spec{
			Name: "add_milestone", Method: "POST", Path: "/me/listings/{listing_id}/milestones", Scope: domain.ScopeListingsWrite,
			Idem: true, Status: 201, Tag: "Own listings", Title: "Add a milestone",
			Summary: "Adds a dated milestone to your listing (at most 50). Milestones are a paid section: public only on the paid plan or when unlocked.",
		}, (*domain.Service).AddMilestone),

		Op(Spec{
			Name: "delete_milestone", Method: "DELETE", Path: "/me/listings/{listing_id}/milestones/{milestone_id}",
			Scope: domain.ScopeListingsWrite, Idem: true, Tag: "Own listings", Title: "Delete a milestone", Destructive: true,
			Summary: "Deletes one milestone of your listing (ids from get_my_listing) and returns it.",
		}, (*domain.Service).DeleteMilestone),

		Op(Spec{
			Name: "set_founder_story", Method: "PUT", Path: "/me/listings/{listing_id}/story", Scope: domain.ScopeListingsWrite,
			Idem: true, Tag: "Own listings", Title: "Set the founder story", Destructive: true, IdempotentHint: true,
			Summary: "Replaces your listing's whole founder story (title and sections; left-out sections are removed). A paid section: public only on the paid plan or when unlocked.",
		}, (*domain.Service).SetFounderStory),

		Op(Spec{
			Name: "answer_interview", Method: "PUT", Path: "/me/interview", Scope: domain.ScopeListingsWrite,
			Idem: true, Tag: "Own listings", Title: "Answer the founder interview", IdempotentHint: true,
			Summary: "Sets your answers to interview questions (ids from list_interview_questions); an empty answer removes one. Shown on your scheduled and live listings.",
		}, (*domain.Service).AnswerInterview),
	}
}
