package validate

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/launchdir/launchdir/domain"
)

// Options checks an order item's product options against the product's
// options schema (domain's product table, shown as options_schema by
// list_products): the domain.OptionsValidator that orders ask. Each
// product's schema is compiled once, with formats asserted. The zero value
// is ready to use.
type Options struct {
	compiled sync.Map // product code -> *jsonschema.Schema
}

// schema is the compiled options schema of product code.
func (o *Options) schema(code, schema string) *jsonschema.Schema {
	if s, ok := o.compiled.Load(code); ok {
		return s.(*jsonschema.Schema)
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(schema))
	if err != nil {
		panic(fmt.Sprintf("validate: options schema of %s: %v", code, err))
	}
	url := "urn:launchdir:options:" + code
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(url, doc); err != nil {
		panic(err)
	}
	s, _ := o.compiled.LoadOrStore(code, c.MustCompile(url))
	return s.(*jsonschema.Schema)
}

// ProductOptions validates options against schema, the options schema of
// product code; field names the item ("items[2].options"). Absent options
// are validated as {} (required properties). It reports the deepest first
// cause, which names the property and the keyword.
func (o *Options) ProductOptions(field, code, schema string, options map[string]any) *domain.FieldError {
	sch := o.schema(code, schema)
	if options == nil {
		options = map[string]any{}
	}
	// Round-trip through JSON so numbers are what the validator expects.
	b, _ := json.Marshal(options)
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(string(b)))
	if err != nil {
		return &domain.FieldError{Field: field, Rule: "type", Message: field + " must be a JSON object."}
	}
	err = sch.Validate(inst)
	if err == nil {
		return nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return &domain.FieldError{Field: field, Rule: "schema", Message: fmt.Sprintf("%s: %v", field, err)}
	}
	for len(ve.Causes) > 0 {
		ve = ve.Causes[0]
	}
	f := field
	for _, p := range ve.InstanceLocation {
		f += "." + p
	}
	rule := "schema"
	if k := ve.ErrorKind.KeywordPath(); len(k) > 0 {
		rule = k[len(k)-1]
	}
	msg := ve.ErrorKind.LocalizedString(message.NewPrinter(language.English))
	if rule == "required" || rule == "additionalProperties" {
		// These name the property in the message, not the location.
		return &domain.FieldError{Field: f, Rule: rule, Message: fmt.Sprintf("%s: %s (options of %s: see its options_schema in list_products).", f, msg, code)}
	}
	return &domain.FieldError{Field: f, Rule: rule, Message: fmt.Sprintf("%s: %s.", f, msg)}
}
