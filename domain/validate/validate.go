// Package validate checks an operation's input against the JSON Schema
// generated from its domain input struct (schemas.Input, whose jsonschema
// tags hold the spec's bounds): the one validator of the REST API and the MCP
// tools (tools) and of the pages (web), so that a page reports a bad sort, q,
// status or slug with the same field, rule and message as the API, and the
// domain, which trusts that its inputs were checked, gets nothing unchecked.
package validate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/schemas"
)

// Validator checks arguments against one compiled input schema.
type Validator struct {
	schema *jsonschema.Schema
	props  map[string]schemas.Property
	names  []string // accepted property names, in schema order
}

// Compile compiles the input schema of the operation name.
func Compile(name string, schema json.RawMessage) (*Validator, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, err
	}
	url := "urn:launchdir:input:" + name
	c := jsonschema.NewCompiler()
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	sch, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("compile %s input schema: %w", name, err)
	}
	props, err := schemas.Properties(schema)
	if err != nil {
		return nil, err
	}
	v := &Validator{schema: sch, props: map[string]schemas.Property{}}
	for _, p := range props {
		v.props[p.Name] = p
		v.names = append(v.names, p.Name)
	}
	return v, nil
}

// Props returns the schema's top-level properties by name.
func (v *Validator) Props() map[string]schemas.Property { return v.props }

// byType holds the validator of each input type Input has seen.
var byType sync.Map // reflect.Type -> *Validator

// For returns the validator of the input type of in (a domain input struct
// such as domain.SearchListingsInput), compiled once from schemas.Input.
func For(in any) (*Validator, error) {
	t := reflect.TypeOf(in)
	if v, ok := byType.Load(t); ok {
		return v.(*Validator), nil
	}
	schema, err := schemas.Input(t)
	if err != nil {
		return nil, err
	}
	v, err := Compile(t.String(), schema)
	if err != nil {
		return nil, err
	}
	actual, _ := byType.LoadOrStore(t, v)
	return actual.(*Validator), nil
}

// Input checks in, a domain input struct, as the API checks the same
// operation's arguments: nil, or an EInvalid *domain.Error naming each field
// and rule. An input type without a schema is an internal error.
func Input(in any) error {
	v, err := For(in)
	if err != nil {
		return fmt.Errorf("validate: %T: %w", in, err)
	}
	b, err := json.Marshal(in)
	if err != nil {
		return fmt.Errorf("validate: %T: %w", in, err)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var doc any
	if err := d.Decode(&doc); err != nil {
		return fmt.Errorf("validate: %T: %w", in, err)
	}
	if fe := v.Validate(doc); len(fe) > 0 {
		return domain.InvalidFields(fe)
	}
	return nil
}

// Validate returns nil when doc (JSON decoded with json.Number) is valid,
// else one FieldError per failing field and rule, sorted by field.
func (v *Validator) Validate(doc any) []domain.FieldError {
	err := v.schema.Validate(doc)
	if err == nil {
		return nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return []domain.FieldError{{Field: "arguments", Rule: "type", Message: err.Error()}}
	}
	var out []domain.FieldError
	v.collect(ve, doc, &out)
	SortFields(out)
	// A failing $ref or combinator may report the same leaf twice.
	dedup := out[:0]
	for i, f := range out {
		if i > 0 && f == out[i-1] {
			continue
		}
		dedup = append(dedup, f)
	}
	return dedup
}

// SortFields orders field errors by field, then rule.
func SortFields(f []domain.FieldError) {
	sort.SliceStable(f, func(i, j int) bool {
		if f[i].Field != f[j].Field {
			return f[i].Field < f[j].Field
		}
		return f[i].Rule < f[j].Rule
	})
}

var printer = message.NewPrinter(language.English)

func (v *Validator) collect(e *jsonschema.ValidationError, doc any, out *[]domain.FieldError) {
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			v.collect(c, doc, out)
		}
		return
	}
	field := FieldName(e.InstanceLocation)
	got := valueAt(doc, e.InstanceLocation)
	add := func(field, rule, msg string) {
		// An error about the arguments as a whole ("must be an object") names them.
		*out = append(*out, domain.FieldError{Field: NonEmpty(field), Rule: rule, Message: msg})
	}
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		for _, m := range k.Missing {
			f := JoinField(field, m)
			add(f, "required", fmt.Sprintf("%s is required.", f))
		}
	case *kind.AdditionalProperties:
		for _, p := range k.Properties {
			f := JoinField(field, p)
			msg := fmt.Sprintf("%q is not an accepted field here.", p)
			if field == "" {
				msg = fmt.Sprintf("Unknown field %q (accepted: %s).", p, v.accepted())
			}
			add(f, "additionalProperties", msg)
		}
	case *kind.Type:
		add(field, "type", fmt.Sprintf("%s must be %s (got %s).", NonEmpty(field), article(k.Want), display(got)))
	case *kind.Enum:
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			want[i] = fmt.Sprint(w)
		}
		add(field, "enum", fmt.Sprintf("%s must be one of %s (got %s).", field, strings.Join(want, ", "), display(got)))
	case *kind.MaxLength:
		add(field, "maxLength", fmt.Sprintf("%s must be at most %d characters long (got %d).", field, k.Want, k.Got))
	case *kind.MinLength:
		add(field, "minLength", fmt.Sprintf("%s must be at least %d characters long (got %d).", field, k.Want, k.Got))
	case *kind.Maximum:
		add(field, "maximum", fmt.Sprintf("%s must be at most %s (got %s).", field, rat(k.Want), rat(k.Got)))
	case *kind.Minimum:
		add(field, "minimum", fmt.Sprintf("%s must be at least %s (got %s).", field, rat(k.Want), rat(k.Got)))
	case *kind.ExclusiveMaximum:
		add(field, "exclusiveMaximum", fmt.Sprintf("%s must be less than %s (got %s).", field, rat(k.Want), rat(k.Got)))
	case *kind.ExclusiveMinimum:
		add(field, "exclusiveMinimum", fmt.Sprintf("%s must be greater than %s (got %s).", field, rat(k.Want), rat(k.Got)))
	case *kind.Pattern:
		msg := fmt.Sprintf("%s must match the pattern %s (got %q).", field, k.Want, k.Got)
		if d := v.props[field].Description; d != "" {
			msg = fmt.Sprintf("%s must match the pattern %s: %s (got %q).", field, k.Want, lowerFirst(strings.TrimSuffix(d, ".")), k.Got)
		}
		if lower, ok := lowerCaseFix(k.Want, k.Got); ok {
			what := "it is lower-case"
			if strings.HasPrefix(k.Want, slugPatternStart) {
				what = "slugs are lower-case"
			}
			msg = fmt.Sprintf("%s: %s: did you mean %q? (%s)", field, what, lower, msg)
		}
		add(field, "pattern", msg)
	case *kind.MaxItems:
		add(field, "maxItems", fmt.Sprintf("%s must have at most %d items (got %d).", field, k.Want, k.Got))
	case *kind.MinItems:
		add(field, "minItems", fmt.Sprintf("%s must have at least %d items (got %d).", field, k.Want, k.Got))
	case *kind.MinProperties:
		add(field, "minProperties", fmt.Sprintf("%s must have at least %d %s (got %d).", NonEmpty(field), k.Want, plural(k.Want, "key"), k.Got))
	case *kind.MaxProperties:
		add(field, "maxProperties", fmt.Sprintf("%s must have at most %d %s (got %d).", NonEmpty(field), k.Want, plural(k.Want, "key"), k.Got))
	case *kind.Format:
		add(field, "format", fmt.Sprintf("%s must be a valid %s (got %s).", field, k.Want, display(got)))
	default:
		rule := "invalid"
		if kp := e.ErrorKind.KeywordPath(); len(kp) > 0 {
			rule = kp[0]
		}
		add(field, rule, fmt.Sprintf("%s is invalid: %s.", NonEmpty(field), e.ErrorKind.LocalizedString(printer)))
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func (v *Validator) accepted() string {
	if len(v.names) == 0 {
		return "none (this operation takes no input)"
	}
	return strings.Join(v.names, ", ")
}

