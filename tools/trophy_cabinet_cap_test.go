package tools

import (
	"fmt"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestTrophies_CabinetCap: a free cabinet holds 10 trophies won elsewhere;
// the 11th is a 400 naming listing_id, the rule cabinet_limit and the
// trophy_cabinet product that lifts it (REST and MCP), and nothing is
// stored; with the trophies section unlocked (what paying trophy_cabinet
// does, TestTrophyProducts_CheckoutPaidFulfilled) the cabinet takes more.
func TestTrophies_CabinetCap(t *testing.T) {
	t.Parallel()
	env := newTrophyEnv(t)
	key := env.apiKey(t, "cap@example.com")
	id, _ := env.trophyListing(t, "cap@example.com", "Capped", "capped.test")
	rest := restCaller(env.catEnv, key)
	args := func(n int) map[string]any {
		return map[string]any{"listing_id": id, "platform": "Hunt", "title": "Top", "date": "2026-11-01", "award_url": fmt.Sprintf("https://hunt.test/%d", n)}
	}
	for n := range domain.FreeCabinetTrophies {
		addTrophy(t, rest, args(n))
	}
	transports(t, env.catEnv, key, func(t *testing.T, tr string, call draftCaller) {
		st, p := call(t, "add_trophy", args(100))
		errs, _ := p["errors"].([]any)
		if st != 400 || p["code"] != "invalid" || len(errs) == 0 {
			t.Fatalf("the 11th trophy: want 400 invalid, got %d %v", st, p)
		}
		fe := errs[0].(map[string]any)
		if msg, _ := fe["message"].(string); fe["field"] != "listing_id" || fe["rule"] != "cabinet_limit" || !strings.Contains(msg, "trophy_cabinet") || !strings.Contains(msg, "10") {
			t.Fatalf("the 11th trophy: %v, want listing_id cabinet_limit naming trophy_cabinet", fe)
		}
	})
	if n := fixtures.Count(t, env.db, "trophies", fixtures.Cols{"listing_id": id}); n != domain.FreeCabinetTrophies {
		t.Fatalf("%d trophies stored, want %d", n, domain.FreeCabinetTrophies)
	}
	fixtures.Update(t, env.db, "listings", fixtures.Cols{"unlocked_sections": `["trophies"]`}, fixtures.Cols{"id": id})
	addTrophy(t, rest, args(100))
	if n := fixtures.Count(t, env.db, "trophies", fixtures.Cols{"listing_id": id}); n != domain.FreeCabinetTrophies+1 {
		t.Fatalf("%d trophies after unlocking, want %d", n, domain.FreeCabinetTrophies+1)
	}
}
