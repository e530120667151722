package web

import (
	"errors"
	"html/template"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/web/shell"
)

// The checkout page of an order. Its address carries the order's checkout
// token (a capability: whoever has the link may pay), so there is no sign-in,
// the token is never logged, the page is not indexed, and no Referer carries
// the address to another site. Prices are fixed at order creation; the page
// takes billing details (which decide the VAT) but never card details: the
// payment provider's own page does that.

// checkoutCSP is the page policy with one difference: a form on the checkout
// page may lead to Stripe Checkout. Chrome applies form-action to the
// redirect that answers a form POST, and POST /pay answers with a redirect
// to checkout.stripe.com.
const checkoutCSP = "default-src 'self'; img-src 'self' https: data:; style-src 'self'; script-src 'none'; object-src 'none'; base-uri 'none'; form-action 'self' https://checkout.stripe.com; frame-ancestors 'none'"

// maxFormBytes bounds a form post: a billing form is a few hundred bytes.
const maxFormBytes = 64 << 10

// tokenRE is a checkout token as domain makes them (43 base64url characters),
// with room to spare; anything else names no order and costs no lookup.
var tokenRE = regexp.MustCompile(`^[A-Za-z0-9_-]{20,128}$`)

// Checkout page states.
const (
	statePending    = "pending"    // review, billing form, pay
	stateConfirming = "confirming" // back from the provider, its confirmation not in yet
	statePaid       = "paid"       // thank you, with each line's outcome
	stateClosed     = "closed"     // canceled or expired: cannot be paid
)

// billingFields are the form fields SetBilling names in its errors, in form order.
var billingFields = []string{"name", "address", "country", "vat_number"}

// checkoutPage is the data of checkout.html and checkout_testpay.html.
type checkoutPage struct {
	// Base is the page's path, /checkout/<token>; forms post below it.
	Base     string
	Order    *domain.OrderView
	State    string
	TestMode bool
	// Form holds the billing values shown in the form: the saved ones, or
	// the ones just sent when they were refused.
	Form domain.Billing
	// Errors are messages by form field (name, address, country, vat_number);
	// Problem is a message for the page as a whole.
	Errors  map[string]string
	Problem string
	// BillingSaved: the billing details needed to pay are stored.
	BillingSaved bool
	Countries    []country
	VATMode      string
}

// country is an option of the country select.
type country struct{ Code, Name string }

// countryOptions are every ISO 3166 country, sorted by English name.
var countryOptions = sync.OnceValue(func() []country {
	codes := domain.CountryCodes()
	out := make([]country, 0, len(codes))
	for _, c := range codes {
		out = append(out, country{Code: c, Name: domain.CountryName(c)})
	}
	slices.SortFunc(out, func(a, b country) int { return strings.Compare(a.Name, b.Name) })
	return out
})

// vatModes name the VAT modes for people.
var vatModes = map[string]string{
	domain.VATNoCountry:     "No billing country yet",
	domain.VATStandard:      "Standard rate of the billing country",
	domain.VATDomestic:      "Domestic rate",
	domain.VATReverseCharge: "Reverse charge",
	domain.VATOutsideEU:     "Outside the EU: no VAT",
	"":                      "No billing country yet",
}

// formatMoney is domain.FormatMoney (the checkout page's amounts).
var formatMoney = domain.FormatMoney

// orderFuncs are the template functions of the order pages.
var orderFuncs = template.FuncMap{
	"amount":      formatMoney,
	"countryName": domain.CountryName,
}

// orderPageNames are the templates of the checkout and admin pages.
var orderPageNames = []string{"checkout", "checkout_testpay", "admin", "admin_queue"}

// parseOrderPages adds the checkout and admin pages to pages, each parsed
// with the shared layout and the checkout pages' shared parts.
func parseOrderPages(pages map[string]*template.Template) {
	base := template.Must(shell.Layout().Funcs(funcs).Funcs(orderFuncs).
		ParseFS(templateFS, "templates/parts.html", "templates/checkout_parts.html"))
	for _, name := range orderPageNames {
		t := template.Must(base.Clone())
		pages[name] = template.Must(t.ParseFS(templateFS, "templates/"+name+".html"))
	}
}

// routeCheckout registers the checkout pages.
func (h *handler) routeCheckout(mux *http.ServeMux) {
	mux.Handle("GET /checkout/{token}", h.checkoutRoute(false, h.checkout))
	mux.Handle("GET /checkout/{token}/done", h.checkoutRoute(false, h.checkoutDone))
	mux.Handle("GET /checkout/{token}/test-pay", h.checkoutRoute(false, h.testPayPage))
	mux.Handle("POST /checkout/{token}/billing", h.checkoutRoute(true, h.checkoutBilling))
	mux.Handle("POST /checkout/{token}/pay", h.checkoutRoute(true, h.checkoutPay))
	mux.Handle("POST /checkout/{token}/cancel", h.checkoutRoute(true, h.checkoutCancel))
	mux.Handle("POST /checkout/{token}/test-pay", h.checkoutRoute(true, h.testPay))
}

