// Package web serves the pages people see: the home page, listing pages (the
// page every badge links to), categories, launch weeks and feeds, leaderboards,
// founders, the blog, awards, the API docs page, the badge SVG images, the
// checkout page of an order and the site team's admin page.
//
// Pages are rendered on the server with html/template from embedded templates;
// there is no JavaScript. Every page calls the domain Service, never SQL.
package web

import (
	"bytes"
	"embed"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/launchdir/launchdir/auth/ratelimit"
	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
	"github.com/launchdir/launchdir/internal/problem"
	"github.com/launchdir/launchdir/web/shell"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Security headers. Pages may not be framed and run no script; badge images
// have their own policy so other sites can embed them with <img>.
const (
	pageCSP  = "default-src 'self'; img-src 'self' https: data:; style-src 'self'; script-src 'none'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
	badgeCSP = "default-src 'none'; style-src 'unsafe-inline'"
)

// handler serves the pages for one Service.
type handler struct {
	svc    *domain.Service
	pages  map[string]*template.Template // pageSet(): shared by every handler, only read
	log    *slog.Logger
	static http.Handler
	// admin says whether a request comes from a signed-in member of the site
	// team (WithAdmin); nil: nobody is.
	admin func(r *http.Request) (email string, ok bool)
	// console serves /admin's operations (WithConsole); required with WithAdmin.
	console *console.Console
	// account says who is signed in (WithAccount); nil: nobody is.
	account func(r *http.Request) (userID int64, email string, ok bool)
	// forms refuses cross-origin form posts (Sec-Fetch-Site, Origin).
	forms *http.CrossOriginProtection
	// adminHint is shown on /admin's 404 page to a signed-in person who is
	// not admin (WithAdminHint); "" shows the plain 404 page.
	adminHint string
	// limit counts every page request per network (WithRateLimit); nil: no limit.
	limit *ratelimit.Limiter
	// views counts listing page views (WithViews, views.go); nil: none are.
	views domain.ViewRecorder
	// toolsets are the MCP toolsets /docs lists (WithToolsets, toolsets.go).
	toolsets []domain.Toolset
	// voteAccount and voteNetwork limit vote posts (WithVoteLimits, votes.go).
	voteAccount, voteNetwork *ratelimit.Limiter
	// reviewAccount and reviewNetwork limit review posts (WithReviewLimits, reviews.go).
	reviewAccount, reviewNetwork *ratelimit.Limiter
	// openData keeps the files of the open-data export's latest build (opendata.go).
	exportFiles openDataCache
}

// Option configures New.
type Option func(*handler)

// WithAdmin lets the site team use /admin: f reports whether the request
// comes from a signed-in member of the team, and their email (logged with
// every change they make). Without it, or when f says no, /admin is a 404
// page, so the page's existence is not revealed.
func WithAdmin(f func(r *http.Request) (email string, ok bool)) Option {
	return func(h *handler) { h.admin = f }
}

// WithConsole gives /admin the site team's console, whose operations its
// pages call. WithAdmin needs it: New panics without it, so that a wiring
// mistake fails at start.
func WithConsole(c *console.Console) Option {
	return func(h *handler) { h.console = c }
}

// WithAdminHint makes /admin's 404 page, for a signed-in person who is not
// admin, say how to become admin, while the site team is empty (it is read
// on each request: a grant by another process ends the hint at once). Only
// for a local instance with no admin configured: on a public one the 404
// page must not reveal the admin page.
func WithAdminHint(hint string) Option {
	return func(h *handler) { h.adminHint = hint }
}

// WithRateLimit counts every page request against l per network (the
// "pages" budget); over it, a person's browser gets a 429 page with
// Retry-After and the RateLimit fields.
func WithRateLimit(l *ratelimit.Limiter) Option {
	return func(h *handler) { h.limit = l }
}

// WithLogger sets where failures and admin changes are logged; the default
// is slog.Default().
func WithLogger(l *slog.Logger) Option {
	return func(h *handler) {
		if l != nil {
			h.log = l
		}
	}
}

// New returns the handler for the pages people see. It serves /, /search,
// /listings/{slug}, /categories[/{slug}], /launches, /launches/weeks/{week},
// /leaderboards[/{board}], /founders[/{slug}], /blog[/{slug}], /awards, /docs,
// /badges/{slug}/{kind}.svg, /static/, the checkout pages /checkout/{token}/...
// (checkout.go), the claim links /claims/confirm/{token} (claims.go), /admin
// (admin.go), /updates, /notifications and the Follow forms (updates.go),
// the vote forms (votes.go), the review forms (reviews.go), the feeds
// /feeds/... (feeds.go) and the open-data export /open-data/... (opendata.go);
// anything else is a 404 page.
func New(svc *domain.Service, opts ...Option) http.Handler {
	sub, err := fs.Sub(staticFS, "static")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	now := func() time.Time { return svc.Now() } // the service's clock, read at each use
	h := &handler{svc: svc, pages: pageSet(), log: slog.Default(), static: http.StripPrefix("/static/", http.FileServerFS(sub)),
		voteAccount: ratelimit.New(VotesPerAccount, now), voteNetwork: ratelimit.New(VotesPerNetwork, now),
		reviewAccount: ratelimit.New(ReviewsPerAccount, now), reviewNetwork: ratelimit.New(ReviewsPerNetwork, now)}
	for _, opt := range opts {
		opt(h)
	}
	if h.admin != nil && h.console == nil {
		panic("web.New: WithAdmin needs WithConsole (the console /admin calls)")
	}
	h.forms = http.NewCrossOriginProtection()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", h.home)
	mux.HandleFunc("GET /search", h.search)
	mux.HandleFunc("GET /listings/{slug}", h.listing)
	mux.HandleFunc("GET /categories", h.categories)
	mux.HandleFunc("GET /categories/{slug}", h.category)
	mux.HandleFunc("GET /launches", h.launches)
	mux.HandleFunc("GET /launches/weeks/{week}", h.launchWeek)
	mux.HandleFunc("GET /leaderboards", h.leaderboards)
	mux.HandleFunc("GET /leaderboards/{board}", h.leaderboard)
	mux.HandleFunc("GET /founders", h.founders)
	mux.HandleFunc("GET /founders/{slug}", h.founder)
	mux.HandleFunc("GET /blog", h.blog)
	mux.HandleFunc("GET /blog/{slug}", h.blogPost)
	mux.HandleFunc("GET /awards", h.awards)
	mux.HandleFunc("GET /docs", h.docs)
	mux.HandleFunc("GET /badges/{slug}/{file}", h.badge)
	mux.HandleFunc("GET /static/", h.serveStatic)
	h.routeCheckout(mux)
	h.routeClaims(mux)
	h.routeAdmin(mux)
	h.routeUpdates(mux)
	h.routeVotes(mux)
	h.routeReviews(mux)
	h.routeFeeds(mux)
	h.routeOpenData(mux)
	mux.HandleFunc("/", h.notFound)
	return securityHeaders(h.limit.HandlerWith(mux, h.tooMany))
}

// securityHeaders sets the headers every response carries; pages also get the
// page policy (badges set their own in badge.go).
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		hd.Set("Content-Security-Policy", pageCSP)
		hd.Set("X-Frame-Options", "DENY")
		next.ServeHTTP(w, r)
	})
}

