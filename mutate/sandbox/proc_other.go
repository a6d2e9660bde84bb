//go:build !unix

package sandbox

// processAlive cannot tell on this system: a sandbox is never taken for stale.
func processAlive(pid int) bool { return true }

// processStart is unknown on this system.
func processStart(pid int) string { return "" }

// killGroup cannot on this system.
func killGroup(pgid int) bool { return false }

func killProcess(pid int) {}

// groupMembersIn cannot tell on this system.
func groupMembersIn(pgid int, dir string) []int { return nil }
