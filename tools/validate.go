package tools

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/validate"
	"github.com/launchdir/launchdir/schemas"
)

// inputValidator checks an operation's arguments against its compiled input
// schema (domain/validate, which the pages use too): the same schema object
// for REST and MCP, so both transports report the same errors.
type inputValidator struct {
	*validate.Validator
	props map[string]schemas.Property
}

func newInputValidator(name string, schema json.RawMessage) (*inputValidator, error) {
	v, err := validate.Compile(name, schema)
	if err != nil {
		return nil, err
	}
	return &inputValidator{Validator: v, props: v.Props()}, nil
}

// validate returns nil when doc (JSON decoded with json.Number) is valid,
// else one FieldError per failing field and rule, sorted by field.
func (v *inputValidator) validate(doc any) []domain.FieldError { return v.Validate(doc) }

// sortFields orders field errors by field, then rule.
func sortFields(f []domain.FieldError) { validate.SortFields(f) }

// fieldName turns an instance location into the input name the caller used.
func fieldName(loc []string) string { return validate.FieldName(loc) }

func joinField(parent, name string) string { return validate.JoinField(parent, name) }

func nonEmpty(field string) string { return validate.NonEmpty(field) }

// coerceQuery turns query and path parameters (strings) into the JSON types
// the input schema declares, so that the schema validates them like JSON
// arguments. A value that does not parse stays a string, and the schema then
// reports a type error naming the field. Parameters the schema does not
// declare are kept, so that the schema reports them (additionalProperties).
// An empty value (?page=) counts as not sent.
func (v *inputValidator) coerceQuery(query map[string][]string, path map[string]string) (map[string]any, []domain.FieldError) {
	doc := make(map[string]any, len(query)+len(path))
	var errs []domain.FieldError
	for name, vals := range query {
		if why := badText(name); why != "" {
			errs = append(errs, textFieldError(joinField("", strings.ToValidUTF8(name, "\uFFFD")), "(a parameter name) "+why))
			continue
		}
		if bad := slices.IndexFunc(vals, func(s string) bool { return badText(s) != "" }); bad >= 0 {
			errs = append(errs, textFieldError(joinField("", name), badText(vals[bad])))
			continue
		}
		// An empty value is the parameter not sent, so its default: a form
		// with an empty select and a URL template with an unfilled variable
		// send ?sort=&page= (docs/decisions.md).
		// A parameter the operation does not take is reported all the same.
		if _, known := v.props[name]; known {
			if vals = slices.DeleteFunc(slices.Clone(vals), func(s string) bool { return s == "" }); len(vals) == 0 {
				continue
			}
		}
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
		if why := badText(s); why != "" {
			errs = append(errs, textFieldError(name, why))
			continue
		}
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
