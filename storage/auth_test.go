package storage

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/launchdir/launchdir/auth"
)

var authNow = time.Date(2026, 11, 18, 12, 0, 0, 0, time.UTC)

func newAuthStore(t *testing.T) (*AuthStore, *DB) {
	t.Helper()
	return newAuthStoreOn(t, "sqlite")
}

// newAuthStoreOn is newAuthStore on engine (see openEngine).
func newAuthStoreOn(t *testing.T, engine string) (*AuthStore, *DB) {
	t.Helper()
	db := openEngine(t, engine)
	return NewAuthStore(db), db
}

func wantNotFound(t *testing.T, err error, what string) {
	t.Helper()
	if !errors.Is(err, auth.ErrNotFound) {
		t.Fatalf("%s: err = %v, want auth.ErrNotFound", what, err)
	}
}

func authMust(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func mkUser(t *testing.T, s *AuthStore, email string) auth.User {
	t.Helper()
	u, err := s.UpsertUser(context.Background(), auth.EmailIssuer, email, email, "", authNow)
	authMust(t, err)
	return u
}

func mkClient(t *testing.T, s *AuthStore, id, kind string, created time.Time) auth.Client {
	t.Helper()
	c := auth.Client{ID: id, Name: "Client " + id, RedirectURIs: []string{"http://127.0.0.1/cb"},
		AuthMethod: "none", Kind: kind, CreatedAt: created}
	authMust(t, s.CreateClient(context.Background(), c))
	return c
}

func TestAuthStore_Users(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		s, _ := newAuthStoreOn(t, engine)
		ctx := context.Background()

		u, err := s.UpsertUser(ctx, "https://idp.example", "sub-1", "Ann@Example.com", "Ann", authNow)
		authMust(t, err)
		if u.ID == 0 || u.Issuer != "https://idp.example" || u.Subject != "sub-1" || u.Email != "Ann@Example.com" ||
			u.Name != "Ann" || !u.CreatedAt.Equal(authNow) {
			t.Fatalf("created user = %+v", u)
		}
		// Same key, nothing changed: same row.
		u2, err := s.UpsertUser(ctx, "https://idp.example", "sub-1", "Ann@Example.com", "Ann", authNow.Add(time.Hour))
		authMust(t, err)
		if u2 != u {
			t.Fatalf("unchanged upsert = %+v, want %+v", u2, u)
		}
		// Changed email and name are updated; created_at stays.
		u3, err := s.UpsertUser(ctx, "https://idp.example", "sub-1", "ann@new.example", "Ann B", authNow.Add(2*time.Hour))
		authMust(t, err)
		if u3.ID != u.ID || u3.Email != "ann@new.example" || u3.Name != "Ann B" || !u3.CreatedAt.Equal(authNow) {
			t.Fatalf("updated user = %+v", u3)
		}
		got, err := s.UserByID(ctx, u.ID)
		authMust(t, err)
		if got != u3 {
			t.Fatalf("UserByID = %+v, want %+v", got, u3)
		}
		_, err = s.UserByID(ctx, 9999)
		wantNotFound(t, err, "UserByID absent")

		// Another issuer, same subject: a different user.
		other, err := s.UpsertUser(ctx, auth.EmailIssuer, "sub-1", "ANN@new.example", "", authNow.Add(time.Minute))
		authMust(t, err)
		if other.ID == u.ID {
			t.Fatal("(issuer, subject) did not key the user")
		}
		// UserByEmail is case-insensitive and picks the oldest.
		byEmail, err := s.UserByEmail(ctx, "Ann@NEW.example")
		authMust(t, err)
		if byEmail.ID != u.ID {
			t.Fatalf("UserByEmail = %+v, want the oldest user %d", byEmail, u.ID)
		}
		_, err = s.UserByEmail(ctx, "nobody@example.com")
		wantNotFound(t, err, "UserByEmail absent")
		_, err = s.UserByEmail(ctx, "")
		wantNotFound(t, err, "UserByEmail empty")
	})
}

