package operators

// LogicalOperator swaps `&&` and `||`, and `??` for `&&`.
var LogicalOperator = binaryOperator("LogicalOperator", map[string][]string{
	"&&": {"||"}, "||": {"&&"}, "??": {"&&"},
})
