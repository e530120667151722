package storage

import (
	"context"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/demo"
)

// TestSeedDemo_ThroughService loads the demo data the way the server does
// (seed first, then NewStore) and asks the example questions through
// domain.Service.
func TestSeedDemo_ThroughService(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := seededDB(t, demoNow)
	st, err := NewStore(context.Background(), db, demoSite)
	if err != nil {
		t.Fatal(err)
	}
	svc := domain.NewService(st, demoSite, func() time.Time { return demoNow })
	if _, err := svc.TurnWeeks(ctx); err != nil { // as serve's weekly clock does at start
		t.Fatal(err)
	}

	t.Run("WhatLaunchedThisWeek", func(t *testing.T) {
		w, err := svc.GetLaunchWeek(ctx, domain.GetLaunchWeekInput{Week: "this"})
		if err != nil {
			t.Fatal(err)
		}
		if len(w.Items) < 15 || w.Week != "2026-11-16" {
			t.Errorf("this week %s: %d launches, want at least 15", w.Week, len(w.Items))
		}
		next, err := svc.GetLaunchWeek(ctx, domain.GetLaunchWeekInput{Week: "next"})
		if err != nil {
			t.Fatal(err)
		}
		if len(next.Scheduled) == 0 {
			t.Error("next week has no scheduled launches")
		}
	})
	t.Run("TypoTolerantSearch", func(t *testing.T) {
		out, err := svc.SearchListings(ctx, domain.SearchListingsInput{Q: "notetakng app"})
		if err != nil {
			t.Fatal(err)
		}
		var slugs []string
		for _, it := range out.Items {
			slugs = append(slugs, it.Slug)
		}
		if !slices.Contains(slugs, "notewise") {
			t.Errorf("search 'notetakng app' = %v, want notewise among them", slugs)
		}
	})
	t.Run("Compare", func(t *testing.T) {
		out, err := svc.CompareListings(ctx, domain.CompareListingsInput{A: "notewise", B: "jotstack"})
		if err != nil {
			t.Fatal(err)
		}
		differ := 0
		for _, r := range out.Rows {
			if r.A != "" && r.B != "" && r.A != r.B {
				differ++
			}
		}
		if differ < 4 {
			t.Errorf("notewise vs jotstack: %d rows with two different stated values, want at least 4: %+v", differ, out.Rows)
		}
	})
	t.Run("Profile", func(t *testing.T) {
		l, err := svc.GetListing(ctx, domain.SlugInput{Slug: "notewise"})
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Founders) != 2 || l.Story == nil || l.Story.WhyStarted == "" || len(l.FAQs) < 2 || len(l.Features) < 4 {
			t.Errorf("notewise profile incomplete: founders %d, story %v, faqs %d, features %d", len(l.Founders), l.Story, len(l.FAQs), len(l.Features))
		}
	})
	t.Run("GenuineRating", func(t *testing.T) {
		var slug string
		var genuineAvg float64
		var genuineCount int
		if err := db.sql.QueryRow(`SELECT l.slug, AVG(r.stars), COUNT(*) FROM listings l JOIN reviews r ON r.listing_id = l.id AND r.status = 'counted'
			WHERE EXISTS (SELECT 1 FROM reviews x WHERE x.listing_id = l.id AND x.status = 'held') GROUP BY l.id ORDER BY l.id LIMIT 1`).Scan(&slug, &genuineAvg, &genuineCount); err != nil {
			t.Fatal(err)
		}
		l, err := svc.GetListing(ctx, domain.SlugInput{Slug: slug})
		if err != nil {
			t.Fatal(err)
		}
		if r := l.CommunityRating; r == nil || r.Count != genuineCount || math.Abs(r.Average-genuineAvg) > 0.051 || l.Reviews.Count != genuineCount {
			t.Errorf("%s rating %+v, want %.2f over %d genuine reviews", slug, l.CommunityRating, genuineAvg, genuineCount)
		}
	})
	t.Run("Counts", func(t *testing.T) {
		info, err := svc.GetSiteInfo(ctx, domain.Empty{})
		if err != nil {
			t.Fatal(err)
		}
		founders, err := svc.ListFounders(ctx, domain.ListFoundersInput{})
		if err != nil {
			t.Fatal(err)
		}
		posts, err := svc.ListBlogPosts(ctx, domain.ListBlogPostsInput{})
		if err != nil {
			t.Fatal(err)
		}
		awards, err := svc.ListAwards(ctx, domain.ListAwardsInput{})
		if err != nil {
			t.Fatal(err)
		}
		if info.LiveListings < 300 || info.Categories < 25 || founders.Total != demo.FounderCount()+len(demo.Generate(demoNow).Teams) || posts.Total != 10 || awards.Total != 3*demo.PastWeeks {
			t.Errorf("live %d, categories %d, founders %d, posts %d, awards %d", info.LiveListings, info.Categories, founders.Total, posts.Total, awards.Total)
		}
	})
}
