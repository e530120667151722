package domain

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"

	"golang.org/x/text/language"
)

// PricingModels are the values a drafted pricing_model may take, with words a
// quote must contain for each, in English, German, French, Spanish, Italian,
// Dutch and Portuguese (the languages domain/extract reads).
var PricingModels = map[string][]string{
	"free":     {"free", "kostenlos", "gratuit", "gratis", "grátis", "darmo", "darmow", "bezpłatn", "kostnadsfri", "zdarma", "bezplatn", "ücretsiz", "無料", "免费", "무료"},
	"freemium": {"free", "kostenlos", "gratuit", "gratis", "grátis", "darmo", "darmow", "bezpłatn", "kostnadsfri", "zdarma", "bezplatn", "ücretsiz", "無料", "免费", "무료"},
	"subscription": {"/mo", "month", "/yr", "year", "annual", "subscription", "per seat", "per user", "billed",
		"monat", "jahr", "jährlich", "pro nutzer", "mois", "par an", "mensuel", "annuel", "abonnement", "par utilisateur",
		"/mes", "al mes", "por mes", "al año", "/año", "mensual", "anual", "suscripción", "por usuario",
		"/mese", "al mese", "all'anno", "mensile", "annuale", "abbonamento", "per utente",
		"maand", "/mnd", "p/m", "jaar", "per gebruiker", "mês", "mensilmente", "mtl.", "/mon", "/ano", "por ano", "mensal", "assinatura", "por usuário",
		// Polish, Swedish, Czech, Turkish, Japanese, Chinese, Korean.
		"mies.", "/mies", "/ mies", "miesięczn", "rocznie", "abonament", "/mån", "/ mån", "per månad", "i månaden", "prenumeration",
		"měsíčně", "měsíční", "/měs", "/ měs", "měsíc", "miesiąc", "ročně", "předplatné", "/ay", "/ ay", "aylık", "ayda", "yıllık", "abonelik",
		"月額", "/月", "/ 月", "／月", "／年", "月払い", "年払い", "年額", "每月", "按月", "订阅", "매월", "/월", "/ 월", "월 ", "월간", "구독"},
	"one-time": {"one-time", "one time", "lifetime", "once", "single payment", "perpetual",
		"einmalig", "paiement unique", "une seule fois", "pago único", "una tantum", "pagamento unico", "eenmalig", "pagamento único", "compra única",
		"買い切り", "買切", "一括購入", "买断", "買斷", "一次性", "永久授权", "永久授權", "일시불", "평생", "영구 라이선스"},
	"usage-based": {"usage", "per request", "per call", "pay as you go", "pay-as-you-go", "per 1,000", "per 1000", "metered", "credits",
		"per resolution", "per resolved", "per conversation", "minute", "/min", "per message", "per transaction", "per email", "per token", "per gb",
		"pro anfrage", "pro minute", "par requête", "par minute", "por solicitud", "por minuto", "per richiesta", "al minuto", "per minuto",
		"per aanvraag", "per minuut", "por requisição",
		"/条", "/條", "/次", "/通", "/件", "/건", "/회", "/ 条", "/ 次", "按量", "按用量", "按次", "従量", "あたり", "건당", "종량제", "사용량"},
	"open-source":   {"open source", "open-source", "mit license", "apache", "gpl", "github"},
	"contact-sales": {"contact", "sales", "quote", "talk to", "anfrage", "devis", "contatt", "aanvraag", "consulta", "preventivo", "presupuesto", "offerte", "cotação"},
}

