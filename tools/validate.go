package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/schemas"
)

// inputValidator checks an operation's arguments against its compiled input
// schema: the same schema object for REST and MCP, so both transports report
// the same errors.
type inputValidator struct {
	schema *jsonschema.Schema
	props  map[string]schemas.Property
	names  []string // accepted property names, in schema order
}

func newInputValidator(name string, schema json.RawMessage) (*inputValidator, error) {
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
	v := &inputValidator{schema: sch, props: map[string]schemas.Property{}}
	for _, p := range props {
		v.props[p.Name] = p
		v.names = append(v.names, p.Name)
	}
	return v, nil
}

// validate returns nil when doc (JSON decoded with json.Number) is valid,
// else one FieldError per failing field and rule, sorted by field.
func (v *inputValidator) validate(doc any) []domain.FieldError {
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
	sortFields(out)
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

// sortFields orders field errors by field, then rule.
func sortFields(f []domain.FieldError) {
	sort.SliceStable(f, func(i, j int) bool {
		if f[i].Field != f[j].Field {
			return f[i].Field < f[j].Field
		}
		return f[i].Rule < f[j].Rule
	})
}

var printer = message.NewPrinter(language.English)

func (v *inputValidator) collect(e *jsonschema.ValidationError, doc any, out *[]domain.FieldError) {
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			v.collect(c, doc, out)
		}
		return
	}
	field := fieldName(e.InstanceLocation)
	got := valueAt(doc, e.InstanceLocation)
	add := func(field, rule, msg string) {
		// An error about the arguments as a whole ("must be an object") names them.
		*out = append(*out, domain.FieldError{Field: nonEmpty(field), Rule: rule, Message: msg})
	}
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		for _, m := range k.Missing {
			f := joinField(field, m)
			add(f, "required", fmt.Sprintf("%s is required.", f))
		}
	case *kind.AdditionalProperties:
		for _, p := range k.Properties {
			f := joinField(field, p)
			msg := fmt.Sprintf("%q is not an accepted field here.", p)
			if field == "" {
				msg = fmt.Sprintf("Unknown field %q (accepted: %s).", p, v.accepted())
			}
			add(f, "additionalProperties", msg)
		}
	case *kind.Type:
		add(field, "type", fmt.Sprintf("%s must be %s (got %s).", nonEmpty(field), article(k.Want), display(got)))
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
		add(field, "pattern", msg)
	case *kind.MaxItems:
		add(field, "maxItems", fmt.Sprintf("%s must have at most %d items (got %d).", field, k.Want, k.Got))
	case *kind.MinItems:
		add(field, "minItems", fmt.Sprintf("%s must have at least %d items (got %d).", field, k.Want, k.Got))
	case *kind.MinProperties:
		add(field, "minProperties", fmt.Sprintf("%s must have at least %d %s (got %d).", nonEmpty(field), k.Want, plural(k.Want, "key"), k.Got))
	case *kind.MaxProperties:
		add(field, "maxProperties", fmt.Sprintf("%s must have at most %d %s (got %d).", nonEmpty(field), k.Want, plural(k.Want, "key"), k.Got))
	case *kind.Format:
		add(field, "format", fmt.Sprintf("%s must be a valid %s (got %s).", field, k.Want, display(got)))
	default:
		rule := "invalid"
		if kp := e.ErrorKind.KeywordPath(); len(kp) > 0 {
			rule = kp[0]
		}
		add(field, rule, fmt.Sprintf("%s is invalid: %s.", nonEmpty(field), e.ErrorKind.LocalizedString(printer)))
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func (v *inputValidator) accepted() string {
	if len(v.names) == 0 {
		return "none (this operation takes no input)"
	}
	return strings.Join(v.names, ", ")
}

