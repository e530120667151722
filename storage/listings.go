package storage

import (
	"context"
	"database/sql"
	"net/url"
	"slices"

	"github.com/launchdir/launchdir/domain"
)

// latestUpdates is how many listing updates a profile shows.
const latestUpdates = 5

// Listing returns the full public profile of a live or scheduled listing.
// Paid-only sections are filled only when unlocked (or the plan is paid).
func (s *Store) Listing(ctx context.Context, slug string) (*domain.Listing, error) {
	l, _, err := s.loadListing(ctx, slug, `l.slug = ? AND `+publicStatus, false, slug)
	return l, err
}

// loadListing reads one listing of the site matching cond (with args) and
// its profile; key names it in errors. Paid sections are filled when unlocked,
// or always for the owner (all). It also returns the unlocked sections.
func (s *Store) loadListing(ctx context.Context, key, cond string, all bool, args ...any) (*domain.Listing, []string, error) {
	slug := key
	var r summaryRow
	var company, keywords, features, usps, faqs, socials, unlocked, notFound string
	var story sql.NullString
	var founded sql.NullInt64
	var billboard int64
	l := &domain.Listing{}
	err := s.db.sql.QueryRowContext(ctx, `SELECT `+summaryCols+`, COALESCE(co.name, ''), l.short_description,
		l.description, l.keywords, l.features, l.usps, l.pricing_summary, l.city, l.founded_year, l.faqs, l.socials,
		l.story, l.unlocked_sections, l.not_found_on_website, l.verified, l.billboard_cents, l.demo_video_url,
		l.contact_email
		FROM `+summaryFrom+` LEFT JOIN companies co ON co.id = l.company_id
		WHERE l.site_id = ? AND `+cond, append([]any{s.siteID}, args...)...).Scan(r.dest(
		&company, &l.ShortDescription, &l.Description, &keywords, &features, &usps, &l.PricingSummary, &l.City,
		&founded, &faqs, &socials, &story, &unlocked, &notFound, &l.Verified, &billboard, &l.DemoVideoURL,
		&l.ContactEmail)...)
	if err != nil {
		return nil, nil, mapErr(err, "listing", key)
	}
	l.ListingSummary = s.summary(&r)
	slug = l.Slug
	l.Company = company
	if founded.Valid {
		y := int(founded.Int64)
		l.FoundedYear = &y
	}
	l.Features, l.USPs, l.Keywords, l.FAQs, l.NotFoundOnWebsite = []string{}, []string{}, []string{}, []domain.FAQ{}, []string{}
	l.Socials = domain.Socials{}
	var sections []string
	for _, j := range []struct {
		text string
		v    any
	}{{keywords, &l.Keywords}, {features, &l.Features}, {usps, &l.USPs}, {faqs, &l.FAQs},
		{socials, &l.Socials}, {notFound, &l.NotFoundOnWebsite}, {unlocked, &sections}} {
		if err := decodeJSON(j.text, j.v, "listing "+slug); err != nil {
			return nil, nil, err
		}
	}
	unlockedSection := func(name string) bool { return all || r.plan == domain.PlanPaid || slices.Contains(sections, name) }
	if err := s.fillProfile(ctx, r.id, l); err != nil {
		return nil, nil, err
	}
	if l.Interview, err = s.listingInterview(ctx, r.id); err != nil {
		return nil, nil, err
	}
	if unlockedSection(domain.SectionStory) && story.Valid && story.String != "" {
		l.Story = &domain.Story{}
		if err := decodeJSON(story.String, l.Story, "story of "+slug); err != nil {
			return nil, nil, err
		}
	}
	if unlockedSection(domain.SectionMilestones) {
		if l.Milestones, err = s.milestones(ctx, r.id); err != nil {
			return nil, nil, err
		}
	}
	if unlockedSection(domain.SectionMedia) {
		if l.Media, err = s.media(ctx, r.id); err != nil {
			return nil, nil, err
		}
	}
	l.Links = map[string]string{
		"website":      l.URL,
		"page":         l.PageURL,
		"badges":       s.site.URL(domain.APIPrefix + "/listings/" + slug + "/badges"),
		"alternatives": s.site.URL(domain.APIPrefix + "/listings/" + slug + "/alternatives"),
	}
	if billboard > 0 {
		l.PaidPlacement = &domain.PaidPlacement{Paid: true, Label: domain.PaidPlacementLabel, AmountCents: billboard,
			AmountLabel: metricLabel("billboard", billboard), BoardURL: s.site.URL("/leaderboards/billboard")}
	}
	l.More = []domain.MoreData{
		{Tool: "get_alternatives", Arguments: map[string]any{"slug": slug}, What: "alternatives", URL: l.Links["alternatives"]},
		{Tool: "get_badges", Arguments: map[string]any{"slug": slug}, What: "badges", URL: l.Links["badges"]},
	}
	if l.PrimaryCategory != nil {
		l.Links["category"] = s.site.CategoryPageURL(l.PrimaryCategory.Slug)
		l.More = append(l.More, domain.MoreData{Tool: "get_category", Arguments: map[string]any{"slug": l.PrimaryCategory.Slug},
			What: "category",
			URL:  s.site.URL(domain.APIPrefix + "/categories/" + url.PathEscape(l.PrimaryCategory.Slug))})
	}
	return l, sections, nil
}

