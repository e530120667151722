package extract_test

import (
	"testing"
)

// page49 is a page of Acme whose body is div markup with a div footer.
func page49(lang, title, body, footer string) string {
	return `<html lang="` + lang + `"><head><title>` + title + `</title></head><body><div class="top"><a href="/">Acme</a></div><div class="main">` +
		body + `</div><div class="site-footer">` + footer + `</div></body></html>`
}

// TestAnyLanguage49_PricingPageByStructure: a page is a pricing page when a
// grid of priced plan cards is on it, or when the site's own link names it
// as pricing, whatever its path ("/rates", "/cloud", "/hinnasto").
func TestAnyLanguage49_PricingPageByStructure(t *testing.T) {
	for _, c := range []struct {
		name, path, link, body string
		want                   []string
	}{
		{"a grid of metered prices on /rates", "/rates", "Rates", `<div class="grid">` +
			`<div class="card"><div class="label">Pay as you go</div><div><span class="big">$0.002</span><span> per request</span></div></div>` +
			`<div class="card"><div class="label">Volume</div><div><span class="big">$0.0015</span><span> per request</span></div></div>` +
			`<div class="card"><div class="label">Enterprise</div><div class="big">Contact sales</div></div></div>`,
			[]string{"Pay as you go", "$0.002", "Volume", "$0.0015"}},
		{"one priced card on a page the footer calls pricing", "/cloud", "Cloud pricing", `<div class="row">` +
			`<div class="card"><h3>Community</h3><p class="price">Free</p><p>Self-hosted.</p></div>` +
			`<div class="card"><h3>Cloud</h3><p class="price">$6 <small>per editor / month</small></p></div>` +
			`<div class="card"><h3>Cloud Enterprise</h3><p class="price">Custom</p></div></div>`,
			[]string{"Community", "Cloud", "$6"}},
	} {
		home := page49("en", "Acme", `<p>Acme counts calls.</p>`, `<a href="`+c.path+`">`+c.link+`</a>`)
		dr := draftPages(t, "/", home, c.path, page49("en", "Acme", c.body, ""))
		checkSummary43(t, c.name, dr.Fields["pricing_summary"].Text, c.want, nil)
	}
}

// TestAnyLanguage49_ModelQuoteSpeaks: a pricing model is drafted only with
// a quote that says it: an hourly rate read as metered ("€80 per hour")
// names no usage-based pricing in words the gate knows, so no model is
// drafted (the gate dropped it before), and the draft stays grounded.
func TestAnyLanguage49_ModelQuoteSpeaks(t *testing.T) {
	body := `<div class="grid"><div class="card"><div class="n">Junior</div><div class="p">€80 per hour</div></div>` +
		`<div class="card"><div class="n">Senior</div><div class="p">€120 per hour</div></div></div>`
	dr := draftPages(t, "/", page49("en", "Acme", `<p>Acme lends engineers.</p>`, `<a href="/pricing">Pricing</a>`), "/pricing", page49("en", "Pricing", body, ""))
	if got := dr.Fields["pricing_model"].Text; got != "" {
		t.Errorf("pricing_model %q, want none", got)
	}
}

// TestAnyLanguage49_OpenSourceHome: a product whose home page calls it open
// source under a named licence, priced as a free self-hosted edition beside
// hosted plans, is open-source, not freemium.
func TestAnyLanguage49_OpenSourceHome(t *testing.T) {
	home := page49("en", "Acme", `<p>Acme is an open-source wiki with SSO. MIT licensed.</p>`, `<a href="/pricing">Pricing</a>`)
	pricing := page49("en", "Pricing", `<div class="row"><div class="card"><h3>Community</h3><p class="price">Free</p><p>Self-hosted on your server.</p></div>`+
		`<div class="card"><h3>Cloud</h3><p class="price">$6 per editor / month</p></div></div>`, "")
	dr := draftPages(t, "/", home, "/pricing", pricing)
	if got := dr.Fields["pricing_model"].Text; got != "open-source" {
		t.Errorf("pricing_model %q, want open-source", got)
	}
	// without the statement it is freemium
	dr = draftPages(t, "/", page49("en", "Acme", `<p>Acme is a wiki with SSO.</p>`, `<a href="/pricing">Pricing</a>`), "/pricing", pricing)
	if got := dr.Fields["pricing_model"].Text; got != "freemium" {
		t.Errorf("without the statement: pricing_model %q, want freemium", got)
	}
}

// TestAnyLanguage49_FooterSocials: the site's own profile in the footer is
// found when a customer's handle on the same platform comes first (a
// testimonial), JSON-LD sameAs counts beside such a handle, a GitHub
// organisation wins over one of its repositories, and a site builder's own
// account in a theme's footer is not the site's.
func TestAnyLanguage49_FooterSocials(t *testing.T) {
	body := `<div class="mt-20 p-8"><p>"Great."</p><p>— Dana at Harbor <a href="https://x.com/harborhq">@harborhq</a> <a href="https://www.instagram.com/harbor.shop/">ig</a></p></div>` +
		`<a href="https://github.com/acmeorg/acme" class="gh">Star us</a>`
	footer := `<a href="https://x.com/acmeapi" class="icon icon-x"><svg viewBox="0 0 24 24"></svg></a>` +
		`<a href="https://github.com/acmeorg">GitHub</a><a href="https://www.pinterest.com/shopify/" class="icon"></a><a href="https://x.com/webflow">Made in Webflow</a>`
	ld := `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Acme","sameAs":["https://www.instagram.com/acme.app"]}</script>`
	home := page49("en", "Acme", ld+body, footer)
	dr := draftPages(t, "/", home)
	for pl, want := range map[string]string{"x": "https://x.com/acmeapi", "github": "https://github.com/acmeorg", "instagram": "https://www.instagram.com/acme.app", "pinterest": ""} {
		if got := dr.Socials[pl].URL; got != want {
			t.Errorf("social %s %q, want %q", pl, got, want)
		}
	}
}

