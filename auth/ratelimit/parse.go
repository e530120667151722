package ratelimit

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// Item is one member of a structured-field List whose items are Strings
// with Integer parameters, as RateLimit and RateLimit-Policy are.
type Item struct {
	Name   string
	Params map[string]int
}

// ParseItems parses the field lines of h's name as one RFC 9651 List of
// String items with Integer parameters, strictly: anything else is an error.
func ParseItems(h http.Header, name string) ([]Item, error) {
	s := strings.Join(h.Values(name), ", ")
	var out []Item
	for s != "" {
		if s[0] != '"' {
			return nil, fmt.Errorf("%s: item must be a String: %q", name, s)
		}
		end := strings.IndexByte(s[1:], '"')
		if end < 0 {
			return nil, fmt.Errorf("%s: unterminated string", name)
		}
		it := Item{Name: s[1 : end+1], Params: map[string]int{}}
		s = s[end+2:]
		for strings.HasPrefix(s, ";") {
			s = s[1:]
			i := strings.IndexAny(s, "=;,")
			if i <= 0 || s[i] != '=' {
				return nil, fmt.Errorf("%s: parameter without an Integer value: %q", name, s)
			}
			key := s[:i]
			s = s[i+1:]
			j := strings.IndexAny(s, ";, ")
			if j < 0 {
				j = len(s)
			}
			v, err := strconv.Atoi(s[:j])
			if err != nil || v < 0 || strings.ToLower(key) != key {
				return nil, fmt.Errorf("%s: parameter %s=%q is not a lowercase key with a non-negative Integer", name, key, s[:j])
			}
			it.Params[key] = v
			s = s[j:]
		}
		out = append(out, it)
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			break
		}
		if s[0] != ',' {
			return nil, fmt.Errorf("%s: want ',' between items: %q", name, s)
		}
		s = strings.TrimLeft(s[1:], " \t")
		if s == "" {
			return nil, fmt.Errorf("%s: trailing comma", name)
		}
	}
	return out, nil
}