func TestAuthStore_Sessions(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		s, _ := newAuthStoreOn(t, engine)
		ctx := context.Background()
		u := mkUser(t, s, "a@example.com")
		se := auth.Session{Hash: auth.Hash("cookie"), UserID: u.ID, CSRF: "csrf", CreatedAt: authNow, ExpiresAt: authNow.Add(time.Hour)}
		authMust(t, s.CreateSession(ctx, se))

		got, err := s.SessionByHash(ctx, se.Hash, authNow.Add(59*time.Minute))
		authMust(t, err)
		if !reflect.DeepEqual(got, se) {
			t.Fatalf("session = %+v, want %+v", got, se)
		}
		_, err = s.SessionByHash(ctx, se.Hash, authNow.Add(time.Hour))
		wantNotFound(t, err, "expired session")
		_, err = s.SessionByHash(ctx, auth.Hash("other"), authNow)
		wantNotFound(t, err, "absent session")

		if err := s.CreateSession(ctx, auth.Session{Hash: "h2", UserID: u.ID, CreatedAt: authNow}); err == nil {
			t.Fatal("session without ExpiresAt was stored")
		}

		authMust(t, s.DeleteSession(ctx, se.Hash))
		_, err = s.SessionByHash(ctx, se.Hash, authNow)
		wantNotFound(t, err, "deleted session")
		authMust(t, s.DeleteSession(ctx, se.Hash)) // idempotent
	})
}

func TestAuthStore_LoginLinksSingleUse(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		s, _ := newAuthStoreOn(t, engine)
		ctx := context.Background()
		l := auth.LoginLink{Hash: auth.Hash("link"), Email: "a@example.com", Next: "/account", CreatedAt: authNow,
			ExpiresAt: authNow.Add(15 * time.Minute)}
		authMust(t, s.CreateLoginLink(ctx, l))

		got, err := s.UseLoginLink(ctx, l.Hash, authNow.Add(time.Minute))
		authMust(t, err)
		if got != l {
			t.Fatalf("link = %+v, want %+v", got, l)
		}
		_, err = s.UseLoginLink(ctx, l.Hash, authNow.Add(2*time.Minute))
		wantNotFound(t, err, "second use of a link")

		// Expired: not usable, even once.
		exp := auth.LoginLink{Hash: auth.Hash("old"), Email: "a@example.com", CreatedAt: authNow, ExpiresAt: authNow.Add(time.Minute)}
		authMust(t, s.CreateLoginLink(ctx, exp))
		_, err = s.UseLoginLink(ctx, exp.Hash, authNow.Add(time.Minute))
		wantNotFound(t, err, "expired link")
		_, err = s.UseLoginLink(ctx, auth.Hash("nope"), authNow)
		wantNotFound(t, err, "absent link")
	})
}

func TestAuthStore_LoginLinkConcurrentUse(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		s, _ := newAuthStoreOn(t, engine)
		ctx := context.Background()
		l := auth.LoginLink{Hash: auth.Hash("link"), Email: "a@example.com", CreatedAt: authNow, ExpiresAt: authNow.Add(time.Hour)}
		authMust(t, s.CreateLoginLink(ctx, l))
		var wg sync.WaitGroup
		var mu sync.Mutex
		ok, notFound := 0, 0
		for i := 0; i < 8; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := s.UseLoginLink(ctx, l.Hash, authNow)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					ok++
				case errors.Is(err, auth.ErrNotFound):
					notFound++
				default:
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if ok != 1 || notFound != 7 {
			t.Fatalf("%d uses succeeded and %d were not found, want 1 and 7", ok, notFound)
		}
	})
}

func TestAuthStore_Outbox(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		s, _ := newAuthStoreOn(t, engine)
		ctx := context.Background()
		var ids []int64
		for i, to := range []string{"a@example.com", "b@example.com", "A@example.com"} {
			id, err := s.AddMail(ctx, auth.Mail{To: to, Subject: "s", Body: "b", CreatedAt: authNow.Add(time.Duration(i) * time.Minute)})
			authMust(t, err)
			ids = append(ids, id)
		}
		all, err := s.Outbox(ctx, "", 10)
		authMust(t, err)
		if len(all) != 3 || all[0].ID != ids[2] || all[1].ID != ids[1] || all[2].ID != ids[0] {
			t.Fatalf("outbox = %+v, want newest first", all)
		}
		if all[0].To != "A@example.com" || all[0].Subject != "s" || all[0].Body != "b" || !all[0].CreatedAt.Equal(authNow.Add(2*time.Minute)) {
			t.Fatalf("mail = %+v", all[0])
		}
		toA, err := s.Outbox(ctx, "a@example.com", 10)
		authMust(t, err)
		if len(toA) != 2 || toA[0].ID != ids[2] || toA[1].ID != ids[0] {
			t.Fatalf("outbox to a = %+v", toA)
		}
		one, err := s.Outbox(ctx, "", 1)
		authMust(t, err)
		if len(one) != 1 || one[0].ID != ids[2] {
			t.Fatalf("outbox limit 1 = %+v", one)
		}
		none, err := s.Outbox(ctx, "c@example.com", 10)
		authMust(t, err)
		if len(none) != 0 {
			t.Fatalf("outbox to c = %+v", none)
		}
	})
}

