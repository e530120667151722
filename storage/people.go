package storage

import (
	"context"
	"database/sql"
	"slices"
	"strconv"
	"strings"

	"github.com/launchdir/launchdir/domain"
)

// founderLive selects founders with at least one live listing on the site (?1),
// with the number of those listings as companies.
const founderLive = `SELECT f.id, f.slug, f.name, f.title, f.country, f.avatar_url, COUNT(DISTINCT l.id) AS companies
	FROM founders f JOIN listing_founders lf ON lf.founder_id = f.id
	JOIN listings l ON l.id = lf.listing_id AND l.site_id = ?1 AND l.status = 'live'`

// Founders lists founders of live listings by name; q matches part of the name
// case-insensitively, country filters by ISO code.
func (s *Store) Founders(ctx context.Context, q domain.FounderQuery) ([]domain.FounderSummary, int, error) {
	where := `1 = 1`
	args := []any{s.siteID}
	if q.Q != "" {
		args = append(args, likePattern(strings.ToLower(q.Q)))
		where += ` AND lower(f.name) LIKE ?2 ESCAPE '\'`
	}
	if q.Country != "" {
		args = append(args, strings.ToUpper(q.Country))
		where += ` AND f.country = ?` + strconv.Itoa(len(args))
	}
	base := founderLive + ` WHERE ` + where + ` GROUP BY f.id`
	total, err := s.count(ctx, `SELECT COUNT(*) FROM (`+base+`) AS matches`, args...)
	if err != nil || total == 0 {
		return []domain.FounderSummary{}, total, err
	}
	rows, err := s.db.sql.QueryContext(ctx, base+` ORDER BY `+s.db.eng.noCase("f.name")+`, f.id LIMIT ? OFFSET ?`,
		append(args, q.Limit, q.Offset)...)
	if err != nil {
		return nil, 0, mapErr(err, "founder", "")
	}
	defer rows.Close()
	out := []domain.FounderSummary{}
	for rows.Next() {
		var f domain.FounderSummary
		var id int64
		if err := rows.Scan(&id, &f.Slug, &f.Name, &f.Title, &f.Country, &f.AvatarURL, &f.Companies); err != nil {
			return nil, 0, mapErr(err, "founder", "")
		}
		f.PageURL = s.site.FounderPageURL(f.Slug)
		out = append(out, f)
	}
	return out, total, mapErr(rows.Err(), "founder", "")
}

// Founder returns a founder of live listings on this site: bio, socials, live
// companies with roles, and the published stories of listings that unlocked them.
func (s *Store) Founder(ctx context.Context, slug string) (*domain.Founder, error) {
	f := &domain.Founder{Socials: domain.Socials{}, Companies: []domain.FounderCompany{}, Stories: []domain.FounderStory{}}
	var id int64
	var socials string
	err := s.db.sql.QueryRowContext(ctx, `SELECT f.id, f.slug, f.name, f.title, f.country, f.avatar_url, f.bio, f.city, f.socials
		FROM founders f WHERE f.slug = ?`, slug).
		Scan(&id, &f.Slug, &f.Name, &f.Title, &f.Country, &f.AvatarURL, &f.Bio, &f.City, &socials)
	if err != nil {
		return nil, mapErr(err, "founder", slug)
	}
	if err := decodeJSON(socials, &f.Socials, "founder "+slug); err != nil {
		return nil, err
	}
	f.PageURL = s.site.FounderPageURL(slug)
	var role, story, unlocked string
	err = s.querySummaries(ctx, `SELECT `+summaryCols+`, lf.role, COALESCE(l.story, ''), l.unlocked_sections
		FROM listing_founders lf JOIN listings l ON l.id = lf.listing_id`+summaryJoins+`
		WHERE lf.founder_id = ? AND l.site_id = ? AND l.status = 'live'
		ORDER BY lf.is_primary DESC, l.launched_at DESC, l.id`, []any{id, s.siteID},
		func() []any { return []any{&role, &story, &unlocked} },
		func(ls domain.ListingSummary) {
			f.Companies = append(f.Companies, domain.FounderCompany{Role: role, Listing: ls})
			var sections []string
			if decodeJSON(unlocked, &sections, "") != nil || story == "" {
				return
			}
			if ls.Plan != domain.PlanPaid && !slices.Contains(sections, domain.SectionStory) {
				return
			}
			fs := domain.FounderStory{Listing: ls.Slug}
			if decodeJSON(story, &fs.Story, "") == nil && fs.Story != (domain.Story{}) {
				f.Stories = append(f.Stories, fs)
			}
		})
	if err != nil {
		return nil, err
	}
	if len(f.Companies) == 0 {
		return nil, domain.NotFound("founder", slug)
	}
	f.FounderSummary.Companies = len(f.Companies)
	return f, nil
}

