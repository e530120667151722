package tools

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// siteNameNow puts the site name in effect now (the site_name setting,
// docs/console.md "Site settings") into the answers that name the site:
// initialize (serverInfo.title and the instructions) and server/discover
// (the instructions). The MCP servers are built once per toolset selection
// (toolsets.go), when the name was the one the process started with; the
// SDK (v1.8.0) keeps their Implementation and instructions fixed, but a
// receiving middleware sees each answer before it is sent, so a copy with
// the current name goes out instead. serverInfo.name stays "launchdir" (the
// stable identifier); the serverInfo the SDK adds to the _meta of the
// 2026-07-28 protocol's results keeps the title of the start.
func (s *Server) siteNameNow(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil {
			return res, err
		}
		switch r := res.(type) {
		case *mcp.InitializeResult:
			name := s.svc.SiteNow(ctx).Name
			if r.ServerInfo != nil && r.ServerInfo.Title != name {
				info := *r.ServerInfo // the server's own: not changed in place
				info.Title = name
				r.ServerInfo = &info
			}
			r.Instructions = s.renamed(r.Instructions, name)
		case *mcp.DiscoverResult:
			r.Instructions = s.renamed(r.Instructions, s.svc.SiteNow(ctx).Name)
		}
		return res, err
	}
}

// renamed is instructions (which begin with the configured site name, see
// instructions) beginning with name instead.
func (s *Server) renamed(instructions, name string) string {
	if rest, ok := strings.CutPrefix(instructions, s.svc.Site.Name+" is "); ok {
		return name + " is " + rest
	}
	return instructions
}