func TestAuthStore_Clients(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		s, _ := newAuthStoreOn(t, engine)
		ctx := context.Background()
		c := auth.Client{ID: "c1", SecretHash: auth.Hash("secret"), Name: "One", URI: "https://one.example",
			RedirectURIs: []string{"https://one.example/cb", "http://127.0.0.1/cb"}, AuthMethod: "client_secret_basic",
			Kind: auth.ClientDynamic, CreatedAt: authNow}
		authMust(t, s.CreateClient(ctx, c))
		got, err := s.ClientByID(ctx, "c1")
		authMust(t, err)
		if !reflect.DeepEqual(got, c) {
			t.Fatalf("client = %+v, want %+v", got, c)
		}
		if err := s.CreateClient(ctx, c); err == nil {
			t.Fatal("duplicate client id created")
		}
		_, err = s.ClientByID(ctx, "nope")
		wantNotFound(t, err, "absent client")

		authMust(t, s.TouchClient(ctx, "c1", authNow.Add(time.Hour)))
		got, err = s.ClientByID(ctx, "c1")
		authMust(t, err)
		if !got.LastUsedAt.Equal(authNow.Add(time.Hour)) {
			t.Fatalf("LastUsedAt = %v", got.LastUsedAt)
		}
		wantNotFound(t, s.TouchClient(ctx, "nope", authNow), "touch absent client")

		// Upsert creates, then replaces the metadata (keeping created_at and last use).
		m := auth.Client{ID: "https://app.example/client.json", Name: "App", RedirectURIs: []string{"https://app.example/cb"},
			AuthMethod: "none", Kind: auth.ClientMetadata, CreatedAt: authNow}
		authMust(t, s.UpsertClient(ctx, m))
		got, err = s.ClientByID(ctx, m.ID)
		authMust(t, err)
		if !reflect.DeepEqual(got, m) {
			t.Fatalf("upserted client = %+v, want %+v", got, m)
		}
		authMust(t, s.TouchClient(ctx, m.ID, authNow.Add(time.Minute)))
		m2 := m
		m2.Name, m2.URI, m2.RedirectURIs, m2.CreatedAt = "App 2", "https://app.example", []string{"https://app.example/cb2"}, authNow.Add(time.Hour)
		authMust(t, s.UpsertClient(ctx, m2))
		got, err = s.ClientByID(ctx, m.ID)
		authMust(t, err)
		want := m2
		want.CreatedAt, want.LastUsedAt = authNow, authNow.Add(time.Minute)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("replaced client = %+v, want %+v", got, want)
		}
	})
}

func TestAuthStore_DeleteIdleClients(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		s, _ := newAuthStoreOn(t, engine)
		ctx := context.Background()
		u := mkUser(t, s, "a@example.com")
		cutoff := authNow.Add(-24 * time.Hour)
		old := authNow.Add(-48 * time.Hour)

		mkClient(t, s, "idle-never-used", auth.ClientDynamic, old)                // deleted
		mkClient(t, s, "idle-used-long-ago", auth.ClientDynamic, old)             // deleted
		mkClient(t, s, "used-recently", auth.ClientDynamic, old)                  // kept: used after cutoff
		mkClient(t, s, "new", auth.ClientDynamic, authNow)                        // kept: created after cutoff
		mkClient(t, s, "granted", auth.ClientDynamic, old)                        // kept: has a grant
		mkClient(t, s, "https://cimd.example/c.json", auth.ClientMetadata, old)   // kept: not dynamic
		authMust(t, s.TouchClient(ctx, "idle-used-long-ago", old.Add(time.Hour))) //
		authMust(t, s.TouchClient(ctx, "used-recently", authNow.Add(-time.Hour))) //
		_, err := s.SaveGrant(ctx, auth.Grant{UserID: u.ID, ClientID: "granted", Scopes: []string{"read"}}, old)
		authMust(t, err)
		// A token of an idle client goes with it.
		authMust(t, s.CreateToken(ctx, auth.Token{Hash: auth.Hash("t"), Kind: auth.TokenAccess, UserID: u.ID,
			ClientID: "idle-never-used", Family: "f", CreatedAt: old, ExpiresAt: old.Add(time.Hour)}))

		n, err := s.DeleteIdleClients(ctx, cutoff)
		authMust(t, err)
		if n != 2 {
			t.Fatalf("deleted %d clients, want 2", n)
		}
		for _, id := range []string{"idle-never-used", "idle-used-long-ago"} {
			_, err := s.ClientByID(ctx, id)
			wantNotFound(t, err, "deleted client "+id)
		}
		for _, id := range []string{"used-recently", "new", "granted", "https://cimd.example/c.json"} {
			if _, err := s.ClientByID(ctx, id); err != nil {
				t.Fatalf("client %s: %v", id, err)
			}
		}
		_, err = s.TokenByHash(ctx, auth.Hash("t"))
		wantNotFound(t, err, "token of a deleted client")
		n, err = s.DeleteIdleClients(ctx, cutoff)
		authMust(t, err)
		if n != 0 {
			t.Fatalf("second sweep deleted %d", n)
		}
	})
}

