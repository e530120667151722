package domain

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
)

// vatFor works out the VAT for a billing country and VAT number; the field
// names are the caller's (billing_country and vat_number for the API,
// country and vat_number on the checkout page).
func (s *Service) vatFor(ctx context.Context, countryField, numberField, country, number string) (VAT, error) {
	o, err := s.ordering()
	if err != nil {
		return VAT{}, err
	}
	v := VAT{RatesAsOf: o.VAT.RatesAsOf(), RatesSource: o.VAT.RatesSource()}
	country = strings.ToUpper(strings.TrimSpace(country))
	number = strings.TrimSpace(number)
	var n VATNumber
	if number != "" {
		n, err = o.VAT.ParseVATNumber(number)
		if err != nil {
			rule := "format"
			var e *Error
			if errors.As(err, &e) && len(e.Fields) > 0 {
				rule, err = e.Fields[0].Rule, errors.New(e.Message)
			}
			return VAT{}, Invalid(numberField, rule, "%s: %v", numberField, err)
		}
		if country == "" {
			country = n.Country
		}
		if n.Country != country {
			return VAT{}, Invalid(numberField, "country", "%s: %s is a VAT number of %s, but the billing country is %s; they must match.",
				numberField, n, CountryName(n.Country), country)
		}
	}
	if country == "" {
		v.Mode = VATNoCountry
		v.Note = "No VAT yet: it is added from the billing country the person enters on the checkout page (send billing_country for a preview)."
		return v, nil
	}
	if CountryName(country) == "" {
		return VAT{}, Invalid(countryField, "country", "%s: %q is not an ISO 3166 alpha-2 country code (like DE or US).", countryField, country)
	}
	v.Country = country
	rate, eu := o.VAT.StandardRate(country)
	if !eu {
		if number != "" {
			return VAT{}, Invalid(numberField, "country", "%s: VAT numbers apply to EU billing countries only; leave it out for %s.", numberField, CountryName(country))
		}
		v.Mode = VATOutsideEU
		v.Note = "No VAT: the buyer is outside the EU."
		return v, nil
	}
	if number == "" {
		v.Mode, v.RateBasisPoints = VATStandard, rate
		v.Note = fmt.Sprintf("VAT of %s at %s%%. A business with a valid EU VAT number from another member state pays no VAT (reverse charge).",
			CountryName(country), percent(rate))
		v.RatePercent = float64(rate) / 100
		return v, nil
	}
	v.VATNumber, v.Checked = n.String(), "offline"
	if o.VIES != nil {
		valid, err := o.VIES.CheckVAT(ctx, n.Prefix, n.Local)
		switch {
		case err != nil:
			// VIES is often briefly down for one member state; the offline check stands.
			slog.Default().Warn("VIES check failed; using the offline check", "number", n.String(), "err", err)
		case !valid:
			return VAT{}, Invalid(numberField, "vies", "%s: %s is not registered for VAT according to the EU's VIES service; check the number, or leave it out to pay VAT.", numberField, n)
		default:
			v.Checked = "vies"
		}
	}
	if country == o.sellerCountry() {
		v.Mode, v.RateBasisPoints = VATDomestic, rate
		v.RatePercent = float64(rate) / 100
		v.Note = fmt.Sprintf("VAT of %s at %s%%: a business in the seller's own member state pays domestic VAT.", CountryName(country), percent(rate))
		return v, nil
	}
	v.Mode = VATReverseCharge
	v.Note = fmt.Sprintf("Reverse charge: no VAT is charged; the buyer (%s) accounts for VAT in %s.", n, CountryName(country))
	return v, nil
}

func percent(bp int) string {
	s := fmt.Sprintf("%d.%02d", bp/100, bp%100)
	return strings.TrimSuffix(strings.TrimSuffix(s, "0"), ".0")
}
