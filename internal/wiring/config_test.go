package wiring

import (
	"flag"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the README's settings table")

// TestSettings_OneRowPerField: every field of Config is set by exactly one
// row of Settings, and flags and environment names are unique.
func TestSettings_OneRowPerField(t *testing.T) {
	var c Config
	rows := map[uintptr][]string{}
	flags, envs := map[string]bool{}, map[string]bool{}
	for _, s := range Settings {
		rows[reflect.ValueOf(s.field(&c)).Pointer()] = append(rows[reflect.ValueOf(s.field(&c)).Pointer()], s.Flag)
		if flags[s.Flag] || envs[s.Env] {
			t.Errorf("--%s / %s declared twice", s.Flag, s.Env)
		}
		flags[s.Flag], envs[s.Env] = true, true
		if !strings.HasPrefix(s.Env, "LAUNCHDIR_") || s.Usage == "" {
			t.Errorf("--%s: environment %q and usage %q, want LAUNCHDIR_... and a usage", s.Flag, s.Env, s.Usage)
		}
	}
	v := reflect.ValueOf(&c).Elem()
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if got := rows[v.Field(i).Addr().Pointer()]; len(got) != 1 {
			t.Errorf("Config.%s is set by %d settings %v, want exactly one", f.Name, len(got), got)
		}
	}
}

// TestSettings_README: the README's settings table is SettingsMarkdown.
func TestSettings_README(t *testing.T) {
	const path = "../../README.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- settings:begin -->\n", "<!-- settings:end -->"
	readme := string(b)
	i, j := strings.Index(readme, begin), strings.Index(readme, end)
	if i < 0 || j < i {
		t.Fatalf("README.md has no %q ... %q block", begin, end)
	}
	got, want := readme[i+len(begin):j], SettingsMarkdown()
	if got == want {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(readme[:i+len(begin)]+want+readme[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's settings table differs from the settings (internal/wiring/config.go); run go test ./internal/wiring -run TestSettings_README -update\n got:\n%s\nwant:\n%s", got, want)
}

// TestParse: a flag wins over its variable; a variable sets what the
// command line did not; a malformed one is an error naming it; --help
// names every variable, and no secret's value.
func TestParse(t *testing.T) {
	t.Setenv("LAUNCHDIR_DATA", "/from/env")
	t.Setenv("LAUNCHDIR_JOB_WORKERS", "5")
	t.Setenv("LAUNCHDIR_LLM_API_KEY", "sk-secret")
	c := Defaults()
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	Register(fs, &c)
	if err := Parse(fs, []string{"--data", "/from/flag"}); err != nil {
		t.Fatal(err)
	}
	if c.Data != "/from/flag" || c.JobWorkers != 5 || c.LLMAPIKey != "sk-secret" || c.Addr != "127.0.0.1:8080" {
		t.Errorf("Parse: Data %q JobWorkers %d LLMAPIKey set %v Addr %q", c.Data, c.JobWorkers, c.LLMAPIKey != "", c.Addr)
	}

	t.Setenv("LAUNCHDIR_RATE_BURST", "40.5")
	c = Defaults()
	fs = flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	Register(fs, &c)
	err := Parse(fs, nil)
	if err == nil || !strings.Contains(err.Error(), "LAUNCHDIR_RATE_BURST") || !strings.Contains(err.Error(), "a whole number") {
		t.Errorf("Parse with LAUNCHDIR_RATE_BURST=40.5: %v", err)
	}

	var help strings.Builder
	fs.SetOutput(&help)
	fs.PrintDefaults()
	for _, s := range Settings {
		if !strings.Contains(help.String(), "-"+s.Flag) || !strings.Contains(help.String(), s.Env) {
			t.Errorf("--help lacks --%s or %s", s.Flag, s.Env)
		}
	}
	if strings.Contains(help.String(), "sk-secret") {
		t.Errorf("--help shows a secret's value:\n%s", help.String())
	}
}