func TestAuthStore_AuthRequests(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		s, _ := newAuthStoreOn(t, engine)
		ctx := context.Background()
		u := mkUser(t, s, "a@example.com")
		mkClient(t, s, "c1", auth.ClientDynamic, authNow)
		r := auth.AuthRequest{ID: auth.Hash("req"), ClientID: "c1", RedirectURI: "http://127.0.0.1/cb", State: "st",
			CodeChallenge: "chal", Scopes: []string{"read", "write"}, Resource: "https://x.example/mcp",
			CreatedAt: authNow, ExpiresAt: authNow.Add(10 * time.Minute)}
		authMust(t, s.CreateAuthRequest(ctx, r))
		got, err := s.AuthRequestByID(ctx, r.ID, authNow.Add(time.Minute))
		authMust(t, err)
		if !reflect.DeepEqual(got, r) {
			t.Fatalf("request = %+v, want %+v", got, r)
		}
		_, err = s.AuthRequestByID(ctx, r.ID, authNow.Add(10*time.Minute))
		wantNotFound(t, err, "expired request")

		r2 := r
		r2.ID, r2.UserID, r2.Scopes = auth.Hash("req2"), u.ID, nil
		authMust(t, s.CreateAuthRequest(ctx, r2))
		got, err = s.AuthRequestByID(ctx, r2.ID, authNow)
		authMust(t, err)
		if !reflect.DeepEqual(got, r2) {
			t.Fatalf("request = %+v, want %+v", got, r2)
		}

		authMust(t, s.DeleteAuthRequest(ctx, r.ID))
		_, err = s.AuthRequestByID(ctx, r.ID, authNow)
		wantNotFound(t, err, "deleted request")
		authMust(t, s.DeleteAuthRequest(ctx, r.ID))
	})
}

func TestAuthStore_Grants(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		s, _ := newAuthStoreOn(t, engine)
		ctx := context.Background()
		u := mkUser(t, s, "a@example.com")
		other := mkUser(t, s, "b@example.com")
		mkClient(t, s, "c1", auth.ClientDynamic, authNow)
		mkClient(t, s, "c2", auth.ClientDynamic, authNow)

		g, err := s.SaveGrant(ctx, auth.Grant{UserID: u.ID, ClientID: "c1", Scopes: []string{"read"}, Resource: "r"}, authNow)
		authMust(t, err)
		if g.ID == 0 || g.ClientName != "Client c1" || !reflect.DeepEqual(g.Scopes, []string{"read"}) || g.Resource != "r" ||
			!g.CreatedAt.Equal(authNow) || !g.UpdatedAt.Equal(authNow) {
			t.Fatalf("grant = %+v", g)
		}
		// A new consent updates the one grant.
		g2, err := s.SaveGrant(ctx, auth.Grant{UserID: u.ID, ClientID: "c1", Scopes: []string{"read", "write"}, Resource: "r2"}, authNow.Add(time.Hour))
		authMust(t, err)
		if g2.ID != g.ID || !reflect.DeepEqual(g2.Scopes, []string{"read", "write"}) || g2.Resource != "r2" ||
			!g2.CreatedAt.Equal(authNow) || !g2.UpdatedAt.Equal(authNow.Add(time.Hour)) {
			t.Fatalf("updated grant = %+v", g2)
		}
		got, err := s.GrantFor(ctx, u.ID, "c1")
		authMust(t, err)
		if !reflect.DeepEqual(got, g2) {
			t.Fatalf("GrantFor = %+v, want %+v", got, g2)
		}
		_, err = s.GrantFor(ctx, other.ID, "c1")
		wantNotFound(t, err, "other user's grant")

		g3, err := s.SaveGrant(ctx, auth.Grant{UserID: u.ID, ClientID: "c2", Scopes: []string{"read"}}, authNow.Add(2*time.Hour))
		authMust(t, err)
		list, err := s.ListGrants(ctx, u.ID)
		authMust(t, err)
		if len(list) != 2 || list[0].ID != g3.ID || list[1].ID != g.ID || list[0].ClientName != "Client c2" || list[1].ClientName != "Client c1" {
			t.Fatalf("grants = %+v", list)
		}
		list, err = s.ListGrants(ctx, other.ID)
		authMust(t, err)
		if len(list) != 0 {
			t.Fatalf("other user's grants = %+v", list)
		}
	})
}

