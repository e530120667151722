package extract

import (
	"slices"
	"testing"
)

func TestPricing_PriceForms(t *testing.T) {
	for in, want := range map[string]string{
		"Profi 9,00 € pro Monat":          "9,00 €",
		"€9 per month":                    "€9",
		"9 € HT / mois":                   "9 €",
		"R$ 49/mês":                       "R$ 49",
		"29 $ al mes por usuario":         "29 $",
		"CHF 12.– per agent per month":    "CHF 12.–",
		"$12.99 per month.":               "$12.99",
		"€ 1.200 all'anno":                "€ 1.200",
		"ab 19 EUR im Monat":              "19 EUR",
		"Le plan coûte 15 euros par mois": "15 euros",
		"EUR 9,00 pro Monat":              "EUR 9,00",
		"USD 19 per month":                "USD 19",
		"€ 9,- per maand":                 "€ 9,-",
	} {
		if got := priceRe.FindString(in); got != want {
			t.Errorf("price in %q = %q, want %q", in, got, want)
		}
	}
	for _, in := range []string{"2.000 academias", "save 20%", "3 Nutzer", "version 2.0", "24/7 support"} {
		if got := priceRe.FindString(in); got != "" {
			t.Errorf("price in %q = %q, want none", in, got)
		}
	}
	if nz, zero := hasPrices("0 € per sempre"); nz || !zero {
		t.Errorf("0 € = nonzero %v zero %v, want a zero price", nz, zero)
	}
	if nz, zero := hasPrices("R$ 0 ou R$ 39/mês"); !nz || !zero {
		t.Errorf("R$ 0 ou R$ 39 = nonzero %v zero %v, want both", nz, zero)
	}
}

func TestPricing_PeriodsTrialsFreeAndContact(t *testing.T) {
	periods := []string{"$9/mo", "€9 per month", "9 € pro Monat", "9 € im Monat", "9 €/Monat", "9 € par mois",
		"19 € HT / mois", "29 €/mes", "29 € al mes", "15 € al mese", "€15 per maand", "R$ 49/mês", "R$ 49 por mês",
		"$4 per user", "5 € par utilisateur", "billed annually", "9 € mtl.", "€9 p/m", "€9 /mnd", "R$ 29 ao mês", "9 €/Mon.",
		"R$ 29 cobrados mensalmente"}
	for _, s := range periods {
		if !periodRe.MatchString(s) {
			t.Errorf("%q: no period found", s)
		}
	}
	for _, s := range []string{"Probeer 30 dagen gratis", "14 Tage kostenlos testen", "Essai gratuit de 14 jours",
		"Prueba gratis durante 14 días", "Prova gratuita di 14 giorni", "Teste grátis por 7 dias", "Start your free trial"} {
		if !trialRe.MatchString(s) {
			t.Errorf("%q: not a trial", s)
		}
	}
	for _, s := range []string{"Gratuit", "Kostenlos", "Gratis", "Grátis", "Gratuito", "free"} {
		if !freeRe.MatchString(s) {
			t.Errorf("%q: not free", s)
		}
	}
	for _, s := range []string{"The free plan covers five meetings", "Il piano Base è gratuito per sempre",
		"Die kostenlose Version reicht für drei Nutzer", "O plano grátis inclui 1 atendente", "Het gratis pakket"} {
		if !freePlanRe.MatchString(s) {
			t.Errorf("%q: no free plan found", s)
		}
	}
	for _, s := range []string{"Free SSL", "Contact us for details", "Gratuit jusqu'à 3 utilisateurs", "Customers love it"} {
		if shortFreeOrContact.MatchString(s) {
			t.Errorf("%q taken for a whole Free or On-request price", s)
		}
	}
	for _, s := range []string{"Free forever", "Kostenlos", "Gratis per sempre", "Grátis"} {
		if !shortFreeOrContact.MatchString(s) {
			t.Errorf("%q: not a whole Free price", s)
		}
	}
	for _, s := range []string{"Auf Anfrage", "Sur devis", "Contactar", "Contattaci", "Op aanvraag", "Sob consulta", "Contact sales"} {
		if !shortFreeOrContact.MatchString(s) || !contactRe.MatchString(s) {
			t.Errorf("%q: not an on-request price", s)
		}
	}
	for _, s := range []string{"$0.90 per resolved conversation", "$1 per 1,000 emails", "$0.05 per transcribed minute", "0,02 € par requête"} {
		if !usageRe.MatchString(s) {
			t.Errorf("%q: not usage pricing", s)
		}
	}
	for _, s := range []string{"$19, once.", "Einmalig 49 €", "Paiement unique de 29 €", "Pago único de 19 €", "49 € una tantum", "Eenmalig €29", "Pagamento único de R$ 99"} {
		if !oneTimeRe.MatchString(s) {
			t.Errorf("%q: not a one-time price", s)
		}
	}
}

