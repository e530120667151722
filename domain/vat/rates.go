// Package vat holds what the order core needs to know about EU VAT: the
// standard rate of each member state, the offline check of a VAT number
// (prefix, format, check digits) and the optional online check against the
// EU's VIES service.
//
// It imports no project package: domain imports it.
package vat

import (
	"slices"
	"strings"
)

// RatesAsOf is the date on which the rates in the table below were in force
// and checked against the source.
//
// The table must be reviewed whenever a member state changes its standard
// rate (the Commission publishes the change in the Taxes in Europe Database
// beforehand); update the rate, this date and the test that pins the table.
const RatesAsOf = "2026-01-01"

// RatesSource is where the table comes from.
const RatesSource = "European Commission, \"VAT rates applied in the Member States of the European Union\" " +
	"(https://taxation-customs.ec.europa.eu/taxation/vat/vat-directive/vat-rates_en) and the Taxes in Europe " +
	"Database (https://ec.europa.eu/taxation_customs/tedb/)"

// standardRates are the EU standard VAT rates in basis points (2100 = 21%),
// keyed by ISO 3166 alpha-2 code (GR for Greece, whose VAT prefix is EL).
//
// Our products are electronically supplied services, so under the OSS rules
// a consumer pays the standard rate of their own member state. Changes up to
// RatesAsOf that this table reflects: Finland 24% -> 25.5% (1 Sep 2024),
// Slovakia 20% -> 23% (1 Jan 2025), Estonia 22% -> 24% (1 Jul 2025),
// Romania 19% -> 21% (1 Aug 2025).
var standardRates = map[string]int{
	"AT": 2000, // Austria
	"BE": 2100, // Belgium
	"BG": 2000, // Bulgaria
	"CY": 1900, // Cyprus
	"CZ": 2100, // Czechia
	"DE": 1900, // Germany
	"DK": 2500, // Denmark
	"EE": 2400, // Estonia
	"ES": 2100, // Spain
	"FI": 2550, // Finland
	"FR": 2000, // France
	"GR": 2400, // Greece
	"HR": 2500, // Croatia
	"HU": 2700, // Hungary
	"IE": 2300, // Ireland
	"IT": 2200, // Italy
	"LT": 2100, // Lithuania
	"LU": 1700, // Luxembourg
	"LV": 2100, // Latvia
	"MT": 1800, // Malta
	"NL": 2100, // Netherlands
	"PL": 2300, // Poland
	"PT": 2300, // Portugal
	"RO": 2100, // Romania
	"SE": 2500, // Sweden
	"SI": 2200, // Slovenia
	"SK": 2300, // Slovakia
}

// StandardRate returns the standard VAT rate of an EU member state in basis
// points (2100 = 21%). country is an ISO 3166 alpha-2 code ("GR" for Greece,
// not the VAT prefix "EL"); letter case is ignored so that a billing country
// typed in lower case is not mistaken for a country outside the EU. ok is
// false outside the EU.
func StandardRate(country string) (basisPoints int, ok bool) {
	basisPoints, ok = standardRates[strings.ToUpper(country)]
	return basisPoints, ok
}

// IsEU reports whether country (ISO 3166 alpha-2, any letter case) is an EU
// member state. The VAT prefix "EL" is not an ISO code and is not accepted.
func IsEU(country string) bool {
	_, ok := standardRates[strings.ToUpper(country)]
	return ok
}

// Countries returns the ISO 3166 alpha-2 codes of the 27 member states,
// sorted. The slice is new on every call; the caller may keep or change it.
func Countries() []string {
	out := make([]string, 0, len(standardRates))
	for c := range standardRates {
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}
