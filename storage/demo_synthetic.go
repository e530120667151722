package storage

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// synthChunk is the number of listings written per transaction.
const synthChunk = 10000

// SeedSynthetic adds n synthetic live listings to site for benchmarks. Words
// are drawn from a Zipf distribution over a vocabulary of real words and
// made-up ones, so common words match many listings and rare words few, as in
// real text. Each listing gets one primary category (the demo tree is created
// when the site has no categories) and counters instead of vote, view and
// follow rows. Rows are written in transactions of 10,000 listings. The same
// n and now give the same listings.
func SeedSynthetic(ctx context.Context, db *DB, site domain.Site, n int, now time.Time) error {
	siteID, err := ensureSite(ctx, db, site)
	if err != nil {
		return err
	}
	cats, err := synthCategories(ctx, db, siteID)
	if err != nil {
		return fmt.Errorf("storage: seed synthetic: %w", err)
	}
	var base int
	if err := db.sql.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM listings`).Scan(&base); err != nil {
		return fmt.Errorf("storage: seed synthetic: %w", err)
	}
	g := newSynthGen(now, uint64(base))
	for done := 0; done < n; done += synthChunk {
		if err := g.writeChunk(ctx, db, siteID, cats, base+done, min(synthChunk, n-done)); err != nil {
			return fmt.Errorf("storage: seed synthetic: %w", err)
		}
	}
	return nil
}

// synthCategories returns the ids of the site's leaf categories, creating the
// demo tree first when the site has none.
func synthCategories(ctx context.Context, db *DB, siteID int64) ([]int64, error) {
	var n int
	if err := db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM categories WHERE site_id = ?`, siteID).Scan(&n); err != nil {
		return nil, err
	}
	if n == 0 {
		tx, err := db.sql.BeginTx(ctx, nil)
		if err != nil {
			return nil, err
		}
		defer tx.Rollback()
		w := &demoWriter{ctx: ctx, tx: tx, siteID: siteID}
		w.writeCategories(demoCategories())
		if w.err != nil {
			return nil, w.err
		}
		if err := tx.Commit(); err != nil {
			return nil, err
		}
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT id FROM categories c WHERE site_id = ?
		AND NOT EXISTS (SELECT 1 FROM categories s WHERE s.parent_id = c.id) ORDER BY position, id`, siteID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// synthGen draws synthetic listing text.
type synthGen struct {
	r     rnd
	zipf  *rand.Zipf
	vocab []string
	now   time.Time
}

func newSynthGen(now time.Time, stream uint64) *synthGen {
	r := newRnd(now, 1000+stream)
	vocab := synthVocabulary(r)
	return &synthGen{r: r, vocab: vocab, now: now.UTC(), zipf: rand.NewZipf(r.Rand, 1.07, 2, uint64(len(vocab)-1))}
}

// synthVocabulary returns real words from the demo content (most frequent
// first in no particular order) followed by made-up words: about 20,000 in all.
func synthVocabulary(r rnd) []string {
	seen := map[string]bool{}
	var words []string
	add := func(text string) {
		for _, w := range strings.FieldsFunc(strings.ToLower(text), func(c rune) bool { return !(c >= 'a' && c <= 'z') }) {
			if len(w) > 2 && !seen[w] {
				seen[w] = true
				words = append(words, w)
			}
		}
	}
	for _, c := range demoCategories() {
		add(c.Noun + " " + c.Name + " " + strings.Join(c.Keywords, " ") + " " + strings.Join(c.Features, " ") + " " + strings.Join(c.Problems, " "))
	}
	syll := []string{"ba", "lo", "ri", "ka", "ne", "so", "tu", "mi", "va", "de", "zen", "tor", "lin", "qua", "pex", "ro", "fi", "gal", "mor", "sy"}
	for len(words) < 20000 {
		var b strings.Builder
		for k := 0; k < 2+r.IntN(3); k++ {
			b.WriteString(syll[r.IntN(len(syll))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	r.Shuffle(len(words)/20, func(i, j int) { words[i], words[j] = words[j], words[i] }) // mix the head a little
	return words
}

func (g *synthGen) words(n int) string {
	out := make([]string, n)
	for i := range out {
		out[i] = g.vocab[g.zipf.Uint64()]
	}
	return strings.Join(out, " ")
}

var (
	synthStages  = []string{"idea", "pre-launch", "beta", "launched", "launched", "growing", "profitable", "acquired"}
	synthPricing = []string{"free", "freemium", "freemium", "subscription", "one-time", "open-source", "usage-based"}
)

// writeChunk inserts count listings numbered from first, in one transaction.
func (g *synthGen) writeChunk(ctx context.Context, db *DB, siteID int64, cats []int64, first, count int) error {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	ins, err := tx.PrepareContext(ctx, `INSERT INTO listings (site_id, slug, name, tagline, short_description, description, url, domain,
		status, plan, launch_week, launched_at, stage, pricing_model, pricing_summary, country, keywords, votes_count, views_count,
		follows_count, trending_score, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'live', 'free', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer ins.Close()
	cat, err := tx.PrepareContext(ctx, `INSERT INTO listing_categories (listing_id, category_id, is_primary) VALUES (?, ?, 1)`)
	if err != nil {
		return err
	}
	defer cat.Close()
	r := g.r
	monday := domain.Monday(g.now)
	for i := first; i < first+count; i++ {
		w1, w2 := g.vocab[r.IntN(len(g.vocab))], g.vocab[g.zipf.Uint64()]
		name := strings.ToUpper(w1[:1]) + w1[1:] + " " + strings.ToUpper(w2[:1]) + w2[1:]
		slug := fmt.Sprintf("%s-%s-%d", w1, w2, i+1)
		week := monday.AddDate(0, 0, -7*r.IntN(104))
		launched := r.between(week, minTime(week.AddDate(0, 0, 7), g.now))
		votes := int(math.Exp(2.5 + 1.2*r.NormFloat64()))
		trending := 0.0
		if votes > 0 {
			trending = TrendingAdd(0, launched) + math.Log(float64(votes))
		}
		tagline := g.words(6 + r.IntN(5))
		keywords := []string{g.words(1), g.words(1), g.words(1), g.words(1)}
		p := demoPlaces[r.IntN(len(demoPlaces))]
		res, err := ins.ExecContext(ctx, siteID, slug, name, tagline, tagline, g.words(30+r.IntN(40)), "https://"+slug+".example", slug+".example",
			week.Format(domain.DateLayout), launched.Unix(), synthStages[r.IntN(len(synthStages))], synthPricing[r.IntN(len(synthPricing))], "",
			p[0], js(keywords), votes, votes*(5+r.IntN(20)), votes/4, trending, launched.Unix(), launched.Unix())
		if err != nil {
			return err
		}
		id, err := res.LastInsertId()
		if err != nil {
			return err
		}
		if _, err := cat.ExecContext(ctx, id, cats[r.IntN(len(cats))]); err != nil {
			return err
		}
	}
	return tx.Commit()
}
