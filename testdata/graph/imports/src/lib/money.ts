const formatMoney = (cents: number, currency = "EUR"): string => `${(cents / 100).toFixed(2)} ${currency}`;

// `export default <identifier>`: the default export IS the const declared above.
export default formatMoney;
