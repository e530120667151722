package web

import (
	"net/http"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/problem"
)

// This file names every HTTP status web's pages answer that is not an
// error's; no other file of web names an http.Status constant
// (TestOneHome_PageStatus, internal/homes). A page that shows a problem, or
// a form again with what is wrong, takes the status of its domain code from
// the one code-to-status table (internal/problem): pageStatus(code),
// h.fail(code), h.serviceError(err).
const (
	// statusOK: a page shown as asked.
	statusOK = http.StatusOK
	// statusSeeOther: after a form, the browser GETs the next page (never
	// 307, which would repeat a POST).
	statusSeeOther = http.StatusSeeOther
	// statusMoved: an old address (a renamed category's or a merged
	// listing's slug) leads to the current one for good.
	statusMoved = http.StatusMovedPermanently
	// statusNotModified: a feed or export the client has already.
	statusNotModified = http.StatusNotModified
)

// pageStatus is the status of a page that shows a problem of code: the
// one code-to-status table's.
func pageStatus(code domain.Code) int { return problem.Status(code) }