// PricingPeriodPattern is a recurring price's period or unit as a quote
// writes it: "/mo", "/user", "per seat", "per agent", "pro Nutzer", "par
// mois", "monthly", "billed yearly", "kr/mån", "/ mies.", "aylık", "月額",
// "每月", "/월", "per måned", "לחודש", "／月". One home for both sides: the
// drafter (domain/extract) reads a price with it as a subscription's, and
// the gate (StatesPricingModel) takes a quote it matches as speaking of a
// subscription, so a price the drafter reads is never refused by Ground.
const PricingPeriodPattern = `(?i)/\s?(mo|month|yr|year|user|seat|mon|monat|jahr|nutzer|mois|an|utilisateur|mes|año|usuario|mese|anno|utente|maand|mnd|jaar|gebruiker|mês|ano|usuário)\b|\bp/m\b|\b(mtl|monatl)\.|\bao (mês|ano)\b|\b(mensalmente|mensualmente|mensilmente|mensuellement)\b|\bper (month|year|user|seat|agent|member|person|operator|maand|jaar|gebruiker|medewerker|mese|anno|utente|operatore)\b|\bpro (monat|jahr|nutzer|benutzer|person|mitarbeiter|user)\b|\bim (monat|jahr)\b|\bpar (mois|an|utilisateur|personne)\b|\bal (mes|año|mese)\b|\ball'anno\b|\bpor (mes|mês|año|ano|usuario|usuário|utilizador|persona|pessoa)\b|\ba (month|year)\b|\b(monthly|yearly|annually|billed|monatlich|jährlich|mensuel|annuel|mensual|anual|mensile|annuale|maandelijks|jaarlijks|mensal)\b` + periodMore + periodWorld + periodCJK

const (
	// periodMore: a month or a year in Polish, Swedish, Czech, Turkish,
	// Finnish, Danish, Hungarian, Romanian, Indonesian, Vietnamese, Greek,
	// Japanese, Chinese and Korean ("/ mies.", "miesięcznie", "kr/mån",
	// "měsíčně", "/ ay", "aylık", "月額", "/月", "每月", "월 9,900원", "/월").
	periodMore = `|/\s?(?:mies|mån|månad|år|měs|rok|ay|yıl)(?:[^\p{L}]|$)|/\s?(?:miesiąc|měsíc|měsíčně|månaden)(?:[^\p{L}]|$)|miesięczn|rocznie|per månad|i månaden|per år|månadsvis|měsíčně|měsíční|ročně|aylık|ayda|yıllık|` +
		`(?:^|[^\p{L}])(?:och|i|per) månad(?:[^\p{L}]|$)|` +
		`/\s?(?:kk|kuukausi|kuukaudessa|md|måned|hó|hónap|lună|luna|bulan|tháng|μήνα|μήνας)(?:[^\p{L}]|$)|kuukaudessa|kuukausittain|pr\. måned|om måneden|per måned|månedlig|havonta|havi díj|pe lună|lunar|per bulan|setiap bulan|mỗi tháng|hàng tháng|ανά μήνα|το μήνα|μηνιαία|` +
		`月額|月払い|年額|/\s?月|/\s?年|每月|按月|包月|包年|매월|월간|연간|/\s?월|/\s?년|(?:^|[^\p{L}])월\s?\d`
	// periodWorld: "/ hó", "/ kk", "/ lună", "/tháng", "/เดือน", "/bulan",
	// "per måned", "לחודש".
	periodWorld = `|/\s?(?:hó|hónap|kk|kuukausi|lună|luna|tháng|เดือน|bulan|måned|mnd)(?:[^\p{L}]|$)|per måned|i måneden|kuukaudessa|havonta|pe lună|mỗi tháng|ต่อเดือน|per bulan|לחודש|בחודש`
	// periodCJK: a period after a full-width solidus ("￥３，３００／月（税別）",
	// "／年", "／인", "／人").
	periodCJK = `|／\s?(?:月|年|월|년|人|인)`
)

// pricingPeriodRE is PricingPeriodPattern, compiled on first use.
var pricingPeriodRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(PricingPeriodPattern) })

// StatesPricingModel reports whether a quote speaks of the pricing model in
// words the gate takes for it: one of PricingModels' words, or for a
// subscription a period or unit of PricingPeriodPattern.
func StatesPricingModel(model, quote string) bool {
	q := strings.ToLower(NormalizeSpace(quote))
	if slices.ContainsFunc(PricingModels[model], func(w string) bool { return strings.Contains(q, w) }) {
		return true
	}
	return model == "subscription" && pricingPeriodRE().MatchString(q)
}

// groundVerbatim are the fields whose value itself must occur in one of its quotes.
var groundVerbatim = map[string]bool{
	"name": true, "city": true, "contact_email": true, "demo_video_url": true, "logo_url": true,
	"tagline": true, "short_description": true, "features": true, "usps": true, "keywords": true, "tags": true,
}

var yearRE = regexp.MustCompile(`^(1[89]\d\d|20\d\d|2100)$`)

