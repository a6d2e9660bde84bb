package operators

// ArithmeticOperator swaps `+` and `-`, `*` and `/`, and `%` for `*`.
var ArithmeticOperator = binaryOperator("ArithmeticOperator", map[string][]string{
	"+": {"-"}, "-": {"+"}, "*": {"/"}, "/": {"*"}, "%": {"*"},
})
