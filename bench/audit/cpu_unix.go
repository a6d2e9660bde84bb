//go:build unix

package main

import (
	"syscall"
	"time"
)

// cpu is the process's user+sys time so far.
func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
