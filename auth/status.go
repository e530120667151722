package auth

import (
	"net/http"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/problem"
)

// This file names every HTTP status auth answers; no other file of auth
// names an http.Status constant (TestOneHome_PageStatus, internal/homes).
//
// A page (sign-in, consent, account, invites) that shows a problem takes
// the status of its domain code from the one code-to-status table
// (internal/problem): problemPage(code), or pageStatus(code) for a form
// shown again. The statuses below are what that table has no code for,
// and what the OAuth RFCs fix for the protocol endpoints.

// Statuses of pages.
const (
	// statusOK: a page, or a protocol answer, given as asked (also what a
	// fetched client metadata document must answer).
	statusOK = http.StatusOK
	// statusSeeOther: after a form, or on the way to the sign-in page, the
	// browser GETs the next page (never 307, which would repeat a POST).
	statusSeeOther = http.StatusSeeOther
	// statusUpstream: the mail server or the identity provider failed. No
	// domain code says this: unavailable (503) says the site itself is.
	statusUpstream = http.StatusBadGateway
)

// Statuses of the OAuth protocol endpoints, as the RFCs fix them.
const (
	// statusFound: the authorization response to the client's redirect URI
	// (RFC 6749 §4.1.2, §4.1.2.1) and the redirect to the identity provider.
	statusFound = http.StatusFound
	// statusRegistered: a client registered (RFC 7591 §3.2.1).
	statusRegistered = http.StatusCreated
	// statusPreflight: a CORS preflight answered.
	statusPreflight = http.StatusNoContent
	// statusOAuthRequest: every OAuth error but the two below (RFC 6749
	// §5.2, RFC 7591 §3.2.2, RFC 7009 §2.2.1).
	statusOAuthRequest = http.StatusBadRequest
	// statusOAuthClient: invalid_client, the client's authentication
	// failed (RFC 6749 §5.2).
	statusOAuthClient = http.StatusUnauthorized
)

// pageStatus is the status of a page that shows a problem of code: the
// one code-to-status table's.
func pageStatus(code domain.Code) int { return problem.Status(code) }

// oauthStatus is the status of an OAuth error response by its error code:
// 401 for invalid_client and 400 for the others (RFC 6749 §5.2); a failure
// of ours (server_error) and the registration budget (too_many_requests)
// have the table's statuses of internal and rate_limited.
func oauthStatus(code string) int {
	switch code {
	case "invalid_client":
		return statusOAuthClient
	case "server_error":
		return problem.Status(domain.EInternal)
	case "too_many_requests":
		return problem.Status(domain.ERateLimited)
	}
	return statusOAuthRequest
}

// refused says whether a /token answer refused the request (a bad client
// credential, code, verifier or refresh token: 400 or 401).
func refused(status int) bool {
	return status == statusOAuthRequest || status == statusOAuthClient
}

// unauthorized says whether a /revoke answer refused the client's
// credential (RFC 7009 answers 200 for an unknown token).
func unauthorized(status int) bool { return status == statusOAuthClient }
