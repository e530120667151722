package extract

import (
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
)

// feeHeading is a heading over fees charged beside the plans (per sale,
// per payment, per transaction) in any of the languages read: what follows
// it is no plan ("Transaktionsgebühren", "Transaction fees", "Avgifter",
// "Poplatky", "手数料").
var feeHeading = lazyMustCompile(`(?i)\b(transaction|payment|processing|platform|card|sales?)\s+fees?\b|^fees?$|^fees and|gebühren\b|^avgifter\b|transaktionsavgift|^poplatky\b|transakční poplat|^opłaty\b|prowizj|^ücretler\b|komisyon|frais de (transaction|paiement)|comisiones|commissioni|transactiekosten|taxas de transação|決済手数料|^手数料|결제 수수료|^수수료|手续费|交易费`)

// percentFee is a fee of a share plus a fixed amount ("2.9% + 30¢", "2,9 %
// + 0,25 €"): what a payment costs, never a plan's price.
var percentFee = lazyMustCompile(`\d\s?%\s?\+\s?\S`)

// cellCharge reports whether a usage price is a cell of a table (a plan
// comparison's row "SMS alerts | | 0,60 kr per SMS |"): a charge beside a
// plan, which does not make the product's pricing usage-based when plans
// with a period are shown.
func cellCharge(l pline) bool {
	found := false
	forEach(l.p.doc, false, func(n *html.Node) bool {
		if n.DataAtom == atom.Td && domain.NormalizeSpace(nodeText(n)) == l.l {
			found = true
		}
		return !found
	})
	return found
}
