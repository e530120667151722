package domain_test

import (
	"context"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestService_OwnerContentAndMyListings: an owner lists and reads their
// listings, adds and deletes a milestone, sets the founder story and answers
// the interview, through the service on the demo data, on SQLite and
// PostgreSQL; someone else's listing is not found and nothing is stored.
func TestService_OwnerContentAndMyListings(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		env := newEnvOn(t, engine, true)
		ctx := fixtures.Caller(t, env.DB, context.Background(), "maker@example.com")
		fixtures.User(t, env.DB, "someone@example.com")
		mine := fixtures.Listing(t, env.DB, "maker@example.com", fixtures.Cols{"status": "live", "plan": "paid"})
		theirs := fixtures.Listing(t, env.DB, "someone@example.com", fixtures.Cols{"status": "live"})
		svc := env.Service

		list, err := svc.ListMyListings(ctx, domain.ListMyListingsInput{})
		if err != nil || len(list.Items) != 1 || list.Items[0].ID != mine || list.Items[0].Status != "live" {
			t.Fatalf("list_my_listings: %+v, %v; want the one live listing", list, err)
		}
		got, err := svc.GetMyListing(ctx, domain.GetMyListingInput{ListingID: mine})
		if err != nil || got.ID != mine {
			t.Fatalf("get_my_listing: %+v, %v", got, err)
		}
		if _, err := svc.GetMyListing(ctx, domain.GetMyListingInput{ListingID: theirs}); domain.ErrorCode(err) != domain.ENotFound {
			t.Errorf("get_my_listing of someone else's listing: %v, want not found", err)
		}

		m, err := svc.AddMilestone(ctx, domain.AddMilestoneInput{ListingID: mine, Date: "2026-10-01", Title: "Public beta"})
		if err != nil || m.Milestone.ID == 0 || !m.Public {
			t.Fatalf("add_milestone: %+v, %v; want a public milestone", m, err)
		}
		if _, err := svc.AddMilestone(ctx, domain.AddMilestoneInput{ListingID: theirs, Date: "2026-10-01", Title: "Theirs"}); domain.ErrorCode(err) != domain.ENotFound {
			t.Errorf("add_milestone on someone else's listing: %v, want not found", err)
		}
		if n := fixtures.Count(t, env.DB, "milestones", fixtures.Cols{"listing_id": mine}); n != 1 {
			t.Errorf("milestones stored: %d, want 1", n)
		}
		if _, err := svc.DeleteMilestone(ctx, domain.DeleteMilestoneInput{ListingID: mine, MilestoneID: m.Milestone.ID}); err != nil {
			t.Fatal(err)
		}
		if n := fixtures.Count(t, env.DB, "milestones", fixtures.Cols{"listing_id": mine}); n != 0 {
			t.Errorf("milestones after delete_milestone: %d, want 0", n)
		}

		story, err := svc.SetFounderStory(ctx, domain.SetFounderStoryInput{ListingID: mine, Title: "How it began", Story: "We needed it."})
		if err != nil || story.Story.Title != "How it began" || story.Cleared {
			t.Fatalf("set_founder_story: %+v, %v", story, err)
		}
		if _, err := svc.SetFounderStory(ctx, domain.SetFounderStoryInput{ListingID: theirs, Story: "x"}); domain.ErrorCode(err) != domain.ENotFound {
			t.Errorf("set_founder_story on someone else's listing: %v, want not found", err)
		}

		qs, err := svc.ListInterviewQuestions(ctx, domain.Empty{})
		if err != nil || len(qs.Items) < 2 {
			t.Fatalf("interview questions: %+v, %v", qs, err)
		}
		ans, err := svc.AnswerInterview(ctx, domain.AnswerInterviewInput{Answers: []domain.InterviewAnswerInput{
			{QuestionID: qs.Items[1].ID, Answer: "Second."}, {QuestionID: qs.Items[0].ID, Answer: "First."}}})
		if err != nil || len(ans.Items) != 2 || ans.Items[0].Answer != "First." || ans.Items[1].Answer != "Second." {
			t.Fatalf("answer_interview: %+v, %v; want both answers in question order", ans, err)
		}
		ans, err = svc.AnswerInterview(ctx, domain.AnswerInterviewInput{Answers: []domain.InterviewAnswerInput{{QuestionID: qs.Items[0].ID}}})
		if err != nil || len(ans.Items) != 1 || ans.Items[0].Answer != "Second." {
			t.Errorf("an empty answer removes it: %+v, %v", ans, err)
		}
	})
}