// fillProfile adds categories, founders, updates, rating, Domain Rating and awards.
func (s *Store) fillProfile(ctx context.Context, id int64, l *domain.Listing) error {
	q := s.db.sql
	l.Categories, l.Founders, l.LatestUpdates, l.Awards = []domain.CategoryRef{}, []domain.FounderRef{}, []domain.ListingUpdate{}, []domain.AwardRef{}
	rows, err := q.QueryContext(ctx, `SELECT c.slug, c.name, lc.is_primary FROM listing_categories lc
		JOIN categories c ON c.id = lc.category_id WHERE lc.listing_id = ? ORDER BY lc.is_primary DESC, c.position, c.name`, id)
	if err != nil {
		return mapErr(err, "listing", l.Slug)
	}
	for rows.Next() {
		var c domain.CategoryRef
		if err := rows.Scan(&c.Slug, &c.Name, &c.Primary); err != nil {
			rows.Close()
			return mapErr(err, "listing", l.Slug)
		}
		l.Categories = append(l.Categories, c)
	}
	rows.Close()
	// A founder has a page while on a live listing of the site (see Founder);
	// the founders of a listing not live yet are shown by name, without a
	// slug or link: a profile publishes only slugs that resolve
	// (docs/decisions.md).
	rows, err = q.QueryContext(ctx, `SELECT f.slug, f.name, COALESCE(NULLIF(lf.role, ''), f.title), lf.is_primary,
		EXISTS (SELECT 1 FROM listing_founders lf2 JOIN listings l2 ON l2.id = lf2.listing_id
			WHERE lf2.founder_id = f.id AND l2.site_id = ? AND l2.status = 'live')
		FROM listing_founders lf JOIN founders f ON f.id = lf.founder_id
		WHERE lf.listing_id = ? ORDER BY lf.is_primary DESC, f.name`, s.siteID, id)
	if err != nil {
		return mapErr(err, "listing", l.Slug)
	}
	for rows.Next() {
		var f domain.FounderRef
		var hasPage bool
		if err := rows.Scan(&f.Slug, &f.Name, &f.Title, &f.Primary, &hasPage); err != nil {
			rows.Close()
			return mapErr(err, "listing", l.Slug)
		}
		if hasPage {
			f.PageURL = s.site.FounderPageURL(f.Slug)
		} else {
			f.Slug = ""
		}
		l.Founders = append(l.Founders, f)
	}
	rows.Close()
	rows, err = q.QueryContext(ctx, `SELECT title, body, posted_at FROM listing_updates
		WHERE listing_id = ? ORDER BY posted_at DESC, id DESC LIMIT ?`, id, latestUpdates)
	if err != nil {
		return mapErr(err, "listing", l.Slug)
	}
	for rows.Next() {
		var u domain.ListingUpdate
		var at sql.NullInt64
		if err := rows.Scan(&u.Title, &u.Body, &at); err != nil {
			rows.Close()
			return mapErr(err, "listing", l.Slug)
		}
		u.PostedAt = *unixTime(at)
		l.LatestUpdates = append(l.LatestUpdates, u)
	}
	rows.Close()
	if l.CommunityRating, l.Reviews, err = listingReviews(ctx, q, id); err != nil {
		return mapErr(err, "listing", l.Slug)
	}
	if l.DomainRating, err = s.domainRating(ctx, id); err != nil {
		return err
	}
	if l.Revenue, err = listingRevenue(ctx, s.db.sql, id); err != nil {
		return err
	}
	l.Awards, err = s.awardRefs(ctx, id)
	return err
}