func TestAuthStore_RevokeGrantRevokesTokens(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		s, _ := newAuthStoreOn(t, engine)
		ctx := context.Background()
		u := mkUser(t, s, "a@example.com")
		other := mkUser(t, s, "b@example.com")
		mkClient(t, s, "c1", auth.ClientDynamic, authNow)
		mkClient(t, s, "c2", auth.ClientDynamic, authNow)
		_, err := s.SaveGrant(ctx, auth.Grant{UserID: u.ID, ClientID: "c1", Scopes: []string{"read"}}, authNow)
		authMust(t, err)
		tok := func(name string, user int64, client string) {
			authMust(t, s.CreateToken(ctx, auth.Token{Hash: auth.Hash(name), Kind: auth.TokenAccess, UserID: user, ClientID: client,
				Family: name, CreatedAt: authNow, ExpiresAt: authNow.Add(time.Hour)}))
		}
		tok("mine1", u.ID, "c1")
		tok("mine2", u.ID, "c1")
		tok("otherclient", u.ID, "c2")
		tok("otheruser", other.ID, "c1")
		// An already revoked token keeps its revocation time.
		authMust(t, s.RevokeToken(ctx, auth.Hash("mine2"), authNow.Add(time.Minute)))

		wantNotFound(t, s.RevokeGrant(ctx, other.ID, "c1", authNow), "revoke a grant the user lacks")
		if tk, _ := s.TokenByHash(ctx, auth.Hash("otheruser")); !tk.RevokedAt.IsZero() {
			t.Fatal("a failed RevokeGrant revoked tokens")
		}
		revokeAt := authNow.Add(time.Hour)
		authMust(t, s.RevokeGrant(ctx, u.ID, "c1", revokeAt))
		_, err = s.GrantFor(ctx, u.ID, "c1")
		wantNotFound(t, err, "revoked grant")
		for name, want := range map[string]time.Time{
			"mine1": revokeAt, "mine2": authNow.Add(time.Minute), "otherclient": {}, "otheruser": {},
		} {
			tk, err := s.TokenByHash(ctx, auth.Hash(name))
			authMust(t, err)
			if !tk.RevokedAt.Equal(want) {
				t.Errorf("token %s RevokedAt = %v, want %v", name, tk.RevokedAt, want)
			}
		}
		wantNotFound(t, s.RevokeGrant(ctx, u.ID, "c1", revokeAt), "revoke twice")
	})
}

func mkCode(t *testing.T, s *AuthStore, u auth.User, raw string) auth.AuthCode {
	t.Helper()
	c := auth.AuthCode{Hash: auth.Hash(raw), ClientID: "c1", UserID: u.ID, RedirectURI: "http://127.0.0.1/cb",
		CodeChallenge: "chal", Scopes: []string{"read"}, Resource: "https://x.example/mcp", Family: "fam-" + raw,
		CreatedAt: authNow, ExpiresAt: authNow.Add(time.Minute)}
	authMust(t, s.CreateCode(context.Background(), c))
	return c
}

func TestAuthStore_CodesSingleUse(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		s, _ := newAuthStoreOn(t, engine)
		ctx := context.Background()
		u := mkUser(t, s, "a@example.com")
		mkClient(t, s, "c1", auth.ClientDynamic, authNow)
		c := mkCode(t, s, u, "code")

		first := authNow.Add(10 * time.Second)
		got, err := s.UseCode(ctx, c.Hash, first)
		authMust(t, err)
		want := c
		want.UsedAt = first
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("first use = %+v, want %+v", got, want)
		}
		// Second use: the code with its earlier UsedAt, no error, nothing changed.
		got, err = s.UseCode(ctx, c.Hash, authNow.Add(20*time.Second))
		authMust(t, err)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("second use = %+v, want %+v (earlier UsedAt)", got, want)
		}
		got, err = s.UseCode(ctx, c.Hash, authNow.Add(30*time.Second))
		authMust(t, err)
		if !got.UsedAt.Equal(first) {
			t.Fatalf("third use UsedAt = %v, want %v", got.UsedAt, first)
		}
		_, err = s.UseCode(ctx, auth.Hash("nope"), authNow)
		wantNotFound(t, err, "absent code")
	})
}

