package storage

import (
	"context"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
)

// TestOrderStore_ExtraCategoryRenamedSincePayment: an order bought an extra
// category by its slug; the site team renamed the category before the
// order was fulfilled. Fulfilment follows the old slug to the category
// instead of failing the line ("no longer exists").
func TestOrderStore_ExtraCategoryRenamedSincePayment(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		f := newOrderFixtureOn(t, engine)
		ctx := context.Background()
		st, err := NewStore(ctx, f.db, fxSite)
		if err != nil {
			t.Fatal(err)
		}
		var design int64
		if err := f.db.sql.QueryRowContext(ctx, `SELECT id FROM categories WHERE slug = 'design'`).Scan(&design); err != nil {
			t.Fatal(err)
		}
		c, err := st.AdminCategory(ctx, design)
		if err != nil {
			t.Fatal(err)
		}
		id := f.paidOrder(t, "R1", "featured", 4)
		c.Slug = "design-tools"
		if err := st.SaveCategory(ctx, *c, console.CategoryNaming, console.AuditEntry{At: fxNow, Actor: "ops@ex.test", Action: "category.rename", Target: "category:1"}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.st.FulfilLine(ctx, id, 0, domain.Fulfilment{ListingID: 4, ExtraCategories: []string{"design"}}, fxNow.Add(time.Hour)); err != nil {
			t.Fatalf("fulfilling an extra category renamed since the payment: %v", err)
		}
		var n int
		if err := f.db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM listing_categories WHERE listing_id = 4 AND category_id = ?`, design).Scan(&n); err != nil || n != 1 {
			t.Errorf("listing 4 in the renamed category: %d links (%v)", n, err)
		}
	})
}
