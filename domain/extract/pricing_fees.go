package extract

import "regexp"

// feeHeading is a heading over fees charged beside the plans (per sale,
// per payment, per transaction) in any of the languages read: what follows
// it is no plan ("Transaktionsgebühren", "Transaction fees", "Avgifter",
// "Poplatky", "手数料").
var feeHeading = regexp.MustCompile(`(?i)\b(transaction|payment|processing|platform|card|sales?)\s+fees?\b|^fees?$|^fees and|gebühren\b|^avgifter\b|transaktionsavgift|^poplatky\b|transakční poplat|^opłaty\b|prowizj|^ücretler\b|komisyon|frais de (transaction|paiement)|comisiones|commissioni|transactiekosten|taxas de transação|決済手数料|^手数料|결제 수수료|^수수료|手续费|交易费`)

// percentFee is a fee of a share plus a fixed amount ("2.9% + 30¢", "2,9 %
// + 0,25 €"): what a payment costs, never a plan's price.
var percentFee = regexp.MustCompile(`\d\s?%\s?\+\s?\S`)