func (h *handler) serveStatic(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "public, max-age=3600")
	h.static.ServeHTTP(w, r)
}

// layout is what the layout (web/shell) reads besides the page's own data.
type layout = shell.Page

// render executes a page template into a buffer first, so a template failure
// becomes a clean 500 instead of half a page.
func (h *handler) render(w http.ResponseWriter, r *http.Request, status int, page, title, section string, data any) {
	t, ok := h.pages[page]
	if !ok {
		h.log.Error("web: unknown page template", "page", page)
		h.fail(w, r, domain.EInternal, "Internal error.")
		return
	}
	var buf bytes.Buffer
	err := t.ExecuteTemplate(&buf, "base", layout{Site: h.svc.SiteNow(r.Context()), Title: title, Section: section, Status: status, Data: data,
		Feeds: feedLinksOf(r, page), Account: h.account != nil})
	if err != nil {
		h.log.Error("web: render", "page", page, "path", r.URL.Path, "err", err)
		h.fail(w, r, domain.EInternal, "Internal error.")
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if w.Header().Get("Cache-Control") == "" {
		// Pages holding personal data (checkout, admin) have set no-store.
		w.Header().Set("Cache-Control", "no-cache")
	}
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(buf.Bytes())
	}
}

// errorPage is the data of the error page (web/shell's).
type errorPage = shell.Error