// BlogPosts lists published posts (their time has come) newest first; q keeps posts whose title, excerpt,
// text or tags contain every word of q (case-insensitive).
func (s *Store) BlogPosts(ctx context.Context, q domain.BlogQuery) ([]domain.BlogPostSummary, int, error) {
	// A post is on the blog once its time has come: a scheduled post (a
	// publication time after now) is not, until then.
	where := `site_id = ? AND published_at IS NOT NULL AND published_at <= ?`
	args := []any{s.siteID, s.db.Now().Unix()}
	for _, w := range strings.Fields(strings.ToLower(q.Q)) {
		where += ` AND lower(title || ' ' || excerpt || ' ' || markdown || ' ' || tags) LIKE ? ESCAPE '\'`
		args = append(args, likePattern(w))
	}
	total, err := s.count(ctx, `SELECT COUNT(*) FROM blog_posts WHERE `+where, args...)
	if err != nil || total == 0 {
		return []domain.BlogPostSummary{}, total, err
	}
	rows, err := s.db.sql.QueryContext(ctx, `SELECT slug, title, excerpt, author, tags, published_at FROM blog_posts
		WHERE `+where+` ORDER BY published_at DESC, id DESC LIMIT ? OFFSET ?`, append(args, q.Limit, q.Offset)...)
	if err != nil {
		return nil, 0, mapErr(err, "blog post", "")
	}
	defer rows.Close()
	out := []domain.BlogPostSummary{}
	for rows.Next() {
		var p domain.BlogPostSummary
		var tags string
		var at sql.NullInt64
		if err := rows.Scan(&p.Slug, &p.Title, &p.Excerpt, &p.Author, &tags, &at); err != nil {
			return nil, 0, mapErr(err, "blog post", "")
		}
		if err := s.finishPost(&p, tags, at); err != nil {
			return nil, 0, err
		}
		out = append(out, p)
	}
	return out, total, mapErr(rows.Err(), "blog post", "")
}

func (s *Store) finishPost(p *domain.BlogPostSummary, tags string, at sql.NullInt64) error {
	p.Tags = []string{}
	if err := decodeJSON(tags, &p.Tags, "blog post "+p.Slug); err != nil {
		return err
	}
	if t := unixTime(at); t != nil {
		p.PublishedAt = *t
	}
	p.PageURL = s.site.BlogPageURL(p.Slug)
	return nil
}

// BlogPost returns a published post (its time has come; else ENotFound) with its Markdown text and FAQs.
func (s *Store) BlogPost(ctx context.Context, slug string) (*domain.BlogPost, error) {
	p := &domain.BlogPost{FAQs: []domain.FAQ{}}
	var tags, faqs string
	var at sql.NullInt64
	err := s.db.sql.QueryRowContext(ctx, `SELECT slug, title, excerpt, author, tags, published_at, markdown, faqs
		FROM blog_posts WHERE site_id = ? AND slug = ? AND published_at IS NOT NULL AND published_at <= ?`, s.siteID, slug, s.db.Now().Unix()).
		Scan(&p.Slug, &p.Title, &p.Excerpt, &p.Author, &tags, &at, &p.Markdown, &faqs)
	if err != nil {
		return nil, mapErr(err, "blog post", slug)
	}
	if err := s.finishPost(&p.BlogPostSummary, tags, at); err != nil {
		return nil, err
	}
	if err := decodeJSON(faqs, &p.FAQs, "blog post "+slug); err != nil {
		return nil, err
	}
	return p, nil
}

// InterviewQuestions returns the site's founder interview questions in order.
func (s *Store) InterviewQuestions(ctx context.Context) ([]domain.InterviewQuestion, error) {
	rows, err := s.db.sql.QueryContext(ctx, `SELECT id, question, topic, position FROM interview_questions
		WHERE site_id = ? ORDER BY position, id`, s.siteID)
	if err != nil {
		return nil, mapErr(err, "interview question", "")
	}
	defer rows.Close()
	out := []domain.InterviewQuestion{}
	for rows.Next() {
		var q domain.InterviewQuestion
		if err := rows.Scan(&q.ID, &q.Question, &q.Topic, &q.Position); err != nil {
			return nil, mapErr(err, "interview question", "")
		}
		out = append(out, q)
	}
	return out, mapErr(rows.Err(), "interview question", "")
}
