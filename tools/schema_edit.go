package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// The edits made to generated JSON Schemas when the catalog is built (Op),
// never per request: the optional idempotency_key argument of the MCP input
// schema of every Idem tool.

// idemArgumentSchema is the property added to the MCP input schema of every
// Idem tool. Its description is what tells a model when to use it.
const idemArgumentSchema = `{"type":"string","minLength":1,"maxLength":255,"pattern":"^[ -~]+$",` +
	`"description":"Optional. A unique string you choose for this one intended action (a UUID is best). Send the same ` +
	`value again only when retrying this same call after a timeout or a lost connection: the retry then returns the first ` +
	`call's answer instead of doing it twice. Use a new value for every new action. Kept 24 hours. The Idempotency-Key ` +
	`HTTP header does the same."}`

// withIdemArgument adds the optional idempotency_key property to an input
// schema, keeping the order of the other keys and properties (the order a
// model and the snapshots read).
func withIdemArgument(schema json.RawMessage) (json.RawMessage, error) {
	top, err := orderedObject(schema)
	if err != nil {
		return nil, err
	}
	found := false
	for i, kv := range top {
		if kv.key != "properties" {
			continue
		}
		props, err := orderedObject(kv.val)
		if err != nil {
			return nil, err
		}
		for _, p := range props {
			if p.key == idemArgument {
				return nil, fmt.Errorf("input already has a property %s", idemArgument)
			}
		}
		props = append(props, keyVal{idemArgument, json.RawMessage(idemArgumentSchema)})
		top[i].val = props.marshal()
		found = true
	}
	if !found {
		top = append(top, keyVal{"properties", orderedObj{{idemArgument, json.RawMessage(idemArgumentSchema)}}.marshal()})
	}
	return top.marshal(), nil
}

type keyVal struct {
	key string
	val json.RawMessage
}

// orderedObj is a JSON object as its members in document order.
type orderedObj []keyVal

func orderedObject(b json.RawMessage) (orderedObj, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("schema is not a JSON object")
	}
	var out orderedObj
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, keyVal{t.(string), v})
	}
	return out, nil
}

func (o orderedObj) marshal() json.RawMessage {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, kv := range o {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, _ := json.Marshal(kv.key)
		buf.Write(k)
		buf.WriteByte(':')
		buf.Write(kv.val)
	}
	buf.WriteByte('}')
	return buf.Bytes()
}