// maxDRHistory caps the Domain Rating history returned with a profile.
const maxDRHistory = 24

// domainRating returns the Domain Rating of the listing's domain with its
// trend, or nil: the latest maxDRHistory readings of the source of the
// latest reading (readings of two providers are not comparable).
func (s *Store) domainRating(ctx context.Context, id int64) (*domain.DomainRating, error) {
	rows, err := s.db.sql.QueryContext(ctx, `WITH dom AS (SELECT domain FROM listings WHERE id = ? AND domain <> ''),
		src AS (SELECT d.source FROM domain_ratings d JOIN dom ON dom.domain = d.domain ORDER BY d.date DESC, d.id DESC LIMIT 1)
		SELECT date, value, source FROM (
		SELECT d.date, d.value, d.source FROM domain_ratings d JOIN dom ON dom.domain = d.domain JOIN src ON src.source = d.source
		ORDER BY d.date DESC, d.id DESC LIMIT ?) latest ORDER BY date`, id, maxDRHistory)
	if err != nil {
		return nil, mapErr(err, "domain rating", "")
	}
	defer rows.Close()
	var dr *domain.DomainRating
	for rows.Next() {
		var p domain.DRPoint
		var source string
		if err := rows.Scan(&p.Date, &p.Value, &source); err != nil {
			return nil, mapErr(err, "domain rating", "")
		}
		if dr == nil {
			dr = &domain.DomainRating{}
		}
		dr.History = append(dr.History, p)
		dr.Source = source
	}
	if err := rows.Err(); err != nil || dr == nil {
		return nil, mapErr(err, "domain rating", "")
	}
	last, first := dr.History[len(dr.History)-1], dr.History[0]
	dr.Current, dr.AsOf, dr.Change = last.Value, last.Date, last.Value-first.Value
	dr.Trend = domain.DRTrend(dr.Change)
	return dr, nil
}

// awardTitle names an award rank.
func awardTitle(rank int) string { return domain.AwardTitle(rank) }

// awardRefs lists the awards a listing won, newest first.
func (s *Store) awardRefs(ctx context.Context, id int64) ([]domain.AwardRef, error) {
	rows, err := s.db.sql.QueryContext(ctx, `SELECT week, rank FROM awards WHERE listing_id = ? AND site_id = ?
		ORDER BY week DESC, rank`, id, s.siteID)
	if err != nil {
		return nil, mapErr(err, "award", "")
	}
	defer rows.Close()
	out := []domain.AwardRef{}
	for rows.Next() {
		var a domain.AwardRef
		if err := rows.Scan(&a.Week, &a.Rank); err != nil {
			return nil, mapErr(err, "award", "")
		}
		a.Title = awardTitle(a.Rank)
		out = append(out, a)
	}
	return out, mapErr(rows.Err(), "award", "")
}

func (s *Store) milestones(ctx context.Context, id int64) ([]domain.Milestone, error) {
	rows, err := s.db.sql.QueryContext(ctx, `SELECT id, date, title, description, url FROM milestones
		WHERE listing_id = ? ORDER BY date, id`, id)
	if err != nil {
		return nil, mapErr(err, "milestone", "")
	}
	defer rows.Close()
	out := []domain.Milestone{}
	for rows.Next() {
		var m domain.Milestone
		if err := rows.Scan(&m.ID, &m.Date, &m.Title, &m.Description, &m.URL); err != nil {
			return nil, mapErr(err, "milestone", "")
		}
		out = append(out, m)
	}
	return out, mapErr(rows.Err(), "milestone", "")
}

