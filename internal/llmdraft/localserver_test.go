package llmdraft_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/launchdir/launchdir/internal/llmdraft"
)

// localServer is a local OpenAI-compatible chat endpoint as Ollama, llama.cpp's
// llama-server, vLLM or LM Studio run one (no API key), in one of three kinds:
//
//   - "structured": takes response_format {type: json_schema}; like a server
//     that constrains decoding to the schema, it compiles the request's schema
//     (an invalid one is a 400) and its answer always validates against it;
//     JSON mode is taken too;
//   - "jsonmode": a llama.cpp server from before structured outputs: a
//     json_schema response_format is a 400 with that server's message,
//     {type: json_object} (with its "schema") is taken;
//   - "plain": a server or proxy that refuses response_format altogether (400
//     naming the parameter) and answers like a chat model: a sentence, then
//     the JSON in a code fence.
//
// Its model reads the crawled pages in the prompt and answers what
// answerFor builds from them.
type localServer struct {
	*httptest.Server
	kind string
	mu   sync.Mutex
	log  []localRequest
}

// localRequest is what the tests look at in one request the server took.
type localRequest struct {
	format    string // json_schema, json_object or none
	schema    bool   // a schema came with json_object
	system    string // the system message
	refused   bool   // answered 400
	validated bool   // the answer was validated against the request's schema
}

var pageRE = regexp.MustCompile(`(?m)^=== PAGE \d+: (\S+)$`)

