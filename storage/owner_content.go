package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"github.com/launchdir/launchdir/domain"
)

var _ domain.OwnerContentStore = (*Store)(nil)

// ownedRef checks in q (a transaction) that userID owns listing id
// (notOwned: ENotFound worded the same for missing and someone else's)
// and returns what the content operations need to know about it.
func (s *Store) ownedRef(ctx context.Context, q queryRower, userID, id int64) (domain.ListingRef, error) {
	ref := domain.ListingRef{ID: id}
	var unlocked string
	err := q.QueryRowContext(ctx, `SELECT l.slug, l.name, l.status, l.plan, l.unlocked_sections FROM listings l
		WHERE l.site_id = ? AND l.id = ? AND `+s.db.eng.ownedBy(), s.siteID, id, userID, userID).
		Scan(&ref.Slug, &ref.Name, &ref.Status, &ref.Plan, &unlocked)
	if err == sql.ErrNoRows {
		return ref, notOwned(id)
	}
	if err != nil {
		return ref, mapErr(err, "listing", "")
	}
	return ref, decodeJSON(unlocked, &ref.Unlocked, "listing "+ref.Slug)
}

// userFollowers counts the signed-in followers of listing id who followed by
// at (unix seconds), other than author: who a fan-out at that time tells.
const userFollowers = `FROM follows f JOIN users u ON f.follower_key = 'user:' || u.id
	WHERE f.listing_id = ? AND f.created_at <= ? AND u.id <> ?`

// PostUpdate implements domain.OwnerContentStore.
func (s *Store) PostUpdate(ctx context.Context, userID, listingID int64, title, body string, at time.Time,
	jobs func(*domain.PostedUpdate, domain.ListingRef, int) []domain.JobSpec,
	events ...func(*domain.PostedUpdate, domain.ListingRef) domain.ListingEventFunc) (*domain.PostedUpdate, domain.ListingRef, int, error) {
	var r1 domain.ListingRef
	var r2 int
	first, err := retry(ctx, func() (*domain.PostedUpdate, error) {
		var first *domain.PostedUpdate
		var err error
		first, r1, r2, err = s.postUpdate(ctx, userID, listingID, title, body, at, jobs, events)
		return first, err
	})
	return first, r1, r2, err
}

// postUpdate is PostUpdate's transaction (PostUpdate retries it).
func (s *Store) postUpdate(ctx context.Context, userID, listingID int64, title, body string, at time.Time,
	jobs func(*domain.PostedUpdate, domain.ListingRef, int) []domain.JobSpec,
	events []func(*domain.PostedUpdate, domain.ListingRef) domain.ListingEventFunc) (*domain.PostedUpdate, domain.ListingRef, int, error) {
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return nil, domain.ListingRef{}, 0, err
	}
	defer tx.Rollback()
	ref, err := s.ownedRef(ctx, tx, userID, listingID)
	if err != nil {
		return nil, ref, 0, err
	}
	u := &domain.PostedUpdate{ListingID: listingID, Title: title, Body: body, PostedAt: time.Unix(at.Unix(), 0).UTC()}
	if err := tx.QueryRowContext(ctx, `INSERT INTO listing_updates (listing_id, title, body, posted_at, author_id)
		VALUES (?, ?, ?, ?, ?) RETURNING id`, listingID, title, body, at.Unix(), userID).Scan(&u.ID); err != nil {
		return nil, ref, 0, mapErr(err, "update", "")
	}
	var told int
	if ref.Public() {
		if err := tx.QueryRowContext(ctx, `SELECT count(*) `+userFollowers, listingID, at.Unix(), userID).Scan(&told); err != nil {
			return nil, ref, 0, mapErr(err, "follow", "")
		}
	}
	if jobs != nil {
		if err := s.db.enqueueTx(ctx, tx, jobs(u, ref, told)...); err != nil {
			return nil, ref, 0, err
		}
	}
	for _, ev := range events {
		if err := s.addListingEventsTx(ctx, tx, listingID, ev(u, ref)); err != nil {
			return nil, ref, 0, mapErr(err, "webhook event", "")
		}
	}
	return u, ref, told, tx.Commit()
}

