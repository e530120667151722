package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"strconv"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
)

// The console's blog and interview questions (domain/console/blog.go): every
// change and its audit entry in one transaction.

var _ console.BlogAdminStore = (*Store)(nil)

// inTx runs fn in a transaction and writes e (its Target filled from
// target when empty) before committing; on PostgreSQL the whole is run
// again after a serialization failure (DB.inTx).
func (s *Store) inTx(ctx context.Context, kind string, e console.AuditEntry, fn func(tx *Tx) (target string, err error)) error {
	err := s.db.inTx(ctx, func(tx *Tx) error {
		target, err := fn(tx)
		if err != nil {
			return err
		}
		entry := e
		if entry.Target == "" {
			entry.Target = target
		}
		return s.writeAudit(ctx, tx, entry)
	})
	return mapErr(err, kind, "")
}

// affected turns a change of no row into ENotFound.
func affected(res sql.Result, kind string, id int64) error {
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return domain.NotFound(kind, strconv.FormatInt(id, 10))
	}
	return nil
}

const adminPostCols = `id, slug, title, excerpt, markdown, author, tags, faqs, published_at`

func scanAdminPost(sc interface{ Scan(...any) error }) (console.AdminBlogPost, error) {
	var p console.AdminBlogPost
	var tags, faqs string
	var at sql.NullInt64
	if err := sc.Scan(&p.ID, &p.Slug, &p.Title, &p.Excerpt, &p.Markdown, &p.Author, &tags, &faqs, &at); err != nil {
		return p, err
	}
	p.Tags, p.FAQs = []string{}, []domain.FAQ{}
	if err := decodeJSON(tags, &p.Tags, "blog post "+p.Slug); err != nil {
		return p, err
	}
	if err := decodeJSON(faqs, &p.FAQs, "blog post "+p.Slug); err != nil {
		return p, err
	}
	p.PublishedAt = unixTime(at)
	return p, nil
}

// AdminBlogPosts implements console.BlogAdminStore.
func (s *Store) AdminBlogPosts(ctx context.Context) ([]console.AdminBlogPost, error) {
	out := []console.AdminBlogPost{}
	err := queryEach(ctx, s.db.sql, func(rows *sql.Rows) error {
		p, err := scanAdminPost(rows)
		out = append(out, p)
		return err
	}, `SELECT `+adminPostCols+` FROM blog_posts WHERE site_id = ?
		ORDER BY published_at IS NOT NULL, published_at DESC, id DESC`, s.siteID)
	return out, mapErr(err, "blog post", "")
}

// AdminBlogPost implements console.BlogAdminStore.
func (s *Store) AdminBlogPost(ctx context.Context, id int64) (*console.AdminBlogPost, error) {
	p, err := scanAdminPost(s.db.sql.QueryRowContext(ctx, `SELECT `+adminPostCols+` FROM blog_posts WHERE site_id = ? AND id = ?`, s.siteID, id))
	if err != nil {
		return nil, mapErr(err, "blog post", strconv.FormatInt(id, 10))
	}
	return &p, nil
}

// BlogSlugTaken implements console.BlogAdminStore.
func (s *Store) BlogSlugTaken(ctx context.Context, slug string, id int64) (bool, error) {
	n, err := s.count(ctx, `SELECT COUNT(*) FROM blog_posts WHERE site_id = ? AND slug = ? AND id <> ?`, s.siteID, slug, id)
	return n > 0, err
}

// postJSON is the tags and FAQs of p as stored.
func postJSON(p console.BlogPostWrite) (tags, faqs string, err error) {
	t, err := json.Marshal(p.Tags)
	if err != nil {
		return "", "", err
	}
	f, err := json.Marshal(p.FAQs)
	return string(t), string(f), err
}

// CreateBlogPost implements console.BlogAdminStore.
func (s *Store) CreateBlogPost(ctx context.Context, p console.BlogPostWrite, e console.AuditEntry) (int64, error) {
	tags, faqs, err := postJSON(p)
	if err != nil {
		return 0, err
	}
	var id int64
	err = s.inTx(ctx, "blog post", e, func(tx *Tx) (string, error) {
		err := tx.QueryRowContext(ctx, `INSERT INTO blog_posts (site_id, slug, title, excerpt, markdown, author, tags, faqs, published_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL) RETURNING id`, s.siteID, p.Slug, p.Title, p.Excerpt, p.Markdown, p.Author, tags, faqs).Scan(&id)
		if err != nil {
			return "", err
		}
		return "blog_post:" + strconv.FormatInt(id, 10), err
	})
	return id, err
}

