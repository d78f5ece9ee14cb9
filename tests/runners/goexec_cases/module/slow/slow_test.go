package slow

import (
	"testing"
	"time"
)

func TestQuick(t *testing.T) {}

func TestStuck(t *testing.T) { Wait(time.Hour) }