// FieldName turns an instance location into the input name the caller used:
// ["items","2","week"] -> "items[2].week"; the root is "arguments".
func FieldName(loc []string) string {
	var b strings.Builder
	for _, t := range loc {
		if t == "" {
			t = `""` // an empty key, named visibly
		}
		if _, err := strconv.Atoi(t); err == nil && b.Len() > 0 {
			b.WriteString("[" + t + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(t)
	}
	return b.String()
}

func lowerFirst(s string) string {
	if s == "" || strings.ToUpper(s[:1]) == strings.ToLower(s[:1]) {
		return s
	}
	if len(s) > 1 && strings.ToUpper(s[1:2]) == s[1:2] && strings.ToLower(s[1:2]) != s[1:2] {
		return s // an acronym such as ISO
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// JoinField names the member name of parent ("items[2]" and "week": "items[2].week").
func JoinField(parent, name string) string {
	if name == "" {
		name = `""` // an empty key or query parameter name, named visibly
	}
	if parent == "" {
		return name
	}
	return parent + "." + name
}

// NonEmpty is field, or "arguments" for the arguments as a whole.
func NonEmpty(field string) string {
	if field == "" {
		return "arguments"
	}
	return field
}

func valueAt(doc any, loc []string) any {
	for _, t := range loc {
		switch d := doc.(type) {
		case map[string]any:
			doc = d[t]
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(d) {
				return nil
			}
			doc = d[i]
		default:
			return nil
		}
	}
	return doc
}

func display(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return strconv.Quote(v)
	case json.Number:
		return v.String()
	case bool:
		return strconv.FormatBool(v)
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprint(v)
}

func article(types []string) string {
	out := make([]string, len(types))
	for i, t := range types {
		switch t {
		case "integer", "object", "array":
			out[i] = "an " + t
		case "null":
			out[i] = "null"
		default:
			out[i] = "a " + t
		}
	}
	return strings.Join(out, " or ")
}

func rat(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// Enum returns the values the schema allows for the top-level property name
// (nil when it has no enum), for a page's choices.
func (v *Validator) Enum(name string) []string {
	var out []string
	list, _ := v.props[name].Schema["enum"].([]any)
	for _, e := range list {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// slugPatternStart begins the pattern of every slug (listing, category,
// founder, post): lower-case letters, digits and hyphens.
const slugPatternStart = "^[a-z0-9][a-z0-9-]"

// lowerCaseFix is got in lower case when that is all that keeps it from a
// pattern that allows no capitals (a slug sent as "Notion"), so that the
// error can say what to send: the published pattern
// stays the contract, and a capitalised slug is refused, but not with a
// bare regular expression.
func lowerCaseFix(pattern, got string) (string, bool) {
	lower := strings.ToLower(got)
	if lower == got || strings.Contains(pattern, "A-Z") {
		return "", false
	}
	re, err := regexp.Compile(pattern)
	if err != nil || !re.MatchString(lower) {
		return "", false
	}
	return lower, true
}