// errorLink is a link an error page offers.
type errorLink = shell.Link

// fail renders the error page of code, with the status of the one
// code-to-status table (internal/problem); message must be safe to show.
func (h *handler) fail(w http.ResponseWriter, r *http.Request, code domain.Code, message string) {
	h.failWith(w, r, code, heading(problem.Status(code)), message)
}

// heading is the error page's heading for status.
func heading(status int) string {
	if status == pageStatus(domain.ENotFound) {
		return "Page not found"
	}
	return http.StatusText(status)
}

// failWith renders the error page of code with its own heading; both must be safe to show.
func (h *handler) failWith(w http.ResponseWriter, r *http.Request, code domain.Code, heading, message string) {
	p := problem.New(code, message)
	h.errorPage(w, r, errorPage{Status: p.Status, Heading: heading, Message: message, RetryAfter: p.RetryAfter})
}

// errorPage renders the error template with p.Status.
func (h *handler) errorPage(w http.ResponseWriter, r *http.Request, p errorPage) {
	t := h.pages["error"]
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "base", layout{Site: h.svc.SiteNow(r.Context()), Title: p.Heading, Status: p.Status, Data: p, Account: h.account != nil}); err != nil {
		h.log.Error("web: render error page", "err", err)
		buf.Reset()
		buf.WriteString("Internal error.\n")
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	} else {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
	}
	w.Header().Set("Cache-Control", "no-store")
	problem.SetRetryAfter(w.Header(), p.RetryAfter)
	w.WriteHeader(p.Status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(buf.Bytes())
	}
}

func (h *handler) notFound(w http.ResponseWriter, r *http.Request) {
	h.fail(w, r, domain.ENotFound, "There is nothing at this address.")
}

// serviceError shows a failed service call as a page: the status of its
// code in the one code-to-status table (internal/problem), the service's
// message and, for invalid input, each field and rule; an error that is not
// a *domain.Error is logged and shown as "Internal error.".
func (h *handler) serviceError(w http.ResponseWriter, r *http.Request, err error) {
	h.problemPage(w, r, r.URL.Path, "", err)
}

// problemPage renders err as problem.For sees it. where names the page in
// the log (without secrets such as a checkout token); heading replaces the
// status's heading unless the error is internal.
func (h *handler) problemPage(w http.ResponseWriter, r *http.Request, where, head string, err error) {
	p := problem.For(r.Context(), h.log, "web "+r.Method+" "+where, err)
	if head == "" || p.Code == domain.EInternal {
		head = heading(p.Status)
	}
	h.errorPage(w, r, errorPage{Status: p.Status, Heading: head, Message: p.Detail, Fields: p.Errors, RetryAfter: p.RetryAfter})
}

// tooMany answers a request over the pages' rate limit (WithRateLimit): a
// 429 page with Retry-After and the RateLimit fields.
func (h *handler) tooMany(w http.ResponseWriter, r *http.Request, st ratelimit.State) {
	st.SetHeaders(w.Header())
	problem.SetRetryAfter(w.Header(), st.ResetSeconds())
	h.fail(w, r, domain.ERateLimited, st.Detail())
}

// pageParam reads ?page= leniently: anything outside 1-1000 is page 1 or 1000.
func pageParam(r *http.Request) int {
	n, err := strconv.Atoi(r.URL.Query().Get("page"))
	if err != nil || n < 1 {
		return 1
	}
	return min(n, 1000)
}
