// Package slow sleeps.
package slow

import "time"

// Wait sleeps for d.
func Wait(d time.Duration) { time.Sleep(d) }
