package domain

import (
	"errors"
	"fmt"
	"strings"
)

// Code is a stable, machine-readable error class. Every HTTP surface (the
// REST API, the MCP tool results, the pages) maps each code to one HTTP
// status in a single table (internal/problem).
type Code string

// Error codes used across the service.
const (
	EInvalid         Code = "invalid"
	EUnauthenticated Code = "unauthenticated"
	EForbidden       Code = "forbidden"
	ENotFound        Code = "not_found"
	EConflict        Code = "conflict"
	ERateLimited     Code = "rate_limited"
	ETooLarge        Code = "payload_too_large" // a REST body or an /mcp message over the size limit
	EGone            Code = "gone"              // a mailed link that worked once and no longer does (claim, invite)
	// EMethodNotAllowed is a REST path called with a method it does not
	// serve (the answer's Allow header names those it does).
	EMethodNotAllowed Code = "method_not_allowed"
	// EIdemKeyReused is an idempotency key sent again with another request
	// (another operation, or other arguments).
	EIdemKeyReused Code = "idempotency_key_reused"
	EInternal      Code = "internal"
	// EUnavailable is a call the service could not serve in time because a
	// shared resource was exhausted (every database connection of the
	// process busy until the request's deadline): try again shortly.
	EUnavailable Code = "unavailable"
)

// AllCodes is every error code, in the order above: the one list that the
// OpenAPI Problem schema's code enum is made from and that
// internal/problem's status table covers (a test of each checks it).
func AllCodes() []Code {
	return []Code{EInvalid, EUnauthenticated, EForbidden, ENotFound, EConflict, ERateLimited, ETooLarge, EGone,
		EMethodNotAllowed, EIdemKeyReused, EInternal, EUnavailable}
}

// FieldError names one input field and the rule it broke.
type FieldError struct {
	// Field is the input name as the caller sent it ("per_page", "fields.tagline", "items[2].week").
	Field string `json:"field"`
	// Rule is the broken rule: a JSON Schema keyword ("maxLength", "pattern", "enum",
	// "required", "type", "minimum", ...) or a domain rule name ("exists", "date", "applies_to").
	Rule string `json:"rule"`
	// Message is a sentence a person or a model can act on.
	Message string `json:"message"`
}

// Error is the service's application error. Message is safe to show to a person
// or a model; anything that is not an *Error is reported as "Internal error.".
type Error struct {
	Code    Code
	Message string
	Fields  []FieldError
}

func (e *Error) Error() string {
	if len(e.Fields) == 0 {
		return fmt.Sprintf("%s: %s", e.Code, e.Message)
	}
	return fmt.Sprintf("%s: %s (%s %s)", e.Code, e.Message, e.Fields[0].Field, e.Fields[0].Rule)
}

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Invalid returns a validation error naming one field and rule.
func Invalid(field, rule, format string, args ...any) *Error {
	msg := fmt.Sprintf(format, args...)
	return &Error{Code: EInvalid, Message: msg, Fields: []FieldError{{Field: field, Rule: rule, Message: msg}}}
}

// InvalidFields returns the invalid-input error of fields (each a field
// and the rule it broke), whose message says in one sentence what is wrong.
func InvalidFields(fields []FieldError) *Error {
	return &Error{Code: EInvalid, Message: fieldsMessage(fields), Fields: fields}
}

// fieldsMessage says in one sentence what is wrong with the input.
func fieldsMessage(fields []FieldError) string {
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

// NotFound returns a not_found error for a kind of thing ("listing") and its key.
func NotFound(kind, key string) *Error {
	return Errorf(ENotFound, "No %s %q exists.", kind, key)
}

// ErrorCode returns the code of err, EInternal for errors that are not *Error.
func ErrorCode(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	if err == nil {
		return ""
	}
	return EInternal
}
