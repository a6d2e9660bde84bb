package operators

// EqualityOperator negates a comparison and moves its boundary:
// `a >= 1` → `a > 1`, `a < 1`; `===` → `!==`.
var EqualityOperator = binaryOperator("EqualityOperator", map[string][]string{
	"===": {"!=="}, "!==": {"==="}, "==": {"!="}, "!=": {"=="},
	"<": {"<=", ">="}, "<=": {"<", ">"}, ">": {">=", "<="}, ">=": {">", "<"},
})