func (s *Store) media(ctx context.Context, id int64) ([]domain.Media, error) {
	rows, err := s.db.sql.QueryContext(ctx, `SELECT kind, url, caption FROM media WHERE listing_id = ? ORDER BY position, id`, id)
	if err != nil {
		return nil, mapErr(err, "media", "")
	}
	defer rows.Close()
	out := []domain.Media{}
	for rows.Next() {
		var m domain.Media
		if err := rows.Scan(&m.Kind, &m.URL, &m.Caption); err != nil {
			return nil, mapErr(err, "media", "")
		}
		out = append(out, m)
	}
	return out, mapErr(rows.Err(), "media", "")
}

// Alternatives returns owner-approved live alternatives (Approved=true) first, then
// other live listings of the same primary category by votes, excluding the listing itself.
func (s *Store) Alternatives(ctx context.Context, slug string, limit int) ([]domain.Alternative, error) {
	id, err := s.listingID(ctx, slug)
	if err != nil {
		return nil, err
	}
	out := []domain.Alternative{}
	seen := map[string]bool{slug: true}
	err = s.querySummaries(ctx, `SELECT `+summaryCols+` FROM alternatives a JOIN listings l ON l.id = a.alternative_id`+summaryJoins+`
		WHERE a.listing_id = ? AND a.approved_by_owner = 1 AND l.status = 'live' AND l.site_id = ?
		ORDER BY a.position, l.votes_count DESC, l.id LIMIT ?`, []any{id, s.siteID, limit}, nil,
		func(ls domain.ListingSummary) {
			seen[ls.Slug] = true
			out = append(out, domain.Alternative{ListingSummary: ls, Approved: true})
		})
	if err != nil || len(out) >= limit {
		return out, err
	}
	// Same primary category: fetch a few extra to skip the ones already listed.
	err = s.querySummaries(ctx, `SELECT `+summaryCols+` FROM listing_categories me
		JOIN listing_categories olc ON olc.category_id = me.category_id AND olc.is_primary = 1
		JOIN listings l ON l.id = olc.listing_id`+summaryJoins+`
		WHERE me.listing_id = ? AND me.is_primary = 1 AND l.id <> ? AND l.status = 'live' AND l.site_id = ?
		ORDER BY l.votes_count DESC, l.id LIMIT ?`, []any{id, id, s.siteID, limit + len(out)}, nil,
		func(ls domain.ListingSummary) {
			if !seen[ls.Slug] && len(out) < limit {
				seen[ls.Slug] = true
				out = append(out, domain.Alternative{ListingSummary: ls})
			}
		})
	return out, err
}

// ListingAttributes returns the comparison attribute values a listing states, by key.
func (s *Store) ListingAttributes(ctx context.Context, slug string) (map[string]string, error) {
	id, err := s.listingID(ctx, slug)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.sql.QueryContext(ctx, `SELECT key, value FROM listing_attributes WHERE listing_id = ? AND value <> ''`, id)
	if err != nil {
		return nil, mapErr(err, "listing", slug)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, mapErr(err, "listing", slug)
		}
		out[k] = v
	}
	return out, mapErr(rows.Err(), "listing", slug)
}

// BadgeFacts returns what decides which badges a public listing may show.
func (s *Store) BadgeFacts(ctx context.Context, slug string) (*domain.BadgeFacts, error) {
	f := &domain.BadgeFacts{Slug: slug}
	var id int64
	// A listing awaiting its badge in the free queue has its badge and an
	// upcoming page too (docs/free-launch.md "The badge before launch").
	err := s.db.sql.QueryRowContext(ctx, `SELECT l.id, l.name, l.tagline, l.url, l.status, COALESCE(l.launch_week, ''), l.status = 'live', l.featured, l.verified
		FROM listings l WHERE l.site_id = ? AND l.slug = ? AND (`+publicStatus+` OR l.status = 'awaiting_badge')`, s.siteID, slug).
		Scan(&id, &f.Name, &f.Tagline, &f.URL, &f.Status, &f.LaunchWeek, &f.Launched, &f.Featured, &f.Verified)
	if err != nil {
		return nil, mapErr(err, "listing", slug)
	}
	if f.Awards, err = s.awardRefs(ctx, id); err != nil {
		return nil, err
	}
	return f, nil
}
