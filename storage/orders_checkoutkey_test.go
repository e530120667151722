package storage

import (
	"bytes"
	"context"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// TestOrderStore_CheckoutKeyIsOneForTheDatabase: the key checkout links are
// derived from is created once and is the same for every store over the
// database (another process, another site), so that get_order shows the
// link create_checkout gave whichever process answers.
func TestOrderStore_CheckoutKeyIsOneForTheDatabase(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		f := newOrderFixtureOn(t, engine)
		ctx := context.Background()
		k1, err := f.st.CheckoutKey(ctx)
		draftMust(t, err)
		if len(k1) != 32 || bytes.Equal(k1, make([]byte, 32)) {
			t.Fatalf("checkout key %x: want 32 random bytes", k1)
		}
		other, err := NewOrderStore(f.db, domain.Site{Key: "other", Name: "Other"})
		draftMust(t, err)
		k2, err := other.CheckoutKey(ctx)
		draftMust(t, err)
		if !bytes.Equal(k1, k2) {
			t.Fatalf("a second store over the database read another key")
		}
		var n int
		draftMust(t, f.db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM checkout_key`).Scan(&n))
		if n != 1 {
			t.Fatalf("%d checkout keys stored, want 1", n)
		}
	})
}