func TestAuthStore_UseCodeConcurrent(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		s, _ := newAuthStoreOn(t, engine)
		ctx := context.Background()
		u := mkUser(t, s, "a@example.com")
		mkClient(t, s, "c1", auth.ClientDynamic, authNow)
		c := mkCode(t, s, u, "code")

		const n = 8
		var wg sync.WaitGroup
		results := make([]auth.AuthCode, n)
		errs := make([]error, n)
		start := make(chan struct{})
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				<-start
				// Each caller has its own clock, so the first use is the one whose
				// UsedAt is its own now.
				results[i], errs[i] = s.UseCode(ctx, c.Hash, authNow.Add(time.Duration(i+1)*time.Second))
			}(i)
		}
		close(start)
		wg.Wait()
		firsts := 0
		var usedAt time.Time
		for i := 0; i < n; i++ {
			if errs[i] != nil {
				t.Fatalf("caller %d: %v", i, errs[i])
			}
			if results[i].UsedAt.Equal(authNow.Add(time.Duration(i+1) * time.Second)) {
				firsts++
				usedAt = results[i].UsedAt
			}
		}
		if firsts != 1 {
			t.Fatalf("%d callers saw a first use, want exactly 1", firsts)
		}
		for i := 0; i < n; i++ {
			if !results[i].UsedAt.Equal(usedAt) {
				t.Fatalf("caller %d UsedAt = %v, want the first use's %v", i, results[i].UsedAt, usedAt)
			}
		}
	})
}

func TestAuthStore_Tokens(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		s, _ := newAuthStoreOn(t, engine)
		ctx := context.Background()
		u := mkUser(t, s, "a@example.com")
		mkClient(t, s, "c1", auth.ClientDynamic, authNow)
		acc := auth.Token{Hash: auth.Hash("access"), Kind: auth.TokenAccess, UserID: u.ID, ClientID: "c1", Family: "f1",
			Scopes: []string{"read", "write"}, Resource: "https://x.example/mcp", CreatedAt: authNow, ExpiresAt: authNow.Add(time.Hour)}
		ref := acc
		ref.Hash, ref.Kind, ref.ExpiresAt = auth.Hash("refresh"), auth.TokenRefresh, authNow.Add(30*24*time.Hour)
		authMust(t, s.CreateToken(ctx, acc))
		authMust(t, s.CreateToken(ctx, ref))
		if err := s.CreateToken(ctx, auth.Token{Hash: "bad", Kind: "bogus", UserID: u.ID, ClientID: "c1", Family: "f", CreatedAt: authNow}); err == nil {
			t.Fatal("token of an unknown kind stored")
		}

		got, err := s.TokenByHash(ctx, acc.Hash)
		authMust(t, err)
		if !reflect.DeepEqual(got, acc) {
			t.Fatalf("token = %+v, want %+v", got, acc)
		}
		_, err = s.TokenByHash(ctx, auth.Hash("nope"))
		wantNotFound(t, err, "absent token")

		// Refresh tokens are single use.
		first := authNow.Add(time.Minute)
		got, err = s.UseRefreshToken(ctx, ref.Hash, first)
		authMust(t, err)
		want := ref
		want.UsedAt = first
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("first refresh = %+v, want %+v", got, want)
		}
		got, err = s.UseRefreshToken(ctx, ref.Hash, authNow.Add(2*time.Minute))
		authMust(t, err)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("second refresh = %+v, want %+v (earlier UsedAt)", got, want)
		}
		stored, err := s.TokenByHash(ctx, ref.Hash)
		authMust(t, err)
		if !stored.UsedAt.Equal(first) {
			t.Fatalf("stored UsedAt = %v, want %v", stored.UsedAt, first)
		}
		_, err = s.UseRefreshToken(ctx, acc.Hash, authNow)
		wantNotFound(t, err, "UseRefreshToken on an access token")
		_, err = s.UseRefreshToken(ctx, auth.Hash("nope"), authNow)
		wantNotFound(t, err, "UseRefreshToken absent")
		if tk, _ := s.TokenByHash(ctx, acc.Hash); !tk.UsedAt.IsZero() {
			t.Fatal("UseRefreshToken marked an access token")
		}

		// RevokeToken revokes one token.
		authMust(t, s.RevokeToken(ctx, acc.Hash, authNow.Add(time.Hour)))
		got, err = s.TokenByHash(ctx, acc.Hash)
		authMust(t, err)
		if !got.RevokedAt.Equal(authNow.Add(time.Hour)) {
			t.Fatalf("RevokedAt = %v", got.RevokedAt)
		}
		authMust(t, s.RevokeToken(ctx, acc.Hash, authNow.Add(2*time.Hour)))
		if got, _ := s.TokenByHash(ctx, acc.Hash); !got.RevokedAt.Equal(authNow.Add(time.Hour)) {
			t.Fatalf("second revoke changed RevokedAt to %v", got.RevokedAt)
		}
		wantNotFound(t, s.RevokeToken(ctx, auth.Hash("nope"), authNow), "revoke absent token")
		if got, _ := s.TokenByHash(ctx, ref.Hash); !got.RevokedAt.IsZero() {
			t.Fatal("RevokeToken revoked another token")
		}
	})
}