var copyrightRE = regexp.MustCompile(`(?i)©|\(c\)|&copy;|\bcopyright\b|all rights reserved`)

// Ground is the gate every Drafter's output passes before the service keeps it:
// it keeps a value only when each of its evidence quotes is found verbatim on
// the crawled page it names (CheckEvidence) and the value is supported by its
// quotes (a name, email, link or year inside a quote; a country's name or code;
// a category from the list; a stage slug; a pricing word). It returns what
// survives and, for each value dropped, "field: why".
func Ground(req DraftRequest, d *Drafted) (*Drafted, []string) {
	out := &Drafted{Fields: map[string]DraftedValue{}}
	var dropped []string
	drop := func(what string, err error) { dropped = append(dropped, what+": "+err.Error()) }
	if d == nil {
		return out, nil
	}
	site := req.Site
	for name, v := range d.Fields {
		if !slices.Contains(DraftFieldNames, name) {
			drop(name, fmt.Errorf("not a draft field"))
			continue
		}
		if err := CheckEvidence(site, v.Evidence); err != nil {
			drop(name, err)
			continue
		}
		v, err := supported(req, name, v)
		if err != nil {
			drop(name, err)
			continue
		}
		out.Fields[name] = v
	}
	for i, f := range d.FAQs {
		if err := groundText(site, f.Evidence, f.Question, f.Answer); err != nil || f.Question == "" || f.Answer == "" {
			drop(fmt.Sprintf("faqs[%d]", i), orEmpty(err))
			continue
		}
		out.FAQs = append(out.FAQs, f)
	}
	for i, f := range d.Founders {
		if err := groundText(site, f.Evidence, f.Name); err != nil || f.Name == "" {
			drop(fmt.Sprintf("founders[%d]", i), orEmpty(err))
			continue
		}
		out.Founders = append(out.Founders, f)
	}
	for p, l := range d.Socials {
		err := groundText(site, l.Evidence, l.URL)
		if err == nil && (!slices.Contains(SocialPlatforms, p) || !isHTTPURL(l.URL)) {
			err = fmt.Errorf("not a social platform link")
		}
		if err != nil {
			drop("socials."+p, err)
			continue
		}
		if out.Socials == nil {
			out.Socials = map[string]DraftedLink{}
		}
		out.Socials[p] = l
	}
	for k, s := range d.Story {
		if err := CheckEvidence(site, s.Evidence); err != nil || strings.TrimSpace(s.Text) == "" || !slices.Contains(StorySections, k) {
			drop("story."+k, orEmpty(err))
			continue
		}
		if out.Story == nil {
			out.Story = map[string]DraftedSection{}
		}
		out.Story[k] = s
	}
	for i, m := range d.Milestones {
		err := CheckEvidence(site, m.Evidence)
		if err == nil && (len(m.Date) < 4 || !quotesContain(m.Evidence, m.Date[:4]) || m.Title == "") {
			err = fmt.Errorf("the date's year is not in the quote")
		}
		if err != nil {
			drop(fmt.Sprintf("milestones[%d]", i), err)
			continue
		}
		out.Milestones = append(out.Milestones, m)
	}
	return out, dropped
}

// StorySections are the json names of Story's sections.
var StorySections = []string{"title", "story", "why_started", "problem", "journey", "challenges", "achievements", "lessons", "whats_next"}

func orEmpty(err error) error {
	if err == nil {
		return fmt.Errorf("empty value")
	}
	return err
}

// groundText checks the evidence and that each value occurs in some quote.
func groundText(site *SiteCrawl, ev []Evidence, values ...string) error {
	if err := CheckEvidence(site, ev); err != nil {
		return err
	}
	for _, v := range values[:1] {
		if !quotesContain(ev, v) {
			return fmt.Errorf("%q is not in its quotes", v)
		}
	}
	return nil
}

// quotesContain reports whether v (whitespace-normalised, case-insensitive)
// occurs in one of the quotes.
func quotesContain(ev []Evidence, v string) bool {
	v = strings.ToLower(NormalizeSpace(v))
	if v == "" {
		return false
	}
	for _, e := range ev {
		if strings.Contains(strings.ToLower(NormalizeSpace(e.Quote)), v) {
			return true
		}
	}
	return false
}

