package storage

import (
	"os"
	"regexp"
	"strconv"
	"testing"
)

// TestRetryBudget_DocumentedAsInCode: docs/scaling.md quotes the retry
// budget of a transaction that lost a serialization conflict in several
// places ("at most 60 attempts", "60 attempts with growing random
// backoff"); each must be maxTxAttempts, the number the code uses (one said
// "up to 20 attempts" after the budget had become 60).
func TestRetryBudget_DocumentedAsInCode(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../docs/scaling.md")
	if err != nil {
		t.Fatal(err)
	}
	budget := regexp.MustCompile(`(?:up to|at most|retry budget \() ?(\d+) attempts`)
	found := budget.FindAllSubmatch(doc, -1)
	if len(found) == 0 {
		t.Fatal("docs/scaling.md no longer states the retry budget (at most N attempts)")
	}
	for _, m := range found {
		if n, _ := strconv.Atoi(string(m[1])); n != maxTxAttempts {
			t.Errorf("docs/scaling.md says %q; the code's budget is maxTxAttempts = %d", m[0], maxTxAttempts)
		}
	}
}
