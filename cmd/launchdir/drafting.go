package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/extract"
	"github.com/launchdir/launchdir/domain/fetch"
	"github.com/launchdir/launchdir/domain/llmdraft"
	"github.com/launchdir/launchdir/storage"
)

// draftConfig configures reading sites and drafting profiles.
type draftConfig struct {
	allowLoopback bool
	llmBaseURL    string
	llmModel      string
	llmKey        string
	llmTimeout    time.Duration
	llmMaxInput   int
	workers       int
	lease         time.Duration
}

func draftFlags(fs *flag.FlagSet, c *draftConfig) {
	fs.BoolVar(&c.allowLoopback, "fetch-allow-loopback", false,
		"let the site reader reach loopback addresses, for local testing only; private and link-local stay refused (env LAUNCHDIR_FETCH_ALLOW_LOOPBACK=1)")
	fs.StringVar(&c.llmBaseURL, "llm-base-url", env("LAUNCHDIR_LLM_BASE_URL", ""),
		"OpenAI-compatible endpoint for the model drafter, e.g. https://api.openai.com/v1 (env LAUNCHDIR_LLM_BASE_URL); empty: the grounded extractor alone")
	fs.StringVar(&c.llmModel, "llm-model", env("LAUNCHDIR_LLM_MODEL", ""), "model name for the model drafter (env LAUNCHDIR_LLM_MODEL)")
	fs.StringVar(&c.llmKey, "llm-api-key", "", "API key for the model drafter (prefer env LAUNCHDIR_LLM_API_KEY: flags show in ps)")
	fs.DurationVar(&c.llmTimeout, "llm-timeout", 60*time.Second,
		"how long one request to the model drafter's endpoint may take; a local model on a CPU may need minutes (env LAUNCHDIR_LLM_TIMEOUT)")
	fs.IntVar(&c.llmMaxInput, "llm-max-input-chars", llmdraft.DefaultMaxInputChars,
		"characters of page text the model drafter sends; keep it under the model's context window, about 3 characters a token (env LAUNCHDIR_LLM_MAX_INPUT_CHARS)")
	fs.IntVar(&c.workers, "job-workers", 2, "background job workers in this process (env LAUNCHDIR_JOB_WORKERS)")
	fs.DurationVar(&c.lease, "job-lease", 30*time.Second,
		"how long a worker holds a job between renewals; after a crash the job resumes once this has run out (env LAUNCHDIR_JOB_LEASE)")
}

// newRunner returns the durable job runner of serve; the caller starts it.
func newRunner(c *draftConfig, db *storage.DB, logger *slog.Logger) *domain.Runner {
	return domain.NewRunner(storage.NewJobStore(db), domain.RunnerOptions{Workers: c.workers, Lease: c.lease, Logger: logger, Now: db.Now})
}

// newDrafting wires the draft operations: the site reader, the drafter (the
// grounded extractor, or the model drafter backed by it), the durable job
// runner and the mailer for invites.
func newDrafting(c *draftConfig, store *storage.Store, runner *domain.Runner, mailer domain.Mailer, logger *slog.Logger) (*domain.Drafting, error) {
	if c.llmKey == "" {
		c.llmKey = env("LAUNCHDIR_LLM_API_KEY", "")
	}
	var drafter domain.Drafter = extract.New()
	if c.llmBaseURL != "" {
		if c.llmModel == "" {
			return nil, fmt.Errorf("--llm-base-url needs --llm-model")
		}
		d, err := llmdraft.New(llmdraft.Config{BaseURL: c.llmBaseURL, Model: c.llmModel, APIKey: c.llmKey, Timeout: c.llmTimeout, MaxInputChars: c.llmMaxInput, Fallback: drafter})
		if err != nil {
			return nil, fmt.Errorf("model drafter: %w", err)
		}
		drafter = d
		logger.Info("drafting with a model", "base_url", c.llmBaseURL, "model", c.llmModel, "timeout", c.llmTimeout, "max_input_chars", c.llmMaxInput)
	}
	if c.allowLoopback {
		logger.Warn("the site reader may reach loopback addresses (--fetch-allow-loopback); use this for local testing only")
	}
	return &domain.Drafting{
		Store:   store,
		Fetcher: fetch.New(fetch.Options{AllowLoopback: c.allowLoopback}),
		Drafter: drafter,
		Enqueue: runner.Enqueue,
		Wake:    runner.Wake,
		Mailer:  mailer,
	}, nil
}

// runJobs runs the job runner until ctx ends and reports when it stopped.
func runJobs(ctx context.Context, r *domain.Runner) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.Run(ctx)
	}()
	return done
}
