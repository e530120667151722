package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"

	"github.com/launchdir/launchdir/domain"
)

// maxJSONDepth bounds how deeply the objects and arrays of an input may nest.
// No input schema is deeper than a handful of levels; the bound keeps the
// recursive decoder's stack small on hostile input.
const maxJSONDepth = 64

// RuleDuplicateKey is the rule of a JSON object that names one key twice.
const RuleDuplicateKey = "duplicateKey"

// RuleNumberRange is the rule of a number no input can hold (numberOK).
const RuleNumberRange = "range"

// maxNumberLen bounds the literal of a number. Every bound of the catalog is
// far inside it; an exponent (1e999999) or a long run of digits would
// otherwise cost seconds of big-number arithmetic in the validator per value.
const maxNumberLen = 100

// jsonNumberRE is a JSON number literal (RFC 8259): no +, no leading zeros,
// no hex, no underscores, no Inf or NaN.
var jsonNumberRE = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// numberOK reports whether s is a JSON number literal of at most
// maxNumberLen characters whose value a float64 holds (neither overflow nor
// underflow).
func numberOK(s string) bool {
	if len(s) > maxNumberLen || !jsonNumberRE.MatchString(s) {
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// numberError is a number literal numberOK refuses; field names it.
type numberError struct{ field string }

func (e *numberError) Error() string { return fmt.Sprintf("number out of range at %s", e.field) }

// dupKeyError is a JSON object that holds the same key twice; field names it
// the way validation errors do ("fields.tagline", "items[2].week").
type dupKeyError struct{ field string }

func (e *dupKeyError) Error() string { return fmt.Sprintf("duplicate key %s", e.field) }

// decodeJSON is the one reader of untrusted JSON input, for REST bodies and
// MCP tools/call arguments alike. It returns the value the input schema
// validates (objects as map[string]any, arrays as []any, numbers as
// json.Number) and refuses what a plain decoder would let through silently:
// a key sent twice in one object at any depth (encoding/json keeps the last
// one), trailing data after the value, and nesting deeper than maxJSONDepth.
// A number too long or out of float64 range is a *numberError, a duplicate
// key a *dupKeyError (inputFieldError turns both into field errors);
// anything else that is not one JSON value is another error.
func decodeJSON(raw []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	v, err := decodeValue(d, nil, 0)
	if err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		if err == nil {
			err = errors.New("unexpected data after the JSON value")
		}
		return nil, err
	}
	return v, nil
}

// decodeValue reads one JSON value; path is where it sits.
func decodeValue(d *json.Decoder, path []string, depth int) (any, error) {
	tok, err := d.Token()
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	if n, ok := tok.(json.Number); ok && !numberOK(string(n)) {
		return nil, &numberError{field: nonEmpty(fieldName(path))}
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		return tok, nil // string, json.Number, bool or nil
	}
	if depth >= maxJSONDepth {
		return nil, fmt.Errorf("the JSON nests more than %d levels deep", maxJSONDepth)
	}
	switch delim {
	case '{':
		obj := map[string]any{}
		for d.More() {
			kt, err := d.Token()
			if err != nil {
				return nil, err
			}
			key, ok := kt.(string)
			if !ok { // the decoder reports non-string keys itself; be safe anyway
				return nil, fmt.Errorf("object key %v is not a string", kt)
			}
			if _, dup := obj[key]; dup {
				return nil, &dupKeyError{field: fieldName(append(path, key))}
			}
			v, err := decodeValue(d, append(path, key), depth+1)
			if err != nil {
				return nil, err
			}
			obj[key] = v
		}
		if _, err := d.Token(); err != nil { // }
			return nil, err
		}
		return obj, nil
	case '[':
		arr := []any{}
		for i := 0; d.More(); i++ {
			v, err := decodeValue(d, append(path, strconv.Itoa(i)), depth+1)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		if _, err := d.Token(); err != nil { // ]
			return nil, err
		}
		return arr, nil
	}
	return nil, fmt.Errorf("unexpected %v", delim)
}

// inputFieldError returns the field error of a duplicate key or of a number
// out of range, if err is one.
func inputFieldError(err error) (domain.FieldError, bool) {
	if e := (*dupKeyError)(nil); errors.As(err, &e) {
		return domain.FieldError{Field: e.field, Rule: RuleDuplicateKey,
			Message: fmt.Sprintf("%s is sent twice; a JSON object must name each key once.", e.field)}, true
	}
	if e := (*numberError)(nil); errors.As(err, &e) {
		return domain.FieldError{Field: e.field, Rule: RuleNumberRange,
			Message: fmt.Sprintf("%s is a number out of range: numbers must fit a 64-bit float and be written in at most %d characters.", e.field, maxNumberLen)}, true
	}
	return domain.FieldError{}, false
}