// fieldName turns an instance location into the input name the caller used:
// ["items","2","week"] -> "items[2].week"; the root is "arguments".
func fieldName(loc []string) string {
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

func joinField(parent, name string) string {
	if name == "" {
		name = `""` // an empty key or query parameter name, named visibly
	}
	if parent == "" {
		return name
	}
	return parent + "." + name
}

func nonEmpty(field string) string {
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

// coerceQuery turns query and path parameters (strings) into the JSON types
// the input schema declares, so that the schema validates them like JSON
// arguments. A value that does not parse stays a string, and the schema then
// reports a type error naming the field. Parameters the schema does not
// declare are kept, so that the schema reports them (additionalProperties).
func (v *inputValidator) coerceQuery(query map[string][]string, path map[string]string) (map[string]any, []domain.FieldError) {
	doc := make(map[string]any, len(query)+len(path))
	var errs []domain.FieldError
	for name, vals := range query {
		if _, isPath := path[name]; isPath {
			errs = append(errs, domain.FieldError{Field: joinField("", name), Rule: "additionalProperties",
				Message: fmt.Sprintf("%s is part of the path; do not also send it as a query parameter.", name)})
			continue
		}
		p, known := v.props[name]
		switch {
		case known && p.Type == "array":
			items := make([]any, len(vals))
			for i, s := range vals {
				items[i] = coerce(p.ItemType, s)
			}
			doc[name] = items
		case len(vals) > 1:
			errs = append(errs, domain.FieldError{Field: joinField("", name), Rule: "type",
				Message: fmt.Sprintf("%s was sent %d times; send it once.", joinField("", name), len(vals))})
		case len(vals) == 1:
			doc[name] = coerce(p.Type, vals[0])
		}
	}
	for name, s := range path {
		doc[name] = coerce(v.props[name].Type, s)
	}
	return doc, errs
}

func coerce(typ, s string) any {
	switch typ {
	case "integer":
		// Written as JSON: 007 and +5 are 7 and 5, and a value that does not
		// parse, or is out of range (1e999999), stays a string: a type error.
		if n, err := strconv.ParseInt(s, 10, 64); err == nil && len(s) <= maxNumberLen {
			return json.Number(strconv.FormatInt(n, 10))
		}
		if !numberOK(s) {
			break
		}
		if r, ok := new(big.Rat).SetString(s); ok && r.IsInt() {
			return json.Number(r.Num().String()) // 20.0 is an integer in JSON Schema
		}
	case "number":
		if f, err := strconv.ParseFloat(s, 64); err == nil && len(s) <= maxNumberLen && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
		}
	case "boolean":
		switch strings.ToLower(s) {
		case "true", "1":
			return true
		case "false", "0":
			return false
		}
	}
	return s
}

// normalizeIntegers rewrites integral numbers written with a fraction or an
// exponent (20.0, 2e1), which JSON Schema accepts as integers, so that they
// decode into Go ints: at any depth (items[2].listing_id), for any field
// (for a float field 20 and 20.0 are the same value). It reports whether doc
// changed.
func (v *inputValidator) normalizeIntegers(doc map[string]any) bool {
	return normalizeNumbers(doc)
}

func normalizeNumbers(x any) bool {
	changed := false
	switch x := x.(type) {
	case map[string]any:
		for k, val := range x {
			if n, ok := integral(val); ok {
				x[k], changed = n, true
			} else if normalizeNumbers(val) {
				changed = true
			}
		}
	case []any:
		for i, val := range x {
			if n, ok := integral(val); ok {
				x[i], changed = n, true
			} else if normalizeNumbers(val) {
				changed = true
			}
		}
	}
	return changed
}

// integral returns a json.Number written with a fraction or an exponent but
// holding an integer (20.0, 2e1) in plain integer form.
func integral(val any) (json.Number, bool) {
	n, ok := val.(json.Number)
	if !ok || !strings.ContainsAny(string(n), ".eE") {
		return "", false
	}
	r, ok := new(big.Rat).SetString(string(n))
	if !ok || !r.IsInt() {
		return "", false
	}
	return json.Number(r.Num().String()), true
}
