package task

import (
	"testing"
	"unsafe"
)

// TestStageStateSize guards the per-stage state's size: a simulator keeps
// one stageRT per stage of its window (hundreds of thousands) between runs,
// and the deferred and preempted tasks most stages never have are kept
// aside (stageExt) rather than as two slice headers in every stage.
func TestStageStateSize(t *testing.T) {
	if got := unsafe.Sizeof(stageRT{}); got > 96 {
		t.Errorf("stageRT is %d B, want at most 96", got)
	}
}