// checkoutRoute wraps a checkout handler: the headers of a capability URL on
// every answer (404 and 403 included), the token checked, and for a form
// post the cross-origin check and a body limit.
func (h *handler) checkoutRoute(post bool, fn func(w http.ResponseWriter, r *http.Request, token string)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", checkoutCSP)
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("X-Robots-Tag", "noindex, nofollow")
		hd.Set("Cache-Control", "no-store")
		token := r.PathValue("token")
		if !tokenRE.MatchString(token) {
			h.checkoutNotFound(w, r)
			return
		}
		if post && !h.formPost(w, r) {
			return
		}
		fn(w, r, token)
	})
}

// formPost refuses a cross-origin form post (403) and reads the form, of at
// most maxFormBytes (413, or 400 when unreadable). It returns false when it
// has answered.
func (h *handler) formPost(w http.ResponseWriter, r *http.Request) bool {
	// The same check as http.CrossOriginProtection's handler (Sec-Fetch-Site,
	// then Origin against Host), answered with a page of ours.
	if err := h.forms.Check(r); err != nil {
		h.failWith(w, r, domain.EForbidden, "Form refused",
			"This form was sent from another site, so it was refused. Open the page on this site and send it from there.")
		return false
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	if err := r.ParseForm(); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			h.fail(w, r, domain.ETooLarge, "The form is too large: at most 64 KiB.")
			return false
		}
		h.fail(w, r, domain.EInvalid, "The form could not be read; send it again from the page.")
		return false
	}
	return true
}

func (h *handler) checkoutNotFound(w http.ResponseWriter, r *http.Request) {
	h.failWith(w, r, domain.ENotFound, "Checkout link not found",
		"There is no order at this address. Check that the whole link was copied, or ask for a new checkout link.")
}

// checkoutError answers a failed service call with the status of its code
// (internal/problem): not found as the checkout 404 page, a conflict (the order
// is paid, canceled or expired) as 409 with the service's message, anything
// else as problem.For sees it, logged without the token.
func (h *handler) checkoutError(w http.ResponseWriter, r *http.Request, err error) {
	head := ""
	switch domain.ErrorCode(err) {
	case domain.ENotFound:
		h.checkoutNotFound(w, r)
		return
	case domain.EConflict:
		head = "This order can no longer be changed"
	}
	h.problemPage(w, r, redactToken(r.URL.Path), head, err)
}

// redactToken hides the token of a checkout path, which must not reach logs.
func redactToken(path string) string {
	rest, ok := strings.CutPrefix(path, domain.CheckoutPath)
	if !ok {
		return path
	}
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		return domain.CheckoutPath + "{token}" + rest[i:]
	}
	return domain.CheckoutPath + "{token}"
}

// newCheckoutPage builds the page data of order o.
func (h *handler) newCheckoutPage(token string, o *domain.Order) *checkoutPage {
	v := h.svc.View(o)
	p := &checkoutPage{Base: domain.CheckoutPath + token, Order: v, TestMode: h.svc.TestPaymentsEnabled() || o.TestMode,
		Countries: countryOptions(), VATMode: vatModes[v.VAT.Mode]}
	if p.VATMode == "" {
		p.VATMode = v.VAT.Mode
	}
	switch v.Status {
	case domain.OrderPending:
		p.State = statePending
	case domain.OrderPaid:
		p.State = statePaid
	default:
		p.State = stateClosed
	}
	if o.Billing != nil {
		p.Form = *o.Billing
		p.BillingSaved = o.Billing.Name != "" && o.Billing.Address != "" && o.Billing.Country != ""
	}
	return p
}

// showCheckout renders the checkout page.
func (h *handler) showCheckout(w http.ResponseWriter, r *http.Request, status int, p *checkoutPage) {
	h.render(w, r, status, "checkout", "Order "+p.Order.Number, "", p)
}

// checkout is GET /checkout/{token}: the order, and while it is pending the
// billing form and the pay and cancel buttons.
func (h *handler) checkout(w http.ResponseWriter, r *http.Request, token string) {
	o, err := h.svc.CheckoutOrder(r.Context(), token)
	if err != nil {
		h.checkoutError(w, r, err)
		return
	}
	h.showCheckout(w, r, statusOK, h.newCheckoutPage(token, o))
}

// checkoutDone is GET /checkout/{token}/done, where a payment provider sends
// the person back: paid, or waiting for the provider's confirmation (its
// webhook may arrive after the person does).
func (h *handler) checkoutDone(w http.ResponseWriter, r *http.Request, token string) {
	o, err := h.svc.CheckoutOrder(r.Context(), token)
	if err != nil {
		h.checkoutError(w, r, err)
		return
	}
	p := h.newCheckoutPage(token, o)
	if p.State == statePending {
		p.State = stateConfirming
	}
	h.showCheckout(w, r, statusOK, p)
}

