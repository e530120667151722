package auth

import (
	"bytes"
	"embed"
	"html/template"
	"net/http"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/problem"
)

//go:embed templates/*.html
var templateFS embed.FS

// pages holds every page template, each parsed together with layout.html.
var pages = func() map[string]*template.Template {
	names, err := templateFS.ReadDir("templates")
	if err != nil {
		panic(err)
	}
	m := map[string]*template.Template{}
	for _, e := range names {
		if e.Name() == "layout.html" {
			continue
		}
		m[e.Name()] = template.Must(template.ParseFS(templateFS, "templates/layout.html", "templates/"+e.Name()))
	}
	return m
}()

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
// layout reads as .Page; .Site is the site name.
func (a *Auth) render(w http.ResponseWriter, r *http.Request, status int, name string, data any) {
	t, ok := pages[name]
	if !ok {
		a.log.Error("no such page template", "name", name)
		http.Error(w, "Internal error.", pageStatus(domain.EInternal))
		return
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "layout.html", map[string]any{"Site": a.siteName(r.Context()), "Page": data}); err != nil {
		a.log.Error("render page", "name", name, "err", err)
		http.Error(w, "Internal error.", pageStatus(domain.EInternal))
		return
	}
	pageHeaders(w)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// problemPage shows a problem of code to a person, with the status the one
// code-to-status table (internal/problem) gives the code, never redirecting
// anywhere (used when a redirect target cannot be trusted).
func (a *Auth) problemPage(w http.ResponseWriter, r *http.Request, code domain.Code, title, detail string) {
	a.errorPage(w, r, problem.Status(code), title, detail)
}

// errorPage shows a problem to a person with status: problemPage's, or
// statusUpstream (status.go), which the table has no code for (a mail
// server or an identity provider that failed).
func (a *Auth) errorPage(w http.ResponseWriter, r *http.Request, status int, title, detail string) {
	a.render(w, r, status, "error.html", map[string]string{"Title": title, "Detail": detail})
}
