// Command launchdir runs the launch directory service and its operator tasks.
//
//	launchdir serve   [--addr 127.0.0.1:8080] [--data ./data | --database postgres://...] [--base-url URL] [--demo]
//	launchdir seed    --demo [--data ./data | --database postgres://...]
//	launchdir migrate [--data ./data | --database postgres://...]
//	launchdir apikey create --email ADDRESS [--name NAME] [--data ./data]
//	launchdir admin prices list|set CODE CENTS [--currency USD] [--data ./data]
//	launchdir admin team|grant|revoke|settings|ratings ... [--data ./data]
//
// Every flag has an environment variable (LAUNCHDIR_ADDR, LAUNCHDIR_DATA, ...).
// main only wires packages together; the service lives in domain, storage, tools and web.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	paceMemoryInServe = true
	// The one read of the wall clock: every command hands it down.
	err := run(ctx, time.Now, os.Args[1:], os.Stdout, os.Stderr)
	stop() // before os.Exit, which runs no deferred call
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(2)
		}
		fmt.Fprintln(os.Stderr, "launchdir:", err)
		os.Exit(1)
	}
}

const usage = `launchdir: a launch directory served as a REST API (/v1) and an MCP server (/mcp).

Usage:
  launchdir serve   [flags]   run the service (add --demo to load demo data into a fresh data dir)
  launchdir seed    --demo    load the demo data into the data directory (no-op if it has listings)
  launchdir seed    --synthetic N
                              add N synthetic listings (to try the service at 100k or 1M)
  launchdir migrate           apply database migrations and exit
  launchdir apikey create --email ADDRESS [--name NAME]
                              create an API key for an account and print it once
  launchdir admin prices list|set CODE CENTS [--currency USD]
                              list or set product prices (before VAT, in cents)
  launchdir admin team        list the site team: every member with their role
  launchdir admin grant --email EMAIL --role admin|moderator
                              add EMAIL to the site team (admins: the whole console)
  launchdir admin revoke --email EMAIL
                              remove EMAIL from the site team
  launchdir admin settings get [KEY] | set KEY VALUE
                              read or change the site settings
  launchdir admin ratings import FILE --source NAME
                              import a Domain Rating CSV export

Run "launchdir COMMAND -h" for the flags of a command ("launchdir admin -h" for
every admin task). Every flag can also be set through the environment variable
named in its help. From a source checkout without a built binary, put
"go run ./cmd/launchdir" where these say "launchdir", or build it once with
"go build -o launchdir ./cmd/launchdir" and run "./launchdir".
`

// run dispatches a subcommand on the clock now. It is main without the
// process exit, for tests.
func run(ctx context.Context, now func() time.Time, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return flag.ErrHelp
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	switch args[0] {
	case "serve":
		return serveCmd(ctx, now, args[1:], stdout, stderr, logger)
	case "seed":
		return seedCmd(ctx, now, args[1:], stdout, stderr)
	case "migrate":
		return migrateCmd(ctx, now, args[1:], stdout, stderr)
	case "apikey":
		return apikeyCmd(ctx, now, args[1:], stdout, stderr)
	case "admin":
		return adminCmd(ctx, now, args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	default:
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("unknown command %q", args[0])
	}
}