func newLocalServer(t *testing.T, kind string, answerFor func(pages []string) map[string]any) *localServer {
	t.Helper()
	s := &localServer{kind: kind}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
			apiError(w, http.StatusNotFound, "not_found", "File Not Found")
			return
		}
		var req struct {
			Model          string `json:"model"`
			Messages       []struct{ Role, Content string }
			ResponseFormat *struct {
				Type       string         `json:"type"`
				Schema     map[string]any `json:"schema"`
				JSONSchema *struct {
					Name   string         `json:"name"`
					Strict bool           `json:"strict"`
					Schema map[string]any `json:"schema"`
				} `json:"json_schema"`
			} `json:"response_format"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			apiError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
			return
		}
		lr := localRequest{format: "none"}
		if req.ResponseFormat != nil {
			lr.format = req.ResponseFormat.Type
			lr.schema = req.ResponseFormat.Schema != nil
		}
		if len(req.Messages) > 0 && req.Messages[0].Role == "system" {
			lr.system = req.Messages[0].Content
		}
		refuse := func(msg, param string) {
			lr.refused = true
			s.record(lr)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"code": 400, "message": msg, "type": "invalid_request_error", "param": param}})
		}
		var schema map[string]any
		switch {
		case lr.format == "none":
		case s.kind == "plain":
			refuse("Unrecognized request argument supplied: response_format", "response_format")
			return
		case lr.format == "json_schema" && s.kind == "jsonmode":
			refuse(`response_format type must be one of "text" or "json_object", but got: json_schema`, "")
			return
		case lr.format == "json_schema" && req.ResponseFormat.JSONSchema != nil:
			schema = req.ResponseFormat.JSONSchema.Schema
		case lr.format == "json_object":
			schema = req.ResponseFormat.Schema
		default:
			refuse("response_format: unknown type "+lr.format, "response_format")
			return
		}
		var prompt strings.Builder
		for _, m := range req.Messages {
			prompt.WriteString(m.Content + "\n")
		}
		var pages []string
		for _, m := range pageRE.FindAllStringSubmatch(prompt.String(), -1) {
			pages = append(pages, m[1])
		}
		answer := answerFor(pages)
		body, _ := json.Marshal(answer)
		if schema != nil {
			c := jsonschema.NewCompiler()
			if err := c.AddResource("reply.json", schema); err != nil {
				refuse("JSON schema conversion failed: "+err.Error(), "response_format")
				return
			}
			sch, err := c.Compile("reply.json")
			if err != nil {
				refuse("JSON schema conversion failed: "+err.Error(), "response_format")
				return
			}
			inst, _ := jsonschema.UnmarshalJSON(strings.NewReader(string(body)))
			if err := sch.Validate(inst); err != nil {
				// Constrained decoding cannot produce this: the schema and
				// the answer the test planned disagree.
				t.Errorf("%s server: the answer does not follow the request's schema: %v", kind, err)
			}
			lr.validated = true
		}
		content := string(body)
		if lr.format == "none" {
			content = "Here is the profile drafted from the pages:\n```json\n" + content + "\n```"
		}
		s.record(lr)
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-local", "object": "chat.completion", "created": 1700000000, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": content}}},
		})
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *localServer) record(r localRequest) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log = append(s.log, r)
}

func (s *localServer) requests() []localRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.log)
}

// fullReply is a reply with every property the strict schema requires.
func fullReply(fields ...map[string]any) map[string]any {
	for _, f := range fields {
		for _, k := range []string{"text", "list"} {
			if _, ok := f[k]; !ok {
				f[k] = map[string]any{"text": "", "list": []string{}}[k]
			}
		}
	}
	return map[string]any{"fields": fields, "faqs": []any{}, "founders": []any{}, "socials": []any{}, "story": []any{}, "milestones": []any{}}
}

// acmeAnswer is the local model's answer for the acme site: two values it
// quotes from the pages, one it invents (its quote is on no page), and one
// whose quote it translated.
func acmeAnswer(t *testing.T) func(pages []string) map[string]any {
	return func(pages []string) map[string]any {
		if !slices.Equal(pages, []string{home, pricing, about, faq}) {
			t.Errorf("the prompt names the pages %v, want the crawl's", pages)
		}
		return fullReply(
			map[string]any{"field": "tagline", "text": "Meeting notes your team will actually read.", "evidence": ev("Meeting notes your team will actually read.", home)},
			map[string]any{"field": "city", "text": "Lisbon", "evidence": ev("Acme Labs is based in Lisbon, Portugal.", about)},
			map[string]any{"field": "contact_email", "text": "sales@acme.example", "evidence": ev("Write to sales@acme.example for a demo.", home)},
			map[string]any{"field": "founded_year", "text": "2023", "evidence": ev("Acme Notes wurde 2023 gegründet.", about)},
		)
	}
}

// TestDrafter_LocalServers: the model drafter against local servers as
// Ollama or llama.cpp's server answer. It asks for structured output
// (json_schema, strict) first; a server that refuses it with a 400 naming
// the format is asked again in JSON mode (with the schema), and one that
// refuses that too without response_format, the schema then in the system
// prompt; the format that worked is remembered for the next draft. Whatever
// the format, only values domain.Ground keeps come out: the invented email
// and the translated quote are dropped.
func TestDrafter_LocalServers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		kind        string
		first, next []string // the formats of the first draft's requests, and of the second's
	}{
		{"structured", []string{"json_schema"}, []string{"json_schema"}},
		{"jsonmode", []string{"json_schema", "json_object"}, []string{"json_object"}},
		{"plain", []string{"json_schema", "json_object", "none"}, []string{"none"}},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			t.Parallel()
			s := newLocalServer(t, tc.kind, acmeAnswer(t))
			// A local server needs no key: none is configured.
			d, err := llmdraft.New(llmdraft.Config{BaseURL: s.URL + "/v1", Model: "qwen2.5:7b-instruct", HTTPClient: s.Client()})
			if err != nil {
				t.Fatal(err)
			}
			for run, want := range [][]string{tc.first, tc.next} {
				before := len(s.requests())
				got, err := d.Draft(context.Background(), acmeRequest())
				if err != nil {
					t.Fatalf("draft %d: %v", run+1, err)
				}
				reqs := s.requests()[before:]
				var formats []string
				for _, r := range reqs {
					formats = append(formats, r.format)
				}
				if !slices.Equal(formats, want) {
					t.Errorf("draft %d asked in the formats %v, want %v", run+1, formats, want)
				}
				last := reqs[len(reqs)-1]
				if last.format == "json_object" && !last.schema {
					t.Error("JSON mode without the schema")
				}
				if last.format != "none" && !last.validated {
					t.Error("the answer was not checked against the request's schema")
				}
				if inPrompt := strings.Contains(last.system, "JSON Schema"); inPrompt != (last.format != "json_schema") {
					t.Errorf("format %s: the schema in the system prompt = %v", last.format, inPrompt)
				}
				if got.Fields["tagline"].Text != "Meeting notes your team will actually read." || got.Fields["city"].Text != "Lisbon" {
					t.Errorf("draft %d: the grounded values are not kept: %+v", run+1, got.Fields)
				}
				for _, f := range []string{"contact_email", "founded_year"} {
					if v, ok := got.Fields[f]; ok {
						t.Errorf("draft %d: %s = %+v kept, its quote is not on the page", run+1, f, v)
					}
				}
				assertGrounded(t, acmeRequest().Site, got)
			}
		})
	}
}

// TestDrafter_BadRequestNotAboutFormat: a 400 about something else than the
// response format (here a prompt over the server's context) is returned as it
// is, after one request: asking again in another format would not help.
func TestDrafter_BadRequestNotAboutFormat(t *testing.T) {
	t.Parallel()
	var n int
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n++
		mu.Unlock()
		apiError(w, http.StatusBadRequest, "invalid_request_error", "the request exceeds the available context size, try increasing it")
	}))
	defer srv.Close()
	d, _ := llmdraft.New(llmdraft.Config{BaseURL: srv.URL + "/v1", Model: "m", HTTPClient: srv.Client()})
	_, err := d.Draft(context.Background(), acmeRequest())
	if err == nil || llmdraft.Temporary(err) {
		t.Fatalf("err = %v, want a permanent error", err)
	}
	if n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
	if errors.Is(err, llmdraft.ErrInvalidReply) {
		t.Errorf("err = %v: a refused request is not an invalid reply", err)
	}
}