func TestPricing_Traps(t *testing.T) {
	for _, s := range []string{
		"Rechnix spart uns 300 € im Monat.", "Jährlich zahlen und 20 % sparen.", "Save $40 a year with annual billing.",
		"Paga anualmente y ahorra 58 $ al año.", "Rispetto ad altri software risparmi fino a 200 € all'anno.",
		"Bespaar €60 met jaarlijks betalen.", "Economize R$ 100 por mês.", "Other tools charge $30 per month.",
		"Unlike Competitor X at $49/mo, we are simple.", "We raised $2 million last year.",
		"Nos clients génèrent 3 millions d'euros de chiffre d'affaires.",
		"Teams that manage $2B in assets per year trust us.", "We process €40M per month.", "Über 5 Mio. € pro Jahr abgerechnet.",
	} {
		if !isPriceTrap(s) {
			t.Errorf("%q: not a trap", s)
		}
	}
	for _, s := range []string{"Pro costs $9 per month.", "Der Pro-Tarif kostet 9 € im Monat.", "La formule Équipe coûte 5 € par utilisateur et par mois.",
		"Il piano Completo costa 12 € al mese.", "O plano Escola custa R$ 290 por mês."} {
		if isPriceTrap(s) {
			t.Errorf("%q: taken for a trap", s)
		}
	}
}

func TestPricing_ProsePlanAndPhrase(t *testing.T) {
	cases := []struct{ sentence, name, phrase string }{
		{"Pro costs $9 per month and has no limit on meetings; teams pay $9 per person.", "Pro", "$9 per month"},
		{"After that, Parlotti Plus costs $12.99 per month or $79.99 per year.", "Parlotti Plus", "$12.99 per month or $79.99 per year"},
		{"Der Pro-Tarif kostet 9 € im Monat und hat keine Grenzen.", "Pro", "9 € im Monat"},
		{"La formule Équipe coûte 5 € par utilisateur et par mois.", "Équipe", "5 € par utilisateur et par mois"},
		{"El plan Agencia cuesta 79 € al mes.", "Agencia", "79 € al mes"},
		{"Il piano Completo costa 12 € al mese e include movimenti illimitati.", "Completo", "12 € al mese"},
		{"Het Groei-pakket kost €25 per maand.", "Groei", "€25 per maand"},
		{"O plano Escola custa R$ 290 por mês para até 300 alunos.", "Escola", "R$ 290 por mês para até 300 alunos"},
		{"Beyond that: €6 per user per month.", "", "€6 per user per month"},
		{"It costs $5 a month.", "", "$5 a month"},
	}
	for _, c := range cases {
		loc := priceRe.FindStringIndex(c.sentence)
		if loc == nil {
			t.Fatalf("%q: no price", c.sentence)
		}
		if got := planName(c.sentence[:loc[0]]); got != c.name {
			t.Errorf("%q: plan %q, want %q", c.sentence, got, c.name)
		}
		if got := pricePhrase(c.sentence[loc[0]:]); got != c.phrase {
			t.Errorf("%q: phrase %q, want %q", c.sentence, got, c.phrase)
		}
	}
}

func TestPricing_CategoryTerms(t *testing.T) {
	re := termsRe([]string{"contabilità", "boekhoud*", "preços"})
	for in, want := range map[string][]string{
		"La contabilità semplice":          {"contabilità"},
		"contabilitàx e boekhoudprogramma": {"boekhoudprogramma"},
		"Planos e preços.":                 {"preços"},
		"Boekhouden zonder gedoe":          {"Boekhouden"},
		"precontabilità":                   nil,
	} {
		got, _ := termMatches(re, nil, in)
		if !slices.Equal(got, want) {
			t.Errorf("terms in %q = %q, want %q", in, got, want)
		}
	}
	notes := termsRe(append(slices.Clone(categoryTerms["note-taking"]), categoryTermsCore["note-taking"]...))
	if got, _ := termMatches(notes, notRe("note-taking"), "Vos notes de frais, enfin simples"); got != nil {
		t.Errorf("note-taking terms in 'notes de frais' = %q, want none", got)
	}
	desk := termsRe(append(slices.Clone(categoryTerms["help-desk"]), categoryTermsCore["help-desk"]...))
	if got, _ := termMatches(desk, notRe("help-desk"), "Photographiez vos tickets de caisse"); got != nil {
		t.Errorf("help-desk terms in 'tickets de caisse' = %q, want none", got)
	}
	if got, _ := termMatches(notes, notRe("note-taking"), "Prise de notes rapide"); len(got) == 0 {
		t.Errorf("no note-taking term in 'Prise de notes rapide'")
	}
}

func TestPricing_AllPlansHeadings(t *testing.T) {
	for _, h := range []string{"All plans include", "Alle Tarife enthalten", "Tous les forfaits incluent", "Todos los planes incluyen",
		"Tutti i piani includono", "Alle pakketten bevatten", "Todos os planos incluem", "Every plan comes with"} {
		if !allPlans.MatchString(h) {
			t.Errorf("%q: not about all plans", h)
		}
	}
	for _, h := range []string{"Alle Preise im Überblick", "Pro", "Team plan", "Tarifs", "Plans and pricing"} {
		if allPlans.MatchString(h) {
			t.Errorf("%q taken for a heading about all plans", h)
		}
	}
}

func TestPricing_FreeStatements(t *testing.T) {
	for _, s := range []string{"Free", "Free for up to 3 users.", "Gratuit jusqu'à 3 utilisateurs.", "Kostenlos für Einzelpersonen",
		"Il piano Base è gratuito per sempre, con fino a 20 movimenti al mese.", "Conversations handed over to your team are free.",
		"The free plan covers five meetings a month.", "Gratis para siempre", "Het basispakket is gratis."} {
		if !freeStatement(s) {
			t.Errorf("%q: no free plan or free use found", s)
		}
	}
	for _, s := range []string{"Includes free SSL certificates.", "No subscription, free updates for version 2.", "Support in italiano, con aggiornamenti gratuiti."} {
		if freeStatement(s) {
			t.Errorf("%q taken for a free plan", s)
		}
	}
}
