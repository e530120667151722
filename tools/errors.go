package tools

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/problem"
)

// ProblemContentType is the media type of every error body (RFC 9457).
const ProblemContentType = problem.ContentType

// Problem is the one error body of both transports (internal/problem): REST
// sends it as application/problem+json; MCP puts the same JSON in the text
// content of a tool result with isError set.
type Problem = problem.Problem

// StatusOf returns the HTTP status of a domain error code, from the one
// table in internal/problem (500 for unknown codes).
func StatusOf(c domain.Code) int { return problem.Status(c) }

// bodyTooLarge is the 413 problem of a request over limit bytes; what names
// it ("The request body").
func bodyTooLarge(what string, limit int64) *Problem { return problem.TooLarge(what, limit) }

// problemFor turns any error into the Problem the caller sees: the operation
// limiter's refusal is a 429 with its Retry-After; everything else goes
// through problem.For (an error that is not a *domain.Error is logged and
// shown only as "Internal error.").
func problemFor(ctx context.Context, log *slog.Logger, op string, err error) *Problem {
	var rl *rateLimitError
	if errors.As(err, &rl) {
		return problem.RateLimited(fmt.Sprintf("Too many requests from this client; retry after %d seconds.", rl.retryAfter), rl.retryAfter)
	}
	return problem.For(ctx, log, op, err)
}

func newProblem(code domain.Code, detail string) *Problem { return problem.New(code, detail) }

// validationError builds the invalid-input error for field errors.
func validationError(fields []domain.FieldError) *domain.Error {
	return domain.InvalidFields(fields)
}

// writeProblem writes p as an application/problem+json response.
func writeProblem(w http.ResponseWriter, p *Problem) { problem.Write(w, p) }

// internalMessage is all a caller learns about an unexpected error.
const internalMessage = problem.InternalMessage
