package probe

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
)

// classifySingle reads one subscription's answer (operation 6): "flat" (its fields at the
// top level) or "wrapped" (in a subscription member), or "" when neither.
func classifySingle(body []byte) string {
	o, ok := decodeObject(body)
	if !ok {
		return ""
	}
	if inner, ok := decodeObject(o["subscription"]); ok {
		var id string
		if json.Unmarshal(inner["subscriptionId"], &id) == nil && id != "" {
			return "wrapped"
		}
	}
	var id string
	if json.Unmarshal(o["subscriptionId"], &id) == nil && id != "" {
		return "flat"
	}
	return ""
}

// singleShape reads one subscription (operation 6): id, or when "" the first of the account's
// first page (reading only).
func (p *prober) singleShape(ctx context.Context, id string) {
	whose := "the probe's own subscription"
	if id == "" {
		whose = "a subscription listed in the account"
		if ids := p.firstPage.ids(); len(ids) > 0 {
			id = ids[0]
		}
	}
	if id == "" {
		p.f.unknown(SingleShape, "the account holds no subscription")
		return
	}
	a, err := p.service(ctx, http.MethodGet, p.accountPath("/"+url.PathEscape(id)), nil, nil)
	if err != nil {
		p.f.unknown(SingleShape, "reading %s: %v", whose, err)
		return
	}
	if a.status != http.StatusOK {
		p.f.unknown(SingleShape, "reading %s: the service answered %d", whose, a.status)
		return
	}
	switch shape := classifySingle(a.body); shape {
	case "flat":
		p.f.set(SingleShape, shape, "operation 6 on %s answered its fields at the top level", whose)
	case "wrapped":
		p.f.set(SingleShape, shape, "operation 6 on %s answered it in a \"subscription\" member", whose)
	default:
		p.f.unknown(SingleShape, "operation 6 on %s answered neither its fields nor a \"subscription\" member", whose)
	}
}
