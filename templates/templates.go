// Package templates holds the vitest templates oracle renders, embedded in the
// binary. The generator fills them; nothing else reads them.
package templates

import "embed"

// FS holds every template file of this directory.
//
//go:embed *.tmpl
var FS embed.FS
