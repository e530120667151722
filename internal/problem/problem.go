// Package problem is the HTTP face of the domain's error codes, shared by
// every HTTP surface: tools (the REST API and the MCP tool results), web (the
// pages) and auth (the sign-in, account and invite pages). It holds the one
// table from domain.Code to HTTP status, the RFC 9457 problem+json body and
// its writer, and the rule that an error which is not a *domain.Error is
// logged and shown only as "Internal error.". Pages render the same Problem
// as HTML (For gives its status, title and detail), so a code has one status
// whoever asks.
//
// It imports only domain and the standard library, so that tools, web and
// auth can all import it.
package problem

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strconv"

	"github.com/launchdir/launchdir/domain"
)

// ContentType is the media type of every error body (RFC 9457).
const ContentType = "application/problem+json"

// InternalMessage is all a caller learns about an unexpected error.
const InternalMessage = "Internal error."

// statusByCode is the single table from domain error codes to HTTP statuses.
var statusByCode = map[domain.Code]int{
	domain.EInvalid:          http.StatusBadRequest,
	domain.EUnauthenticated:  http.StatusUnauthorized,
	domain.EForbidden:        http.StatusForbidden,
	domain.ENotFound:         http.StatusNotFound,
	domain.EMethodNotAllowed: http.StatusMethodNotAllowed,
	domain.EConflict:         http.StatusConflict,
	domain.EGone:             http.StatusGone,
	domain.ETooLarge:         http.StatusRequestEntityTooLarge,
	domain.EIdemKeyReused:    http.StatusUnprocessableEntity,
	domain.ERateLimited:      http.StatusTooManyRequests,
	domain.EInternal:         http.StatusInternalServerError,
	domain.EUnavailable:      http.StatusServiceUnavailable,
}

// UnavailableRetryAfter is the Retry-After, in seconds, of an unavailable
// problem: a call that found every database connection busy until its
// deadline is worth trying again after a moment, not at once.
const UnavailableRetryAfter = 2

// UnavailableMessage is the detail of an unavailable problem.
const UnavailableMessage = "The service is busy and could not answer in time; try again in a few seconds."

// Status returns the HTTP status of a domain error code (500 for unknown codes).
func Status(c domain.Code) int {
	if s, ok := statusByCode[c]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// Codes returns every code of the table, sorted (for tests and documents).
func Codes() []domain.Code {
	out := make([]domain.Code, 0, len(statusByCode))
	for c := range statusByCode {
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}

// Problem is the one error body of every surface: RFC 9457 problem details
// with a stable code. REST sends it as application/problem+json; MCP puts the
// same JSON in the text content of a tool result with isError set; pages show
// its title and detail as HTML with its status.
type Problem struct {
	// Type is "about:blank": the status and code say what happened.
	Type string `json:"type"`
	// Title is the HTTP status text, e.g. "Bad Request".
	Title string `json:"title"`
	// Status is the HTTP status code.
	Status int `json:"status"`
	// Detail is a sentence a person or a model can act on.
	Detail string `json:"detail"`
	// Code is the stable machine-readable error class (domain.Code).
	Code domain.Code `json:"code"`
	// Errors names each failing input field and the rule it broke (validation only).
	Errors []domain.FieldError `json:"errors,omitempty"`
	// RetryAfter is the number of seconds to wait (rate_limited and unavailable).
	RetryAfter int `json:"retry_after,omitempty"`
	// MaxBytes is the size limit the request broke (payload_too_large only).
	MaxBytes int64 `json:"max_bytes,omitempty"`
}

// New returns the problem of code with detail; its status comes from the
// table. An unavailable problem asks to retry after UnavailableRetryAfter
// seconds, whichever surface answers it.
func New(code domain.Code, detail string) *Problem {
	status := Status(code)
	p := &Problem{Type: "about:blank", Title: http.StatusText(status), Status: status, Detail: detail, Code: code}
	if code == domain.EUnavailable {
		p.RetryAfter = UnavailableRetryAfter
	}
	return p
}

// RateLimited is the 429 problem of a client that must wait retryAfter seconds.
func RateLimited(detail string, retryAfter int) *Problem {
	p := New(domain.ERateLimited, detail)
	p.RetryAfter = retryAfter
	return p
}

// Unavailable is the 503 problem of a call to try again after
// UnavailableRetryAfter seconds (Retry-After, as rate_limited's).
func Unavailable(detail string) *Problem { return New(domain.EUnavailable, detail) }

// SetRetryAfter sets Retry-After on h to seconds when it is positive: the
// one place a problem's Retry-After is written, for the API's bodies
// (Write) and the pages (web's error page) alike.
func SetRetryAfter(h http.Header, seconds int) {
	if seconds > 0 {
		h.Set("Retry-After", strconv.Itoa(seconds))
	}
}

// TooLarge is the 413 problem of a request over limit bytes; what names the
// part that was too large ("The request body").
func TooLarge(what string, limit int64) *Problem {
	p := New(domain.ETooLarge, fmt.Sprintf("%s is larger than the limit of %d bytes; send less.", what, limit))
	p.MaxBytes = limit
	return p
}

// For turns any error into the Problem the caller sees. An error that is not
// a *domain.Error, or whose code is internal or unknown, is logged (with op,
// what was being done) and shown only as "Internal error.".
func For(ctx context.Context, log *slog.Logger, op string, err error) *Problem {
	var de *domain.Error
	if !errors.As(err, &de) {
		if errors.Is(err, context.DeadlineExceeded) {
			// The request's deadline passed, most often while waiting for
			// a free database connection (--db-max-conns): 503, retry.
			log.WarnContext(ctx, "operation out of time", "op", op, "err", err)
			return Unavailable(UnavailableMessage)
		}
		log.ErrorContext(ctx, "operation failed", "op", op, "err", err)
		return New(domain.EInternal, InternalMessage)
	}
	if de.Code == domain.EUnavailable {
		// Kept in the log: the cause (the database refusing a
		// connection, storage) is an operator's to see.
		log.WarnContext(ctx, "operation unavailable", "op", op, "err", err)
		return Unavailable(de.Message)
	}
	code := de.Code
	if _, ok := statusByCode[code]; !ok {
		log.ErrorContext(ctx, "unknown error code", "op", op, "code", code, "err", err)
		return New(domain.EInternal, InternalMessage)
	}
	if code == domain.EInternal {
		log.ErrorContext(ctx, "operation failed", "op", op, "err", err)
		return New(domain.EInternal, InternalMessage)
	}
	p := New(code, de.Message)
	p.Errors = de.Fields
	if p.Detail == "" {
		p.Detail = domain.InvalidFields(de.Fields).Message
	}
	return p
}

// JSON returns the problem as JSON.
func (p *Problem) JSON() []byte {
	b, err := json.Marshal(p)
	if err != nil { // cannot happen: the type marshals
		return []byte(`{"type":"about:blank","title":"Internal Server Error","status":500,"detail":"Internal error.","code":"internal"}`)
	}
	return b
}

// Write writes p as an application/problem+json response, with Retry-After
// when p has it.
func Write(w http.ResponseWriter, p *Problem) {
	h := w.Header()
	h.Set("Content-Type", ContentType)
	h.Set("Cache-Control", "no-store")
	SetRetryAfter(h, p.RetryAfter)
	w.WriteHeader(p.Status)
	w.Write(p.JSON())
}
