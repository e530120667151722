package auth

import (
	"context"
	"errors"
	"net/http"
	"net/url"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/problem"
)

// InvitePages is what the co-founder invite page needs from the service
// (*domain.Service has both): the invite a link stands for, and accepting it
// with the invitee's own founder profile. The signed-in person is the
// domain.Caller of ctx.
type InvitePages interface {
	InviteInfo(ctx context.Context, token string) (*domain.InviteInfo, error)
	AcceptInvite(ctx context.Context, token string, in domain.FounderInput) error
}

// registerInvites adds the page an invite_cofounder mail links to
// (domain.InvitePath + "/" + token), when Config.Invites is set.
func (a *Auth) registerInvites(mux *http.ServeMux) {
	if a.cfg.Invites == nil {
		return
	}
	mux.HandleFunc("GET "+domain.InvitePath+"/{token}", a.invitePage)
	mux.Handle("POST "+domain.InvitePath+"/{token}", form(a.inviteAccept))
}

// inviteData is the data of invite.html, invite_done.html and invite_wrong.html.
type inviteData struct {
	Token   string
	Info    *domain.InviteInfo
	Signed  string // the signed-in account's email (or name)
	CSRF    string
	Name    string
	Title   string
	Bio     string
	Error   string
	Updated bool // the invitee had added a profile before
}

// inviteSession returns the signed-in session and the caller context of an
// invite request; without one it redirects to sign-in, which comes back to
// this invite (a local path, as signInURL only allows).
func (a *Auth) inviteSession(w http.ResponseWriter, r *http.Request) (context.Context, User, Session, bool) {
	s, u, ok := a.currentSession(r)
	if !ok {
		http.Redirect(w, r, signInURL(domain.InvitePath+"/"+url.PathEscape(r.PathValue("token"))), statusSeeOther)
		return nil, User{}, Session{}, false
	}
	// A browser session has no OAuth scopes: the invite operations check
	// only who the person is.
	ctx := domain.WithCaller(r.Context(), domain.Caller{UserID: u.ID, Email: u.Email, Name: u.Name, UserCreated: u.CreatedAt})
	return ctx, u, s, true
}

func displayName(u User) string {
	if u.Email != "" {
		return u.Email
	}
	return u.Name
}

// inviteProblem shows the page for an invite that cannot be accepted by
// this person (unknown, expired, another address, or a failure), with the
// status of its code in the one code-to-status table (internal/problem), and
// reports whether err was one.
func (a *Auth) inviteProblem(w http.ResponseWriter, r *http.Request, d inviteData, err error) bool {
	code := domain.ErrorCode(err)
	switch code {
	case "":
		return false
	case domain.ENotFound:
		a.errorPage(w, r, pageStatus(code), "Invite not found", domainMessage(err))
	case domain.EForbidden:
		d.Error = domainMessage(err)
		a.render(w, r, pageStatus(code), "invite_wrong.html", d)
	case domain.EGone:
		a.errorPage(w, r, pageStatus(code), "This invite has expired", domainMessage(err))
	case domain.EInvalid, domain.EConflict:
		return false // the person can fix or retry it: the form again
	default:
		p := problem.For(context.Background(), a.log, "invite", err)
		title, detail := http.StatusText(p.Status), p.Detail
		if p.Code == domain.EInternal {
			title, detail = "Something went wrong", "The invite could not be loaded. Try again in a moment."
		}
		a.errorPage(w, r, p.Status, title, detail)
	}
	return true
}

// invitePage shows the invitee which product invited them and the form for
// their founder profile (filled in with their earlier answer, if any).
func (a *Auth) invitePage(w http.ResponseWriter, r *http.Request) {
	ctx, u, s, ok := a.inviteSession(w, r)
	if !ok {
		return
	}
	token := r.PathValue("token")
	d := inviteData{Token: token, Signed: displayName(u), CSRF: s.CSRF}
	info, err := a.cfg.Invites.InviteInfo(ctx, token)
	if err != nil {
		if !a.inviteProblem(w, r, d, err) {
			a.errorPage(w, r, pageStatus(domain.ErrorCode(err)), "This invite cannot be opened", domainMessage(err))
		}
		return
	}
	d.Info = info
	switch {
	case !info.ForCaller:
		d.Error = "This invite was sent to a different email address than the one you are signed in with. " +
			"Sign out, open the link from the mail again, and sign in with the invited address."
		a.render(w, r, pageStatus(domain.EForbidden), "invite_wrong.html", d)
		return
	case info.Expired:
		a.errorPage(w, r, pageStatus(domain.EGone), "This invite has expired",
			"The link worked until "+info.ExpiresAt.Format("2 January 2006")+". Ask the listing's owner to invite you again.")
		return
	case info.Building:
		d.Error = "The listing is still being drafted from its website; you can fill in the form now, but send it in a minute."
	}
	if f := info.Founder; f != nil {
		d.Name, d.Title, d.Bio, d.Updated = f.Name, f.Title, f.Bio, true
	}
	a.render(w, r, statusOK, "invite.html", d)
}

// inviteAccept saves the invitee's founder profile and shows the result, or
// the form again with what to fix.
func (a *Auth) inviteAccept(w http.ResponseWriter, r *http.Request) {
	ctx, u, s, ok := a.inviteSession(w, r)
	if !ok {
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, signinFormBytes)
	if err := r.ParseForm(); err != nil {
		a.problemPage(w, r, domain.EInvalid, "Bad request", "The form could not be read.")
		return
	}
	if !validCSRF(r, s) {
		a.problemPage(w, r, domain.EForbidden, "Forbidden", "The form has expired. Reload the page and try again.")
		return
	}
	token := r.PathValue("token")
	in := domain.FounderInput{Name: r.PostFormValue("name"), Title: r.PostFormValue("title"), Bio: r.PostFormValue("bio")}
	d := inviteData{Token: token, Signed: displayName(u), CSRF: s.CSRF, Name: in.Name, Title: in.Title, Bio: in.Bio}
	// The page names the product whatever the outcome; a link that cannot be
	// read is answered by AcceptInvite's own error below.
	info, _ := a.cfg.Invites.InviteInfo(ctx, token)
	d.Info = info
	err := a.cfg.Invites.AcceptInvite(ctx, token, in)
	if a.inviteProblem(w, r, d, err) {
		return
	}
	if err != nil {
		// Something the person can fix or retry: the form again, as typed.
		d.Error = domainMessage(err)
		status := pageStatus(domain.ErrorCode(err))
		if d.Info == nil {
			a.errorPage(w, r, status, "This invite cannot be accepted", d.Error)
			return
		}
		a.render(w, r, status, "invite.html", d)
		return
	}
	d.Updated = info != nil && info.Founder != nil
	// The page shows the profile as saved (spaces normalised).
	if after, err := a.cfg.Invites.InviteInfo(ctx, token); err == nil && after.Founder != nil {
		d.Info, d.Name, d.Title = after, after.Founder.Name, after.Founder.Title
	}
	a.log.Info("invite accepted", "user", u.ID)
	a.render(w, r, statusOK, "invite_done.html", d)
}

// domainMessage is the message of a *domain.Error in err's chain (which
// inviteProblem has found there), safe to show to a person.
func domainMessage(err error) string {
	var de *domain.Error
	if errors.As(err, &de) {
		return de.Message
	}
	return "Internal error."
}
