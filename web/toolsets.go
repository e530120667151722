package web

import "github.com/launchdir/launchdir/domain"

// WithToolsets lists the MCP toolsets (the groups of tools a client may
// choose with /mcp?toolsets=..., docs/toolsets.md) on /docs, with their tools
// and what their definitions cost. The tools package builds the list from
// its catalog (tools.Toolsets); web does not import tools. Without it /docs
// has no toolsets section.
func WithToolsets(ts []domain.Toolset) Option {
	return func(h *handler) { h.toolsets = ts }
}
