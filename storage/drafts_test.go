package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/launchdir/launchdir/domain"
)

// mkDraftUser inserts a user and returns its id (drafts and listings reference users).
func mkDraftUser(t *testing.T, db *DB, email string) int64 {
	t.Helper()
	return putRow(t, db, "users", cols{"issuer": "urn:launchdir:email", "subject": email, "email": email, "created_at": 0})
}

// wantDomainErr fails unless err is a *domain.Error with code, and returns it.
func wantDomainErr(t *testing.T, err error, code domain.Code, what string) *domain.Error {
	t.Helper()
	var de *domain.Error
	if !errors.As(err, &de) || de.Code != code {
		t.Fatalf("%s: err = %v, want code %s", what, err, code)
	}
	return de
}

func draftMust(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// fullDraft is a draft with every field set; JSON-decoded values ([]any for
// lists) are used where the type is any, so that a round trip is exact.
func fullDraft(userID int64) *domain.DraftRecord {
	ev := []domain.Evidence{{Quote: "Notes for teams", URL: "https://ex.test/"}}
	return &domain.DraftRecord{
		ID: "6f1c1f0e-0000-4000-8000-000000000001", UserID: userID, URL: "https://ex.test/",
		Status: domain.DraftFailed, Phase: "drafting", PagesDone: 3, PagesPlanned: 7,
		Error: &domain.DraftError{Reason: "robots", Message: "robots.txt forbids it."},
		Doc: domain.DraftDoc{
			Fields: map[string]*domain.DraftField{
				"name":         {Value: "Ex", State: domain.StateAI, Evidence: ev},
				"tagline":      {Value: "Team notes", State: domain.StateEdited, Evidence: ev, AIValue: "Notes for teams"},
				"features":     {Value: []any{"Markdown", "Sync"}, State: domain.StateOverride},
				"founded_year": {Value: nil, State: domain.StateNotFound},
			},
			FAQs: []domain.DraftFAQ{{Question: "Free?", Answer: "Yes.", Evidence: ev}},
			Founders: []domain.DraftFounder{{Name: "Ann Lee", Title: "CEO", Bio: "Builds.", Evidence: ev,
				Socials: domain.Socials{"x": "https://x.test/ann"}}, {Name: "Bo", Invited: "bo@ex.test"}},
			CompanySocials: domain.Socials{"github": "https://github.test/ex"},
			FounderSocials: domain.Socials{"linkedin": "https://li.test/ann"},
			Story:          domain.Story{Title: "Why", WhyStarted: "Lost notes."},
			Milestones:     []domain.Milestone{{Date: "2025-01-02", Title: "Beta", URL: "https://ex.test/beta"}},
			CompetitorURL:  "https://other.test",
			Competitor: &domain.CompetitorComparison{URL: "https://other.test", Name: "Other", ReadAt: "2026-11-18T12:00:00Z",
				Rows:     []domain.CompetitorRow{{Field: "pricing_model", Ours: "freemium", Theirs: "subscription"}},
				OnlyOurs: []string{"Sync"}, OnlyTheirs: []string{"Chat"}},
			SEO:    domain.DraftSEO{Title: "Ex notes", Meta: "Team notes in markdown."},
			Edited: []string{"faqs", "story"},
		},
		AI: &domain.Drafted{
			Fields:   map[string]domain.DraftedValue{"name": {Text: "Ex", Evidence: ev}, "features": {List: []string{"Markdown"}, Evidence: ev}},
			FAQs:     []domain.DraftedFAQ{{FAQ: domain.FAQ{Question: "Free?", Answer: "Yes."}, Evidence: ev}},
			Founders: []domain.DraftedFounder{{Name: "Ann Lee", Title: "CEO", Evidence: ev}},
			Socials:  map[string]domain.DraftedLink{"github": {URL: "https://github.test/ex", Evidence: ev}},
			Story:    map[string]domain.DraftedSection{"why_started": {Text: "Lost notes.", Evidence: ev}},
			Milestones: []domain.DraftedMilestone{{Milestone: domain.Milestone{Date: "2025-01-02", Title: "Beta"},
				Evidence: ev}},
		},
		Crawl: &domain.SiteCrawl{URL: "https://ex.test", Pages: []domain.WebPage{{URL: "https://ex.test/", Title: "Ex",
			HTML: "<h1>Ex</h1>", Text: "Ex\nNotes for teams", Data: []string{"Ex — notes"}}},
			Disallowed: []string{"https://ex.test/private"}, Skipped: []domain.SkippedPage{{URL: "https://ex.test/big", Reason: "too_large"}}},
		ListingID: 1,
		CreatedAt: fxNow, UpdatedAt: fxNow.Add(time.Minute),
	}
}

func TestDraftStore_RoundTrip(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		db, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()
		uid := mkDraftUser(t, db, "ann@ex.test")

		t.Run("EveryField", func(t *testing.T) {
			want := fullDraft(uid)
			draftMust(t, st.CreateDraft(ctx, want))
			if want.Version != 1 {
				t.Fatalf("version after create = %d, want 1", want.Version)
			}
			got, err := st.Draft(ctx, want.ID, true)
			draftMust(t, err)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("Draft(withCrawl) differs (-want +got):\n%s", diff)
			}
			got, err = st.Draft(ctx, want.ID, false)
			draftMust(t, err)
			noCrawl := *want
			noCrawl.Crawl = nil
			if diff := cmp.Diff(&noCrawl, got); diff != "" {
				t.Fatalf("Draft(without crawl) differs (-want +got):\n%s", diff)
			}
		})

		t.Run("Empty", func(t *testing.T) {
			d := &domain.DraftRecord{UserID: uid, URL: "https://empty.test", Status: domain.DraftCrawling}
			draftMust(t, st.CreateDraft(ctx, d))
			if !regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`).MatchString(d.ID) {
				t.Fatalf("generated id %q is not a v4 UUID", d.ID)
			}
			var errText, ai, crawl string
			var listing sql.NullInt64
			draftMust(t, db.sql.QueryRow(`SELECT error, ai, crawl, listing_id FROM drafts WHERE id = ?`, d.ID).Scan(&errText, &ai, &crawl, &listing))
			if errText != "" || ai != "{}" || crawl != "" || listing.Valid {
				t.Fatalf("stored none as error=%q ai=%q crawl=%q listing=%v, want '', '{}', '', NULL", errText, ai, crawl, listing)
			}
			got, err := st.Draft(ctx, d.ID, true)
			draftMust(t, err)
			if got.Error != nil || got.AI != nil || got.Crawl != nil || got.ListingID != 0 || got.Doc.Fields != nil {
				t.Fatalf("empty draft read back as %+v", got)
			}
		})

		t.Run("CrawlNotReadUnlessAsked", func(t *testing.T) {
			d := &domain.DraftRecord{UserID: uid, URL: "https://big.test", Status: domain.DraftReady}
			draftMust(t, st.CreateDraft(ctx, d))
			// A crawl column that cannot be decoded shows whether it is read at all.
			setRows(t, db, "drafts", cols{"crawl": `{"pages": [ not json`}, cols{"id": d.ID})
			if _, err := st.Draft(ctx, d.ID, false); err != nil {
				t.Fatalf("Draft without crawl read the crawl column: %v", err)
			}
			if _, err := st.Draft(ctx, d.ID, true); err == nil {
				t.Fatal("Draft with crawl decoded a broken crawl without error")
			}
		})

		t.Run("NotFound", func(t *testing.T) {
			_, err := st.Draft(ctx, "no-such-draft", false)
			wantDomainErr(t, err, domain.ENotFound, "absent draft")
			// The same draft is invisible from another site of the same database.
			d := &domain.DraftRecord{UserID: uid, URL: "https://ex.test", Status: domain.DraftCrawling}
			draftMust(t, st.CreateDraft(ctx, d))
			other, err := NewStore(context.Background(), db, domain.Site{Key: "other", Name: "Other"})
			draftMust(t, err)
			_, err = other.Draft(ctx, d.ID, false)
			wantDomainErr(t, err, domain.ENotFound, "draft of another site")
			err = other.SetDraftProgress(ctx, d.ID, "crawling", 1, 2, fxNow)
			wantDomainErr(t, err, domain.ENotFound, "progress of another site's draft")
		})
	})
}

func TestDraftStore_UpdateDraft(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		db, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()
		uid := mkDraftUser(t, db, "ann@ex.test")
		d := fullDraft(uid)
		d.Error = nil
		d.Status = domain.DraftDrafting
		draftMust(t, st.CreateDraft(ctx, d))

		a, err := st.Draft(ctx, d.ID, false)
		draftMust(t, err)
		b, err := st.Draft(ctx, d.ID, false)
		draftMust(t, err)

		t.Run("OK", func(t *testing.T) {
			a.Status = domain.DraftReady
			a.Doc.Fields["tagline"] = &domain.DraftField{Value: "Changed", State: domain.StateManual}
			a.AI = nil
			a.ListingID = 2
			a.UpdatedAt = fxNow.Add(time.Hour)
			draftMust(t, st.UpdateDraft(ctx, a, false))
			if a.Version != 2 {
				t.Fatalf("version after update = %d, want 2", a.Version)
			}
			got, err := st.Draft(ctx, d.ID, true)
			draftMust(t, err)
			want := *a
			want.Crawl = d.Crawl // not written without withCrawl: the stored crawl stays
			if diff := cmp.Diff(&want, got); diff != "" {
				t.Fatalf("after update (-want +got):\n%s", diff)
			}
		})

		t.Run("Stale", func(t *testing.T) {
			b.Status = domain.DraftFailed
			err := st.UpdateDraft(ctx, b, false)
			if !errors.Is(err, domain.ErrStale) {
				t.Fatalf("stale update: err = %v, want domain.ErrStale", err)
			}
			wantDomainErr(t, err, domain.EConflict, "stale update")
			if b.Version != 1 {
				t.Fatalf("stale update changed the caller's version to %d", b.Version)
			}
			got, err := st.Draft(ctx, d.ID, false)
			draftMust(t, err)
			if got.Status != domain.DraftReady || got.Version != 2 {
				t.Fatalf("stale update was written: status %s version %d", got.Status, got.Version)
			}
		})

		t.Run("ProgressIsNotAnEdit", func(t *testing.T) {
			draftMust(t, st.SetDraftProgress(ctx, d.ID, "crawling", 4, 9, fxNow.Add(2*time.Hour)))
			got, err := st.Draft(ctx, d.ID, false)
			draftMust(t, err)
			if got.Phase != "crawling" || got.PagesDone != 4 || got.PagesPlanned != 9 || !got.UpdatedAt.Equal(fxNow.Add(2*time.Hour)) {
				t.Fatalf("progress not recorded: %+v", got)
			}
			if got.Version != a.Version || got.Status != a.Status || got.Doc.Fields["tagline"].Value != "Changed" {
				t.Fatalf("progress touched more than progress: version %d status %s", got.Version, got.Status)
			}
			// The editor's copy is still current: progress did not make it stale.
			a.Crawl = &domain.SiteCrawl{URL: "https://ex.test", Pages: []domain.WebPage{{URL: "https://ex.test/", Text: "New"}}}
			draftMust(t, st.UpdateDraft(ctx, a, true))
			got, err = st.Draft(ctx, d.ID, true)
			draftMust(t, err)
			if diff := cmp.Diff(a.Crawl, got.Crawl); diff != "" || got.Version != 3 {
				t.Fatalf("crawl update (version %d) (-want +got):\n%s", got.Version, diff)
			}
			// Progress overwrote the phase after a was read; a's write put a's phase back, as documented.
			if got.Phase != a.Phase {
				t.Fatalf("phase = %q, want the written %q", got.Phase, a.Phase)
			}
		})

		t.Run("NotFound", func(t *testing.T) {
			gone := &domain.DraftRecord{ID: "gone", Status: domain.DraftReady, Version: 1}
			wantDomainErr(t, st.UpdateDraft(ctx, gone, false), domain.ENotFound, "update of an absent draft")
			wantDomainErr(t, st.SetDraftProgress(ctx, "gone", "x", 0, 0, fxNow), domain.ENotFound, "progress of an absent draft")
		})
	})
}

func TestDraftStore_UserDrafts(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		db, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()
		ann, bob := mkDraftUser(t, db, "ann@ex.test"), mkDraftUser(t, db, "bob@ex.test")
		mk := func(user int64, id string, at time.Time) {
			draftMust(t, st.CreateDraft(ctx, &domain.DraftRecord{ID: id, UserID: user, URL: "https://" + id + ".test",
				Status: domain.DraftReady, CreatedAt: at, UpdatedAt: at}))
		}
		// Inserted out of order; d3a and d3b share a second (tie broken by id).
		mk(ann, "d2", fxNow.Add(2*time.Minute))
		mk(ann, "d3b", fxNow.Add(3*time.Minute))
		mk(ann, "d1", fxNow.Add(1*time.Minute))
		mk(ann, "d3a", fxNow.Add(3*time.Minute))
		mk(ann, "d4", fxNow.Add(4*time.Minute))
		mk(bob, "b1", fxNow.Add(10*time.Minute))
		mk(bob, "b2", fxNow.Add(11*time.Minute))

		ids := func(user int64, offset, limit int) ([]string, int) {
			t.Helper()
			ds, total, err := st.UserDrafts(ctx, user, offset, limit)
			draftMust(t, err)
			out := []string{}
			for _, d := range ds {
				if d.UserID != user {
					t.Fatalf("UserDrafts(%d) returned a draft of user %d", user, d.UserID)
				}
				out = append(out, d.ID)
			}
			return out, total
		}
		for _, c := range []struct {
			name          string
			user          int64
			offset, limit int
			want          []string
			total         int
		}{
			{"FirstPage", ann, 0, 2, []string{"d4", "d3a"}, 5},
			{"SecondPage", ann, 2, 2, []string{"d3b", "d2"}, 5},
			{"LastPage", ann, 4, 2, []string{"d1"}, 5},
			{"PastTheEnd", ann, 10, 2, []string{}, 5},
			{"All", ann, 0, 0, []string{"d4", "d3a", "d3b", "d2", "d1"}, 5},
			{"OtherUser", bob, 0, 10, []string{"b2", "b1"}, 2},
		} {
			t.Run(c.name, func(t *testing.T) {
				got, total := ids(c.user, c.offset, c.limit)
				if diff := cmp.Diff(c.want, got); diff != "" || total != c.total {
					t.Fatalf("total %d (want %d); ids (-want +got):\n%s", total, c.total, diff)
				}
			})
		}
		t.Run("OtherSite", func(t *testing.T) {
			other, err := NewStore(context.Background(), db, domain.Site{Key: "other", Name: "Other"})
			draftMust(t, err)
			ds, total, err := other.UserDrafts(ctx, ann, 0, 10)
			draftMust(t, err)
			if len(ds) != 0 || total != 0 {
				t.Fatalf("another site lists %d drafts (total %d) of the user", len(ds), total)
			}
		})
	})
}

func TestDraftStore_Invites(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		db, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()
		ann, cara, dan := mkDraftUser(t, db, "ann@ex.test"), mkDraftUser(t, db, "cara@ex.test"), mkDraftUser(t, db, "dan@ex.test")
		d := &domain.DraftRecord{UserID: ann, URL: "https://ex.test", Status: domain.DraftReady}
		draftMust(t, st.CreateDraft(ctx, d))
		const maxInv = 3

		var first *domain.DraftInvite
		for i, email := range []string{"Bo@Ex.test", "cara@ex.test", "dan@ex.test"} {
			inv, err := st.AddDraftInvite(ctx, d.ID, email, fmt.Sprintf("hash-%d", i), maxInv, fxNow.Add(time.Duration(i)*time.Minute))
			draftMust(t, err)
			if inv.ID == 0 || inv.Email != email || inv.Status != "sent" || inv.AcceptedAt != nil ||
				!inv.CreatedAt.Equal(fxNow.Add(time.Duration(i)*time.Minute)) {
				t.Fatalf("invite %d = %+v", i, inv)
			}
			if i == 0 {
				first = inv
			}
		}

		t.Run("Max", func(t *testing.T) {
			_, err := st.AddDraftInvite(ctx, d.ID, "eve@ex.test", "hash-eve", maxInv, fxNow.Add(time.Hour))
			de := wantDomainErr(t, err, domain.EInvalid, "invite beyond the maximum")
			if len(de.Fields) != 1 || de.Fields[0].Field != "email" || de.Fields[0].Rule != "max_invites" ||
				!strings.Contains(de.Message, "3 invites") {
				t.Fatalf("max error = %+v", de)
			}
			if _, _, err := st.DraftInviteByHash(ctx, "hash-eve"); err == nil {
				t.Fatal("a refused invite was stored")
			}
		})

		t.Run("ReinviteReplacesTheLink", func(t *testing.T) {
			// Same address in another case, at the maximum: not a new invite, a new link.
			inv, err := st.AddDraftInvite(ctx, d.ID, "bo@EX.TEST", "hash-0-new", maxInv, fxNow.Add(2*time.Hour))
			draftMust(t, err)
			// The same invite, whose new link is valid from now.
			want := *first
			want.CreatedAt = fxNow.Add(2 * time.Hour)
			if diff := cmp.Diff(&want, inv); diff != "" {
				t.Fatalf("re-invite returned another invite (-want +got):\n%s", diff)
			}
			_, _, err = st.DraftInviteByHash(ctx, "hash-0")
			wantDomainErr(t, err, domain.ENotFound, "replaced link")
			draftID, got, err := st.DraftInviteByHash(ctx, "hash-0-new")
			draftMust(t, err)
			if draftID != d.ID || got.ID != first.ID {
				t.Fatalf("new link finds draft %q invite %d, want %q %d", draftID, got.ID, d.ID, first.ID)
			}
			list, err := st.DraftInvites(ctx, d.ID)
			draftMust(t, err)
			if len(list) != 3 || list[0].Email != "Bo@Ex.test" || list[1].Email != "cara@ex.test" || list[2].Email != "dan@ex.test" {
				t.Fatalf("invites = %+v", list)
			}
		})

		t.Run("Accept", func(t *testing.T) {
			_, inv, err := st.DraftInviteByHash(ctx, "hash-1")
			draftMust(t, err)
			draftMust(t, st.AcceptDraftInvite(ctx, inv.ID, cara, fxNow.Add(3*time.Hour)))
			// Accepting again by the same account changes nothing.
			draftMust(t, st.AcceptDraftInvite(ctx, inv.ID, cara, fxNow.Add(4*time.Hour)))
			wantDomainErr(t, st.AcceptDraftInvite(ctx, inv.ID, dan, fxNow.Add(5*time.Hour)), domain.EConflict, "accept by another account")
			_, got, err := st.DraftInviteByHash(ctx, "hash-1")
			draftMust(t, err)
			if got.Status != "accepted" || got.AcceptedAt == nil || !got.AcceptedAt.Equal(fxNow.Add(3*time.Hour)) {
				t.Fatalf("accepted invite = %+v", got)
			}
			var by int64
			draftMust(t, db.sql.QueryRow(`SELECT accepted_by FROM draft_invites WHERE id = ?`, inv.ID).Scan(&by))
			if by != cara {
				t.Fatalf("accepted_by = %d, want %d", by, cara)
			}
			list, err := st.DraftInvites(ctx, d.ID)
			draftMust(t, err)
			if list[1].Status != "accepted" || list[0].Status != "sent" {
				t.Fatalf("statuses = %s, %s", list[0].Status, list[1].Status)
			}
			wantDomainErr(t, st.AcceptDraftInvite(ctx, 9999, cara, fxNow), domain.ENotFound, "accept of an absent invite")
		})

		t.Run("NotFound", func(t *testing.T) {
			_, err := st.AddDraftInvite(ctx, "no-such-draft", "x@ex.test", "hash-x", maxInv, fxNow)
			wantDomainErr(t, err, domain.ENotFound, "invite to an absent draft")
			other, err := NewStore(context.Background(), db, domain.Site{Key: "other", Name: "Other"})
			draftMust(t, err)
			_, _, err = other.DraftInviteByHash(ctx, "hash-2")
			wantDomainErr(t, err, domain.ENotFound, "invite of another site")
			list, err := other.DraftInvites(ctx, d.ID)
			draftMust(t, err)
			if len(list) != 0 {
				t.Fatalf("another site lists %d invites", len(list))
			}
		})
	})
}

// ownRow is what a test reads back of a listing SaveOwnListing wrote.
type ownRow struct {
	slug, name, tagline, short, desc, url, domain, logo, stage, pricing, pricingSummary, country, city string
	founded                                                                                            sql.NullInt64
	email, video, keywords, features, usps, faqs, socials                                              string
	story                                                                                              sql.NullString
	notFound, seoTitle, seoDesc, status, plan                                                          string
	owner, company                                                                                     sql.NullInt64
	companyName, companyDomain                                                                         string
	categories, founders, milestones                                                                   string
}

// readOwn reads listing id with its company, categories ("slug*" for the
// primary), founders ("slug:name:role:title:bio:socials*") and milestones.
func readOwn(t *testing.T, db *DB, id int64) ownRow {
	t.Helper()
	var r ownRow
	draftMust(t, db.sql.QueryRow(`SELECT l.slug, l.name, l.tagline, l.short_description, l.description, l.url, l.domain,
		l.logo_url, COALESCE(l.stage, '(null)'), l.pricing_model, l.pricing_summary, l.country, l.city, l.founded_year,
		l.contact_email, l.demo_video_url, l.keywords, l.features, l.usps, l.faqs, l.socials, l.story,
		l.not_found_on_website, l.seo_title, l.seo_description, l.status, l.plan, l.owner_id, l.company_id,
		COALESCE(c.name, ''), COALESCE(c.domain, ''),
		(SELECT COALESCE(`+db.eng.groupConcat("x", "' '")+`, '') FROM (SELECT cat.slug || CASE lc.is_primary WHEN 1 THEN '*' ELSE '' END AS x
			FROM listing_categories lc JOIN categories cat ON cat.id = lc.category_id WHERE lc.listing_id = l.id
			ORDER BY lc.is_primary DESC, cat.slug) AS cats),
		(SELECT COALESCE(`+db.eng.groupConcat("x", "' | '")+`, '') FROM (SELECT f.slug || ':' || f.name || ':' || lf.role || ':' ||
			f.title || ':' || f.bio || ':' || f.socials || CASE lf.is_primary WHEN 1 THEN '*' ELSE '' END AS x
			FROM listing_founders lf JOIN founders f ON f.id = lf.founder_id WHERE lf.listing_id = l.id
			ORDER BY lf.is_primary DESC, f.name) AS fs),
		(SELECT COALESCE(`+db.eng.groupConcat("x", "' | '")+`, '') FROM (SELECT m.date || ' ' || m.title || ' ' || m.description || ' ' || m.url AS x
			FROM milestones m WHERE m.listing_id = l.id ORDER BY m.date, m.id) AS ms)
		FROM listings l LEFT JOIN companies c ON c.id = l.company_id WHERE l.id = ?`, id).Scan(
		&r.slug, &r.name, &r.tagline, &r.short, &r.desc, &r.url, &r.domain, &r.logo, &r.stage, &r.pricing,
		&r.pricingSummary, &r.country, &r.city, &r.founded, &r.email, &r.video, &r.keywords, &r.features, &r.usps,
		&r.faqs, &r.socials, &r.story, &r.notFound, &r.seoTitle, &r.seoDesc, &r.status, &r.plan, &r.owner,
		&r.company, &r.companyName, &r.companyDomain, &r.categories, &r.founders, &r.milestones))
	return r
}

// fullWrite is a ListingWrite with every field set.
func fullWrite() *domain.ListingWrite {
	return &domain.ListingWrite{
		Name: "Ex Notes", Tagline: "Team notes", ShortDescription: "Notes.", Description: "Markdown notes for teams.",
		URL: "https://WWW.Ex-Notes.test:8443/home", LogoURL: "https://ex-notes.test/logo.png", Stage: "beta",
		PricingModel: "Freemium", PricingSummary: "Free; Pro $8/month", Country: "de", City: "Berlin", FoundedYear: 2021,
		ContactEmail: "hi@ex-notes.test", DemoVideoURL: "https://video.test/ex",
		Keywords: []string{"notes", "markdown"}, Features: []string{"Sync"}, USPs: []string{"Offline first"},
		FAQs:    []domain.FAQ{{Question: "Free?", Answer: "Yes."}},
		Socials: domain.Socials{"github": "https://github.test/ex"},
		Story:   &domain.Story{Title: "Why", Story: "We lost notes."},
		Milestones: []domain.Milestone{{Date: "2022-05-01", Title: "Launch", Description: "v1", URL: "https://ex-notes.test/v1"},
			{Date: "2021-03-01", Title: "Founded"}},
		Categories: []string{"notes", "design"},
		Founders: []domain.FounderWrite{{Name: "Ann Lee", Title: "CEO", Bio: "Writes.", Socials: domain.Socials{"x": "https://x.test/ann"}},
			{Name: "Bob Roe", Title: "CTO"}},
		NotFoundOnWebsite: []string{"city"},
		SEOTitle:          "Ex Notes: team notes", SEODescription: "Markdown notes for teams.",
	}
}

// ownTableCounts counts the rows SaveOwnListing may write.
func ownTableCounts(t *testing.T, db *DB) string {
	t.Helper()
	var out []string
	for _, table := range []string{"listings", "companies", "founders", "listing_founders", "listing_categories", "milestones"} {
		var n int
		draftMust(t, db.sql.QueryRow(`SELECT COUNT(*) FROM `+table).Scan(&n))
		out = append(out, fmt.Sprintf("%s=%d", table, n))
	}
	return strings.Join(out, " ")
}

func TestStore_SaveOwnListing(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		db, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()
		ann, bob := mkDraftUser(t, db, "ann@ex.test"), mkDraftUser(t, db, "bob@ex.test")

		id, err := st.SaveOwnListing(ctx, ann, 0, fullWrite())
		draftMust(t, err)

		t.Run("Create", func(t *testing.T) {
			got := readOwn(t, db, id)
			want := ownRow{slug: "ex-notes", name: "Ex Notes", tagline: "Team notes", short: "Notes.",
				desc: "Markdown notes for teams.", url: "https://WWW.Ex-Notes.test:8443/home", domain: "ex-notes.test",
				logo: "https://ex-notes.test/logo.png", stage: "beta", pricing: "freemium", pricingSummary: "Free; Pro $8/month",
				country: "DE", city: "Berlin", founded: sql.NullInt64{Int64: 2021, Valid: true}, email: "hi@ex-notes.test",
				video: "https://video.test/ex", keywords: `["notes","markdown"]`, features: `["Sync"]`, usps: `["Offline first"]`,
				faqs: `[{"question":"Free?","answer":"Yes."}]`, socials: `{"github":"https://github.test/ex"}`,
				story:    sql.NullString{String: `{"title":"Why","story":"We lost notes."}`, Valid: true},
				notFound: `["city"]`, seoTitle: "Ex Notes: team notes", seoDesc: "Markdown notes for teams.",
				status: "draft", plan: "free", owner: sql.NullInt64{Int64: ann, Valid: true}, company: got.company,
				companyName: "Ex Notes", companyDomain: "ex-notes.test",
				categories: "notes* design",
				founders:   `ann-lee:Ann Lee:CEO:CEO:Writes.:{"x":"https://x.test/ann"}* | bob-roe:Bob Roe:CTO:CTO::{}`,
				milestones: "2021-03-01 Founded   | 2022-05-01 Launch v1 https://ex-notes.test/v1",
			}
			if diff := cmp.Diff(want, got, cmp.AllowUnexported(ownRow{})); diff != "" {
				t.Fatalf("created listing (-want +got):\n%s", diff)
			}
			if !got.company.Valid {
				t.Fatal("no company linked")
			}
		})

		t.Run("StaysPrivate", func(t *testing.T) {
			slug := readOwn(t, db, id).slug
			_, err := st.Listing(ctx, slug)
			wantDomainErr(t, err, domain.ENotFound, "public read of a submitted listing")
			draftMust(t, st.Refresh(ctx))
			items, _, err := st.SearchListings(ctx, domain.ListingQuery{Q: "Ex Notes", Limit: 20})
			draftMust(t, err)
			for _, it := range items {
				if it.Slug == slug {
					t.Fatalf("search found the submitted listing %q", slug)
				}
			}
			// The checks above can fail: made live, the same listing is found by both.
			other, err := st.SaveOwnListing(ctx, ann, 0, &domain.ListingWrite{Name: "Ex Notes", URL: "https://ex-notes.test"})
			draftMust(t, err)
			setRows(t, db, "listings", cols{"status": "live", "launch_week": "2026-11-16"}, cols{"id": other})
			draftMust(t, st.Refresh(ctx))
			liveSlug := readOwn(t, db, other).slug
			if _, err := st.Listing(ctx, liveSlug); err != nil {
				t.Fatalf("the live copy is not readable: %v", err)
			}
			items, _, err = st.SearchListings(ctx, domain.ListingQuery{Q: "Ex Notes", Limit: 20})
			draftMust(t, err)
			// Listings matching only some words ("notes") follow;
			// the live copy matches both and comes first, the submitted one never.
			if len(items) == 0 || items[0].Slug != liveSlug || slices.ContainsFunc(items, func(it domain.ListingSummary) bool { return it.Slug == slug }) {
				t.Fatalf("search for the live copy = %+v, want %q first and not %q", items, liveSlug, slug)
			}
		})

		t.Run("Update", func(t *testing.T) {
			before := readOwn(t, db, id)
			setRows(t, db, "listings", cols{"votes_count": 7}, cols{"id": id})
			w := &domain.ListingWrite{Name: "Ex Notes Renamed", URL: "https://ex-notes.test", Categories: []string{"design", "design"},
				Founders:   []domain.FounderWrite{{Name: "Cara Doe", Title: "COO"}, {Name: "ANN LEE", Title: "Chair", Bio: "Chairs."}},
				Milestones: []domain.Milestone{{Date: "2023-01-01", Title: "Pro"}}}
			got, err := st.SaveOwnListing(ctx, ann, id, w)
			draftMust(t, err)
			if got != id {
				t.Fatalf("update returned id %d, want %d", got, id)
			}
			after := readOwn(t, db, id)
			if after.slug != before.slug || after.status != "draft" || after.plan != "free" || after.company != before.company {
				t.Fatalf("update changed slug/status/plan/company: %+v", after)
			}
			var votes int
			draftMust(t, db.sql.QueryRow(`SELECT votes_count FROM listings WHERE id = ?`, id).Scan(&votes))
			if votes != 7 {
				t.Fatalf("update reset votes to %d", votes)
			}
			if after.name != "Ex Notes Renamed" || after.stage != "(null)" || after.founded.Valid || after.story.Valid ||
				after.keywords != "[]" || after.socials != "{}" || after.tagline != "" {
				t.Fatalf("update did not write w's values: %+v", after)
			}
			if after.categories != "design*" {
				t.Fatalf("categories = %q, want design*", after.categories)
			}
			// Ann keeps her founder row (same slug) with new title and bio; Bob is unlinked; Cara is new and primary.
			want := `cara-doe:Cara Doe:COO:COO::{}* | ann-lee:ANN LEE:Chair:Chair:Chairs.:{}`
			if after.founders != want {
				t.Fatalf("founders = %q, want %q", after.founders, want)
			}
			if after.milestones != "2023-01-01 Pro  " {
				t.Fatalf("milestones = %q", after.milestones)
			}
		})

		t.Run("UniqueSlugs", func(t *testing.T) {
			var slugs []string
			for range 2 {
				id, err := st.SaveOwnListing(ctx, bob, 0, &domain.ListingWrite{Name: "Notely", URL: "https://notely.test"})
				draftMust(t, err)
				slugs = append(slugs, readOwn(t, db, id).slug)
			}
			// notely is the fixture's live listing; Ex Notes was taken twice above.
			id, err := st.SaveOwnListing(ctx, bob, 0, &domain.ListingWrite{Name: "  Ex   Notes!! ",
				Founders: []domain.FounderWrite{{Name: "Alice Smith"}}})
			draftMust(t, err)
			r := readOwn(t, db, id)
			slugs = append(slugs, r.slug)
			if diff := cmp.Diff([]string{"notely-2", "notely-3", "ex-notes-3"}, slugs); diff != "" {
				t.Fatalf("slugs (-want +got):\n%s", diff)
			}
			// Founder slugs are global: the fixture's alice-smith is another person.
			if !strings.HasPrefix(r.founders, "alice-smith-2:Alice Smith:") {
				t.Fatalf("founder = %q, want slug alice-smith-2", r.founders)
			}
			// No domain: a company of its own, never one shared by an empty domain.
			if r.companyDomain != "" || r.companyName != "  Ex   Notes!! " {
				t.Fatalf("company = %q %q", r.companyName, r.companyDomain)
			}
			// A name as long as a slug may be: the suffix replaces its end.
			long := strings.Repeat("x", 300)
			var longSlugs []string
			for range 2 {
				id, err := st.SaveOwnListing(ctx, bob, 0, &domain.ListingWrite{Name: long})
				draftMust(t, err)
				longSlugs = append(longSlugs, readOwn(t, db, id).slug)
			}
			if diff := cmp.Diff([]string{strings.Repeat("x", 220), strings.Repeat("x", 218) + "-2"}, longSlugs); diff != "" {
				t.Fatalf("long slugs (-want +got):\n%s", diff)
			}
			// Same domain as the fixture's company: linked to it.
			id, err = st.SaveOwnListing(ctx, bob, 0, &domain.ListingWrite{Name: "Acme Two", Domain: "www.ACME.test"})
			draftMust(t, err)
			if r := readOwn(t, db, id); r.company.Int64 != 1 || r.domain != "acme.test" {
				t.Fatalf("company %d domain %q, want the fixture's company 1, acme.test", r.company.Int64, r.domain)
			}
		})

		t.Run("NotOwner", func(t *testing.T) {
			before := ownTableCounts(t, db)
			for _, c := range []struct {
				name string
				user int64
				id   int64
			}{{"OtherUsersListing", bob, id}, {"DirectoryListing", ann, 1}, {"Absent", ann, 99999}} {
				_, err := st.SaveOwnListing(ctx, c.user, c.id, fullWrite())
				wantDomainErr(t, err, domain.ENotFound, c.name)
			}
			if after := ownTableCounts(t, db); after != before {
				t.Fatalf("refused saves wrote rows: %s -> %s", before, after)
			}
			if r := readOwn(t, db, id); r.name != "Ex Notes Renamed" {
				t.Fatalf("another user's save changed the listing: %q", r.name)
			}
		})

		t.Run("Invalid", func(t *testing.T) {
			before := ownTableCounts(t, db)
			for _, c := range []struct {
				name, field string
				id          int64
				edit        func(*domain.ListingWrite)
			}{
				{"UnknownCategoryCreate", "fields.categories", 0, func(w *domain.ListingWrite) { w.Categories = []string{"notes", "nope"} }},
				{"UnknownCategoryUpdate", "fields.categories", id, func(w *domain.ListingWrite) { w.Categories = []string{"nope"} }},
			} {
				w := fullWrite()
				w.Name = "Never Written"
				c.edit(w)
				_, err := st.SaveOwnListing(ctx, ann, c.id, w)
				de := wantDomainErr(t, err, domain.EInvalid, c.name)
				if len(de.Fields) != 1 || de.Fields[0].Field != c.field || de.Fields[0].Rule != "enum" {
					t.Fatalf("%s: fields = %+v", c.name, de.Fields)
				}
			}
			if after := ownTableCounts(t, db); after != before {
				t.Fatalf("invalid saves wrote rows: %s -> %s", before, after)
			}
			if r := readOwn(t, db, id); r.name != "Ex Notes Renamed" || r.categories != "design*" {
				t.Fatalf("an invalid update changed the listing: %q %q", r.name, r.categories)
			}
		})
	})
}

func TestSlugify(t *testing.T) {
	t.Parallel()
	pattern := regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,219}$`)
	long := strings.Repeat("ab ", 200)
	for _, c := range []struct{ in, want string }{
		{"Ex Notes", "ex-notes"},
		{"  --Café Crème!--  ", "cafe-creme"},
		{"Über_App 2.0", "uber-app-2-0"},
		{"日本語", "listing"},
		{"", "listing"},
		{long, strings.Repeat("ab-", 73) + "a"}, // cut at 220 bytes
	} {
		got := slugify(c.in, "listing")
		if got != c.want || !pattern.MatchString(got) {
			t.Errorf("slugify(%q) = %q, want %q (and matching %s)", c.in, got, c.want, pattern)
		}
	}
}

// Concurrent submissions of one name each get their own slug: the slug is
// chosen inside the write transaction (BEGIN IMMEDIATE), so two cannot pick the same.
func TestStore_SaveOwnListingConcurrentSlugs(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		db, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()
		uid := mkDraftUser(t, db, "ann@ex.test")
		const n = 8
		ids := make([]int64, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				ids[i], errs[i] = st.SaveOwnListing(ctx, uid, 0, &domain.ListingWrite{Name: "Same Name", URL: "https://same.test",
					Categories: []string{"notes"}, Founders: []domain.FounderWrite{{Name: "Same Founder"}}})
			})
		}
		wg.Wait()
		slugs := map[string]bool{}
		for i := range n {
			draftMust(t, errs[i])
			slugs[readOwn(t, db, ids[i]).slug] = true
		}
		if len(slugs) != n || !slugs["same-name"] || !slugs[fmt.Sprintf("same-name-%d", n)] {
			t.Fatalf("slugs = %v, want same-name, same-name-2 ... same-name-%d", slugs, n)
		}
		var companies int
		draftMust(t, db.sql.QueryRow(`SELECT COUNT(*) FROM companies WHERE domain = 'same.test'`).Scan(&companies))
		if companies != 1 {
			t.Fatalf("%d companies for one domain, want 1", companies)
		}
	})
}