// supported checks that a value follows from its quotes, normalising it where
// the field has a canonical form (country codes, category names).
func supported(req DraftRequest, name string, v DraftedValue) (DraftedValue, error) {
	if DraftListFields[name] {
		v.Text = ""
		if len(v.List) == 0 {
			return v, fmt.Errorf("empty list")
		}
	} else {
		v.List = nil
		v.Text = strings.TrimSpace(v.Text)
		if v.Text == "" {
			return v, fmt.Errorf("empty value")
		}
	}
	switch {
	case name == "categories":
		for _, c := range v.List {
			if !slices.ContainsFunc(req.Categories, func(k CategoryChoice) bool { return k.Name == c }) {
				return v, fmt.Errorf("%q is not a category of the list", c)
			}
		}
	case groundVerbatim[name] && DraftListFields[name]:
		for _, item := range v.List {
			if !quotesContain(v.Evidence, item) {
				return v, fmt.Errorf("%q is not in its quotes", item)
			}
		}
	case groundVerbatim[name]:
		if !quotesContain(v.Evidence, v.Text) && !((name == "logo_url" || name == "demo_video_url") && resolvesTo(v.Evidence, v.Text)) {
			return v, fmt.Errorf("%q is not in its quotes", v.Text)
		}
		if (name == "demo_video_url" || name == "logo_url") && !isHTTPURL(v.Text) {
			return v, fmt.Errorf("%q is not an http(s) link", v.Text)
		}
		if name == "contact_email" && !strings.Contains(v.Text, "@") {
			return v, fmt.Errorf("%q is not an email address", v.Text)
		}
	case name == "founded_year":
		// The year may be written in an era ("令和2年", "民國111年").
		era := yearRE.MatchString(v.Text) && eraStates(v.Evidence, v.Text)
		if !yearRE.MatchString(v.Text) || !quotesContain(v.Evidence, v.Text) && !era {
			return v, fmt.Errorf("%q is not a year stated in its quotes", v.Text)
		}
		// A copyright line dates the page, not the company.
		if !era && !slices.ContainsFunc(v.Evidence, func(e Evidence) bool { return !copyrightRE.MatchString(e.Quote) && strings.Contains(e.Quote, v.Text) }) {
			return v, fmt.Errorf("%q is only stated in a copyright line", v.Text)
		}
	case name == "country":
		code := strings.ToUpper(v.Text)
		if c, ok := CountryCode(v.Text); ok {
			code = c
		}
		cname := CountryName(code)
		if cname == "" {
			return v, fmt.Errorf("%q is not an ISO 3166 country", v.Text)
		}
		// Japan's postal mark before a postcode ("〒150-0002") is used nowhere else.
		postalJP := code == "JP" && slices.ContainsFunc(v.Evidence, func(e Evidence) bool { return jpPostcode.MatchString(e.Quote) })
		// A postal address whose postcode only that country writes so ("31-147
		// Kraków", "London W1U 8EQ"), or writes so in the site's language.
		postal := slices.ContainsFunc(v.Evidence, func(e Evidence) bool {
			c, ok := PostalCountry(e.Quote, siteLanguage(req))
			if !ok { // or in the language of the quote's own page
				c, ok = PostalCountry(e.Quote, PageLanguage(req.Site, e.URL))
			}
			return ok && c == code
		})
		// An address without postcode or country whose form and the site's
		// language name the country ("대전광역시 유성구 대학로 99", AddressCountry).
		addr := slices.ContainsFunc(v.Evidence, func(e Evidence) bool {
			c, ok := AddressCountry(e.Quote, siteLanguage(req))
			return ok && c == code
		})
		if !quotesContain(v.Evidence, cname) && !quotesContainWord(v.Evidence, code) && !postalJP && !postal && !addr &&
			!slices.ContainsFunc(v.Evidence, func(e Evidence) bool { return CountryNamed(code, e.Quote) }) {
			return v, fmt.Errorf("neither %s nor %s is in its quotes", cname, code)
		}
		v.Text = code
	case name == "stage":
		if !slices.Contains(req.Stages, v.Text) {
			return v, fmt.Errorf("%q is not a stage slug", v.Text)
		}
	case name == "pricing_model":
		_, ok := PricingModels[strings.ToLower(v.Text)]
		if !ok {
			return v, fmt.Errorf("%q is not a pricing model", v.Text)
		}
		v.Text = strings.ToLower(v.Text)
		free := (v.Text == "free" || v.Text == "freemium") && slices.ContainsFunc(v.Evidence, func(e Evidence) bool { return zeroPriceRE.MatchString(e.Quote) })
		// A JSON-LD price specification states a subscription's period by
		// code: a quote that is only such a code speaks of it.
		coded := v.Text == "subscription" && slices.ContainsFunc(v.Evidence, func(e Evidence) bool { return ldBillingCodes[strings.ToUpper(NormalizeSpace(e.Quote))] })
		// A JSON-LD offer states a free price as data: a quote that is only
		// a zero amount beside one that is only a currency code ("0", "USD").
		ldFree := v.Text == "free" && slices.ContainsFunc(v.Evidence, func(e Evidence) bool { return ldZeroRE.MatchString(NormalizeSpace(e.Quote)) }) &&
			slices.ContainsFunc(v.Evidence, func(e Evidence) bool { return currencyCodeRE.MatchString(NormalizeSpace(e.Quote)) })
		if !free && !coded && !ldFree && !slices.ContainsFunc(v.Evidence, func(e Evidence) bool { return StatesPricingModel(v.Text, e.Quote) }) {
			return v, fmt.Errorf("no quote speaks of %s pricing", v.Text)
		}
	}
	return v, nil
}

