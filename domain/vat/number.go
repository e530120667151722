package vat

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// Sentinel errors of Parse. Parse wraps them with a sentence saying what to
// fix; test for them with errors.Is.
var (
	// ErrPrefix: the number does not start with the VAT prefix of an EU
	// member state (missing, not in the EU, or GR instead of EL).
	ErrPrefix = errors.New("not an EU VAT number prefix")
	// ErrFormat: the characters after the prefix do not have the member
	// state's format (length, digits, letters).
	ErrFormat = errors.New("VAT number has the wrong format")
	// ErrChecksum: the format is right but the check digits do not match,
	// usually a typo.
	ErrChecksum = errors.New("VAT number check digits do not match")
)

// Number is an EU VAT identification number that passed the offline checks.
type Number struct {
	Country string // ISO 3166 alpha-2 of the member state ("GR" for a number prefixed EL)
	Prefix  string // the VAT prefix ("EL" for Greece, else = Country)
	Local   string // the number without its prefix, normalised
}

// String returns the number as it is written on an invoice and as VIES
// knows it: prefix and local part without separators, e.g. "DE136695976".
func (n Number) String() string { return n.Prefix + n.Local }

// memberState describes one member state's VAT numbers.
type memberState struct {
	// country is the ISO 3166 alpha-2 code.
	country string
	// format completes "XX VAT numbers are XX followed by ..." in errors.
	format string
	// check validates the part after the prefix and returns it normalised
	// (zero-padded where the state allows leading zeros to be left out). It
	// returns ErrFormat or ErrChecksum unwrapped; Parse adds the message.
	check func(local string) (string, error)
}

// states is keyed by VAT prefix. The checks live in states.go.
var states = map[string]memberState{
	"AT": {"AT", "U and 8 digits", checkAT},
	"BE": {"BE", "10 digits starting with 0 or 1 (a 9-digit number gets a leading 0)", checkBE},
	"BG": {"BG", "9 digits (companies) or 10 digits (persons)", checkBG},
	"CY": {"CY", "8 digits and a check letter, not starting with 12", checkCY},
	"CZ": {"CZ", "8 digits (companies, not starting with 9) or 9 or 10 digits (persons)", checkCZ},
	"DE": {"DE", "9 digits, the first not 0", checkDE},
	"DK": {"DK", "8 digits, the first not 0", checkDK},
	"EE": {"EE", "9 digits starting with 10", checkEE},
	"EL": {"GR", "9 digits (an 8-digit number gets a leading 0)", checkEL},
	"ES": {"ES", "9 characters: a digit or one of the letters ABCDEFGHJKLMNPQRSUVWXYZ, 7 digits, and a check digit or letter", checkES},
	"FI": {"FI", "8 digits", checkFI},
	"FR": {"FR", "a 2-character key (digits, or letters other than I and O) and the 9-digit SIREN", checkFR},
	"HR": {"HR", "11 digits (the OIB)", checkHR},
	"HU": {"HU", "8 digits", checkHU},
	"IE": {"IE", "7 digits and 1 or 2 letters (older numbers: a digit, a letter, + or *, 5 digits and a letter)", checkIE},
	"IT": {"IT", "11 digits whose 8th to 10th digits are a tax office code (001-100, 120, 121, 888 or 999)", checkIT},
	"LT": {"LT", "9 digits with 1 as the 8th, or 12 digits with 1 as the 11th", checkLT},
	"LU": {"LU", "8 digits", checkLU},
	"LV": {"LV", "11 digits (a company code starting with 4-9, or a personal code)", checkLV},
	"MT": {"MT", "8 digits, the first not 0", checkMT},
	"NL": {"NL", "9 digits, the letter B and 2 digits other than 00", checkNL},
	"PL": {"PL", "10 digits", checkPL},
	"PT": {"PT", "9 digits, the first not 0", checkPT},
	"RO": {"RO", "2 to 10 digits, the first not 0, or a 13-digit personal number (CNP)", checkRO},
	"SE": {"SE", "12 digits: the 10-digit organisation number and 01", checkSE},
	"SI": {"SI", "8 digits, the first not 0", checkSI},
	"SK": {"SK", "10 digits, the first not 0 and the third 2, 3, 4, 7, 8 or 9", checkSK},
}

// Parse normalises raw (upper case; spaces, dots, dashes and slashes
// removed) and checks it offline: a known EU prefix (EL, not GR, for
// Greece), the member state's format, and its check digits where the state
// defines them. The errors wrap ErrPrefix, ErrFormat or ErrChecksum with a
// sentence a person can act on.
//
// Passing Parse does not mean the number is registered: that is what VIES
// answers.
func Parse(raw string) (Number, error) {
	s := normalise(raw)
	if s == "" {
		return Number{}, fmt.Errorf("%w: the VAT number is empty; write it with its country prefix, e.g. DE followed by 9 digits", ErrFormat)
	}
	if len(s) < 2 || !isUpperASCII(s[0]) || !isUpperASCII(s[1]) {
		return Number{}, fmt.Errorf("%w: %q does not start with a country prefix; write the member state's two letters first (e.g. DE, FR, EL for Greece)", ErrPrefix, raw)
	}
	prefix, local := s[:2], s[2:]
	if prefix == "GR" {
		return Number{}, fmt.Errorf("%w: Greek VAT numbers use the prefix EL, not GR; write EL%s", ErrPrefix, local)
	}
	st, ok := states[prefix]
	if !ok {
		return Number{}, fmt.Errorf("%w: %s is not the VAT prefix of an EU member state (the prefixes are %s)", ErrPrefix, prefix, strings.Join(Prefixes(), ", "))
	}
	norm, err := st.check(local)
	switch {
	case errors.Is(err, ErrChecksum):
		return Number{}, fmt.Errorf("%w: %s%s is not a valid %s VAT number; check it for a typo", ErrChecksum, prefix, local, prefix)
	case err != nil:
		return Number{}, fmt.Errorf("%w: %s VAT numbers are %s followed by %s", ErrFormat, prefix, prefix, st.format)
	}
	return Number{Country: st.country, Prefix: prefix, Local: norm}, nil
}

// Prefixes returns the VAT prefixes of the 27 member states, sorted ("EL"
// for Greece).
func Prefixes() []string {
	out := make([]string, 0, len(states))
	for p := range states {
		out = append(out, p)
	}
	// A fixed order keeps error messages stable.
	slices.Sort(out)
	return out
}

// normalise upper-cases raw and drops the separators people write into VAT
// numbers (any white space, dots, dashes, slashes). Other punctuation is
// kept, so that a number with it fails the format check instead of being
// silently reinterpreted.
func normalise(raw string) string {
	var b strings.Builder
	b.Grow(len(raw))
	for _, r := range raw {
		switch {
		case unicode.IsSpace(r), r == '.', r == '-', r == '/':
			continue
		}
		b.WriteRune(unicode.ToUpper(r))
	}
	return b.String()
}

func isUpperASCII(c byte) bool { return c >= 'A' && c <= 'Z' }
