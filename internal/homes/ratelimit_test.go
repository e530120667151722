package homes

import (
	"go/ast"
	"go/token"
	"strings"
	"testing"
)

// TestOneHome_RateLimiter: requests are counted by one limiter,
// auth/ratelimit's Limiter (fixed windows or a token bucket, one Policy
// type, one State for the RateLimit fields and the 429). No other file
// imports golang.org/x/time/rate or declares a limiter or bucket type of
// its own: a new budget is a ratelimit.New or ratelimit.NewBucket.
func TestOneHome_RateLimiter(t *testing.T) {
	t.Parallel()
	home := func(rel string) bool { return strings.HasPrefix(rel, "auth/ratelimit/") }
	types := 0
	eachSource(t, func(rel string, fset *token.FileSet, f *ast.File) {
		if home(rel) {
			return
		}
		if importName(f, "golang.org/x/time/rate") != "" {
			t.Errorf("%s imports golang.org/x/time/rate: count requests with auth/ratelimit (ratelimit.NewBucket)", rel)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			name := strings.ToLower(ts.Name.Name)
			if strings.HasSuffix(name, "limiter") || strings.HasSuffix(name, "bucket") {
				types++
				t.Errorf("%s: type %s is a second rate limiter; use auth/ratelimit's Limiter", fset.Position(ts.Pos()), ts.Name.Name)
			}
			return true
		})
	})
	t.Logf("limiter types outside auth/ratelimit: %d", types)
}
