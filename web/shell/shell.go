// Package shell is the page shell every page of the site renders in: the
// layout (head, header with the site's navigation and search, footer, the
// stylesheet) and the error page. web's pages and auth's sign-in, consent
// and account pages both use it, so a person sees one site; web does not
// import auth, and auth imports only this package of web.
//
// A page is a template set made from Layout (or ErrorPage) to which the
// page adds a "content" template; it is executed as "base" with a Page.
package shell

import (
	"embed"
	"html/template"

	"github.com/launchdir/launchdir/domain"
)

//go:embed layout.html error.html
var files embed.FS

// layout and errorPage are parsed once; Layout and ErrorPage hand out clones.
var (
	layout    = template.Must(template.New("layout.html").ParseFS(files, "layout.html"))
	errorPage = template.Must(template.Must(layout.Clone()).ParseFS(files, "error.html"))
)

// Layout returns a new template set holding the layout ("base"), to which a
// page adds its functions and its "content" template.
func Layout() *template.Template { return template.Must(layout.Clone()) }

// ErrorPage returns a new template set holding the layout and the error
// page's content; execute it as "base" with a Page whose Data is an Error.
func ErrorPage() *template.Template { return template.Must(errorPage.Clone()) }

// Page is what the layout reads besides the page's own data.
type Page struct {
	// Site is the site as it is now: its name (the site_name setting, read
	// at each use) and purpose.
	Site domain.Site
	// Title is the page's title, shown before the site's name.
	Title string
	// Section is the navigation entry to mark as current ("launches",
	// "account", ...; "" marks none).
	Section string
	// Status is the page's HTTP status.
	Status int
	// Data is the page's own data, which its "content" template reads.
	Data any
	// Feeds are the page's <link rel="alternate"> elements.
	Feeds []template.HTML
	// Account shows "Your account" in the navigation: the site has accounts.
	Account bool
	// BodyClass is the class of the page's body ("auth-page": the narrower
	// column of the sign-in, consent and account pages).
	BodyClass string
	// NoReferrer keeps the page's address (which may hold a code or a
	// token) out of the Referer of the requests it makes.
	NoReferrer bool
}

// Error is the error page's data.
type Error struct {
	Status  int
	Heading string
	Message string
	// Fields names each failing input and the rule it broke (invalid input),
	// as the API's problem lists them.
	Fields []domain.FieldError
	// Suggest is the listing a page that does not exist most likely meant.
	Suggest *domain.ListingSummary
	// Next, when set, links the page that lists what the address should
	// have named (all categories, for a search by a category that is none).
	Next *Link
	// RetryAfter, when positive, is the problem's Retry-After in seconds
	// (unavailable), sent as the API sends it.
	RetryAfter int
}

// Link is a link an error page offers.
type Link struct{ Href, Text string }
