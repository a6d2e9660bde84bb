//go:build !unix

package main

import "os"

// maxRSSKiB is unknown (0) where there is no getrusage.
func maxRSSKiB(*os.ProcessState) int64 { return 0 }