// ldBillingCodes are the billing periods of a JSON-LD UnitPriceSpecification
// written as codes: UN/CEFACT unitCode MON (month) and ANN (year), ISO 8601
// billingDuration P1M and P1Y.
var ldBillingCodes = map[string]bool{"MON": true, "ANN": true, "P1M": true, "P1Y": true}

// ldZeroRE is a JSON-LD offer's price of zero as the data writes it ("0",
// "0.00"); currencyCodeRE an ISO 4217 code ("USD").
var (
	ldZeroRE       = regexp.MustCompile(`^0(?:[.,]0{1,2})?$`)
	currencyCodeRE = regexp.MustCompile(`^[A-Z]{3}$`)
)

// jpPostcode is a Japanese postcode with its postal mark: 〒150-0002.
var jpPostcode = regexp.MustCompile(`〒\s?\d{3}-?\d{4}`)

// zeroPriceRE is a price of zero ("$0", "0 €", "R$ 0,00"): a free plan in any language.
// (also "0 Ft", "0 lei", "0đ", "0 บาท", "Rp0", "₪0").
var zeroPriceRE = regexp.MustCompile(`(?:^|[^\d.,])(?:R\$|[$€£₺¥￥₩₪฿]|Rp\.?)\s?0(?:[.,]00?)?(?:$|[^\d.,]|[.,]\D)|(?:^|[^\d.,])0(?:[.,]00?)?\s?(?:€|\$|£|R\$|zł|kr\b|Kč|TL\b|円|원|元|Ft\b|lei\b|đ|₫|บาท|₪)` +
	// in full-width digits, as Japanese typesetting writes them ("０円", "￥０")
	`|(?:^|[^０-９，．])０\s?(?:円|원|元)|[￥¥＄]\s?０(?:$|[^０-９，．])`)

// quotesContainWord reports whether w occurs in a quote as a whole word (case-sensitive).
func quotesContainWord(ev []Evidence, w string) bool {
	re := regexp.MustCompile(`\b` + regexp.QuoteMeta(w) + `\b`)
	for _, e := range ev {
		if re.MatchString(e.Quote) {
			return true
		}
	}
	return false
}

func isHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// resolvesTo reports whether a quote, a relative address as the page writes
// it ("img/logo.png", "./img/kintai.png"), resolved against its page's URL
// is u: a relative logo is quoted as the attribute's own text.
func resolvesTo(ev []Evidence, u string) bool {
	for _, e := range ev {
		base, err := url.Parse(e.URL)
		q := strings.TrimSpace(e.Quote)
		if err != nil || q == "" || strings.ContainsAny(q, " \n") {
			continue
		}
		if ref, err := url.Parse(q); err == nil && base.ResolveReference(ref).String() == u {
			return true
		}
	}
	return false
}

func siteLanguage(req DraftRequest) string {
	if req.Site == nil {
		return ""
	}
	return req.Site.Language
}

