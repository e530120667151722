package auth_test

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage"
)

// listingSpy is the real draft store; it also keeps the last write each
// listing received, because a submitted listing is private and storage has
// no public read of it.
type listingSpy struct {
	*storage.Store
	mu    sync.Mutex
	saved map[int64]domain.ListingWrite
}

func (s *listingSpy) SaveOwnListing(ctx context.Context, userID, id int64, w *domain.ListingWrite) (int64, error) {
	got, err := s.Store.SaveOwnListing(ctx, userID, id, w)
	if err == nil {
		s.mu.Lock()
		s.saved[got] = *w
		s.mu.Unlock()
	}
	return got, err
}

func (s *listingSpy) SaveDraftAndListing(ctx context.Context, d *domain.DraftRecord, w *domain.ListingWrite) error {
	err := s.Store.SaveDraftAndListing(ctx, d, w)
	if err == nil && w != nil {
		s.mu.Lock()
		s.saved[d.ListingID] = *w
		s.mu.Unlock()
	}
	return err
}

func (s *listingSpy) last(id int64) (domain.ListingWrite, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w, ok := s.saved[id]
	return w, ok
}

// invEnv is the auth env serving invite pages from a real domain.Service
// over the same SQLite file, with one draft of owner.
type invEnv struct {
	*env
	svc     *domain.Service
	drafts  *listingSpy
	owner   auth.User
	draftID string
}

const invitee = "cara@example.com"

// newInvEnv starts the env with a ready draft "Acme Notes" owned by
// ann@example.com, whose founders are founders.
func newInvEnv(t *testing.T, founders ...domain.DraftFounder) *invEnv {
	t.Helper()
	t.Parallel()
	// auth.New copies the config, so the Service is allocated first and
	// filled in once the database is open (before any request).
	svc := &domain.Service{}
	e := newEnv(t, func(c *auth.Config) { c.Invites = svc })
	site := domain.Site{Key: "main", Name: "Launchdir Test", BaseURL: e.srv.URL}
	st, err := storage.NewStore(context.Background(), e.db, site)
	if err != nil {
		t.Fatal(err)
	}
	spy := &listingSpy{Store: st, saved: map[int64]domain.ListingWrite{}}
	*svc = *domain.NewService(st, site, e.clock)
	svc.Drafts = &domain.Drafting{Store: spy}
	ctx := context.Background()
	owner, err := e.store.UpsertUser(ctx, auth.EmailIssuer, "ann@example.com", "ann@example.com", "Ann", e.clock())
	if err != nil {
		t.Fatal(err)
	}
	doc := domain.DraftDoc{Fields: map[string]*domain.DraftField{
		"name":    {Value: "Acme Notes", State: domain.StateAI},
		"tagline": {Value: "Notes for teams", State: domain.StateAI},
	}, Founders: founders}
	rec := &domain.DraftRecord{UserID: owner.ID, URL: "https://acme-notes.test/", Status: domain.DraftReady, Doc: doc,
		CreatedAt: e.clock(), UpdatedAt: e.clock()}
	if err := st.CreateDraft(ctx, rec); err != nil {
		t.Fatal(err)
	}
	return &invEnv{env: e, svc: svc, drafts: spy, owner: owner, draftID: rec.ID}
}

// invite records an invite of email to the draft, as invite_cofounder does,
// and returns the link's path.
func (ie *invEnv) invite(email string) string {
	ie.t.Helper()
	token := auth.NewSecret(domain.InviteTokenPrefix)
	if _, err := ie.drafts.AddDraftInvite(context.Background(), ie.draftID, email, domain.SecretHash(token), domain.MaxInvites, ie.clock()); err != nil {
		ie.t.Fatal(err)
	}
	return domain.InvitePath + "/" + token
}

// draft reads the draft as stored.
func (ie *invEnv) draft() *domain.DraftRecord {
	ie.t.Helper()
	rec, err := ie.drafts.Draft(context.Background(), ie.draftID, false)
	if err != nil {
		ie.t.Fatal(err)
	}
	return rec
}

// inviteStatus returns the stored status of the invite of email.
func (ie *invEnv) inviteStatus(email string) string {
	ie.t.Helper()
	invs, err := ie.drafts.DraftInvites(context.Background(), ie.draftID)
	if err != nil {
		ie.t.Fatal(err)
	}
	for _, inv := range invs {
		if strings.EqualFold(inv.Email, email) {
			return inv.Status
		}
	}
	ie.t.Fatalf("no invite of %s", email)
	return ""
}

