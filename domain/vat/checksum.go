package vat

import "time"

// The arithmetic shared by several member states' check digits. Every
// function expects its input to have been checked with allDigits (or, for
// mod97, to hold only digits and upper-case letters).

// allDigits reports whether s is non-empty and made of ASCII digits only.
func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// digit is the value of the ASCII digit c.
func digit(c byte) int { return int(c - '0') }

// atoi is the value of a short string of digits (at most 18, so it cannot
// overflow).
func atoi(s string) int64 {
	var n int64
	for i := 0; i < len(s); i++ {
		n = n*10 + int64(digit(s[i]))
	}
	return n
}

// weightedSum is the sum of weights[i] times the i-th digit of s, over the
// first len(weights) digits.
func weightedSum(s string, weights ...int) int {
	sum := 0
	for i, w := range weights {
		sum += w * digit(s[i])
	}
	return sum
}

// luhnValid reports whether s passes the Luhn (ISO/IEC 7812) check: from
// the right, every second digit is doubled (its digits summed) and the total
// is a multiple of 10.
func luhnValid(s string) bool {
	return luhnSum(s)%10 == 0
}

// luhnCheckDigit is the digit that, appended to s, makes it pass luhnValid.
func luhnCheckDigit(s string) int {
	return (10 - luhnSum(s+"0")%10) % 10
}

func luhnSum(s string) int {
	sum := 0
	double := false
	for i := len(s) - 1; i >= 0; i-- {
		d := digit(s[i])
		if double {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
		double = !double
	}
	return sum
}

// mod1110CheckDigit is the ISO 7064 MOD 11,10 check digit of s (used by
// Germany and Croatia).
func mod1110CheckDigit(s string) int {
	p := 10
	for i := 0; i < len(s); i++ {
		x := (p + digit(s[i])) % 10
		if x == 0 {
			x = 10
		}
		p = (2 * x) % 11
	}
	return (11 - p) % 10
}

// mod97 is s modulo 97, where s holds digits and upper-case letters and a
// letter counts as the two digits of its value (A = 10 ... Z = 35), as in
// ISO 7064 MOD 97-10 (IBAN, Dutch VAT numbers since 2020).
func mod97(s string) int {
	r := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			v := int(c-'A') + 10
			r = (r*100 + v) % 97
			continue
		}
		r = (r*10 + digit(c)) % 97
	}
	return r
}

// validDate reports whether year-month-day is a date of the calendar.
func validDate(year, month, day int) bool {
	if month < 1 || month > 12 || day < 1 || day > 31 {
		return false
	}
	t := time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC)
	return t.Year() == year && int(t.Month()) == month && t.Day() == day
}
