package domain_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

func TestGround(t *testing.T) {
	site := &domain.SiteCrawl{URL: "https://acme.example/", Pages: []domain.WebPage{
		{URL: "https://acme.example/", Text: "Acme\nInvoices that send themselves.\n© 2024 Acme Inc. All rights reserved.", Data: []string{"https://x.com/acme"}},
		{URL: "https://acme.example/about", Text: "Acme was founded in 2019 in Berlin, Germany.\nPlans from $9/month."},
	}}
	req := domain.DraftRequest{Site: site, Categories: []domain.CategoryChoice{{Slug: "finance", Name: "Finance"}}, Stages: []string{"beta"}}
	home, about := "https://acme.example/", "https://acme.example/about"
	ev := func(url, q string) []domain.Evidence { return []domain.Evidence{{URL: url, Quote: q}} }
	in := &domain.Drafted{Fields: map[string]domain.DraftedValue{
		"name":          {Text: "Acme", Evidence: ev(home, "Acme")},
		"tagline":       {Text: "Invoices that send themselves.", Evidence: ev(about, "Invoices that send themselves.")}, // wrong page
		"founded_year":  {Text: "2024", Evidence: ev(home, "© 2024 Acme Inc.")},                                          // copyright line
		"country":       {Text: "Germany", Evidence: ev(about, "founded in 2019 in Berlin, Germany.")},
		"city":          {Text: "Munich", Evidence: ev(about, "Berlin, Germany")}, // value not in its quote
		"categories":    {List: []string{"Finance", "Crypto"}, Evidence: ev(home, "Invoices that send themselves.")},
		"pricing_model": {Text: "subscription", Evidence: ev(about, "Plans from $9/month.")},
		"stage":         {Text: "growth", Evidence: ev(home, "Acme")},
		"contact_email": {Text: "hi@acme.example", Evidence: nil},
	}, Socials: map[string]domain.DraftedLink{"x": {URL: "https://x.com/acme", Evidence: ev(home, "https://x.com/acme")}},
		Founders: []domain.DraftedFounder{{Name: "Jane Roe", Evidence: ev(about, "Acme was founded in 2019")}}}
	out, dropped := domain.Ground(req, in)
	var kept []string
	for k := range out.Fields {
		kept = append(kept, k)
	}
	slices.Sort(kept)
	if want := []string{"country", "name", "pricing_model"}; !slices.Equal(kept, want) {
		t.Errorf("kept %v, want %v; dropped %v", kept, want, dropped)
	}
	if out.Fields["country"].Text != "DE" {
		t.Errorf("country = %q, want the code DE", out.Fields["country"].Text)
	}
	if _, ok := out.Socials["x"]; !ok || len(out.Founders) != 0 {
		t.Errorf("socials %v founders %v", out.Socials, out.Founders)
	}
	if len(dropped) != 7 {
		t.Errorf("dropped %d: %v", len(dropped), dropped)
	}
	// The founding year from the about page is kept.
	in2 := &domain.Drafted{Fields: map[string]domain.DraftedValue{"founded_year": {Text: "2019", Evidence: ev(about, "founded in 2019")}}}
	if out, d := domain.Ground(req, in2); out.Fields["founded_year"].Text != "2019" {
		t.Errorf("founding statement dropped: %v", d)
	}
}

// TestGround_PricingUnits: a subscription quoted by a price per person in
// the words the extractor reads as recurring ("€ 4,50 per medewerker", "12 €
// pro Mitarbeiter") passes the gate; a price alone does not.
func TestGround_PricingUnits(t *testing.T) {
	for _, c := range []struct {
		quote string
		kept  bool
	}{{"€ 4,50 per medewerker", true}, {"12 € pro Mitarbeiter", true}, {"9 € par personne", true}, {"€ 4,50", false}} {
		site := &domain.SiteCrawl{URL: "https://acme.example/", Pages: []domain.WebPage{{URL: "https://acme.example/", Text: c.quote}}}
		in := &domain.Drafted{Fields: map[string]domain.DraftedValue{"pricing_model": {Text: "subscription", Evidence: []domain.Evidence{{URL: "https://acme.example/", Quote: c.quote}}}}}
		out, _ := domain.Ground(domain.DraftRequest{Site: site}, in)
		if _, ok := out.Fields["pricing_model"]; ok != c.kept {
			t.Errorf("%q: kept %v, want %v", c.quote, ok, c.kept)
		}
	}
}