// UpdateBlogPost implements console.BlogAdminStore.
func (s *Store) UpdateBlogPost(ctx context.Context, id int64, p console.BlogPostWrite, e console.AuditEntry) error {
	tags, faqs, err := postJSON(p)
	if err != nil {
		return err
	}
	return s.inTx(ctx, "blog post", e, func(tx *Tx) (string, error) {
		res, err := tx.ExecContext(ctx, `UPDATE blog_posts SET slug = ?, title = ?, excerpt = ?, markdown = ?, author = ?, tags = ?, faqs = ?
			WHERE site_id = ? AND id = ?`, p.Slug, p.Title, p.Excerpt, p.Markdown, p.Author, tags, faqs, s.siteID, id)
		if err != nil {
			return "", err
		}
		return "", affected(res, "blog post", id)
	})
}

// SetBlogPublished implements console.BlogAdminStore.
func (s *Store) SetBlogPublished(ctx context.Context, id int64, at *time.Time, e console.AuditEntry) error {
	var v any
	if at != nil {
		v = at.Unix()
	}
	return s.inTx(ctx, "blog post", e, func(tx *Tx) (string, error) {
		res, err := tx.ExecContext(ctx, `UPDATE blog_posts SET published_at = ? WHERE site_id = ? AND id = ?`, v, s.siteID, id)
		if err != nil {
			return "", err
		}
		return "", affected(res, "blog post", id)
	})
}

// AdminInterviewQuestions implements console.BlogAdminStore.
func (s *Store) AdminInterviewQuestions(ctx context.Context) ([]console.AdminInterviewQuestion, error) {
	out := []console.AdminInterviewQuestion{}
	err := queryEach(ctx, s.db.sql, func(rows *sql.Rows) error {
		var q console.AdminInterviewQuestion
		err := rows.Scan(&q.ID, &q.Question, &q.Topic, &q.Position, &q.Answers)
		out = append(out, q)
		return err
	}, `SELECT q.id, q.question, q.topic, q.position, (SELECT COUNT(*) FROM interview_answers a WHERE a.question_id = q.id)
		FROM interview_questions q WHERE q.site_id = ? ORDER BY q.position, q.id`, s.siteID)
	return out, mapErr(err, "interview question", "")
}

// AddInterviewQuestion implements console.BlogAdminStore: after the last.
func (s *Store) AddInterviewQuestion(ctx context.Context, question, topic string, e console.AuditEntry) (int64, error) {
	var id int64
	err := s.inTx(ctx, "interview question", e, func(tx *Tx) (string, error) {
		err := tx.QueryRowContext(ctx, `INSERT INTO interview_questions (site_id, question, topic, position)
			SELECT ?1, ?2, ?3, COALESCE(MAX(position), 0) + 1 FROM interview_questions WHERE site_id = ?1 RETURNING id`, s.siteID, question, topic).Scan(&id)
		if err != nil {
			return "", err
		}
		return "interview_question:" + strconv.FormatInt(id, 10), err
	})
	return id, err
}

// UpdateInterviewQuestion implements console.BlogAdminStore.
func (s *Store) UpdateInterviewQuestion(ctx context.Context, id int64, question, topic string, e console.AuditEntry) error {
	return s.inTx(ctx, "interview question", e, func(tx *Tx) (string, error) {
		res, err := tx.ExecContext(ctx, `UPDATE interview_questions SET question = ?, topic = ? WHERE site_id = ? AND id = ?`, question, topic, s.siteID, id)
		if err != nil {
			return "", err
		}
		return "", affected(res, "interview question", id)
	})
}

// OrderInterviewQuestions implements console.BlogAdminStore.
func (s *Store) OrderInterviewQuestions(ctx context.Context, ids []int64, e console.AuditEntry) error {
	return s.inTx(ctx, "interview question", e, func(tx *Tx) (string, error) {
		for i, id := range ids {
			res, err := tx.ExecContext(ctx, `UPDATE interview_questions SET position = ? WHERE site_id = ? AND id = ?`, i+1, s.siteID, id)
			if err != nil {
				return "", err
			}
			if err := affected(res, "interview question", id); err != nil {
				return "", err
			}
		}
		return "", nil
	})
}

// RemoveInterviewQuestion implements console.BlogAdminStore.
func (s *Store) RemoveInterviewQuestion(ctx context.Context, id int64, e console.AuditEntry) error {
	return s.inTx(ctx, "interview question", e, func(tx *Tx) (string, error) {
		if _, err := tx.ExecContext(ctx, `DELETE FROM interview_answers WHERE question_id IN
			(SELECT id FROM interview_questions WHERE site_id = ? AND id = ?)`, s.siteID, id); err != nil {
			return "", err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM interview_questions WHERE site_id = ? AND id = ?`, s.siteID, id)
		if err != nil {
			return "", err
		}
		return "", affected(res, "interview question", id)
	})
}