// AddMilestone implements domain.OwnerContentStore.
func (s *Store) AddMilestone(ctx context.Context, userID, listingID int64, m domain.Milestone, max int) (*domain.Milestone, domain.ListingRef, error) {
	var r1 domain.ListingRef
	first, err := retry(ctx, func() (*domain.Milestone, error) {
		var first *domain.Milestone
		var err error
		first, r1, err = s.addMilestone(ctx, userID, listingID, m, max)
		return first, err
	})
	return first, r1, err
}

// addMilestone is AddMilestone's transaction (AddMilestone retries it).
func (s *Store) addMilestone(ctx context.Context, userID, listingID int64, m domain.Milestone, max int) (*domain.Milestone, domain.ListingRef, error) {
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return nil, domain.ListingRef{}, err
	}
	defer tx.Rollback()
	ref, err := s.ownedRef(ctx, tx, userID, listingID)
	if err != nil {
		return nil, ref, err
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM milestones WHERE listing_id = ?`, listingID).Scan(&n); err != nil {
		return nil, ref, mapErr(err, "milestone", "")
	}
	if n >= max {
		return nil, ref, domain.Errorf(domain.EConflict,
			"Listing %d has %d milestones, the most it may have; delete one first (delete_milestone).", listingID, n)
	}
	if err := tx.QueryRowContext(ctx, `INSERT INTO milestones (listing_id, date, title, description, url)
		VALUES (?, ?, ?, ?, ?) RETURNING id`, listingID, m.Date, m.Title, m.Description, m.URL).Scan(&m.ID); err != nil {
		return nil, ref, mapErr(err, "milestone", "")
	}
	return &m, ref, tx.Commit()
}

// DeleteMilestone implements domain.OwnerContentStore.
func (s *Store) DeleteMilestone(ctx context.Context, userID, listingID, milestoneID int64) (*domain.Milestone, domain.ListingRef, error) {
	var r1 domain.ListingRef
	first, err := retry(ctx, func() (*domain.Milestone, error) {
		var first *domain.Milestone
		var err error
		first, r1, err = s.deleteMilestone(ctx, userID, listingID, milestoneID)
		return first, err
	})
	return first, r1, err
}

// deleteMilestone is DeleteMilestone's transaction (DeleteMilestone retries it).
func (s *Store) deleteMilestone(ctx context.Context, userID, listingID, milestoneID int64) (*domain.Milestone, domain.ListingRef, error) {
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return nil, domain.ListingRef{}, err
	}
	defer tx.Rollback()
	ref, err := s.ownedRef(ctx, tx, userID, listingID)
	if err != nil {
		return nil, ref, err
	}
	var m domain.Milestone
	err = tx.QueryRowContext(ctx, `DELETE FROM milestones WHERE id = ? AND listing_id = ?
		RETURNING id, date, title, description, url`, milestoneID, listingID).Scan(&m.ID, &m.Date, &m.Title, &m.Description, &m.URL)
	if err == sql.ErrNoRows {
		return nil, ref, domain.Errorf(domain.ENotFound,
			"Your listing %d has no milestone %d (get_my_listing lists its milestones).", listingID, milestoneID)
	}
	if err != nil {
		return nil, ref, mapErr(err, "milestone", "")
	}
	return &m, ref, tx.Commit()
}

// SetStory implements domain.OwnerContentStore.
func (s *Store) SetStory(ctx context.Context, userID, listingID int64, story *domain.Story, at time.Time) (domain.ListingRef, error) {
	return retry(ctx, func() (domain.ListingRef, error) { return s.setStory(ctx, userID, listingID, story, at) })
}

// setStory is SetStory's transaction (SetStory retries it).
func (s *Store) setStory(ctx context.Context, userID, listingID int64, story *domain.Story, at time.Time) (domain.ListingRef, error) {
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return domain.ListingRef{}, err
	}
	defer tx.Rollback()
	ref, err := s.ownedRef(ctx, tx, userID, listingID)
	if err != nil {
		return ref, err
	}
	var text sql.NullString
	if story != nil {
		b, err := json.Marshal(story)
		if err != nil {
			return ref, err
		}
		text = sql.NullString{String: string(b), Valid: true}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE listings SET story = ?, updated_at = ? WHERE id = ?`, text, at.Unix(), listingID); err != nil {
		return ref, mapErr(err, "listing", ref.Slug)
	}
	return ref, tx.Commit()
}

