package auth

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/problem"
	"github.com/launchdir/launchdir/web/shell"
)

//go:embed templates/*.html
var templateFS embed.FS

// pages holds every page template, each parsed into the site's layout
// (web/shell), and the site's error page.
var pages = func() map[string]*template.Template {
	names, err := templateFS.ReadDir("templates")
	if err != nil {
		panic(err)
	}
	m := map[string]*template.Template{errorTemplate: shell.ErrorPage()}
	for _, e := range names {
		m[e.Name()] = template.Must(shell.Layout().ParseFS(templateFS, "templates/"+e.Name()))
	}
	return m
}()

// errorTemplate is the name of the error page in pages: the site's (web/shell).
const errorTemplate = "error"

// pageLooks are the title and the navigation entry each page of templates/
// is shown with (consent.html's title names the client: renderConsent).
var pageLooks = map[string]struct{ title, section string }{
	"account.html":        {"Your account", "account"},
	"account_delete.html": {"Delete your account", "account"},
	"key_created.html":    {"API key created", "account"},
	"signin.html":         {"Sign in", "account"},
	"signin_sent.html":    {"Check your email", "account"},
	"invite.html":         {"Add your founder profile", ""},
	"invite_done.html":    {"Your founder profile is saved", ""},
	"invite_wrong.html":   {"This invite is for another address", ""},
}

// pageHeaders are set on every sign-in, consent, account and error page:
// not frameable, not cached, no referrer (codes and tokens never leak).
func pageHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self' https: data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
}

// render writes page name (a file in templates/) with data, which the
// page reads as .Data; .Site.Name is the site's name now.
func (a *Auth) render(w http.ResponseWriter, r *http.Request, status int, name string, data any) {
	look := pageLooks[name]
	body, err := a.execute(r, name, shell.Page{Title: look.title, Section: look.section, Status: status, Data: data})
	if err != nil {
		a.log.Error("render page", "name", name, "err", err)
		http.Error(w, "Internal error.", pageStatus(domain.EInternal))
		return
	}
	a.writePage(w, status, body)
}

// execute runs page name in the site's layout with p, which it completes
// with what every auth page shares: the site's name now, "Your account" in
// the navigation, the narrower column, no referrer.
func (a *Auth) execute(r *http.Request, name string, p shell.Page) ([]byte, error) {
	t, ok := pages[name]
	if !ok {
		return nil, fmt.Errorf("no page template %q", name)
	}
	p.Site = domain.Site{Name: a.siteName(r.Context())}
	p.Account, p.BodyClass, p.NoReferrer = true, "auth-page", true
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "base", p); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writePage writes a rendered page with auth's page headers.
func (a *Auth) writePage(w http.ResponseWriter, status int, body []byte) {
	pageHeaders(w)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(body)
}

// problemPage shows a problem of code to a person, with the status the one
// code-to-status table (internal/problem) gives the code, never redirecting
// anywhere (used when a redirect target cannot be trusted).
func (a *Auth) problemPage(w http.ResponseWriter, r *http.Request, code domain.Code, title, detail string) {
	a.errorPage(w, r, problem.Status(code), title, detail)
}

// errorPage shows a problem to a person on the site's error page with
// status: problemPage's, or statusUpstream (status.go), which the table has
// no code for (a mail server or an identity provider that failed).
func (a *Auth) errorPage(w http.ResponseWriter, r *http.Request, status int, title, detail string) {
	a.showError(w, r, shell.Error{Status: status, Heading: title, Message: detail})
}

// busyPage is the page of a sign-in refused because too many are in
// progress (unavailable): it says when to try again, in minutes, and sends
// the same wait, in seconds, as Retry-After.
func (a *Auth) busyPage(w http.ResponseWriter, r *http.Request, wait time.Duration) {
	seconds := max(1, int((wait+time.Second-1)/time.Second))
	minutes := (seconds + 59) / 60
	when := "1 minute"
	if minutes > 1 {
		when = strconv.Itoa(minutes) + " minutes"
	}
	a.showError(w, r, shell.Error{Status: problem.Status(domain.EUnavailable), Heading: "Sign-in is busy",
		Message: "Too many sign-ins are in progress. Try again in " + when + ".", RetryAfter: seconds})
}

// showError renders e on the site's error page, with its Retry-After.
func (a *Auth) showError(w http.ResponseWriter, r *http.Request, e shell.Error) {
	body, err := a.execute(r, errorTemplate, shell.Page{Title: e.Heading, Status: e.Status, Data: e})
	if err != nil {
		a.log.Error("render error page", "err", err)
		http.Error(w, "Internal error.", pageStatus(domain.EInternal))
		return
	}
	problem.SetRetryAfter(w.Header(), e.RetryAfter)
	a.writePage(w, e.Status, body)
}
