// Package llmdraft is the model drafter: it asks any OpenAI-compatible chat
// completions endpoint to draft a profile from a crawled site, then keeps only
// the values whose evidence quotes are found verbatim on the pages they name.
// A model may phrase, choose and summarise; it may not invent: every value it
// returns must point at the text that states it, and the grounding gate drops
// everything else.
package llmdraft

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/launchdir/launchdir/domain"
)

// Defaults for the zero values of Config.
const (
	DefaultBaseURL       = "https://api.openai.com/v1"
	DefaultTimeout       = 2 * time.Minute
	DefaultMaxInputChars = 60000
	DefaultAttempts      = 2
	DefaultRetryWait     = 2 * time.Second

	// maxErrorBody is how much of an error answer's body that is not an
	// OpenAI error object an error keeps.
	maxErrorBody = 1024
)

// Config configures a Drafter.
type Config struct {
	// BaseURL is the endpoint's API root, the part before "/chat/completions",
	// e.g. "https://api.openai.com/v1" (the default) or "http://localhost:11434/v1".
	BaseURL string
	// Model is the model name the endpoint knows (required).
	Model string
	// APIKey is sent as a bearer token. It may be empty for local endpoints
	// that need none. It is never logged nor put into an error.
	APIKey string
	// HTTPClient, when set, carries the requests (proxies, TLS settings, tests).
	HTTPClient *http.Client
	// Timeout bounds one request to the endpoint (DefaultTimeout when 0).
	Timeout time.Duration
	// MaxInputChars is the budget of page text put into the prompt
	// (DefaultMaxInputChars when 0); pages share it fairly.
	MaxInputChars int
	// Fallback, when set, is run too (normally the grounded extractor), and
	// every field or section the model left empty, or whose value the gate
	// dropped, is filled from its output. When the endpoint keeps failing for
	// a reason that may pass (timeouts, network errors, 408, 409, 429, 5xx,
	// replies that are not the JSON asked for), the draft is the fallback's
	// alone after Attempts tries, instead of an error.
	Fallback domain.Drafter
	// Attempts is how many times the model is asked, RetryWait apart (doubling),
	// before a temporary failure gives the fallback's draft
	// (DefaultAttempts, DefaultRetryWait when 0). Used only with a Fallback:
	// without one the error is returned at once and the job runner retries.
	Attempts  int
	RetryWait time.Duration
	// Logger receives a warning when the draft falls back (slog.Default() when nil).
	Logger *slog.Logger
}

// String describes the configuration without the API key, so that printing a
// Config (in a log line or a panic) cannot leak it.
func (c Config) String() string {
	key := "none"
	if c.APIKey != "" {
		key = "set"
	}
	base := c.BaseURL
	if u, err := url.Parse(base); err == nil {
		base = u.Redacted()
	}
	return fmt.Sprintf("llmdraft.Config{BaseURL: %q, Model: %q, APIKey: %s, Timeout: %s, MaxInputChars: %d, Fallback: %t}",
		base, c.Model, key, c.Timeout, c.MaxInputChars, c.Fallback != nil)
}

// GoString is String, for %#v.
func (c Config) GoString() string { return c.String() }

// Drafter drafts profiles with a model behind an OpenAI-compatible endpoint.
// It is safe for concurrent use.
type Drafter struct {
	cfg    Config
	client *openai.Client
	// endpoint is BaseURL with any user:password replaced, for error messages.
	endpoint string
	// format is the response_format the endpoint last accepted (a
	// replyFormat): json_schema until the endpoint refuses it, then
	// json_object, then none. Remembered so that later drafts do not ask again.
	format atomic.Int32
}

// replyFormat is how the reply's shape is asked for.
type replyFormat int32

const (
	// formatSchema: response_format {type: json_schema, json_schema: {strict,
	// schema}}, structured outputs (OpenAI, vLLM, Ollama >= 0.5, llama.cpp's
	// server since it took json_schema, LM Studio).
	formatSchema replyFormat = iota
	// formatObject: response_format {type: json_object, schema}: JSON mode,
	// with the schema where the server takes it (older llama.cpp servers).
	formatObject
	// formatNone: no response_format; the system prompt alone asks for the JSON.
	formatNone
)

func (f replyFormat) String() string {
	return [...]string{"json_schema", "json_object", "none"}[f]
}

var _ domain.Drafter = (*Drafter)(nil)

