package app

import (
	"flag"

	"github.com/launchdir/launchdir/internal/wiring"
)

// Config is every setting of the service, typed. The settings table lives
// with the wiring that reads it (internal/wiring/config.go); the names of
// this file keep cmd's calls as they were.
type Config = wiring.Config

// The settings table and the settings each kind of command takes.
var (
	Settings        = wiring.Settings
	StorageSettings = wiring.StorageSettings
	SiteSettings    = wiring.SiteSettings
)

// Defaults returns the Config of the defaults of every setting.
func Defaults() Config { return wiring.Defaults() }

// Register adds the named settings to fs as flags writing into c.
func Register(fs *flag.FlagSet, c *Config, names ...string) { wiring.Register(fs, c, names...) }

// Parse parses args into fs's settings (wiring.Parse).
func Parse(fs *flag.FlagSet, args []string) error { return wiring.Parse(fs, args) }