// postalFormat is the form of one country's postcodes as an address writes
// them (the formats of the Universal Postal Union's addressing standards, as
// Google's libaddressinput data gives them). unique says that no other
// country's postcodes have that form, so the postcode alone names the
// country; the others (five digits, "NNN NN") are shared by several.
type postalFormat struct {
	country string
	re      *regexp.Regexp
	unique  bool
}

func postal(country, re string, unique bool) postalFormat {
	return postalFormat{country, regexp.MustCompile(`(?:^|[^\p{L}\p{N}-])(` + re + `)(?:$|[^\p{L}\p{N}-])`), unique}
}

var postalFormats = []postalFormat{
	postal("PL", `\d{2}-\d{3}`, true),
	postal("PT", `\d{4}-\d{3}`, true),
	postal("BR", `\d{5}-\d{3}`, true),
	postal("JP", `\d{3}-\d{4}`, false),
	postal("NL", `[1-9]\d{3} ?[A-Z]{2}`, false),
	postal("CA", `[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d`, true),
	// The United Kingdom; Guernsey, Jersey and the Isle of Man (GY, JE, IM) are not it.
	postal("GB", `(?:[A-FHK-PRSTUWYZ]|G[A-XZ]|J[A-DF-Z]|I[A-LN-Z])[A-Z]?\d[A-Z\d]? \d[ABD-HJLNP-UW-Z]{2}`, true),
	// The United States: a state's code and its ZIP code ("Austin, TX 78701").
	postal("US", `(?:AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY) \d{5}(?:-\d{4})?`, true),
	postal("SE", `\d{3} \d{2}`, false),
	postal("CZ", `\d{3} \d{2}`, false),
	postal("SK", `\d{3} \d{2}`, false),
	postal("GR", `\d{3} \d{2}`, false),
	postal("DE", `\d{5}`, false),
	postal("FR", `\d{5}`, false),
	postal("IT", `\d{5}`, false),
	postal("FI", `\d{5}`, false),
	postal("TR", `\d{5}`, false),
	postal("KR", `\d{5}`, false),
	postal("ES", `\d{5}`, false),
	postal("EE", `\d{5}`, false),
	postal("HR", `\d{5}`, false),
	postal("LT", `(?:LT-)?\d{5}`, false),
	postal("UA", `\d{5}`, false),
	postal("CN", `\d{6}`, false),
	postal("RO", `\d{6}`, false),
	postal("AT", `\d{4}`, false),
	postal("CH", `\d{4}`, false),
	postal("DK", `\d{4}`, false),
	postal("NO", `\d{4}`, false),
	postal("HU", `\d{4}`, false),
	postal("SI", `\d{4}`, false),
	postal("BG", `\d{4}`, false),
	postal("TH", `\d{5}`, false),
	postal("ID", `\d{5}`, false),
	postal("IL", `\d{7}`, false),
	postal("VN", `\d{6}`, false),
}

// pluricentric are languages written as the first language of many
// countries: their likely country (en: US, es: ES, fr: FR, ...) says nothing
// of where an address is, so a shared postcode form with them names no country.
var pluricentric = []string{"en", "es", "fr", "pt", "ar", "ru", "ms", "sw", "sr", "hr", "bs"}

// PostalCountry returns the country a postal address names without naming
// it: a postcode whose form is that country's alone ("31-147 Kraków",
// "London W1U 8EQ", "1012 AB Amsterdam"), or a postcode of a form several
// countries share ("411 14 Göteborg", "06420 Çankaya/Ankara") on a site whose
// language's country (CLDR's likely region for it, golang.org/x/text; the
// region of a tag such as de-AT) writes its postcodes so. The language says
// nothing when it is the first language of many countries (en, es, fr, ...,
// unless the tag names a region). Two postcodes of different countries name
// none.
func PostalCountry(text, lang string) (string, bool) {
	region := ""
	if lang != "" {
		if tag, err := language.Parse(lang); err == nil {
			r, conf := tag.Region()
			base, _ := tag.Base()
			if conf == language.Exact || !slices.Contains(pluricentric, base.String()) {
				region = r.String()
			}
		}
	}
	found := ""
	for _, f := range postalFormats {
		if !f.re.MatchString(text) || !(f.unique || f.country == region) {
			continue
		}
		if found != "" && found != f.country {
			return "", false
		}
		found = f.country
	}
	return found, found != ""
}
