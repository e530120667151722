package storage

import (
	"context"
	"fmt"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
)

// TestStore_FindAccountsAndDetail: the people console's search (by id or
// any part of the email, whatever its case, newest first, the exact id
// first) and an account's detail (its listings, votes with the reason they
// are held, suspension) read the same on both engines.
func TestStore_FindAccountsAndDetail(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		f := newModFixtureOn(t, engine)
		ctx := context.Background()
		ann := f.user("Ann_Lee@Example.com", fxNow.AddDate(0, -2, 0))
		bob := f.user("bob@example.com", fxNow.AddDate(0, -1, 0))
		f.user("carl@elsewhere.test", fxNow.AddDate(0, 0, -1))
		vote := f.vote(ann, "notely", "n1")
		setRows(t, f.db, "listings", cols{"owner_id": ann}, cols{"id": 2})

		emails := func(q string) []string {
			t.Helper()
			got, err := f.st.FindAccounts(ctx, q, 10)
			if err != nil {
				t.Fatal(err)
			}
			out := []string{}
			for _, a := range got {
				out = append(out, a.Email)
			}
			return out
		}
		for q, want := range map[string]string{
			"EXAMPLE.COM": "[bob@example.com Ann_Lee@Example.com]", // newest first
			"ann_":        "[Ann_Lee@Example.com]",                 // _ is no wildcard
			"bo_@":        "[]",                                    // would match bob@ were _ a wildcard
			"%":           "[]",
		} {
			if got := emails(q); fmt.Sprint(got) != want {
				t.Errorf("FindAccounts(%q) = %v, want %s", q, got, want)
			}
		}
		if got := emails(itoa(bob)); len(got) == 0 || got[0] != "bob@example.com" {
			t.Errorf("FindAccounts(bob's id) = %v, want bob first", got)
		}

		if err := f.st.SuspendAccount(ctx, ann, true, "spam", console.AuditEntry{At: fxNow, Actor: "ops@example.com", Action: "account.suspend"}); err != nil {
			t.Fatal(err)
		}
		d, err := f.st.AccountDetail(ctx, ann)
		if err != nil {
			t.Fatal(err)
		}
		if !d.Suspended || d.SuspendedReason != "spam" || d.SuspendedBy != "ops@example.com" || !d.SuspendedAt.Equal(fxNow) || d.SignIn != "email link" {
			t.Errorf("account detail: %+v", d.PersonAccount)
		}
		if len(d.Listings) != 1 || d.Listings[0].Slug != "jotter" || !d.Listings[0].Owner {
			t.Errorf("listings of the account: %+v, want jotter as its owner", d.Listings)
		}
		if len(d.Votes) != 1 || d.Votes[0].ID != vote || d.Votes[0].Status != "held" || d.Votes[0].Reason != console.HeldSuspended || !d.Votes[0].At.Equal(fxNow) {
			t.Errorf("votes of the suspended account: %+v, want its vote held as suspended", d.Votes)
		}
		if _, err := f.st.AccountDetail(ctx, 999999); domain.ErrorCode(err) != domain.ENotFound {
			t.Errorf("detail of no account: %v, want not found", err)
		}
	})
}
