package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

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
	if v, ok := decodeFlat(raw); ok {
		return v, nil
	}
	return decodeTokens(raw)
}

// decodeTokens is decodeJSON for any input, token by token.
func decodeTokens(raw []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	v, err := decodeValue(d, raw, nil, 0)
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

// decodeFlat is decodeJSON for the arguments most calls send, for about a
// fifth of its CPU and allocations: one object whose values are strings
// without escapes (UTF-8, no control character), integers of at most 15
// digits, true, false or null, each key once. It answers what decodeJSON
// answers for such an input (TestDecodeFlat_SameAsDecodeJSON); ok is false
// for anything else (nested values, escapes, other numbers, a key twice,
// bad bytes, trailing data, invalid JSON), which decodeJSON then reads and
// judges.
func decodeFlat(raw []byte) (_ map[string]any, ok bool) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil, false
	}
	obj := map[string]any{}
	i = skipSpace(raw, i+1)
	if i < len(raw) && raw[i] == '}' {
		return obj, skipSpace(raw, i+1) == len(raw)
	}
	for {
		key, n, ok := flatString(raw, i)
		if !ok {
			return nil, false
		}
		if _, dup := obj[key]; dup {
			return nil, false
		}
		i = skipSpace(raw, n)
		if i >= len(raw) || raw[i] != ':' {
			return nil, false
		}
		i = skipSpace(raw, i+1)
		if i >= len(raw) {
			return nil, false
		}
		var v any
		switch c := raw[i]; {
		case c == '"':
			if v, n, ok = flatString(raw, i); !ok {
				return nil, false
			}
		case c == '-' || c >= '0' && c <= '9':
			if v, n, ok = flatInteger(raw, i); !ok {
				return nil, false
			}
		case bytes.HasPrefix(raw[i:], []byte("true")):
			v, n = true, i+4
		case bytes.HasPrefix(raw[i:], []byte("false")):
			v, n = false, i+5
		case bytes.HasPrefix(raw[i:], []byte("null")):
			v, n = nil, i+4
		default:
			return nil, false
		}
		obj[key] = v
		i = skipSpace(raw, n)
		if i >= len(raw) {
			return nil, false
		}
		switch raw[i] {
		case ',':
			i = skipSpace(raw, i+1)
		case '}':
			return obj, skipSpace(raw, i+1) == len(raw)
		default:
			return nil, false
		}
	}
}

// skipSpace returns the index of the first byte of raw at or after i that
// is not JSON white space.
func skipSpace(raw []byte, i int) int {
	for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\n' || raw[i] == '\r') {
		i++
	}
	return i
}