// post sends the invite form as b, with b's CSRF token unless form has one.
func (ie *invEnv) post(b *http.Client, path string, form url.Values) (*http.Response, string) {
	ie.t.Helper()
	if _, ok := form["csrf"]; !ok {
		form.Set("csrf", ie.acctCSRF(b))
	}
	return siDo(ie.t, b, http.MethodPost, ie.srv.URL+path, form, nil)
}

func wantBody(t *testing.T, body string, want ...string) {
	t.Helper()
	text := html.UnescapeString(body)
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("page does not say %q:\n%s", w, body)
		}
	}
}

func founderNames(fs []domain.DraftFounder) string {
	var names []string
	for _, f := range fs {
		names = append(names, f.Name+"|"+f.Title+"|"+f.Invited)
	}
	return strings.Join(names, "; ")
}

var annOwner = domain.DraftFounder{Name: "Ann Owner", Title: "CEO"}

func TestInvite_AddProfile(t *testing.T) {
	ie := newInvEnv(t, annOwner)
	path := ie.invite(invitee)
	// The account's address differs in case only: it is the same address.
	b, _ := ie.signedIn("Cara@Example.com")

	resp, body := siDo(t, b, http.MethodGet, ie.srv.URL+path, nil, nil)
	siWantStatus(t, resp, body, http.StatusOK)
	siWantPageHeaders(t, resp)
	wantBody(t, body, "Acme Notes", "https://acme-notes.test/", invitee, "Ann Owner", `name="csrf" value="`+ie.acctCSRF(b)+`"`,
		`action="`+path+`"`, `name="name"`, `name="title"`, `name="bio"`)

	resp, body = ie.post(b, path, url.Values{"name": {"  Cara   Doe "}, "title": {"Co-founder and CTO"}, "bio": {"Builds the sync engine.\n"}})
	siWantStatus(t, resp, body, http.StatusOK)
	wantBody(t, body, "Your founder profile is saved", "Cara Doe", "Co-founder and CTO")

	rec := ie.draft()
	want := []domain.DraftFounder{annOwner, {Name: "Cara Doe", Title: "Co-founder and CTO", Bio: "Builds the sync engine.", Invited: invitee}}
	if got := founderNames(rec.Doc.Founders); got != founderNames(want) || rec.Doc.Founders[1].Bio != want[1].Bio {
		t.Fatalf("founders = %+v, want %+v", rec.Doc.Founders, want)
	}
	if !strings.Contains(strings.Join(rec.Doc.Edited, ","), "founders") {
		t.Errorf("edited sections = %q; founders must be kept by AI redrafts", rec.Doc.Edited)
	}
	if st := ie.inviteStatus(invitee); st != "accepted" {
		t.Errorf("invite status = %q, want accepted", st)
	}

	// The link opened again shows the profile, and sending it again updates
	// the same entry instead of adding one.
	resp, body = siDo(t, b, http.MethodGet, ie.srv.URL+path, nil, nil)
	siWantStatus(t, resp, body, http.StatusOK)
	wantBody(t, body, "You added your profile already", `value="Cara Doe"`, "Builds the sync engine.")
	resp, body = ie.post(b, path, url.Values{"name": {"Cara Doe"}, "title": {"CTO"}})
	siWantStatus(t, resp, body, http.StatusOK)
	wantBody(t, body, "is updated")
	rec = ie.draft()
	if len(rec.Doc.Founders) != 2 || rec.Doc.Founders[1].Title != "CTO" || rec.Doc.Founders[1].Bio != "" {
		t.Fatalf("after a second send, founders = %+v; want Cara's entry updated in place", rec.Doc.Founders)
	}
	if f := rec.Doc.Founders[0]; f.Name != annOwner.Name || f.Title != annOwner.Title || f.Invited != "" {
		t.Errorf("the owner's entry changed: %+v", rec.Doc.Founders[0])
	}
}

