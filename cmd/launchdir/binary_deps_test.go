package main

import (
	"os/exec"
	"strings"
	"testing"
)

// binaryDenied are packages (an entry ending in "/" is a prefix) that only
// tests may use: none of them may be linked into the launchdir binary. The
// tokenizer (tiktoken-go and the ~6.9 MB of BPE files of tiktoken-go-loader)
// counts tool tokens in the tools tests; the server shows the counts recorded
// in tools/tool_tokens.go.
var binaryDenied = []string{
	"testing", "testing/", "net/http/httptest",
	"github.com/pkoukk/tiktoken-go", "github.com/pkoukk/tiktoken-go-loader", "github.com/pkoukk/tiktoken-go-loader/",
	"github.com/chromedp/",
	"github.com/oauth2-proxy/mockoidc", "github.com/oauth2-proxy/mockoidc/",
	"github.com/google/go-cmp/",
	"github.com/miekg/dns", "github.com/miekg/dns/",
	"github.com/launchdir/launchdir/web/browsertest",
	"github.com/launchdir/launchdir/storage/pgtest",
	"github.com/launchdir/launchdir/storage/fixtures",
	"github.com/launchdir/launchdir/domain/testclock",
}

// TestBinary_LinksNoTestScaffolding: every package the launchdir command is
// built from (go list -deps, which leaves test files out) is outside
// binaryDenied. Check a built binary by hand with
// `go version -m launchdir` and `go tool nm launchdir | grep -i tiktoken`.
func TestBinary_LinksNoTestScaffolding(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 50 {
		t.Fatalf("go list -deps . listed %d packages: %q", len(deps), out)
	}
	for _, pkg := range deps {
		for _, d := range binaryDenied {
			if pkg == d || strings.HasSuffix(d, "/") && strings.HasPrefix(pkg, d) {
				t.Errorf("launchdir links %s (only tests may: keep it in _test.go files or test-only packages)", pkg)
			}
		}
	}
}
