package storage

import (
	"context"
	"testing"

	"github.com/launchdir/launchdir/domain/console"
)

// TestTeam_EmailIgnoresCase: team_members.email is COLLATE NOCASE on
// SQLite and plain TEXT on PostgreSQL. A member granted as Ann@X.test is
// found, re-granted and revoked under any case of the address on both
// engines, and stays one member (PostgreSQL's unique index on lower(email)).
func TestTeam_EmailIgnoresCase(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		_, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()
		entry := func(action string) console.AuditEntry {
			return console.AuditEntry{At: fxNow, Actor: "ops@example.com", Action: action, Target: "member:ann@x.test"}
		}
		if before, err := st.SetTeamRole(ctx, "Ann@X.test", console.RoleModerator, entry("team.grant")); err != nil || before != "" {
			t.Fatalf("granting Ann@X.test: before %q, %v", before, err)
		}
		for _, email := range []string{"Ann@X.test", "ann@x.test", "ANN@X.TEST"} {
			if role, err := st.TeamRole(ctx, email); err != nil || role != console.RoleModerator {
				t.Errorf("TeamRole(%q) = %q, %v; want moderator", email, role, err)
			}
		}
		before, err := st.SetTeamRole(ctx, "ann@x.test", console.RoleAdmin, entry("team.grant"))
		if err != nil || before != console.RoleModerator {
			t.Errorf("re-granting as ann@x.test: before %q, %v; want moderator", before, err)
		}
		members, err := st.TeamMembers(ctx)
		if err != nil || len(members) != 1 || members[0].Email != "ann@x.test" || members[0].Role != console.RoleAdmin {
			t.Fatalf("members after granting twice under two cases: %+v, %v; want ann@x.test as admin once", members, err)
		}
		before, err = st.SetTeamRole(ctx, "ANN@x.TEST", "", entry("team.revoke"))
		if err != nil || before != console.RoleAdmin {
			t.Errorf("revoking as ANN@x.TEST: before %q, %v; want admin", before, err)
		}
		if members, err := st.TeamMembers(ctx); err != nil || len(members) != 0 {
			t.Errorf("members after revoking: %+v, %v; want none", members, err)
		}
		if role, err := st.TeamRole(ctx, "ann@x.test"); err != nil || role != "" {
			t.Errorf("TeamRole after revoking: %q, %v", role, err)
		}
	})
}

// TestTeam_OneMemberPerAddress: on both engines the schema refuses a second
// row for the same address in another case (SQLite: the key is NOCASE;
// PostgreSQL: the unique index on lower(email) of migration 0024).
func TestTeam_OneMemberPerAddress(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		db, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()
		row := func(email string) error {
			_, err := db.InsertRow(ctx, "team_members", map[string]any{"site_id": st.siteID, "email": email, "role": "admin",
				"granted_by": "test", "granted_at": fxNow.Unix()})
			return err
		}
		if err := row("bo@x.test"); err != nil {
			t.Fatal(err)
		}
		if err := row("Bo@X.test"); err == nil {
			t.Error("a second member row for Bo@X.test was stored beside bo@x.test")
		}
	})
}
