package main

import (
	"flag"
	"io"
	"log/slog"

	"github.com/launchdir/launchdir/internal/app"
)

// newFlags returns the flag set of a command writing into c: the settings
// named (app.Settings, every one when none is named), each with its default
// already in c.
func newFlags(name string, stderr io.Writer, c *app.Config, settings ...string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	app.Register(fs, c, settings...)
	return fs
}

// commandLogger is the logger of the operator commands (admin, apikey):
// their warnings and errors on stderr, without the notes a server logs as
// it starts (the search index loaded from its snapshot), which say nothing
// to a person granting a role or reading a setting.
func commandLogger(stderr io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}
