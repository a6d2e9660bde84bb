package tables

import (
	"testing"

	"github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
)

// The tests call e2etest's helpers by their names (a dot-import): its
// Main builds the oracle binary once for the package.
func TestMain(m *testing.M) { e2etest.Main(m) }