func TestInvite_WrongAccount(t *testing.T) {
	ie := newInvEnv(t, annOwner)
	path := ie.invite(invitee)
	b, _ := ie.signedIn("mallory@example.com")

	resp, body := siDo(t, b, http.MethodGet, ie.srv.URL+path, nil, nil)
	siWantStatus(t, resp, body, http.StatusForbidden)
	siWantPageHeaders(t, resp)
	wantBody(t, body, "mallory@example.com", "different email address", `action="/signout"`)
	if strings.Contains(body, invitee) || strings.Contains(body, `name="bio"`) {
		t.Errorf("the page for another account shows the invited address or the form:\n%s", body)
	}

	resp, body = ie.post(b, path, url.Values{"name": {"Mallory"}, "title": {"CEO"}})
	siWantStatus(t, resp, body, http.StatusForbidden)
	wantBody(t, body, "different email address", "the invited address")
	if strings.Contains(body, invitee) {
		t.Errorf("the refusal names the invited address:\n%s", body)
	}
	if got := founderNames(ie.draft().Doc.Founders); got != founderNames([]domain.DraftFounder{annOwner}) {
		t.Errorf("founders after a refused send = %s", got)
	}
	if st := ie.inviteStatus(invitee); st != "sent" {
		t.Errorf("invite status = %q, want sent", st)
	}
}

func TestInvite_AcceptedByAnotherAccount(t *testing.T) {
	ie := newInvEnv(t, annOwner)
	path := ie.invite(invitee)
	b, _ := ie.signedIn(invitee)
	resp, body := ie.post(b, path, url.Values{"name": {"Cara Doe"}})
	siWantStatus(t, resp, body, http.StatusOK)

	// A second account with the same (verified) address, from an identity
	// provider: the invite is taken.
	ctx := context.Background()
	other, err := ie.store.UpsertUser(ctx, "https://idp.example.com", "sub-42", invitee, "Cara D.", ie.clock())
	if err != nil {
		t.Fatal(err)
	}
	raw := auth.NewSecret("")
	if err := ie.store.CreateSession(ctx, auth.Session{Hash: auth.Hash(raw), UserID: other.ID, CSRF: auth.Hash(auth.CSRFToken(raw)),
		CreatedAt: ie.clock(), ExpiresAt: ie.clock().Add(auth.SessionTTL)}); err != nil {
		t.Fatal(err)
	}
	b2 := ie.browser()
	u, _ := url.Parse(ie.srv.URL)
	b2.Jar.SetCookies(u, []*http.Cookie{{Name: "launchdir_session", Value: raw, Path: "/"}})
	resp, body = ie.post(b2, path, url.Values{"name": {"Someone Else"}})
	siWantStatus(t, resp, body, http.StatusConflict)
	wantBody(t, body, "already accepted by another account")
	if got := founderNames(ie.draft().Doc.Founders); got != "Ann Owner|CEO|; Cara Doe||"+invitee {
		t.Errorf("founders = %s", got)
	}
}

func TestInvite_SignInFirst(t *testing.T) {
	ie := newInvEnv(t, annOwner)
	path := ie.invite(invitee)
	wantLoc := "/signin?next=" + url.QueryEscape(path)
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		var form url.Values
		if method == http.MethodPost {
			form = url.Values{"name": {"Cara Doe"}}
		}
		resp, body := siDo(t, ie.browser(), method, ie.srv.URL+path, form, nil)
		siWantStatus(t, resp, body, http.StatusSeeOther)
		if loc := resp.Header.Get("Location"); loc != wantLoc {
			t.Errorf("%s without a session: Location = %q, want %q", method, loc, wantLoc)
		}
	}
	// Signing in with the emailed link comes back to the invite.
	b := ie.browser()
	link := ie.siRequestLink(b, invitee, path)
	resp, body := siDo(t, b, http.MethodGet, link, nil, nil)
	siWantStatus(t, resp, body, http.StatusSeeOther)
	if loc := resp.Header.Get("Location"); loc != path {
		t.Fatalf("after sign-in, Location = %q, want %q", loc, path)
	}
	resp, body = siDo(t, b, http.MethodGet, ie.srv.URL+path, nil, nil)
	siWantStatus(t, resp, body, http.StatusOK)
	wantBody(t, body, "Add your founder profile to Acme Notes")
	if len(ie.draft().Doc.Founders) != 1 {
		t.Errorf("a redirect changed the founders: %+v", ie.draft().Doc.Founders)
	}
}

