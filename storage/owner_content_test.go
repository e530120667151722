package storage

import (
	"context"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// TestStore_UpdateFanOut: notifications are unique per (update, follower),
// only signed-in followers other than the author who followed by then are
// told, and a mail is claimed once.
func TestStore_UpdateFanOut(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		db, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()
		at := time.Date(2026, 11, 18, 12, 0, 0, 0, time.UTC)
		var owner, ann, late int64
		for _, p := range []struct {
			email string
			id    *int64
		}{{"owner@example.com", &owner}, {"ann@example.com", &ann}, {"late@example.com", &late}} {
			*p.id = putRow(t, db, "users", cols{"issuer": "x", "subject": p.email, "email": p.email, "created_at": 0})
		}
		setRows(t, db, "listings", cols{"owner_id": owner}, cols{"id": 1})
		for _, f := range []struct {
			key string
			at  time.Time
		}{{domain.FollowerKey(ann), at}, {domain.FollowerKey(owner), at}, {domain.FollowerKey(late), at.Add(time.Hour)}, {"anon-1", at}} {
			putRow(t, db, "follows", cols{"listing_id": 1, "follower_key": f.key, "created_at": f.at.Unix()})
		}
		u, ref, told, err := st.PostUpdate(ctx, owner, 1, "News", "Body", at, nil)
		if err != nil || !ref.Public() || told != 1 {
			t.Fatalf("PostUpdate: %v public=%v told=%d, want 1 (ann: not the author, not late, not anonymous)", err, ref.Public(), told)
		}
		if _, _, _, err := st.PostUpdate(ctx, ann, 1, "x", "y", at, nil); domain.ErrorCode(err) != domain.ENotFound {
			t.Fatalf("someone else's listing: %v", err)
		}
		for range 2 {
			news, to, err := st.FanOutUpdate(ctx, u.ID, at)
			if err != nil || news.Title != "News" || len(to) != 1 || to[0].Email != "ann@example.com" {
				t.Fatalf("FanOutUpdate: %+v %+v %v", news, to, err)
			}
		}
		_, to, _ := st.FanOutUpdate(ctx, u.ID, at)
		if ok, err := st.ClaimMail(ctx, to[0].NotificationID, at); !ok || err != nil {
			t.Fatalf("first claim: %v %v", ok, err)
		}
		if ok, _ := st.ClaimMail(ctx, to[0].NotificationID, at); ok {
			t.Fatal("a mail was claimed twice")
		}
		if _, to, _ := st.FanOutUpdate(ctx, u.ID, at); len(to) != 0 {
			t.Fatalf("a sent mail is offered again: %+v", to)
		}
		if err := st.ReleaseMail(ctx, to[0].NotificationID); err != nil {
			t.Fatal(err)
		}
		if ok, _ := st.ClaimMail(ctx, to[0].NotificationID, at); !ok {
			t.Fatal("a released mail cannot be claimed again")
		}
		items, total, unread, err := st.Notifications(ctx, ann, 0, 10)
		if err != nil || total != 1 || unread != 1 || items[0].Title != "News" || items[0].Read {
			t.Fatalf("Notifications: %+v %d %d %v", items, total, unread, err)
		}
		if err := st.MarkNotificationsRead(ctx, ann, at); err != nil {
			t.Fatal(err)
		}
		if _, _, unread, _ := st.Notifications(ctx, ann, 0, 10); unread != 0 {
			t.Fatalf("unread after mark read: %d", unread)
		}
	})
}