func TestAuthStore_RevokeFamily(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		s, _ := newAuthStoreOn(t, engine)
		ctx := context.Background()
		u := mkUser(t, s, "a@example.com")
		mkClient(t, s, "c1", auth.ClientDynamic, authNow)
		for _, x := range []struct{ name, family, kind string }{
			{"a1", "f1", auth.TokenAccess}, {"r1", "f1", auth.TokenRefresh}, {"r2", "f1", auth.TokenRefresh}, {"a2", "f2", auth.TokenAccess},
		} {
			authMust(t, s.CreateToken(ctx, auth.Token{Hash: auth.Hash(x.name), Kind: x.kind, UserID: u.ID, ClientID: "c1",
				Family: x.family, CreatedAt: authNow, ExpiresAt: authNow.Add(time.Hour)}))
		}
		authMust(t, s.RevokeFamily(ctx, "f1", authNow.Add(time.Minute)))
		for name, revoked := range map[string]bool{"a1": true, "r1": true, "r2": true, "a2": false} {
			tk, err := s.TokenByHash(ctx, auth.Hash(name))
			authMust(t, err)
			if tk.RevokedAt.IsZero() == revoked {
				t.Errorf("token %s RevokedAt = %v, want revoked %v", name, tk.RevokedAt, revoked)
			}
		}
		authMust(t, s.RevokeFamily(ctx, "no-such-family", authNow))
	})
}

func TestAuthStore_APIKeys(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		s, _ := newAuthStoreOn(t, engine)
		ctx := context.Background()
		u := mkUser(t, s, "a@example.com")
		other := mkUser(t, s, "b@example.com")

		var keys []auth.APIKey
		for i, name := range []string{"first", "second", "third"} {
			k, err := s.CreateAPIKey(ctx, auth.APIKey{UserID: u.ID, Name: name, Prefix: "ldk_" + name[:2], Hash: auth.Hash(name),
				CreatedAt: authNow.Add(time.Duration(i) * time.Hour)})
			authMust(t, err)
			if k.ID == 0 || k.Name != name || k.Hash != auth.Hash(name) || !k.LastUsedAt.IsZero() || !k.RevokedAt.IsZero() {
				t.Fatalf("created key = %+v", k)
			}
			keys = append(keys, k)
		}
		if _, err := s.CreateAPIKey(ctx, auth.APIKey{UserID: u.ID, Name: "dup", Hash: auth.Hash("first"), CreatedAt: authNow}); err == nil {
			t.Fatal("a second key with the same hash was stored")
		}
		got, err := s.APIKeyByHash(ctx, auth.Hash("second"))
		authMust(t, err)
		if got != keys[1] {
			t.Fatalf("key = %+v, want %+v", got, keys[1])
		}
		_, err = s.APIKeyByHash(ctx, auth.Hash("nope"))
		wantNotFound(t, err, "absent key")

		// Revoke: only by its owner; the key is still returned, revoked.
		wantNotFound(t, s.RevokeAPIKey(ctx, other.ID, keys[0].ID, authNow), "revoke another user's key")
		wantNotFound(t, s.RevokeAPIKey(ctx, u.ID, 9999, authNow), "revoke absent key")
		authMust(t, s.RevokeAPIKey(ctx, u.ID, keys[0].ID, authNow.Add(5*time.Hour)))
		got, err = s.APIKeyByHash(ctx, auth.Hash("first"))
		authMust(t, err)
		if !got.RevokedAt.Equal(authNow.Add(5 * time.Hour)) {
			t.Fatalf("RevokedAt = %v", got.RevokedAt)
		}

		authMust(t, s.TouchAPIKey(ctx, keys[2].ID, authNow.Add(6*time.Hour)))
		wantNotFound(t, s.TouchAPIKey(ctx, 9999, authNow), "touch absent key")

		list, err := s.ListAPIKeys(ctx, u.ID)
		authMust(t, err)
		if len(list) != 3 || list[0].Name != "third" || list[1].Name != "second" || list[2].Name != "first" {
			t.Fatalf("keys = %+v, want newest first", list)
		}
		if !list[0].LastUsedAt.Equal(authNow.Add(6*time.Hour)) || list[2].RevokedAt.IsZero() {
			t.Fatalf("listed keys lost their state: %+v", list)
		}
		list, err = s.ListAPIKeys(ctx, other.ID)
		authMust(t, err)
		if len(list) != 0 {
			t.Fatalf("other user's keys = %+v", list)
		}
	})
}

