package llmdraft

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/launchdir/launchdir/domain"
)

// storyKeys are the story sections a reply may fill.
var storyKeys = domain.StorySections

// responseFormatFor is the response_format of a request in format f (nil:
// none). In JSON mode the reply's schema goes beside "type"
// ({type: json_object, schema}), which is how llama.cpp's server takes a
// schema in JSON mode, and other servers ignore it; go-openai's type has no
// field for it, so jsonModeDoer adds it to the request body.
func responseFormatFor(f replyFormat, req domain.DraftRequest) *openai.ChatCompletionResponseFormat {
	switch f {
	case formatObject:
		return &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
	case formatNone:
		return nil
	}
	return responseFormat(req)
}

// schemaNote is the reply's JSON Schema as text for the system prompt, for
// endpoints that do not take it as response_format.
func schemaNote(req domain.DraftRequest) string {
	b, _ := json.Marshal(replySchema(req))
	return "\n\nThe JSON object follows this JSON Schema (every property present; an empty list or \"\" where the site states nothing):\n" + string(b)
}

// responseFormat asks for the reply as JSON following replySchema, in strict
// mode: endpoints that support structured outputs then cannot return anything
// else, and the others still get the schema as guidance.
func responseFormat(req domain.DraftRequest) *openai.ChatCompletionResponseFormat {
	return &openai.ChatCompletionResponseFormat{
		Type: openai.ChatCompletionResponseFormatTypeJSONSchema,
		JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{
			Name:        "launch_directory_draft",
			Description: "A product profile drafted from its web site; every value with verbatim evidence quotes.",
			Strict:      true,
			Schema:      json.RawMessage(mustJSON(replySchema(req))),
		},
	}
}

// replySchema is the JSON Schema of the reply. Strict structured outputs want
// every property required and no additional ones, so optional facts are
// expressed by leaving an item out of its array (or an empty string/list).
func replySchema(req domain.DraftRequest) map[string]any {
	str := map[string]any{"type": "string"}
	enum := func(values []string) map[string]any { return map[string]any{"type": "string", "enum": values} }
	evidence := map[string]any{
		"type":        "array",
		"description": "Quotes copied verbatim from the page whose exact URL is given.",
		"items":       object(map[string]any{"quote": str, "url": str}),
	}
	props := map[string]any{
		"fields": map[string]any{"type": "array", "items": object(map[string]any{
			"field":    enum(wantedFields(req)),
			"text":     map[string]any{"type": "string", "description": "The value of a text field; empty for a list field."},
			"list":     map[string]any{"type": "array", "items": str, "description": "The items of a list field; empty for a text field."},
			"evidence": evidence,
		})},
	}
	if len(req.Only) == 0 {
		platforms := enum(domain.SocialPlatforms)
		props["faqs"] = map[string]any{"type": "array", "items": object(map[string]any{
			"question": str, "answer": str, "evidence": evidence,
		})}
		props["founders"] = map[string]any{"type": "array", "items": object(map[string]any{
			"name": str, "title": str, "bio": str,
			"socials":  map[string]any{"type": "array", "items": object(map[string]any{"platform": platforms, "url": str})},
			"evidence": evidence,
		})}
		props["socials"] = map[string]any{"type": "array", "items": object(map[string]any{
			"platform": platforms, "url": str, "evidence": evidence,
		})}
		props["story"] = map[string]any{"type": "array", "items": object(map[string]any{
			"section": enum(storyKeys), "text": str, "evidence": evidence,
		})}
		props["milestones"] = map[string]any{"type": "array", "items": object(map[string]any{
			"date":  map[string]any{"type": "string", "description": "YYYY-MM-DD"},
			"title": str, "description": str, "url": str, "evidence": evidence,
		})}
	}
	return object(props)
}

// object is a strict JSON Schema object: all properties required, no others.
func object(props map[string]any) map[string]any {
	required := make([]string, 0, len(props))
	for k := range props {
		required = append(required, k)
	}
	// Sorted so the request body is the same for the same input.
	slices.Sort(required)
	return map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}
}

