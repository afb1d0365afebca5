package bundle

import (
	"fmt"
)

// ClassName is the name of class id (0-based) in LP tables, queues and the
// bundle: C1, C2, ….
func ClassName(id int) string { return fmt.Sprintf("C%d", id+1) }
