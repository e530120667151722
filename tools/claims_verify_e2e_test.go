package tools

import (
	"encoding/json"
	"fmt"
	"testing"
)

// TestClaims_VerifyNotYetIsNotReplayed: a verify_claim that finds nothing
// answers 200 with the claim pending, and that answer is not kept for the
// idempotency key, so the same call with the same key after the record is
// published checks again and verifies; that answer is then replayed. Over
// REST (Idempotency-Key header) and MCP (idempotency_key argument).
func TestClaims_VerifyNotYetIsNotReplayed(t *testing.T) {
	t.Parallel()
	env := newClaimsEnv(t)
	key := env.apiKey(t, "claimant@example.com")
	env.apiKey(t, "owner@example.com")
	transports(t, env.catEnv, key, func(t *testing.T, tr string, call draftCaller) {
		domain := "idem-" + tr + ".test"
		_, slug := env.publicListing(t, "owner@example.com", "https://"+domain+"/", domain)
		c := claim(t, call, map[string]any{"slug": slug, "method": "dns"})
		idem := "verify-" + tr
		verify := func() (int, map[string]any, bool) {
			if tr == "mcp" {
				st, v := call(t, "verify_claim", map[string]any{"claim_id": c["id"], "idempotency_key": idem})
				return st, v, false
			}
			r := catDo(t, env.catEnv, "POST", fmt.Sprintf("/v1/claims/%v/verify", c["id"]), nil,
				map[string]string{"Authorization": "Bearer " + key, IdempotencyKeyHeader: idem})
			var v map[string]any
			if err := json.Unmarshal(r.body, &v); err != nil {
				t.Fatalf("verify_claim: %s", r.body)
			}
			return r.status, v, r.header.Get(IdempotentReplayedHeader) == "true"
		}
		st, v, replayed := verify()
		notYet(t, st, v, "No TXT record")
		if replayed {
			t.Fatal("the first call was a replay")
		}
		env.zone.set(instr(c, "record_name"), instr(c, "record_value"))
		if st, v, replayed = verify(); st != 200 || v["status"] != "verified" || replayed {
			t.Fatalf("the same key after publishing: %d %v (replayed %v), want verified by a new check", st, v, replayed)
		}
		env.zone.set(instr(c, "record_name")) // gone again: the verified answer is what the key gives now
		if st, v, replayed = verify(); st != 200 || v["status"] != "verified" || (tr == "rest" && !replayed) {
			t.Fatalf("the key once more: %d %v (replayed %v)", st, v, replayed)
		}
	})
}