func TestInvite_UnknownLink(t *testing.T) {
	ie := newInvEnv(t, annOwner)
	ie.invite(invitee)
	b, _ := ie.signedIn(invitee)
	for _, path := range []string{"/invites/ld_inv_" + strings.Repeat("ab", 24), "/invites/not-a-token"} {
		resp, body := siDo(t, b, http.MethodGet, ie.srv.URL+path, nil, nil)
		siWantStatus(t, resp, body, http.StatusNotFound)
		siWantPageHeaders(t, resp)
		wantBody(t, body, "Invite not found", "not valid")
		resp, body = ie.post(b, path, url.Values{"name": {"Cara Doe"}})
		siWantStatus(t, resp, body, http.StatusNotFound)
	}
	if len(ie.draft().Doc.Founders) != 1 {
		t.Errorf("an unknown link changed the founders: %+v", ie.draft().Doc.Founders)
	}
}

func TestInvite_Expired(t *testing.T) {
	ie := newInvEnv(t, annOwner)
	path := ie.invite(invitee)
	b, _ := ie.signedIn(invitee)
	// The last minute of the link's life, it still works.
	ie.advance(domain.InviteDays*24*time.Hour - time.Minute)
	resp, body := siDo(t, b, http.MethodGet, ie.srv.URL+path, nil, nil)
	siWantStatus(t, resp, body, http.StatusOK)

	ie.advance(time.Minute)
	resp, body = siDo(t, b, http.MethodGet, ie.srv.URL+path, nil, nil)
	siWantStatus(t, resp, body, http.StatusGone)
	wantBody(t, body, "This invite has expired", "invite you again")
	resp, body = ie.post(b, path, url.Values{"name": {"Cara Doe"}})
	siWantStatus(t, resp, body, http.StatusGone)
	wantBody(t, body, "expired")
	if len(ie.draft().Doc.Founders) != 1 || ie.inviteStatus(invitee) != "sent" {
		t.Errorf("an expired link changed the draft or the invite: %+v", ie.draft().Doc.Founders)
	}
}

func TestInvite_AcceptedLinkKeepsWorking(t *testing.T) {
	ie := newInvEnv(t, annOwner)
	path := ie.invite(invitee)
	b, _ := ie.signedIn(invitee)
	resp, body := ie.post(b, path, url.Values{"name": {"Cara Doe"}})
	siWantStatus(t, resp, body, http.StatusOK)
	// Expiry stops unused links; the invitee can still change their profile.
	ie.advance((domain.InviteDays + 5) * 24 * time.Hour) // the session (30 days) is still on
	resp, body = ie.post(b, path, url.Values{"name": {"Cara Doe"}, "title": {"CTO"}})
	siWantStatus(t, resp, body, http.StatusOK)
	if fs := ie.draft().Doc.Founders; len(fs) != 2 || fs[1].Title != "CTO" {
		t.Errorf("founders = %+v", fs)
	}
}

func TestInvite_CSRF(t *testing.T) {
	ie := newInvEnv(t, annOwner)
	path := ie.invite(invitee)
	b, _ := ie.signedIn(invitee)
	for name, c := range map[string]struct {
		form   url.Values
		header http.Header
	}{
		"NoToken":     {url.Values{"name": {"Cara Doe"}}, nil},
		"WrongToken":  {url.Values{"name": {"Cara Doe"}, "csrf": {"csrf-wrong"}}, nil},
		"CrossOrigin": {url.Values{"name": {"Cara Doe"}, "csrf": {ie.acctCSRF(b)}}, http.Header{"Sec-Fetch-Site": {"cross-site"}}},
	} {
		t.Run(name, func(t *testing.T) {
			resp, body := siDo(t, b, http.MethodPost, ie.srv.URL+path, c.form, c.header)
			siWantStatus(t, resp, body, http.StatusForbidden)
		})
	}
	if len(ie.draft().Doc.Founders) != 1 || ie.inviteStatus(invitee) != "sent" {
		t.Errorf("a refused form changed the draft or the invite: %+v", ie.draft().Doc.Founders)
	}
}

