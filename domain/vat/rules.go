package vat

import (
	"errors"

	"github.com/launchdir/launchdir/domain"
)

// Rules is this package as the order core's domain.VATRules.
type Rules struct{}

var _ domain.VATRules = Rules{}

// StandardRate implements domain.VATRules.
func (Rules) StandardRate(country string) (int, bool) { return StandardRate(country) }

// RatesAsOf implements domain.VATRules.
func (Rules) RatesAsOf() string { return RatesAsOf }

// RatesSource implements domain.VATRules.
func (Rules) RatesSource() string { return RatesSource }

// ParseVATNumber implements domain.VATRules: Parse, with its error as a
// domain validation error whose rule says what is wrong.
func (Rules) ParseVATNumber(raw string) (domain.VATNumber, error) {
	n, err := Parse(raw)
	if err != nil {
		rule := "format"
		switch {
		case errors.Is(err, ErrChecksum):
			rule = "checksum"
		case errors.Is(err, ErrPrefix):
			rule = "prefix"
		}
		return domain.VATNumber{}, domain.Invalid("vat_number", rule, "%s", err.Error())
	}
	return domain.VATNumber{Country: n.Country, Prefix: n.Prefix, Local: n.Local}, nil
}