func TestAuthStore_UserDeleteCascades(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		s, db := newAuthStoreOn(t, engine)
		ctx := context.Background()
		u := mkUser(t, s, "a@example.com")
		mkClient(t, s, "c1", auth.ClientDynamic, authNow)
		authMust(t, s.CreateSession(ctx, auth.Session{Hash: "s", UserID: u.ID, CreatedAt: authNow, ExpiresAt: authNow.Add(time.Hour)}))
		_, err := s.CreateAPIKey(ctx, auth.APIKey{UserID: u.ID, Hash: "k", CreatedAt: authNow})
		authMust(t, err)
		delRows(t, db, "users", cols{"id": u.ID})
		_, err = s.SessionByHash(ctx, "s", authNow)
		wantNotFound(t, err, "session of a deleted user")
		_, err = s.APIKeyByHash(ctx, "k")
		wantNotFound(t, err, "key of a deleted user")
	})
}

// TestAuthStore_NoPlaintextSecrets stores a session, a login link, a client
// secret, a code, tokens and an API key, and checks that none of the secrets
// appears in the database files, while their hashes do.
func TestAuthStore_NoPlaintextSecrets(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "x.db")
	db, err := Open(path, WithClock(time.Now))
	authMust(t, err)
	s := NewAuthStore(db)
	ctx := context.Background()
	u := mkUser(t, s, "a@example.com")

	sessionRaw, linkRaw, clientSecret := auth.NewSecret(""), auth.NewSecret(""), auth.NewSecret("")
	codeRaw, accessRaw, refreshRaw, keyRaw := auth.NewSecret(""), auth.NewSecret(""), auth.NewSecret(""), auth.NewSecret("")
	secrets := []string{sessionRaw, linkRaw, clientSecret, codeRaw, accessRaw, refreshRaw, keyRaw}

	authMust(t, s.CreateSession(ctx, auth.Session{Hash: auth.Hash(sessionRaw), UserID: u.ID, CSRF: "csrf-token",
		CreatedAt: authNow, ExpiresAt: authNow.Add(time.Hour)}))
	authMust(t, s.CreateLoginLink(ctx, auth.LoginLink{Hash: auth.Hash(linkRaw), Email: u.Email, CreatedAt: authNow, ExpiresAt: authNow.Add(time.Hour)}))
	authMust(t, s.CreateClient(ctx, auth.Client{ID: "c1", SecretHash: auth.Hash(clientSecret), Name: "C", AuthMethod: "client_secret_post",
		Kind: auth.ClientDynamic, CreatedAt: authNow}))
	authMust(t, s.CreateCode(ctx, auth.AuthCode{Hash: auth.Hash(codeRaw), ClientID: "c1", UserID: u.ID, RedirectURI: "http://127.0.0.1/cb",
		Family: "fam", CreatedAt: authNow, ExpiresAt: authNow.Add(time.Minute)}))
	for raw, kind := range map[string]string{accessRaw: auth.TokenAccess, refreshRaw: auth.TokenRefresh} {
		authMust(t, s.CreateToken(ctx, auth.Token{Hash: auth.Hash(raw), Kind: kind, UserID: u.ID, ClientID: "c1", Family: "fam",
			CreatedAt: authNow, ExpiresAt: authNow.Add(time.Hour)}))
	}
	_, err = s.CreateAPIKey(ctx, auth.APIKey{UserID: u.ID, Name: "k", Prefix: keyRaw[:8], Hash: auth.Hash(keyRaw), CreatedAt: authNow})
	authMust(t, err)
	_, err = s.UseRefreshToken(ctx, auth.Hash(refreshRaw), authNow)
	authMust(t, err)

	// Read while open (the WAL holds the recent writes) and again after
	// Close, which checkpoints the WAL into the main file.
	scan := func(when string) {
		t.Helper()
		var all []byte
		for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
			b, err := os.ReadFile(path + suffix)
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			all = append(all, b...)
		}
		for i, raw := range secrets {
			if bytes.Contains(all, []byte(raw)) {
				t.Errorf("%s: secret %d appears in plaintext in the database files", when, i)
			}
			if !bytes.Contains(all, []byte(auth.Hash(raw))) {
				t.Errorf("%s: hash of secret %d not found in the database files (nothing written?)", when, i)
			}
		}
	}
	scan("open")
	authMust(t, db.Close())
	scan("closed")
}