// flatString reads the string starting at raw[i] (a quote) when it holds
// neither an escape nor a control character and is UTF-8, returning it and
// the index after its closing quote.
func flatString(raw []byte, i int) (string, int, bool) {
	if i >= len(raw) || raw[i] != '"' {
		return "", 0, false
	}
	ascii := true
	for j := i + 1; j < len(raw); j++ {
		switch c := raw[j]; {
		case c == '"':
			if !ascii && !utf8.Valid(raw[i+1:j]) {
				return "", 0, false
			}
			return string(raw[i+1 : j]), j + 1, true
		case c == '\\' || c < 0x20:
			return "", 0, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return "", 0, false
}

// flatInteger reads the integer starting at raw[i] when it is a JSON number
// of at most 15 digits without fraction or exponent (so numberOK holds for
// it), returning it as decodeJSON does (json.Number) and the index after it.
func flatInteger(raw []byte, i int) (json.Number, int, bool) {
	j := i
	if raw[j] == '-' {
		j++
	}
	start := j
	for j < len(raw) && raw[j] >= '0' && raw[j] <= '9' {
		j++
	}
	digits := j - start
	if digits == 0 || digits > 15 || digits > 1 && raw[start] == '0' {
		return "", 0, false
	}
	if j < len(raw) && (raw[j] == '.' || raw[j] == 'e' || raw[j] == 'E') {
		return "", 0, false
	}
	return json.Number(raw[i:j]), j, true
}

// decodeValue reads one JSON value of raw (which d reads); path is where it sits.
func decodeValue(d *json.Decoder, raw []byte, path []string, depth int) (any, error) {
	start := d.InputOffset()
	tok, err := d.Token()
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	if s, ok := tok.(string); ok {
		if why := badJSONText(s, raw, start, d.InputOffset()); why != "" {
			return nil, &textError{field: nonEmpty(fieldName(path)), why: why}
		}
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
			kstart := d.InputOffset()
			kt, err := d.Token()
			if err != nil {
				return nil, err
			}
			key, ok := kt.(string)
			if !ok { // the decoder reports non-string keys itself; be safe anyway
				return nil, fmt.Errorf("object key %v is not a string", kt)
			}
			if why := badJSONText(key, raw, kstart, d.InputOffset()); why != "" {
				return nil, &textError{field: fieldName(append(path, key)), why: "its name " + why}
			}
			if _, dup := obj[key]; dup {
				return nil, &dupKeyError{field: fieldName(append(path, key))}
			}
			v, err := decodeValue(d, raw, append(path, key), depth+1)
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
			v, err := decodeValue(d, raw, append(path, strconv.Itoa(i)), depth+1)
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

// RuleText is the rule of a text value no field may hold: a NUL character,
// bytes that are not UTF-8, or a lone UTF-16 surrogate escape (\ud800).
// encoding/json would have replaced the last two with U+FFFD and stored the
// altered text; PostgreSQL refuses the first (a 500). It is the "format"
// rule every text field has (docs/decisions.md).
const RuleText = "format"

// textError is a string of the input that holds what no text may (RuleText).
type textError struct{ field, why string }

func (e *textError) Error() string { return fmt.Sprintf("%s %s", e.field, e.why) }

// badJSONText says what is wrong with the string s that the decoder read
// from raw[start:end] (the token, after any separator), or "" when nothing
// is. Only a string holding NUL or U+FFFD is looked at again: a U+FFFD the
// client sent (as UTF-8 or as \ufffd) is kept, one the decoder put in place
// of bad bytes or of a lone surrogate is refused.
func badJSONText(s string, raw []byte, start, end int64) string {
	if strings.IndexByte(s, 0) >= 0 {
		return "holds a NUL character (U+0000), which no text may hold"
	}
	if !strings.ContainsRune(s, utf8.RuneError) || start < 0 || end > int64(len(raw)) || start > end {
		return ""
	}
	lit := raw[start:end]
	if q := bytes.IndexByte(lit, '"'); q >= 0 {
		lit = lit[q:]
	}
	if !utf8.Valid(lit) {
		return "is not valid UTF-8"
	}
	for i := 0; i < len(lit); i++ {
		if lit[i] != '\\' {
			continue
		}
		i++
		if i >= len(lit) || lit[i] != 'u' {
			continue
		}
		r, ok := hex4(lit[i+1:])
		if !ok {
			continue
		}
		i += 4
		switch {
		case r >= 0xD800 && r < 0xDC00: // high: a low must follow
			if len(lit) > i+2 && lit[i+1] == '\\' && lit[i+2] == 'u' {
				if lo, ok := hex4(lit[i+3:]); ok && lo >= 0xDC00 && lo < 0xE000 {
					i += 6
					continue
				}
			}
			return fmt.Sprintf("holds a lone UTF-16 surrogate (\\u%04x), which is not a character", r)
		case r >= 0xDC00 && r < 0xE000:
			return fmt.Sprintf("holds a lone UTF-16 surrogate (\\u%04x), which is not a character", r)
		}
	}
	return ""
}

// hex4 reads the 4 hex digits at the start of b.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	n, err := strconv.ParseUint(string(b[:4]), 16, 32)
	return rune(n), err == nil
}

// badText says what is wrong with a text value read from a URL (a query or
// path parameter, already percent-decoded), or "" when nothing is.
func badText(s string) string {
	if strings.IndexByte(s, 0) >= 0 {
		return "holds a NUL character (U+0000), which no text may hold"
	}
	if !utf8.ValidString(s) {
		return "is not valid UTF-8"
	}
	return ""
}

// textFieldError is the field error of a text value badText or badJSONText
// refused.
func textFieldError(field, why string) domain.FieldError {
	return domain.FieldError{Field: field, Rule: RuleText,
		Message: fmt.Sprintf("%s %s; send text as valid UTF-8 without NUL characters.", field, why)}
}

// inputFieldError returns the field error of a duplicate key, of a number
// out of range, or of text no field may hold, if err is one.
func inputFieldError(err error) (domain.FieldError, bool) {
	if err == nil { // before the targets of errors.As, which escape: three allocations a call
		return domain.FieldError{}, false
	}
	if e := (*textError)(nil); errors.As(err, &e) {
		return textFieldError(e.field, e.why), true
	}
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