// SetInterviewAnswers implements domain.OwnerContentStore.
func (s *Store) SetInterviewAnswers(ctx context.Context, userID int64, answers []domain.InterviewAnswerInput, at time.Time) ([]domain.InterviewAnswer, error) {
	return retry(ctx, func() ([]domain.InterviewAnswer, error) { return s.setInterviewAnswers(ctx, userID, answers, at) })
}

// setInterviewAnswers is SetInterviewAnswers's transaction (SetInterviewAnswers retries it).
func (s *Store) setInterviewAnswers(ctx context.Context, userID int64, answers []domain.InterviewAnswerInput, at time.Time) ([]domain.InterviewAnswer, error) {
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	for _, a := range answers {
		if a.Answer == "" {
			_, err = tx.ExecContext(ctx, `DELETE FROM interview_answers WHERE user_id = ? AND question_id = ?`, userID, a.QuestionID)
		} else {
			_, err = tx.ExecContext(ctx, `INSERT INTO interview_answers (user_id, question_id, answer, updated_at)
				SELECT ?, q.id, ?, ? FROM interview_questions q WHERE q.id = ? AND q.site_id = ?
				ON CONFLICT (user_id, question_id) DO UPDATE SET answer = excluded.answer, updated_at = excluded.updated_at`,
				userID, a.Answer, at.Unix(), a.QuestionID, s.siteID)
		}
		if err != nil {
			return nil, mapErr(err, "interview answer", "")
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	return s.interviewAnswers(ctx, `a.user_id = ?`, userID)
}

// interviewAnswers reads the answers matching cond (over interview_answers
// a), to this site's questions, in question order.
func (s *Store) interviewAnswers(ctx context.Context, cond string, args ...any) ([]domain.InterviewAnswer, error) {
	rows, err := s.db.sql.QueryContext(ctx, `SELECT q.id, q.question, q.topic, a.answer, a.updated_at
		FROM interview_answers a JOIN interview_questions q ON q.id = a.question_id
		WHERE q.site_id = ? AND `+cond+` ORDER BY q.position, q.id, a.user_id`, append([]any{s.siteID}, args...)...)
	if err != nil {
		return nil, mapErr(err, "interview answer", "")
	}
	defer rows.Close()
	out := []domain.InterviewAnswer{}
	for rows.Next() {
		var a domain.InterviewAnswer
		var at int64
		if err := rows.Scan(&a.QuestionID, &a.Question, &a.Topic, &a.Answer, &at); err != nil {
			return nil, mapErr(err, "interview answer", "")
		}
		a.UpdatedAt = time.Unix(at, 0).UTC()
		out = append(out, a)
	}
	return out, mapErr(rows.Err(), "interview answer", "")
}

// listingInterview is the Interview section of listing id's profile: the
// answers of every account that owns it (the submitter and co-owners).
func (s *Store) listingInterview(ctx context.Context, id int64) ([]domain.InterviewAnswer, error) {
	return s.interviewAnswers(ctx, `a.user_id IN (SELECT owner_id FROM listings WHERE id = ? AND owner_id IS NOT NULL
		UNION SELECT user_id FROM listing_owners WHERE listing_id = ?)`, id, id)
}

// PublicListingPages implements domain.OwnerContentStore.
func (s *Store) PublicListingPages(ctx context.Context, userID int64) ([]string, error) {
	rows, err := s.db.sql.QueryContext(ctx, `SELECT l.slug FROM listings l WHERE l.site_id = ? AND `+publicStatus+` AND `+s.db.eng.ownedBy()+`
		ORDER BY l.id`, s.siteID, userID, userID)
	if err != nil {
		return nil, mapErr(err, "listing", "")
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var slug string
		if err := rows.Scan(&slug); err != nil {
			return nil, mapErr(err, "listing", "")
		}
		out = append(out, s.site.ListingPageURL(slug))
	}
	return out, mapErr(rows.Err(), "listing", "")
}