// New checks cfg and returns a Drafter. It makes no request.
func New(cfg Config) (*Drafter, error) {
	if strings.TrimSpace(cfg.Model) == "" {
		return nil, errors.New("llmdraft: Config.Model is empty: name the model the endpoint serves (e.g. gpt-4o-mini)")
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("llmdraft: Config.BaseURL %q is not an http(s) URL: give the API root, e.g. https://api.openai.com/v1", cfg.BaseURL)
	}
	if cfg.Timeout < 0 || cfg.MaxInputChars < 0 || cfg.Attempts < 0 || cfg.RetryWait < 0 {
		return nil, errors.New("llmdraft: Config.Timeout, MaxInputChars, Attempts and RetryWait must not be negative (0 means the default)")
	}
	if cfg.Attempts == 0 {
		cfg.Attempts = DefaultAttempts
	}
	if cfg.RetryWait == 0 {
		cfg.RetryWait = DefaultRetryWait
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxInputChars == 0 {
		cfg.MaxInputChars = DefaultMaxInputChars
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{}
	}
	// The client is configured from Config alone (go-openai reads no
	// OPENAI_* environment variable), so no organisation, project or header
	// meant for another endpoint is sent. It makes one request per call: the
	// job runner owns retries, with its own backoff and attempt budget;
	// retrying here as well would multiply the attempts and hide the wait.
	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = cfg.BaseURL
	oc.HTTPClient = jsonModeDoer{hc}
	return &Drafter{cfg: cfg, client: openai.NewClientWithConfig(oc), endpoint: u.Redacted()}, nil
}

// ErrInvalidReply is wrapped by the error Draft returns when the model's reply,
// asked for twice, was not the JSON it was asked for.
var ErrInvalidReply = errors.New("the model's reply is not the JSON object asked for")

// Draft asks the model for a profile of req.Site, keeps only the values whose
// evidence is on the site, and fills what is missing from Config.Fallback.
// Errors from the endpoint (network, 429, 5xx, ...) are returned wrapped;
// Temporary tells which are worth retrying.
func (d *Drafter) Draft(ctx context.Context, req domain.DraftRequest) (*domain.Drafted, error) {
	if req.Site == nil || len(req.Site.Pages) == 0 {
		return nil, errors.New("llmdraft: the crawl has no pages to draft from")
	}
	var fallback *domain.Drafted
	if d.cfg.Fallback != nil {
		fb, err := d.cfg.Fallback.Draft(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("llmdraft: fallback drafter: %w", err)
		}
		fallback = fb
	}
	r, err := d.ask(ctx, req)
	if err != nil && fallback != nil && Temporary(err) && ctx.Err() == nil {
		// The endpoint keeps failing for a reason that may pass: ask again a
		// few times, then give the extractor's draft rather than none.
		wait := d.cfg.RetryWait
		for attempt := 1; attempt < d.cfg.Attempts && err != nil && Temporary(err); attempt++ {
			select {
			case <-ctx.Done():
				return nil, fmt.Errorf("llmdraft: %w (after %v)", ctx.Err(), err)
			case <-time.After(wait):
			}
			wait *= 2
			r, err = d.ask(ctx, req)
		}
		if err != nil && Temporary(err) && ctx.Err() == nil {
			d.cfg.Logger.Warn("llmdraft: the model endpoint kept failing; the draft is the extractor's alone",
				"endpoint", d.endpoint, "model", d.cfg.Model, "attempts", d.cfg.Attempts, "error", err.Error())
			out := &domain.Drafted{Fields: map[string]domain.DraftedValue{}}
			fill(out, gate(req, fallback))
			return out, nil
		}
	}
	if err != nil {
		return nil, err
	}
	out := gate(req, r.toDrafted(req))
	if fallback != nil {
		fill(out, gate(req, fallback))
	}
	return out, nil
}

// ask asks the model once for a profile (twice when the first reply is not
// valid JSON) and parses its reply.
func (d *Drafter) ask(ctx context.Context, req domain.DraftRequest) (*reply, error) {
	messages := buildMessages(req, d.cfg.MaxInputChars)
	params := openai.ChatCompletionRequest{
		Model:    d.cfg.Model,
		Messages: messages,
	}
	var (
		r   *reply
		err error
	)
	// One retry on a reply that is not valid JSON: models occasionally cut a
	// reply short or wrap it in prose; a second ask usually succeeds, a third
	// rarely does, and the job runner retries the whole job later anyway.
	for attempt := 0; attempt < 2; attempt++ {
		var content string
		content, err = d.completeIn(ctx, req, &params)
		if err != nil {
			return nil, err
		}
		r, err = parseReply(content)
		if err == nil {
			break
		}
		params.Messages = append(messages[:len(messages):len(messages)], userMessage(
			"Your previous reply was not a valid JSON object ("+err.Error()+"). "+
				"Reply again with only the JSON object described above, no prose, no code fences."))
	}
	if err != nil {
		return nil, fmt.Errorf("llmdraft: model %s: %w (%v); try a model that supports structured outputs (response_format json_schema)", d.cfg.Model, ErrInvalidReply, err)
	}
	return r, nil
}

// completeIn sends params in the reply format the endpoint last accepted.
// When the endpoint refuses the format (a 400 or 422 naming response_format,
// json_schema or the schema, as servers without structured outputs answer),
// it asks again in the next weaker one and remembers it: structured output
// where the server supports it, JSON mode or the prompt alone where not. The
// values pass the same grounding gate whatever the format.
func (d *Drafter) completeIn(ctx context.Context, req domain.DraftRequest, params *openai.ChatCompletionRequest) (string, error) {
	for {
		f := replyFormat(d.format.Load())
		p := *params
		p.ResponseFormat = responseFormatFor(f, req)
		rctx := ctx
		if f == formatObject {
			rctx = context.WithValue(ctx, jsonModeSchemaKey{}, json.RawMessage(mustJSON(replySchema(req))))
		}
		if f != formatSchema {
			// Without structured outputs the model sees the reply's schema
			// only in the prompt: the system message carries it.
			p.Messages = slices.Clone(p.Messages)
			p.Messages[0] = systemMessage(systemPrompt + schemaNote(req))
		}
		content, err := d.complete(rctx, p)
		if err == nil || f == formatNone || !formatRefused(err) {
			return content, err
		}
		d.format.CompareAndSwap(int32(f), int32(f+1))
	}
}

// formatRefused reports whether err is the endpoint refusing the request's
// response_format rather than the request as a whole.
func formatRefused(err error) bool {
	status, text, ok := endpointAnswer(err)
	if !ok || (status != http.StatusBadRequest && status != http.StatusUnprocessableEntity) {
		return false
	}
	msg := strings.ToLower(text)
	for _, w := range []string{"response_format", "json_schema", "schema", "grammar"} {
		if strings.Contains(msg, w) {
			return true
		}
	}
	return false
}

// endpointAnswer is the HTTP status of an error answer of the endpoint and
// its text (message, param, type and code of an OpenAI error body, or the
// body as it came); ok is false for errors that are not an answer (network,
// timeout).
func endpointAnswer(err error) (status int, text string, ok bool) {
	// A body that is not an OpenAI error object gives a RequestError (it
	// may wrap a half-decoded APIError, whose status is then unset).
	var reqErr *openai.RequestError
	if errors.As(err, &reqErr) && reqErr.HTTPStatusCode != 0 {
		return reqErr.HTTPStatusCode, string(reqErr.Body), true
	}
	var apiErr *openai.APIError
	if errors.As(err, &apiErr) && apiErr.HTTPStatusCode != 0 {
		text := apiErr.Message + " " + apiErr.Type + " " + fmt.Sprint(apiErr.Code)
		if apiErr.Param != nil {
			text += " " + *apiErr.Param
		}
		return apiErr.HTTPStatusCode, text, true
	}
	return 0, "", false
}

// complete sends one chat completion request and returns the reply text.
func (d *Drafter) complete(ctx context.Context, params openai.ChatCompletionRequest) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, d.cfg.Timeout)
	defer cancel()
	resp, err := d.client.CreateChatCompletion(ctx, params)
	var reqErr *openai.RequestError
	if errors.As(err, &reqErr) && len(reqErr.Body) > maxErrorBody {
		// An error page (a proxy's HTML) is kept to its start in the
		// error's text, which goes into logs and the job's last error.
		reqErr.Body = append(reqErr.Body[:maxErrorBody:maxErrorBody], "..."...)
	}
	if err != nil {
		// go-openai's errors print the status and the answer's message or
		// body, never the request headers, so wrapping them cannot carry the
		// API key into a log.
		return "", fmt.Errorf("llmdraft: chat completion at %s (model %s): %w", d.endpoint, d.cfg.Model, err)
	}
	if len(resp.Choices) == 0 {
		return "", fmt.Errorf("llmdraft: chat completion at %s (model %s): the reply has no choices", d.endpoint, d.cfg.Model)
	}
	msg := resp.Choices[0].Message
	if msg.Content == "" && msg.Refusal != "" {
		return "", fmt.Errorf("llmdraft: model %s refused to draft: %s", d.cfg.Model, msg.Refusal)
	}
	return msg.Content, nil
}

// Temporary reports whether err from Draft may go away when the draft is tried
// again later: network failures, timeouts, 408, 409, 429 and 5xx answers, and
// replies that were not valid JSON. A 4xx such as 401 (wrong key) or 404
// (unknown model) needs the configuration fixed instead.
func Temporary(err error) bool {
	if err == nil {
		return false
	}
	if s, _, ok := endpointAnswer(err); ok {
		return s == http.StatusRequestTimeout || s == http.StatusConflict || s == http.StatusTooManyRequests || s >= 500
	}
	var netErr net.Error
	return errors.Is(err, ErrInvalidReply) || errors.Is(err, context.DeadlineExceeded) || errors.As(err, &netErr)
}
