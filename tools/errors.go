package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/launchdir/launchdir/domain"
)

// ProblemContentType is the media type of every error body (RFC 9457).
const ProblemContentType = "application/problem+json"

// statusByCode is the single table from domain error codes to HTTP statuses.
var statusByCode = map[domain.Code]int{
	domain.EInvalid:         http.StatusBadRequest,
	domain.EUnauthenticated: http.StatusUnauthorized,
	domain.EForbidden:       http.StatusForbidden,
	domain.ENotFound:        http.StatusNotFound,
	domain.EConflict:        http.StatusConflict,
	domain.ERateLimited:     http.StatusTooManyRequests,
	domain.ETooLarge:        http.StatusRequestEntityTooLarge,
	domain.EInternal:        http.StatusInternalServerError,
}

// StatusOf returns the HTTP status of a domain error code (500 for unknown codes).
func StatusOf(c domain.Code) int {
	if s, ok := statusByCode[c]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// Problem is the one error body of both transports: RFC 9457 problem details
// with a stable code. REST sends it as application/problem+json; MCP puts the
// same JSON in the text content of a tool result with isError set.
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
	// RetryAfter is the number of seconds to wait (rate_limited only).
	RetryAfter int `json:"retry_after,omitempty"`
	// MaxBytes is the size limit the request broke (payload_too_large only).
	MaxBytes int64 `json:"max_bytes,omitempty"`
}

// bodyTooLarge is the 413 problem of a request over limit bytes; what names
// it ("The request body").
func bodyTooLarge(what string, limit int64) *Problem {
	p := newProblem(domain.ETooLarge, fmt.Sprintf("%s is larger than the limit of %d bytes; send less.", what, limit))
	p.MaxBytes = limit
	return p
}

// internalMessage is all a caller learns about an unexpected error.
const internalMessage = "Internal error."

// problemFor turns any error into the Problem the caller sees. An error that
// is not a *domain.Error is logged and shown only as "Internal error.".
func problemFor(ctx context.Context, log *slog.Logger, op string, err error) *Problem {
	var rl *rateLimitError
	if errors.As(err, &rl) {
		p := newProblem(domain.ERateLimited, fmt.Sprintf("Too many requests from this client; retry after %d seconds.", rl.retryAfter))
		p.RetryAfter = rl.retryAfter
		return p
	}
	var de *domain.Error
	if !errors.As(err, &de) {
		log.ErrorContext(ctx, "operation failed", "op", op, "err", err)
		return newProblem(domain.EInternal, internalMessage)
	}
	code := de.Code
	if _, ok := statusByCode[code]; !ok {
		log.ErrorContext(ctx, "unknown error code", "op", op, "code", code, "err", err)
		return newProblem(domain.EInternal, internalMessage)
	}
	if code == domain.EInternal {
		log.ErrorContext(ctx, "operation failed", "op", op, "err", err)
		return newProblem(domain.EInternal, internalMessage)
	}
	p := newProblem(code, de.Message)
	p.Errors = de.Fields
	if p.Detail == "" {
		p.Detail = validationDetail(de.Fields)
	}
	return p
}

func newProblem(code domain.Code, detail string) *Problem {
	status := StatusOf(code)
	return &Problem{Type: "about:blank", Title: http.StatusText(status), Status: status, Detail: detail, Code: code}
}

// validationError builds the invalid-input error for field errors.
func validationError(fields []domain.FieldError) *domain.Error {
	return &domain.Error{Code: domain.EInvalid, Message: validationDetail(fields), Fields: fields}
}

// validationDetail says in one sentence what is wrong with the input.
func validationDetail(fields []domain.FieldError) string {
	switch len(fields) {
	case 0:
		return "The input is invalid."
	case 1:
		return fields[0].Message
	}
	msgs := make([]string, len(fields))
	for i, f := range fields {
		msgs[i] = strings.TrimSuffix(f.Message, ".")
	}
	return fmt.Sprintf("%d input fields are invalid: %s.", len(fields), strings.Join(msgs, "; "))
}

// JSON returns the problem as JSON.
func (p *Problem) JSON() []byte {
	b, err := json.Marshal(p)
	if err != nil { // cannot happen: the type marshals
		return []byte(`{"type":"about:blank","title":"Internal Server Error","status":500,"detail":"Internal error.","code":"internal"}`)
	}
	return b
}

// writeProblem writes p as an application/problem+json response.
func writeProblem(w http.ResponseWriter, p *Problem) {
	h := w.Header()
	h.Set("Content-Type", ProblemContentType)
	h.Set("Cache-Control", "no-store")
	if p.RetryAfter > 0 {
		h.Set("Retry-After", strconv.Itoa(p.RetryAfter))
	}
	w.WriteHeader(p.Status)
	w.Write(p.JSON())
}
