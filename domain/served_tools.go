package domain

import (
	"context"
	"strconv"
)

// An MCP connection may serve only some of the tools (a toolset selection,
// docs/toolsets.md). The next steps an answer gives name only tools the
// caller can call there: the MCP layer puts the connection's tools into the
// context (WithServedTools); REST and the full MCP server put nothing, and
// every tool counts as served.

type servedToolsKey struct{}

// WithServedTools returns ctx whose caller can call only the tools for
// which served reports true.
func WithServedTools(ctx context.Context, served func(tool string) bool) context.Context {
	return context.WithValue(ctx, servedToolsKey{}, served)
}

// Serves reports whether the caller of ctx can call the tool: true unless
// WithServedTools narrowed it.
func Serves(ctx context.Context, tool string) bool {
	served, ok := ctx.Value(servedToolsKey{}).(func(string) bool)
	return !ok || served(tool)
}

// publishWays says how an unpublished listing gets published: free with
// choose_free_listing (toolset listings) or paid with create_checkout
// (toolset orders). When the caller can call both it is both, the sentence
// of the answer; otherwise it names only the served tool and the other way
// by its toolset.
func publishWays(ctx context.Context, listingID int64, both string) string {
	free, paid := Serves(ctx, "choose_free_listing"), Serves(ctx, "create_checkout")
	switch {
	case free && paid:
		return both
	case free:
		return "Publish it free with choose_free_listing (a launch week 6-8 weeks out, once our badge is on the homepage). " +
			"A paid launch is not sold through this connection (it has no orders toolset)."
	case paid:
		return "Publish it paid with create_checkout and an item {\"product\": \"launch\", \"listing_id\": " + strconv.FormatInt(listingID, 10) +
			"} (the person pays on its checkout_url), or free in the launch week queue through a connection with the listings toolset."
	}
	return "Publish it free in the launch week queue (listings toolset) or as a paid launch (orders toolset); this connection serves neither."
}