// reply is the model's answer as parsed. It accepts the schema's shape and
// the usual near misses of models without structured outputs (fields or
// socials as objects keyed by name, "value" for "text").
type reply struct {
	Fields     keyedList[replyField]   `json:"fields"`
	FAQs       []replyFAQ              `json:"faqs"`
	Founders   []replyFounder          `json:"founders"`
	Socials    keyedList[replySocial]  `json:"socials"`
	Story      keyedList[replySection] `json:"story"`
	Milestones []replyMilestone        `json:"milestones"`
}

type replyField struct {
	Field    string            `json:"field"`
	Text     string            `json:"text"`
	List     []string          `json:"list"`
	Value    json.RawMessage   `json:"value"`
	Evidence []domain.Evidence `json:"evidence"`
}

func (f *replyField) setKey(k string) { f.Field = k }

type replyFAQ struct {
	Question string            `json:"question"`
	Answer   string            `json:"answer"`
	Evidence []domain.Evidence `json:"evidence"`
}

type replyFounder struct {
	Name     string               `json:"name"`
	Title    string               `json:"title"`
	Bio      string               `json:"bio"`
	Socials  keyedList[replyLink] `json:"socials"`
	Evidence []domain.Evidence    `json:"evidence"`
}

type replyLink struct {
	Platform string `json:"platform"`
	URL      string `json:"url"`
}

func (l *replyLink) setKey(k string) { l.Platform = k }

// UnmarshalJSON also takes a bare URL string (in the object form
// {"linkedin": "https://..."}).
func (l *replyLink) UnmarshalJSON(b []byte) error {
	if s := ""; json.Unmarshal(b, &s) == nil {
		l.URL = s
		return nil
	}
	type plain replyLink
	return json.Unmarshal(b, (*plain)(l))
}

type replySocial struct {
	Platform string            `json:"platform"`
	URL      string            `json:"url"`
	Evidence []domain.Evidence `json:"evidence"`
}

func (s *replySocial) setKey(k string) { s.Platform = k }

type replySection struct {
	Section  string            `json:"section"`
	Text     string            `json:"text"`
	Evidence []domain.Evidence `json:"evidence"`
}

func (s *replySection) setKey(k string) { s.Section = k }

type replyMilestone struct {
	Date        string            `json:"date"`
	Title       string            `json:"title"`
	Description string            `json:"description"`
	URL         string            `json:"url"`
	Evidence    []domain.Evidence `json:"evidence"`
}

// keyedList is a JSON array of items, or an object whose keys name the items
// (the key goes into the item through setKey).
type keyedList[T any] []T

func (l *keyedList[T]) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return json.Unmarshal(b, (*[]T)(l))
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		var item T
		if string(bytes.TrimSpace(m[k])) == "null" {
			continue
		}
		if err := json.Unmarshal(m[k], &item); err != nil {
			// {"name": "Acme"}: a bare value with no evidence; the gate
			// would drop it anyway, so it is skipped rather than fatal.
			continue
		}
		if s, ok := any(&item).(interface{ setKey(string) }); ok {
			s.setKey(k)
		}
		*l = append(*l, item)
	}
	return nil
}

// parseReply decodes the model's reply, tolerating a JSON object wrapped in
// Markdown code fences or in a sentence of prose.
func parseReply(content string) (*reply, error) {
	s := strings.TrimSpace(content)
	if s == "" {
		return nil, errors.New("empty reply")
	}
	if strings.HasPrefix(s, "```") {
		s = strings.TrimPrefix(s, "```")
		s = strings.TrimPrefix(strings.TrimPrefix(s, "json"), "JSON")
		if i := strings.LastIndex(s, "```"); i >= 0 {
			s = s[:i]
		}
		s = strings.TrimSpace(s)
	}
	if !strings.HasPrefix(s, "{") {
		i, j := strings.IndexByte(s, '{'), strings.LastIndexByte(s, '}')
		if i < 0 || j < i {
			return nil, errors.New("no JSON object in the reply")
		}
		s = s[i : j+1]
	}
	var r reply
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		return nil, fmt.Errorf("decoding the reply: %w", err)
	}
	return &r, nil
}