// checkoutBilling is POST /checkout/{token}/billing: save the billing details
// (the VAT is recomputed from them) and go back to the page; refused details
// show the page again with the message next to the field and the values kept.
func (h *handler) checkoutBilling(w http.ResponseWriter, r *http.Request, token string) {
	b := domain.Billing{Name: r.PostForm.Get("name"), Address: r.PostForm.Get("address"),
		Country: r.PostForm.Get("country"), VATNumber: r.PostForm.Get("vat_number")}
	_, err := h.svc.SetBilling(r.Context(), token, b)
	if domain.ErrorCode(err) == domain.EInvalid {
		h.refused(w, r, token, err, &b)
		return
	}
	if err != nil {
		h.checkoutError(w, r, err)
		return
	}
	http.Redirect(w, r, domain.CheckoutPath+token, statusSeeOther)
}

// refused shows the checkout page again with status 400 and the messages of
// an invalid-input error; sent, when not nil, replaces the form's values.
func (h *handler) refused(w http.ResponseWriter, r *http.Request, token string, err error, sent *domain.Billing) {
	o, lerr := h.svc.CheckoutOrder(r.Context(), token)
	if lerr != nil {
		h.checkoutError(w, r, lerr)
		return
	}
	p := h.newCheckoutPage(token, o)
	if sent != nil {
		p.Form = *sent
	}
	var de *domain.Error
	errors.As(err, &de)
	p.Errors = map[string]string{}
	for _, f := range de.Fields {
		if slices.Contains(billingFields, f.Field) {
			// The message is written for the API too ("vat_number: ..."); next
			// to its field the name is noise.
			p.Errors[f.Field] = strings.TrimPrefix(f.Message, f.Field+": ")
		}
	}
	if len(p.Errors) == 0 {
		p.Problem = de.Message
	}
	h.showCheckout(w, r, pageStatus(domain.EInvalid), p)
}

// checkoutPay is POST /checkout/{token}/pay: start paying with the configured
// provider and send the browser to its payment page.
func (h *handler) checkoutPay(w http.ResponseWriter, r *http.Request, token string) {
	page := h.svc.Site.In(r.Context()).URL(domain.CheckoutPath + token)
	next, err := h.svc.BeginPayment(r.Context(), token, domain.CheckoutPages{Page: page, Return: page + "/done", Cancel: page})
	if domain.ErrorCode(err) == domain.EInvalid {
		h.refused(w, r, token, err, nil)
		return
	}
	if err != nil {
		h.checkoutError(w, r, err)
		return
	}
	http.Redirect(w, r, next, statusSeeOther)
}

// checkoutCancel is POST /checkout/{token}/cancel.
func (h *handler) checkoutCancel(w http.ResponseWriter, r *http.Request, token string) {
	if err := h.svc.CancelCheckout(r.Context(), token); err != nil {
		h.checkoutError(w, r, err)
		return
	}
	http.Redirect(w, r, domain.CheckoutPath+token, statusSeeOther)
}

// testPayable loads the order of the test payment step. It answers itself,
// returning nil, when test payments are off (404), the order is paid (to
// /done, so a second click lands on the thank-you page) or can no longer be
// paid (409): the built-in provider must never pay a canceled or expired order.
func (h *handler) testPayable(w http.ResponseWriter, r *http.Request, token string) *domain.Order {
	if !h.svc.TestPaymentsEnabled() {
		h.checkoutNotFound(w, r)
		return nil
	}
	o, err := h.svc.CheckoutOrder(r.Context(), token)
	if err != nil {
		h.checkoutError(w, r, err)
		return nil
	}
	switch o.Status {
	case domain.OrderPending:
		return o
	case domain.OrderPaid:
		http.Redirect(w, r, domain.CheckoutPath+token+"/done", statusSeeOther)
	default:
		h.failWith(w, r, domain.EConflict, "This order can no longer be paid",
			"Order "+o.Number+" is "+o.Status+", so it can no longer be paid. Ask for a new checkout link.")
	}
	return nil
}

// testPayPage is GET /checkout/{token}/test-pay: the built-in provider's
// payment step, plainly marked as a test.
func (h *handler) testPayPage(w http.ResponseWriter, r *http.Request, token string) {
	o := h.testPayable(w, r, token)
	if o == nil {
		return
	}
	p := h.newCheckoutPage(token, o)
	if !p.BillingSaved {
		// BeginPayment leads here only with billing saved; a hand-typed URL goes back to the form.
		http.Redirect(w, r, p.Base, statusSeeOther)
		return
	}
	h.render(w, r, statusOK, "checkout_testpay", "Test payment", "", p)
}

// testPay is POST /checkout/{token}/test-pay: the order is paid through the
// built-in provider (no money moves) and the browser goes to /done.
func (h *handler) testPay(w http.ResponseWriter, r *http.Request, token string) {
	if h.testPayable(w, r, token) == nil {
		return
	}
	_, err := h.svc.PayWithTestProvider(r.Context(), token)
	if domain.ErrorCode(err) == domain.EInvalid {
		h.refused(w, r, token, err, nil)
		return
	}
	if err != nil {
		h.checkoutError(w, r, err)
		return
	}
	http.Redirect(w, r, domain.CheckoutPath+token+"/done", statusSeeOther)
}
