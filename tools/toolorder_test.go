package tools

import (
	"slices"
	"testing"
)

// TestMCP_ToolsListPublicFirst holds the order of tools/list: the public tools
// (no scope, callable without sign-in) first, then the signed-in ones, each
// group in catalog order, over every protocol version. Clients and the
// conformance suite call the first tool they see anonymously.
func TestMCP_ToolsListPublicFirst(t *testing.T) {
	t.Parallel()
	srv := catTestServer(t, Options{}, false)
	var public, signedIn []string
	for _, op := range Catalog() {
		if op.Scope == "" {
			public = append(public, op.Name)
		} else {
			signedIn = append(signedIn, op.Name)
		}
	}
	want := append(public, signedIn...)
	for _, v := range MCPProtocolVersions {
		got := catListTools(t, srv.URL, v)
		if !slices.Equal(got, want) {
			t.Errorf("%s: tools/list order\n got %v\nwant %v", v, got, want)
		}
	}
	if len(public) == 0 {
		t.Fatal("the catalog has no public tool")
	}
}