// TestGround_SubscriptionPeriodForms: every period or unit the drafter
// reads a subscription's price by (PricingPeriodPattern) makes a quote
// that the gate keeps a drafted subscription for, so a price the drafter
// found is never dropped by Ground for its wording.
func TestGround_SubscriptionPeriodForms(t *testing.T) {
	forms := []string{
		"$9/mo", "$9/month", "$90/yr", "$90/year", "$9/user", "$9 / seat", "$9/mon", "9 €/Monat", "90 €/Jahr",
		"19 €/Nutzer", "9 €/mois", "90 €/an", "12 €/utilisateur", "9 €/mes", "90 €/año", "9 €/usuario", "9 €/mese",
		"90 €/anno", "9 €/utente", "€9/maand", "€9/mnd", "€90/jaar", "€9/gebruiker", "R$ 9/mês", "R$ 90/ano",
		"R$ 9/usuário", "€9 p/m", "9 € mtl.", "9 € monatl.", "R$ 9 ao mês", "R$ 9 mensalmente", "9 € mensualmente",
		"9 € mensilmente", "9 € mensuellement", "$9 per month", "$90 per year", "$9 per user", "$9 per seat",
		"$19 per agent", "$9 per member", "$9 per person", "$9 per operator", "€9 per medewerker", "9 € per operatore",
		"9 € pro Monat", "9 € pro Nutzer", "9 € pro Benutzer", "9 € pro Person", "9 € pro Mitarbeiter", "9 € pro User",
		"9 € im Jahr", "9 € par mois", "90 € par an", "9 € par utilisateur", "9 € par personne", "9 € al mes",
		"90 € al año", "9 € al mese", "90 € all'anno", "9 € por mes", "90 € por año", "9 € por usuario",
		"9 € por utilizador", "9 € por persona", "R$ 9 por pessoa", "$9 a month", "$90 a year", "$9 monthly",
		"$90 yearly", "$90 annually", "$9, billed yearly", "9 € monatlich", "90 € jährlich", "9 € mensuel",
		"90 € annuel", "9 € mensual", "90 € anual", "9 € mensile", "90 € annuale", "€9 maandelijks", "€90 jaarlijks",
		"R$ 9 mensal", "49 zł / mies.", "99 kr/mån", "990 kr / år", "1 490 Kč / rok", "₺1.990 / yıl", "990 kr per år",
		"99 kr månadsvis", "1 490 Kč ročně", "99 kr pr. måned", "99 kr om måneden", "49 lei lunar",
		"Rp 99.000 setiap bulan", "99.000đ hàng tháng", "99,000원 /년", "연간 99,000원", "包年 ¥680", "월 9,900원",
		"￥１，０００／人", "１０，０００원／인", "99 kr / md", "1 490 Ft / hó", "9 € / kk", "49 lei / lună",
		"Rp 99.000/bulan", "99.000đ/tháng", "199 บาท/เดือน", "99 kr/måned", "₪49 לחודש", "¥980/月", "￥３，３００／月",
	}
	for _, q := range forms {
		site := &domain.SiteCrawl{URL: "https://x.test/", Pages: []domain.WebPage{{URL: "https://x.test/", Text: q}}}
		d := &domain.Drafted{Fields: map[string]domain.DraftedValue{
			"pricing_model": {Text: "subscription", Evidence: []domain.Evidence{{Quote: q, URL: "https://x.test/"}}},
		}}
		out, dropped := domain.Ground(domain.DraftRequest{Site: site}, d)
		if _, kept := out.Fields["pricing_model"]; !kept {
			t.Errorf("a subscription quoted %q was dropped: %s", q, strings.Join(dropped, "; "))
		}
	}
	// A price with no period or unit still speaks of no subscription.
	for _, q := range []string{"$49", "Made in Lyon", "€80 per hour", "Pay once, $99"} {
		if domain.StatesPricingModel("subscription", q) {
			t.Errorf("%q speaks of a subscription", q)
		}
	}
}