func TestInvite_InvalidInput(t *testing.T) {
	ie := newInvEnv(t, annOwner)
	path := ie.invite(invitee)
	b, _ := ie.signedIn(invitee)
	for _, c := range []struct {
		name string
		form url.Values
		want string
	}{
		{"BlankName", url.Values{"name": {"   "}, "title": {"CTO"}}, "name is required"},
		{"LongName", url.Values{"name": {strings.Repeat("n", 161)}}, "name is 161 characters long"},
		{"LongTitle", url.Values{"name": {"Cara"}, "title": {strings.Repeat("t", 161)}}, "title is 161 characters long"},
		{"LongBio", url.Values{"name": {"Cara"}, "bio": {strings.Repeat("é", 3001)}}, "bio is 3001 characters long"},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp, body := ie.post(b, path, c.form)
			siWantStatus(t, resp, body, http.StatusBadRequest)
			// The form comes back with the message and what was typed.
			wantBody(t, body, c.want, `name="bio"`, `value="`+c.form.Get("title")+`"`)
		})
	}
	// At the bounds it is accepted.
	resp, body := ie.post(b, path, url.Values{"name": {strings.Repeat("n", 160)}, "title": {strings.Repeat("t", 160)}, "bio": {strings.Repeat("é", 3000)}})
	siWantStatus(t, resp, body, http.StatusOK)
	if fs := ie.draft().Doc.Founders; len(fs) != 2 || len([]rune(fs[1].Bio)) != 3000 {
		t.Errorf("founders = %d, want the profile at the bounds added", len(fs))
	}
}

func TestInvite_FoundersLimit(t *testing.T) {
	var six []domain.DraftFounder
	for i := range domain.MaxFounders {
		six = append(six, domain.DraftFounder{Name: fmt.Sprintf("Founder %d", i+1)})
	}
	six[3].Name = "Cara Doe" // drafted from the site's team page
	ie := newInvEnv(t, six...)
	path := ie.invite(invitee)
	b, _ := ie.signedIn(invitee)

	resp, body := ie.post(b, path, url.Values{"name": {"Cara D. Smith"}})
	siWantStatus(t, resp, body, http.StatusBadRequest)
	wantBody(t, body, "already names 6 founders")
	if ie.inviteStatus(invitee) != "sent" {
		t.Error("a refused profile marked the invite accepted")
	}

	// Under the name the site already gave her, the invitee claims that entry.
	resp, body = ie.post(b, path, url.Values{"name": {"cara doe"}, "title": {"CTO"}})
	siWantStatus(t, resp, body, http.StatusOK)
	fs := ie.draft().Doc.Founders
	if len(fs) != 6 || fs[3].Name != "cara doe" || fs[3].Title != "CTO" || fs[3].Invited != invitee {
		t.Fatalf("founders = %s; want entry 4 claimed by the invitee", founderNames(fs))
	}
}

func TestInvite_ListingFollows(t *testing.T) {
	ie := newInvEnv(t, annOwner)
	path := ie.invite(invitee)
	// The owner submits the draft through the service, as submit_draft does.
	ownerCtx := domain.WithCaller(context.Background(), domain.Caller{UserID: ie.owner.ID, Email: ie.owner.Email})
	out, err := ie.svc.SubmitDraft(ownerCtx, domain.DraftIDInput{ID: ie.draftID})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ie.signedIn(invitee)
	resp, body := ie.post(b, path, url.Values{"name": {"Cara Doe"}, "title": {"CTO"}, "bio": {"Builds sync."}})
	siWantStatus(t, resp, body, http.StatusOK)

	w, ok := ie.drafts.last(out.ListingID)
	if !ok {
		t.Fatalf("listing %d was never written", out.ListingID)
	}
	want := []domain.FounderWrite{{Name: "Ann Owner", Title: "CEO", Socials: domain.Socials{}}, {Name: "Cara Doe", Title: "CTO", Bio: "Builds sync.", Socials: domain.Socials{}}}
	if fmt.Sprint(w.Founders) != fmt.Sprint(want) {
		t.Fatalf("listing founders = %+v, want %+v", w.Founders, want)
	}
	if w.Name != "Acme Notes" {
		t.Errorf("listing name = %q", w.Name)
	}
	if rec := ie.draft(); rec.ListingID != out.ListingID {
		t.Errorf("draft listing id = %d, want %d", rec.ListingID, out.ListingID)
	}
}

func TestInvite_NotServedWithoutService(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	b, _ := e.signedIn(invitee)
	resp, body := siDo(t, b, http.MethodGet, e.srv.URL+"/invites/ld_inv_"+strings.Repeat("ab", 24), nil, nil)
	siWantStatus(t, resp, body, http.StatusNotFound)
}