// TestAnyLanguage49_AddressForms: a street after its house number is no
// town ("500 Yonge St", "1250 Rue Guy"); a city before a region's code and
// postcode is the town in Canadian and Australian forms ("Toronto, ON M4Y
// 1X9", "Sydney NSW 2000"); another company's address on the imprint (a
// payment reseller's) gives no place when the site's own company is there.
func TestAnyLanguage49_AddressForms(t *testing.T) {
	for _, c := range []struct {
		name, path, body, footer, city, country string
	}{
		{"a Canadian footer", "/about", `<p>We teach.</p>`, `<div>Acme Inc. · 500 Yonge St, Toronto, ON M4Y 1X9 · help@acme.example</div>`, "Toronto", "CA"},
		{"a Québec contact card", "/contact", `<div class="card"><div>Mail</div><div>Acme Software Inc.<br>1250 Rue Guy, Suite 600<br>Montréal, QC H3H 2T4<br>Canada</div></div>`, "", "Montréal", "CA"},
		{"an Australian registered office", "/legal", `<p>Acme is operated by Acme Pty Ltd.</p><p>Registered office: Level 9, 60 Margaret Street, Sydney NSW 2000, Australia.</p>`, "", "Sydney", "AU"},
		{"a reseller's address beside the company's", "/imprint", `<p>Acme GmbH<br>Torstraße 112<br>10119 Berlin</p><p>Our payments are handled by Paddle.com Market Ltd, Judd House, 18-29 Mora Street, London EC1V 8BT, United Kingdom.</p>`, "", "Berlin", ""},
	} {
		home := page49("en", "Acme", `<p>Acme is a tool.</p>`, `<a href="`+c.path+`">More</a>`)
		dr := draftPages(t, "/", home, c.path, page49("en", "Acme", c.body, c.footer))
		if got := dr.Fields["city"].Text; got != c.city {
			t.Errorf("%s: city %q, want %q", c.name, got, c.city)
		}
		if got := dr.Fields["country"].Text; got != c.country {
			t.Errorf("%s: country %q, want %q", c.name, got, c.country)
		}
	}
}

// TestAnyLanguage49_OnRequestTiers: a tier priced on request is a plan in
// English "Get a quote" and in Korean phrases ending in 문의 ("도입 문의").
func TestAnyLanguage49_OnRequestTiers(t *testing.T) {
	for _, c := range []struct {
		name, lang, body string
		want             []string
	}{
		{"Get a quote", "en", `<ul class="list"><li class="item"><h3>Maker</h3><p><strong>£15 + VAT</strong> per month</p></li>` +
			`<li class="item"><h3>Workshop</h3><p><strong>£45 + VAT</strong> per month</p></li>` +
			`<li class="item"><h3>Warehouse</h3><p><strong>Get a quote</strong></p></li></ul>`, []string{"Maker", "£15", "Workshop", "Warehouse"}},
		{"도입 문의", "ko", `<ul class="price_list"><li><p class="name">베이직</p><p class="price">월 9,900원</p></li>` +
			`<li><p class="name">팀</p><p class="price">월 29,000원</p></li>` +
			`<li><p class="name">엔터프라이즈</p><p class="price">도입 문의</p></li></ul>`, []string{"베이직", "9,900원", "엔터프라이즈"}},
	} {
		dr := draftPages(t, "/pricing", page49(c.lang, "Pricing", c.body, ""))
		checkSummary43(t, c.name, dr.Fields["pricing_summary"].Text, c.want, nil)
	}
}

// TestAnyLanguage49_ProsePlans: prices said in prose name their plans before
// the plan word ("The Team plan is $8 per user per month"), a plan named
// free in a sentence is listed with them ("The Solo plan is free for up to
// 5 students"), and "free for personal use" beside a paid team price is
// freemium, not a subscription.
func TestAnyLanguage49_ProsePlans(t *testing.T) {
	for _, c := range []struct {
		name, body, model string
		want              []string
	}{
		{"plan words after the names", `<div class="faq"><div class="q">How much does it cost?</div><div class="a">Personal use is free, forever. The Team plan is $8 per user per month, billed yearly. The Studio plan is $15 per user per month for publishers.</div></div>`,
			"freemium", []string{"Team", "$8", "Studio", "$15"}},
		{"a free plan named in a sentence", `<div class="faq-q">What does it cost?</div><div class="faq-a">The Solo plan is free for up to 5 students. Studio is $12 a month for up to 40 students, and Academy is $40 a month for schools.</div>`,
			"freemium", []string{"Solo", "Studio", "$12", "Academy", "$40"}},
		{"free for personal use", `<p>Acme is free for personal use; teams pay $8 a user a month, billed yearly.</p>`, "freemium", []string{"$8"}},
	} {
		dr := draftPages(t, "/", page49("en", "Acme", c.body, ""))
		checkPricing(t, c.name, dr, c.model, c.want, nil)
	}
}
